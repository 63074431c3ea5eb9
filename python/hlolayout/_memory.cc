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
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/memory_record.h"

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

// hl.memory(): `source` is a path (is_path) or HLO text; `platform` "",
// "gpu" or "cpu".
py::list Memory(std::string source, bool is_path, int64_t top, int64_t space,
                const std::string& platform) {
  if (top < 0)
    throw py::value_error(absl::StrCat("top must be >= 0, got ", top));
  if (platform != "" && platform != "gpu" && platform != "cpu") {
    throw py::value_error("platform must be 'gpu' or 'cpu', got '" + platform +
                          "'");
  }
  const std::string name = is_path ? source : std::string();
  absl::Status open_error, error;
  std::unique_ptr<InputText> input;
  std::vector<HloModule> modules;
  std::vector<DumpModuleMemory> analysed;
  {
    py::gil_scoped_release release;
    absl::StatusOr<std::unique_ptr<InputText>> text =
        OpenSource(std::move(source), is_path);
    if (!text.ok()) {
      open_error = text.status();
    } else {
      input = *std::move(text);
      HloReadOptions options;
      options.file_name = name;
      absl::StatusOr<std::vector<HloModule>> read =
          ReadHloModules(input->view(), options);
      if (!read.ok()) error = read.status();
      if (read.ok()) modules = *std::move(read);
      if (read.ok() && modules.empty()) {
        error = NoHloModuleError(input->view(), name);
      }
    }
    absl::optional<XlaPlatform> requested;
    if (!platform.empty()) {
      requested = platform == "gpu" ? XlaPlatform::kGpu : XlaPlatform::kCpu;
    }
    for (const HloModule& module : modules) {
      if (absl::Status entry =
              CheckEntryComputationLayout(input->view(), module, name);
          !entry.ok()) {
        error = entry;
        break;
      }
      absl::StatusOr<DumpModuleMemory> one = AnalyzeDumpModule(
          module, ChooseDumpPlatform(module, name, requested));
      const absl::Status status = one.status();
      if (!status.ok()) {
        error = name.empty()
                    ? status
                    : absl::Status(status.code(),
                                   absl::StrCat(name, ": ", status.message()));
        break;
      }
      analysed.push_back(*std::move(one));
    }
  }
  if (!open_error.ok()) RaiseOSError(open_error);
  if (!error.ok()) ThrowStatus(error);
  MemoryRecordOptions options;
  options.top = top;
  options.space = space;
  py::list out;
  for (const DumpModuleMemory& one : analysed) {
    PyRecordSink sink;
    EmitModuleMemory(one, options, sink);
    out.append(sink.Take());
  }
  return out;
}

}  // namespace

void RegisterMemory(py::module_& m) {
  constexpr size_t kRecords = 8;
  if (MemoryRecordSpecs().size() != kRecords) {
    throw std::logic_error("memory records: update kRecords");
  }
  BindMemoryRecords(m, std::make_index_sequence<kRecords>());
  m.def("memory", &Memory, py::arg("source"), py::arg("is_path"),
        py::arg("top"), py::arg("space"), py::arg("platform"));
}

}  // namespace hlolayout::pyext
