// python/hlolayout/_memory.cc: `hl.memory()` (hlolayout.allocations): what
// XLA will allocate for scheduled modules and their live-range peak, from
// the library's memory/ (AnalyzeModuleMemory), as typed records.
//
//   >>> (m,) = hl.memory(text, platform="gpu")
//   >>> m.memory_analysis.temp_size_in_bytes      # JAX's attribute names
//   2048
//   >>> m.allocations[0].values[0].offset
//   0
//
// The module is read and analysed without the GIL; the records are then
// built once from the result (_record.h). Their to_dict() is the JSON of
// `hlolayout memory --json`.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "_record.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/memory_record.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

constexpr char kModule[] = "hlolayout.allocations";

// The Python class of the memory answer's record I (MemoryRecordSpecs()).
template <size_t I>
struct MemoryTag {
  static const RecordSpec& Spec() { return *MemoryRecordSpecs()[I]; }
};

template <size_t... I>
void BindMemoryRecords(py::module_& m, std::index_sequence<I...>) {
  (BindRecord<MemoryTag<I>>(m, kModule), ...);
}

// What the library answers for one source (memory/dump_text.h): each
// module's answer, or the first error, and the warnings of unknown
// opcodes. The modules and the text stay alive beside the answers, which
// refer to them.
struct Analysed {
  absl::Status open_error, error;
  std::unique_ptr<InputText> input;
  std::vector<HloModule> modules;
  std::vector<DumpModuleMemory> analysed;
  // XLA:TPU modules' answers (memory/tpu_memory.h), none for others.
  std::vector<absl::optional<TpuMemory>> tpu;
  std::vector<std::string> warnings;
};

// The library calls of hl.memory, without Python (call without the GIL):
// `source` is a path (is_path) or HLO text; `platform` "", "gpu", "cpu" or
// "tpu"; `tpu`: the generation an XLA:TPU module was compiled for where
// its dump does not say (TpuMemoryOptions::requested);
// `threads` read a large text and analyse a large module
// (DumpTextOptions::threads, >= 1).
void Analyse(std::string source, bool is_path, const std::string& platform,
             absl::optional<TpuGeneration> tpu, int threads, Analysed& out) {
  DumpTextOptions options;
  options.file_name = is_path ? source : std::string();
  options.threads = threads;
  // The records are made from the answers only; XLA:TPU modules get the
  // model of XLA:TPU's buffer assignment (their TpuMemory).
  options.give_back_operands = true;
  options.tpu_buffers = true;
  TpuMemoryOptions tpu_options;
  tpu_options.requested = tpu;
  if (is_path) {
    if (absl::optional<std::string> args = ReadXlaTpuTargetArguments(source)) {
      tpu_options.target_arguments = *std::move(args);
      tpu_options.target_arguments_file = XlaTpuTargetArgumentsPath(source);
    }
  }
  if (!platform.empty()) {
    options.platform = platform == "gpu"   ? XlaPlatform::kGpu
                       : platform == "cpu" ? XlaPlatform::kCpu
                                           : XlaPlatform::kTpu;
  }
  absl::StatusOr<std::unique_ptr<InputText>> text =
      OpenSource(std::move(source), is_path);
  if (!text.ok()) {
    out.open_error = text.status();
    return;
  }
  out.input = *std::move(text);
  // A mapped file's pages go back once the modules are read (the answers'
  // names map them again as they are read).
  options.text_read = [&out] { out.input->ReleasePages(); };
  options.text_passed = [&out](size_t begin, size_t end) {
    out.input->ReleasePages(begin, end);
  };
  out.error = ForEachDumpModule(
      out.input->view(), options, &out.warnings,
      [&](const HloModule& module, DumpModuleMemory& m) {
        absl::optional<TpuMemory> answer;
        if (!m.has_allocations() && m.tpu_buffers) {
          absl::StatusOr<TpuMemory> t = AnswerTpuMemory(module, m, tpu_options);
          if (!t.ok()) return t.status();
          answer = *std::move(t);
        }
        out.tpu.push_back(std::move(answer));
        out.analysed.push_back(std::move(m));
        return absl::OkStatus();
      },
      &out.modules);
}

// "" (none), or "v4", "v5e", "v5p", "v6e".
absl::optional<TpuGeneration> CheckTpu(const std::string& tpu) {
  if (tpu.empty()) return absl::nullopt;
  absl::optional<TpuGeneration> g = TpuGenerationNamed(tpu);
  if (!g.has_value()) {
    throw py::value_error("tpu must be 'v4', 'v5e', 'v5p' or 'v6e', got '" +
                          tpu + "'");
  }
  return g;
}

void CheckArguments(int64_t top, const std::string& platform, int64_t threads) {
  if (threads < 1 || threads > INT32_MAX) {
    throw py::value_error(absl::StrCat("threads must be >= 1, got ", threads));
  }
  if (top < 0)
    throw py::value_error(absl::StrCat("top must be >= 0, got ", top));
  if (platform != "" && platform != "gpu" && platform != "cpu" &&
      platform != "tpu") {
    throw py::value_error("platform must be 'gpu', 'cpu' or 'tpu', got '" +
                          platform + "'");
  }
}

py::list Memory(std::string source, bool is_path, int64_t top, int64_t space,
                const std::string& platform, const std::string& tpu,
                int64_t threads) {
  CheckArguments(top, platform, threads);
  const absl::optional<TpuGeneration> generation = CheckTpu(tpu);
  Analysed a;
  {
    py::gil_scoped_release release;
    Analyse(std::move(source), is_path, platform, generation,
            static_cast<int>(threads), a);
  }
  for (const std::string& w : a.warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) {
      throw py::error_already_set();
    }
  }
  if (!a.open_error.ok()) RaiseOSError(a.open_error);
  if (!a.error.ok()) ThrowStatus(a.error);
  MemoryRecordOptions options;
  options.top = top;
  options.space = space;
  py::list out;
  for (size_t i = 0; i < a.analysed.size(); ++i) {
    PyRecordSink sink;
    EmitModuleMemory(a.analysed[i], options, sink,
                     a.tpu[i].has_value() ? &*a.tpu[i] : nullptr);
    out.append(sink.Take());
  }
  return out;
}

// The seconds per call of hl.memory's library calls alone (python/bench's
// baseline): `n` runs of Analyse, the GIL released.
double TimeMemoryCpp(const std::string& source, bool is_path,
                     const std::string& platform, int64_t threads, int64_t n) {
  CheckArguments(0, platform, threads);
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int64_t i = 0; i < n; ++i) {
    Analysed a;
    Analyse(source, is_path, platform, absl::nullopt, static_cast<int>(threads),
            a);
    sink += a.analysed.size();
  }
  const std::chrono::duration<double> t =
      std::chrono::steady_clock::now() - start;
  return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
}

}  // namespace

void RegisterMemory(py::module_& m) {
  constexpr size_t kRecords = 14;
  if (MemoryRecordSpecs().size() != kRecords) {
    throw std::logic_error("memory records: update kRecords");
  }
  BindMemoryRecords(m, std::make_index_sequence<kRecords>());
  m.def("memory", &Memory, py::arg("source"), py::arg("is_path"),
        py::arg("top"), py::arg("space"), py::arg("platform"), py::arg("tpu"),
        py::arg("threads"));
  m.def("_time_memory_cpp", &TimeMemoryCpp, py::arg("source"),
        py::arg("is_path"), py::arg("platform"), py::arg("threads"),
        py::arg("calls"));
}

}  // namespace hlolayout::pyext
