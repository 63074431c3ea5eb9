// python/hlolayout/_cute.cc: CuTe layouts for `hlolayout.cute` (cute/):
// a layout's parts, and the CLI's CuTe operations by name.
//
//   >>> from hlolayout import cute
//   >>> cute.Layout("(4,2):(2,1)")(3)
//   6
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "_binding.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

// A CuTe layout's parts as Python values: ints and nested tuples.
py::object IntTupleToPy(const cute::IntTuple& t) {
  if (t.is_int()) return py::int_(t.value());
  py::tuple out(t.elements().size());
  for (size_t i = 0; i < t.elements().size(); ++i) {
    out[i] = IntTupleToPy(t.elements()[i]);
  }
  return out;
}

py::tuple CuteLayoutInfo(const std::string& text) {
  cute::Layout l = Unwrap(cute::ParseLayout(text));
  return py::make_tuple(cute::ToString(l), IntTupleToPy(l.shape()),
                        IntTupleToPy(l.stride()), l.size(), l.cosize(),
                        l.rank(), l.depth());
}

std::string CuteOp(const std::string& op,
                   const std::vector<std::string>& args) {
  std::vector<absl::string_view> views(args.begin(), args.end());
  absl::StatusOr<std::string> r;
  {
    py::gil_scoped_release release;
    r = cute::RunCuteOp(op, views);
  }
  return Unwrap(std::move(r));
}

std::vector<std::string> CuteOpNames() {
  std::vector<std::string> names;
  for (const cute::CuteOpInfo& op : cute::CuteOps()) {
    names.emplace_back(op.name);
  }
  return names;
}
}  // namespace

void RegisterCute(py::module_& m) {
  m.def("cute_layout_info", &CuteLayoutInfo);
  m.def("cute_op", &CuteOp);
  m.def("cute_op_names", &CuteOpNames);
}

}  // namespace hlolayout::pyext
