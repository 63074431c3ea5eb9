// python/hlolayout/_cli.cc: `hlolayout ARGS...` run in process, for the
// Python functions whose answer is a CLI command's output (explain, draw,
// grid, cute's pictures, triton's): both then always agree.
//
//   >>> hl._core.run_cli(["index", "f32[3,5]{1,0}", "2,3"])
//   (0, b'13\n', b'')
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dispatch.h"
#include "hlolayout/cli/input.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

// `hlolayout ARGS...` in-process: (exit status, stdout, stderr).
py::tuple RunCli(const std::vector<std::string>& args,
                 const std::string& input) {
  int status;
  std::string out, err;
  {
    py::gil_scoped_release release;
    std::istringstream in(input);
    std::ostringstream o, e;
    cli::IoContext io{in, o, e};
    status = cli::Dispatch(args, io);
    out = o.str();
    err = e.str();
  }
  return py::make_tuple(status, py::bytes(out), py::bytes(err));
}

}  // namespace

absl::StatusOr<std::unique_ptr<cli::InputText>> OpenSource(std::string source,
                                                           bool is_path) {
  if (!is_path) return std::make_unique<cli::InputText>(std::move(source));
  std::istringstream in;
  std::ostringstream out, err;
  cli::IoContext io{in, out, err};
  return cli::OpenInput(source, io);
}

void RaiseOSError(const absl::Status& status) {
  PyErr_SetString(PyExc_OSError, std::string(status.message()).c_str());
  throw py::error_already_set();
}

void RegisterCli(py::module_& m) {
  m.def("run_cli", &RunCli, py::arg("args"), py::arg("input") = "");
}

}  // namespace hlolayout::pyext
