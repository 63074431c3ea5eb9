// python/hlolayout/_cute_dsl.h: the CuTe DSL twin's dynamic integers
// (hlolayout.cute_dsl's `?`, docs/cute-dsl.md) as the C++ core's unknown
// integers (cute/integer.h), and the pieces of _cute.cc the DSL's binding
// (_cute_dsl.cc) uses.
//
// The twin registers its integer class and a factory once
// (`_hlolayout.cute_dsl_register_int(DynInt, make)`); from then on every
// conversion of _cute.cc reads an instance as a `?` (its `value`, `div` and
// `width` attributes) and hands a `?` back as make(value, div, width).
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_CUTE_DSL_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_CUTE_DSL_H_

#include <pybind11/pybind11.h>

#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"

namespace hlolayout::pyext {

// DslIntFromPy
//
// True when `h` is an instance of the registered class; then `*out` is the
// `?` it is. False for anything else (nothing registered included).
bool DslIntFromPy(pybind11::handle h, cute::Int* out);

// DslIntToPy
//
// A `?` as an instance of the registered class (make(value, div, width)).
// Without a registered class: the value as a Python int.
pybind11::object DslIntToPy(cute::Int v);

// From _cute.cc: an int, DSL integer or nested tuple of them as an
// IntTuple, and back; a new hlolayout.cute object of a layout; the layout
// an object of hlolayout.cute holds (null for anything else).
cute::IntTuple CuteTupleFromPy(pybind11::handle h);
pybind11::object CuteTupleToPy(const cute::IntTuple& t);
pybind11::object WrapCuteLayout(cute::AnyLayout l);
const cute::AnyLayout* CuteLayoutOf(pybind11::handle h);

void RegisterCuteDsl(pybind11::module_& m);  // _cute_dsl.cc

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_CUTE_DSL_H_
