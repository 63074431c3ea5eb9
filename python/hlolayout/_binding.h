// python/hlolayout/_binding.h: what the C++ files of the `_hlolayout`
// extension share (one file per capability, as the library's folders:
// _shapes.cc, _indexing.cc, _relayout.cc, _hlo.cc, _cute.cc, _ttmlir.cc,
// _memory.cc, _report.cc, _triton.cc, _ttnn.cc; _hlolayout.cc defines the
// module and calls each file's Register function).
//
//   void RegisterShapes(pybind11::module_& m);   // in _shapes.cc
//   Unwrap(ParseShape(text));                     // StatusOr -> value, or
//                                                 // ValueError(message)
//
// Every library error becomes ValueError carrying the library's message.
// Types that several files pass to Python (PyShape) live here, outside any
// anonymous namespace, so that pybind11 knows them as one type.
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_BINDING_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_BINDING_H_

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/input_text.h"

namespace hlolayout::pyext {

// Raises ValueError with the status' message.
[[noreturn]] inline void ThrowStatus(const absl::Status& status) {
  throw pybind11::value_error(std::string(status.message()));
}

// The value, or ValueError with the status' message.
template <typename T>
T Unwrap(absl::StatusOr<T> value) {
  if (!value.ok()) ThrowStatus(value.status());
  return *std::move(value);
}

// Python's view of a shape: the value and its canonical text (XLA's
// HumanStringWithLayout), computed once because it is also the hash key.
struct PyShape {
  std::shared_ptr<const Shape> shape;
  std::string text;
};

PyShape MakePyShape(Shape shape);  // _shapes.cc

// (3, 5) from {3, 5}.
pybind11::tuple IntTuple(absl::Span<const int64_t> values);  // _shapes.cc

// Threads for batched work when the caller gives none: one per core, at
// most 8.
inline int DefaultThreads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 8u));
}

// Splits [0, n) over up to `threads` threads (1: inline), at least
// `min_per_thread` items each, and waits.
template <typename F>
void ParallelFor(int64_t n, int threads, int64_t min_per_thread, F f) {
  int64_t parts = std::min<int64_t>(threads, n / min_per_thread);
  if (parts <= 1) {
    f(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t step = (n + parts - 1) / parts;
  for (int64_t p = 1; p < parts; ++p) {
    const int64_t begin = p * step, end = std::min(n, begin + step);
    if (begin < end) pool.emplace_back([&f, begin, end] { f(begin, end); });
  }
  f(int64_t{0}, std::min(n, step));
  for (std::thread& t : pool) t.join();
}

// The text of `source`: the file it names when `is_path` (mapped, as the
// CLI reads files: util/input_text.h), else `source` itself. Call it without
// the GIL; the caller raises OSError for an error (RaiseOSError).
inline absl::StatusOr<std::unique_ptr<InputText>> OpenSource(std::string source,
                                                             bool is_path) {
  if (!is_path) return std::make_unique<InputText>(std::move(source));
  return OpenFileText(source);
}

// Raises OSError with the status' message ("cannot open 'x': ...").
[[noreturn]] inline void RaiseOSError(const absl::Status& status) {
  PyErr_SetString(PyExc_OSError, std::string(status.message()).c_str());
  throw pybind11::error_already_set();
}

// Each file's part of the module.
void RegisterShapes(pybind11::module_& m);     // _shapes.cc
void RegisterIndexing(pybind11::module_& m);   // _indexing.cc
void RegisterRelayout(pybind11::module_& m);   // _relayout.cc
void RegisterHlo(pybind11::module_& m);        // _hlo.cc
void RegisterCute(pybind11::module_& m);       // _cute.cc
void RegisterCuteAtoms(pybind11::module_& m);  // _cute_atoms.cc
void RegisterTtmlir(pybind11::module_& m);     // _ttmlir.cc
void RegisterMemory(pybind11::module_& m);     // _memory.cc
void RegisterReport(pybind11::module_& m);     // _report.cc
void RegisterTtnn(pybind11::module_& m);       // _ttnn.cc

// A Python object taken or given as is, whose type in the stubs is `Hint`
// (a stub's annotation, "Union[CoreCoord, Sequence[int]]"): pybind11 writes
// `Hint` in the signature where it would write `handle` or `object`, and
// _stubgen.py reads it from there. It accepts any object, as py::object.
//
//   constexpr char kCoordArg[] = "Union[CoreCoord, Sequence[int]]";
//   .def("f", [](Typed<kCoordArg> core) { ... CoordOf(core) ... })
template <const auto& Hint>
class Typed : public pybind11::object {
 public:
  using pybind11::object::object;
  Typed(pybind11::object value)  // NOLINT: a result converts implicitly
      : pybind11::object(std::move(value)) {}
  static bool check_(pybind11::handle) { return true; }
};

}  // namespace hlolayout::pyext

namespace pybind11::detail {
template <const auto& Hint>
struct handle_type_name<hlolayout::pyext::Typed<Hint>> {
  static constexpr auto name = const_name(Hint);
};
}  // namespace pybind11::detail

namespace hlolayout {
void RegisterTriton(pybind11::module_& m);  // _triton.cc
}  // namespace hlolayout

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_BINDING_H_
