// python/hlolayout/_hlolayout.cc: the C++ half of `import hlolayout`.
//
//   >>> import hlolayout as hl
//   >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
//   >>> hl.Indexer(s).offset((2, 3))
//   17
//
// The pure-Python package (python/hlolayout/*.py) is the public API; this
// extension holds what it calls, one file per capability as the library's
// folders (_binding.h lists them): value types (Shape), the Indexer, the
// relayout engine, the HLO reader, the memory analysis and report of dumps,
// CuTe, Triton, tt-mlir and TTNN layouts. It binds the library only, never
// the CLI. Every library error becomes ValueError with the library's
// message, an argument of the wrong type TypeError; the GIL is released around
// everything that can take long. Every object is immutable after creation,
// so safe to share between threads.
#include <pybind11/pybind11.h>

#include "_binding.h"
#include "_cute_dsl.h"

PYBIND11_MODULE(_hlolayout, m) {
  m.doc() = "C++ core of hlolayout; use the `hlolayout` package instead.";
  // An argument pybind11 cannot convert where a binding casts it itself
  // (a dict key that is not a str, an int past 64 bits) is the caller's
  // TypeError, not pybind11's default RuntimeError ("Unable to cast ...").
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pybind11::cast_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });
  hlolayout::pyext::RegisterShapes(m);
  hlolayout::pyext::RegisterIndexing(m);
  hlolayout::pyext::RegisterRelayout(m);
  hlolayout::pyext::RegisterHlo(m);
  hlolayout::pyext::RegisterCute(m);
  hlolayout::pyext::RegisterCuteAtoms(m);
  hlolayout::pyext::RegisterCuteDsl(m);
  hlolayout::pyext::RegisterTtmlir(m);
  hlolayout::pyext::RegisterMemory(m);
  hlolayout::pyext::RegisterReport(m);
  hlolayout::pyext::RegisterTtnn(m);
  hlolayout::RegisterTriton(m);
}
