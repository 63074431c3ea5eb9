// python/hlolayout/_cli.cc: `hlolayout ARGS...` run in process, for the
// last Python functions whose answer is still assembled in the CLI
// (triton.report, hlolayout.ttnn's pictures; issue 45 item 2 removes this
// file).
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

void RegisterCli(py::module_& m) {
  m.def("run_cli", &RunCli, py::arg("args"), py::arg("input") = "");
}

}  // namespace hlolayout::pyext
