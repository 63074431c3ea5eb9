// python/hlolayout/_memory.cc: `hl.memory()` (hlolayout.memory_usage): what
// XLA will allocate for scheduled modules and their live-range peak: the
// arguments make a request, answers/memory.h's AnswerMemory answers it and
// the answer's values become their classes' objects (_answer.h).
//
//   >>> (m,) = hl.memory(text, platform="gpu")
//   >>> m.memory_analysis.temp_size_in_bytes      # JAX's attribute names
//   2048
//   >>> m.allocations[0].values[0].offset
//   0
//
// The module is read, analysed and answered without the GIL. Their
// to_dict() is the JSON of `hlolayout memory --json`.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/answers/memory.h"
#include "hlolayout/memory/tpu_chip.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

constexpr char kModule[] = "hlolayout.memory_usage";

// What the library answers for one source: the answer or the first error,
// and the warnings of unknown opcodes (given also before an error).
struct Answered {
  absl::Status open_error;
  absl::StatusOr<answers::MemoryAnswer> answer;
  std::vector<std::string> warnings;
};

// The library call of hl.memory, without Python (call without the GIL):
// `source` is a path (is_path) or HLO text.
void Answer(std::string source, bool is_path, answers::MemoryRequest request,
            Answered& out) {
  request.file_name = is_path ? source : std::string();
  absl::StatusOr<std::unique_ptr<InputText>> text =
      OpenSource(std::move(source), is_path);
  if (!text.ok()) {
    out.open_error = text.status();
    return;
  }
  out.answer = answers::AnswerMemory(**text, request, &out.warnings);
}

// The request of hl.memory's arguments: `platform` "", "gpu", "cpu" or
// "tpu"; `tpu` "" (none), "v4", "v5e", "v5p" or "v6e"; `threads` >= 1.
answers::MemoryRequest Request(int64_t top, int64_t space,
                               const std::string& platform,
                               const std::string& tpu, int64_t threads) {
  if (threads < 1 || threads > INT32_MAX) {
    throw py::value_error(absl::StrCat("threads must be >= 1, got ", threads));
  }
  if (top < 0) {
    throw py::value_error(absl::StrCat("top must be >= 0, got ", top));
  }
  answers::MemoryRequest request;
  request.top = top;
  request.space = space;
  request.threads = static_cast<int>(threads);
  if (!platform.empty()) {
    request.platform = answers::MemoryPlatformNamed(platform);
    if (!request.platform.has_value()) {
      throw py::value_error("platform must be 'gpu', 'cpu' or 'tpu', got '" +
                            platform + "'");
    }
  }
  if (!tpu.empty()) {
    request.tpu = TpuGenerationNamed(tpu);
    if (!request.tpu.has_value()) {
      throw py::value_error("tpu must be 'v4', 'v5e', 'v5p' or 'v6e', got '" +
                            tpu + "'");
    }
  }
  return request;
}

py::list Memory(std::string source, bool is_path, int64_t top, int64_t space,
                const std::string& platform, const std::string& tpu,
                int64_t threads) {
  answers::MemoryRequest request = Request(top, space, platform, tpu, threads);
  Answered a;
  {
    py::gil_scoped_release release;
    Answer(std::move(source), is_path, std::move(request), a);
  }
  for (const std::string& w : a.warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) {
      throw py::error_already_set();
    }
  }
  if (!a.open_error.ok()) RaiseOSError(a.open_error);
  if (!a.answer.ok()) ThrowStatus(a.answer.status());
  py::list out;
  for (const answers::ModuleMemory& m : a.answer->modules) {
    out.append(ToPython(m));
  }
  return out;
}

// The seconds per call of hl.memory's library calls alone (python/bench's
// baseline): `n` runs of Answer, the GIL released.
double TimeMemoryCpp(const std::string& source, bool is_path,
                     const std::string& platform, int64_t threads, int64_t n) {
  const answers::MemoryRequest request = Request(20, -1, platform, "", threads);
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int64_t i = 0; i < n; ++i) {
    Answered a;
    Answer(source, is_path, request, a);
    if (a.answer.ok()) sink += a.answer->modules.size();
  }
  const std::chrono::duration<double> t =
      std::chrono::steady_clock::now() - start;
  return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
}

}  // namespace

void RegisterMemory(py::module_& m) {
  // ModuleMemory and every type its fields hold.
  BindAnswer<answers::ModuleMemory>(m, kModule);
  m.def("memory", &Memory, py::arg("source"), py::arg("is_path"),
        py::arg("top"), py::arg("space"), py::arg("platform"), py::arg("tpu"),
        py::arg("threads"));
  m.def("_time_memory_cpp", &TimeMemoryCpp, py::arg("source"),
        py::arg("is_path"), py::arg("platform"), py::arg("threads"),
        py::arg("calls"));
}

}  // namespace hlolayout::pyext
