// python/hlolayout/_relayout.cc: the relayout engine (answers/relayout.h)
// behind `hlolayout.arrays`' to_layout, from_layout and relayout: a plan
// compiled once per pair of shapes, then run on any buffer.
//
//   >>> a = np.arange(6, dtype=np.int32).reshape(2, 3)
//   >>> hl.to_layout(a, "s32[2,3]{0,1}").view(np.int32)
//   array([0, 3, 1, 4, 2, 5], dtype=int32)
//
// Copies of 64 KiB or more release the GIL; plans are immutable, safe to
// share between threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "_binding.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/answers/relayout.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/shape/shape.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

RelayoutOptions MakeOptions(int threads, int fill, const std::string& packing) {
  RelayoutOptions options;
  options.threads = threads;
  if (fill < 0 || fill > 255) {
    throw py::value_error("fill must be a byte value 0..255, got " +
                          std::to_string(fill));
  }
  options.fill = static_cast<uint8_t>(fill);
  // "low_first" or "low-first" (the CLI's spelling), the same for high.
  std::string name = packing;
  std::replace(name.begin(), name.end(), '_', '-');
  absl::optional<PackingOrder> order = PackingOrderFromName(name);
  if (!order.has_value()) {
    throw py::value_error("packing must be 'low_first' or 'high_first', got '" +
                          packing + "'");
  }
  options.packing = *order;
  return options;
}

// A C-contiguous view of any buffer (NumPy array, bytes, bytearray,
// memoryview) through the buffer protocol itself: no format parsing, no
// copy. Throws BufferError for anything else (not C-contiguous, read-only
// when writing, no buffer at all): the Python side then converts or says
// what is wrong.
class ContiguousBuffer {
 public:
  ContiguousBuffer(py::handle object, bool writable) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object.ptr(), &view_, flags) != 0) {
      PyErr_Clear();  // NumPy says ValueError, memoryview BufferError
      throw py::buffer_error("not a C-contiguous buffer");
    }
  }
  ~ContiguousBuffer() { PyBuffer_Release(&view_); }
  ContiguousBuffer(const ContiguousBuffer&) = delete;
  ContiguousBuffer& operator=(const ContiguousBuffer&) = delete;
  uint8_t* data() const { return static_cast<uint8_t*>(view_.buf); }
  int64_t size() const { return static_cast<int64_t>(view_.len); }

 private:
  Py_buffer view_;
};

// A compiled relayout between two shapes, made once and kept by the Python
// side for each (shapes, threads, fill, packing) it meets: a repeated call
// then costs the copy and a few hundred nanoseconds, not a plan.
struct PyRelayoutPlan {
  std::shared_ptr<const RelayoutPlan> plan;
  std::string src_name, dst_name;  // "array", "buffer", ... for messages

  // ValueError unless `in` has src_bytes bytes.
  void CheckSource(const ContiguousBuffer& in) const {
    if (in.size() != plan->src_bytes()) {
      throw py::value_error(absl::StrCat(
          src_name, " has ", in.size(), " bytes, ", plan->from().ToString(true),
          " needs ", plan->src_bytes()));
    }
  }

  // Copies with the GIL released when there is enough to copy for the
  // release to pay. Precondition: CheckSource(in) passed (the callers check
  // first: `run` before it allocates its result).
  void Run(const ContiguousBuffer& in, uint8_t* dst) const {
    absl::Status s;
    const auto src = absl::MakeConstSpan(in.data(), in.size());
    const auto out = absl::MakeSpan(dst, plan->dst_bytes());
    if (plan->dst_bytes() >= (int64_t{64} << 10)) {
      py::gil_scoped_release release;
      s = plan->Run(src, out);
    } else {
      s = plan->Run(src, out);
    }
    if (!s.ok()) ThrowStatus(s);
  }
};

PyRelayoutPlan MakeRelayoutPlan(const PyShape& from, const PyShape& to,
                                int threads, int fill,
                                const std::string& packing,
                                const std::string& src_name,
                                const std::string& dst_name) {
  const RelayoutOptions options = MakeOptions(threads, fill, packing);
  absl::StatusOr<RelayoutPlan> plan;
  {
    py::gil_scoped_release release;
    plan = answers::AnswerRelayout({*from.shape, *to.shape, options});
  }
  if (!plan.ok()) ThrowStatus(plan.status());
  return PyRelayoutPlan{std::make_shared<const RelayoutPlan>(*std::move(plan)),
                        src_name, dst_name};
}

}  // namespace

void RegisterRelayout(py::module_& m) {
  py::class_<PyRelayoutPlan>(m, "_RelayoutPlan")
      .def(py::init(&MakeRelayoutPlan), py::arg("from_shape"),
           py::arg("to_shape"), py::arg("threads"), py::arg("fill"),
           py::arg("packing"), py::arg("src_name"), py::arg("dst_name"))
      .def_property_readonly(
          "src_bytes",
          [](const PyRelayoutPlan& p) { return p.plan->src_bytes(); })
      .def_property_readonly(
          "dst_bytes",
          [](const PyRelayoutPlan& p) { return p.plan->dst_bytes(); })
      // run(src): a new uint8 array of dst_bytes.
      .def("run",
           [](const PyRelayoutPlan& p, py::handle src) {
             const ContiguousBuffer in(src, /*writable=*/false);
             p.CheckSource(in);
             py::array_t<uint8_t> out(p.plan->dst_bytes());
             p.Run(in, out.mutable_data());
             return out;
           })
      // run_into(src, dst): dst is any writable C-contiguous buffer of
      // dst_bytes bytes (a NumPy array of any dtype and shape).
      .def("run_into",
           [](const PyRelayoutPlan& p, py::handle src, py::handle dst) {
             const ContiguousBuffer in(src, /*writable=*/false);
             const ContiguousBuffer out(dst, /*writable=*/true);
             if (out.size() != p.plan->dst_bytes()) {
               throw py::value_error(absl::StrCat(
                   p.dst_name, " needs ", p.plan->dst_bytes(), " bytes"));
             }
             p.CheckSource(in);
             p.Run(in, out.data());
           });
}

}  // namespace hlolayout::pyext
