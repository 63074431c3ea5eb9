// python/hlolayout/_report.cc: `hl.report()` (hlolayout.reports): the
// memory and padding report of HLO dumps from the library's report/
// (BuildReport), and the table of a whole dump folder (SummarizeDumpFolder)
// that hl.report(DIR) and hl.memory(DIR) give, as typed records.
//
//   >>> r = hl.report(text)
//   >>> r.modules[0].totals.buffer_padded_bytes
//   4096
//   >>> r.modules[0].instructions[0].padding_bytes
//   2896
//
// Reading runs without the GIL (on several threads for large texts and
// folders); the records are then built once from the result (_record.h).
// Their to_dict() is the JSON of `hlolayout report --json`.
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
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/dump_folder_record.h"
#include "hlolayout/report/padding_picture.h"
#include "hlolayout/report/report.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

constexpr char kModule[] = "hlolayout.reports";

// The fields of a ByteCounts over array leaves, and over buffers.
#define HLOLAYOUT_ARRAY_LEAF_BYTES                                         \
  {"array_leaf_logical_bytes",                                             \
   "Logical bytes of the array leaves (elements at their storage width).", \
   "int"},                                                                 \
      {"array_leaf_padded_bytes",                                          \
       "Padded bytes of the array leaves (every tile level, L(n), E(n)).", \
       "int"},                                                             \
      {"padding_bytes", "Padded minus logical bytes.", "int"},             \
      {"expansion", "Padded / logical bytes (1.0 when logical is 0).",     \
       "float", FieldJson::kRound6g},                                      \
  {                                                                        \
    "overflow", "A sum passed INT64_MAX and stopped there.", "bool"        \
  }
#define HLOLAYOUT_BUFFER_BYTES                                                \
  {"buffer_logical_bytes", "Logical bytes of the values it defines.", "int"}, \
      {"buffer_padded_bytes",                                                 \
       "Padded bytes of the values it defines.",                              \
       "int",                                                                 \
       FieldJson::kValue,                                                     \
       nullptr,                                                               \
       true},                                                                 \
      {"buffer_padding_bytes", "Their padding.", "int",                       \
       FieldJson::kValue,      nullptr,          true},                       \
  {                                                                           \
    "buffer_overflow", "A buffer sum passed INT64_MAX and stopped there.",    \
        "bool"                                                                \
  }

struct ModuleTotalsTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "ModuleTotals",
        "A module's totals: the buffers it defines (XLA's dataflow rules) "
        "and all instruction results (docs/report.md).",
        {
            {"computations", "Computations in the module.", "int",
             FieldJson::kValue, nullptr, true},
            {"instructions", "Instructions over all computations.", "int",
             FieldJson::kValue, nullptr, true},
            {"instructions_without_shape", "Instructions written without one.",
             "int"},
            {"buffer_values", "The values the module defines.", "int",
             FieldJson::kValue, nullptr, true},
            HLOLAYOUT_BUFFER_BYTES,
            {"array_leaves", "Array leaves of all instruction results.", "int"},
            {"unsized_array_leaves", "Leaves with an unbounded dim (`?`).",
             "int"},
            HLOLAYOUT_ARRAY_LEAF_BYTES,
        }};
    return spec;
  }
};

struct MemorySpaceTotalsTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "MemorySpaceTotals",
        "A module's totals in one memory space S(n).",
        {
            {"memory_space", "n of S(n).", "int", FieldJson::kValue, nullptr,
             true},
            {"key", "'hbm', 'vmem', 'host', 's2', ...", "str",
             FieldJson::kValue, nullptr, true},
            {"name", "A human name of the space.", "str"},
            {"buffer_values", "Values the module defines in this space.",
             "int"},
            HLOLAYOUT_BUFFER_BYTES,
            {"instructions", "Instructions with an array leaf in this space.",
             "int"},
            {"array_leaves", "Array leaves in this space.", "int"},
            HLOLAYOUT_ARRAY_LEAF_BYTES,
        }};
    return spec;
  }
};

// A waster's picture for Jupyter (report/padding_picture.h), from its
// shape; nothing when the shape has no tiles.
std::string WasterPicture(const py::tuple& values);

struct PaddingWasterTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "PaddingWaster",
        "A buffer that pads a lot, listed once however many instructions "
        "name it, with why (docs/report.md).",
        {
            {"computation",
             "The computation of the instruction that defines "
             "it.",
             "str", FieldJson::kValue, nullptr, true},
            {"instruction",
             "The instruction that defines its first value (a loop's initial "
             "value, not the body's result).",
             "str", FieldJson::kValue, nullptr, true},
            {"index",
             "Where in that instruction's result, as a tuple (() for the "
             "whole result).",
             "Tuple[int, ...]", FieldJson::kIndex, nullptr, true},
            {"shape", "The buffer's shape with its layout.", "str",
             FieldJson::kValue, nullptr, true},
            {"memory_space", "Its memory space key ('hbm', 'vmem', ...).",
             "str"},
            {"array_leaf_logical_bytes",
             "Logical bytes (elements at their storage width).", "int"},
            {"array_leaf_padded_bytes",
             "Padded bytes (every tile level, L(n), E(n)).", "int",
             FieldJson::kValue, nullptr, true},
            {"padding_bytes", "Padded minus logical bytes.", "int",
             FieldJson::kValue, nullptr, true},
            {"expansion", "Padded / logical bytes (1.0 when logical is 0).",
             "float", FieldJson::kRound6g},
            {"overflow", "A sum passed INT64_MAX and stopped there.", "bool"},
            {"reasons",
             "Why: 'dim 0 (size 3) is not a multiple of tile 8 of "
             "T(8,128)(2,1): padded to 8'.",
             "Tuple[str, ...]", FieldJson::kValue},
            {"also_defined_by",
             "The instructions that define the buffer's other values "
             "('scaled', 'copy-start{0}').",
             "Tuple[str, ...]", FieldJson::kValue},
            {"aliases",
             "Its other names: instructions whose result (or an element of "
             "it) is the buffer ('init{1}', 'while{1}', 'result').",
             "Tuple[str, ...]", FieldJson::kValue},
        }};
    return spec;
  }
};

struct ReportRowTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "ReportRow",
        "One instruction of the report.",
        {
            {"computation", "Its computation.", "str", FieldJson::kValue,
             nullptr, true},
            {"instruction", "Its name.", "str", FieldJson::kValue, nullptr,
             true},
            {"opcode", "Its opcode.", "str", FieldJson::kValue, nullptr, true},
            {"root", "Whether it is its computation's root.", "bool"},
            {"shape", "Its shape as written, None without one.",
             "Optional[str]", FieldJson::kValue, nullptr, true},
            {"memory_space",
             "The memory space key of its array leaves ('hbm', 'vmem', ...), "
             "'mixed', or None without array leaves.",
             "Optional[str]"},
            {"array_leaves", "Array leaves of its result.", "int"},
            {"unsized_array_leaves", "Leaves with an unbounded dim (`?`).",
             "int"},
            HLOLAYOUT_ARRAY_LEAF_BYTES,
            {"buffer",
             "What its result is in memory: 'new', 'part' (some indices "
             "new), 'alias' or 'fused' (inside a fusion body or reducer).",
             "str", FieldJson::kValue, nullptr, true},
            HLOLAYOUT_BUFFER_BYTES,
        }};
    return spec;
  }
};

struct ModuleReportTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "ModuleReport",
        "The report of one module.",
        {
            {"name", "The HloModule name ('' without a header line).", "str",
             FieldJson::kValue, nullptr, true},
            {"entry_computation", "The entry computation's name.", "str"},
            {"totals", "ModuleTotals.", "ModuleTotals", FieldJson::kValue,
             nullptr, true},
            {"memory_spaces", "MemorySpaceTotals, by memory space.",
             "Tuple[MemorySpaceTotals, ...]", FieldJson::kValue},
            {"padding_wasters_note",
             "None when the wasters are buffers with their aliases; else why "
             "they are each value on its own (the memory analysis refused "
             "the module). None with summary=True.",
             "Optional[str]", FieldJson::kOmitIfNone},
            {"top_padding_wasters",
             "PaddingWasters, most padding first; None with summary=True.",
             "Optional[Tuple[PaddingWaster, ...]]", FieldJson::kOmitIfNone,
             nullptr, true},
            {"instructions",
             "ReportRows in text order; None with summary=True.",
             "Optional[Tuple[ReportRow, ...]]", FieldJson::kOmitIfNone, nullptr,
             true},
        }};
    return spec;
  }
};

struct ReportTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "Report",
        "The memory and padding report of HLO module text "
        "(`hlolayout report --json`).",
        {
            {"modules", "ModuleReports, in text order.",
             "Tuple[ModuleReport, ...]", FieldJson::kValue, nullptr, true},
            {"errors",
             "Errors of instructions that were skipped (empty: the reader "
             "stops at the first error, which raises ValueError).",
             "Tuple[str, ...]", FieldJson::kValue},
        }};
    return spec;
  }
};

// The Python class of the dump-folder record I (DumpFolderRecordSpecs()).
template <size_t I>
struct FolderTag {
  static const RecordSpec& Spec() { return *DumpFolderRecordSpecs()[I]; }
};

template <size_t... I>
void BindFolderRecords(py::module_& m, std::index_sequence<I...>) {
  (BindRecord<FolderTag<I>>(m, kModule), ...);
}

#undef HLOLAYOUT_ARRAY_LEAF_BYTES
#undef HLOLAYOUT_BUFFER_BYTES

py::object SpaceKey(int64_t space) {
  if (space == ReportRow::kNoMemorySpace) return py::none();
  if (space == ReportRow::kMixedMemorySpaces) return py::str("mixed");
  return py::str(MemorySpaceKey(space));
}

py::object Str(absl::string_view s) { return py::str(s.data(), s.size()); }

py::object TotalsRecord(const ModuleTotals& t) {
  const ByteCounts& b = t.buffer_bytes;
  const ByteCounts& a = t.bytes;
  return MakeRecord<ModuleTotalsTag>(
      t.computations, t.instructions, t.instructions_without_shape,
      t.buffer_values, b.logical_bytes, b.padded_bytes, b.wasted_bytes(),
      b.overflow, t.array_leaves, t.unsized_array_leaves, a.logical_bytes,
      a.padded_bytes, a.wasted_bytes(), a.expansion(), a.overflow);
}

py::object SpaceRecord(const MemorySpaceTotals& s) {
  const ByteCounts& b = s.buffer_bytes;
  const ByteCounts& a = s.bytes;
  return MakeRecord<MemorySpaceTotalsTag>(
      s.memory_space, MemorySpaceKey(s.memory_space),
      MemorySpaceName(s.memory_space), s.buffer_values, b.logical_bytes,
      b.padded_bytes, b.wasted_bytes(), b.overflow, s.instructions,
      s.array_leaves, a.logical_bytes, a.padded_bytes, a.wasted_bytes(),
      a.expansion(), a.overflow);
}

py::tuple Strings(const std::vector<std::string>& strings) {
  py::tuple out(strings.size());
  for (size_t i = 0; i < strings.size(); ++i) out[i] = strings[i];
  return out;
}

py::object WasterRecord(const PaddingWaster& w) {
  const ByteCounts& a = w.bytes;
  py::tuple index(w.index.size());
  for (size_t i = 0; i < w.index.size(); ++i) index[i] = w.index[i];
  return MakeRecord<PaddingWasterTag>(
      Str(w.computation), Str(w.name), std::move(index), Str(w.shape_text),
      MemorySpaceKey(w.memory_space), a.logical_bytes, a.padded_bytes,
      a.wasted_bytes(), a.expansion(), a.overflow, Strings(w.reasons),
      Strings(w.also_defined_by), Strings(w.aliases));
}

py::object RowRecord(const ReportRow& r) {
  const ByteCounts& a = r.bytes;
  const ByteCounts& b = r.buffer_bytes;
  return MakeRecord<ReportRowTag>(
      Str(r.computation), Str(r.name), Str(r.opcode), r.is_root,
      r.has_shape ? Str(r.shape_text) : py::object(py::none()),
      SpaceKey(r.memory_space), r.array_leaves, r.unsized_array_leaves,
      a.logical_bytes, a.padded_bytes, a.wasted_bytes(), a.expansion(),
      a.overflow, BufferRoleName(r.buffer), b.logical_bytes, b.padded_bytes,
      b.wasted_bytes(), b.overflow);
}

py::object ModuleReportRecord(const ModuleReport& m, bool summary) {
  py::tuple spaces(m.memory_spaces.size());
  for (size_t i = 0; i < m.memory_spaces.size(); ++i) {
    spaces[i] = SpaceRecord(m.memory_spaces[i]);
  }
  py::object wasters = py::none(), rows = py::none(), note = py::none();
  if (!summary && !m.wasters_note.empty()) note = py::str(m.wasters_note);
  if (!summary) {
    py::tuple w(m.top_wasters.size());
    for (size_t i = 0; i < m.top_wasters.size(); ++i) {
      w[i] = WasterRecord(m.top_wasters[i]);
    }
    py::tuple r(m.rows.size());
    for (size_t i = 0; i < m.rows.size(); ++i) r[i] = RowRecord(m.rows[i]);
    wasters = std::move(w);
    rows = std::move(r);
  }
  return MakeRecord<ModuleReportTag>(
      Str(m.name), Str(m.entry_computation), TotalsRecord(m.totals),
      std::move(spaces), std::move(note), std::move(wasters), std::move(rows));
}

// The library calls of hl.report, without Python (call without the GIL):
// `report`, or the error opening the source or reading it.
void BuildSourceReport(std::string source, bool is_path, bool summary,
                       int64_t top, int64_t threads,
                       std::unique_ptr<InputText>& input, Report& report,
                       absl::Status& open_error, absl::Status& error) {
  const std::string name = is_path ? source : std::string();
  absl::StatusOr<std::unique_ptr<InputText>> text =
      OpenSource(std::move(source), is_path);
  if (!text.ok()) {
    open_error = text.status();
    return;
  }
  input = *std::move(text);
  ReportOptions options;
  options.read.file_name = name;
  options.keep_rows = !summary;
  options.top_wasters = summary ? 0 : top;
  options.threads = threads;
  options.allocations = false;  // not part of the Python record
  absl::StatusOr<Report> r = BuildReport(input->view(), options);
  if (r.ok()) {
    report = *std::move(r);
  } else {
    error = r.status();
  }
}

// The seconds per call of hl.report's library calls alone (python/bench's
// baseline): `n` runs of BuildSourceReport, the GIL released.
double TimeReportCpp(const std::string& source, bool is_path, int64_t n) {
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int64_t i = 0; i < n; ++i) {
    std::unique_ptr<InputText> input;
    Report report;
    absl::Status open_error, error;
    BuildSourceReport(source, is_path, false, 10, DefaultThreads(), input,
                      report, open_error, error);
    sink += report.modules.size();
  }
  const std::chrono::duration<double> t =
      std::chrono::steady_clock::now() - start;
  return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
}

// hl.report() of a file (is_path) or of HLO text.
py::object PyReport(std::string source, bool is_path, bool summary, int64_t top,
                    int64_t threads) {
  if (top < 0) {
    throw py::value_error(absl::StrCat("top must be >= 0, got ", top));
  }
  if (threads < 1 || threads > 256) {
    throw py::value_error(
        absl::StrCat("threads must be from 1 to 256, got ", threads));
  }
  absl::Status open_error, error;
  std::unique_ptr<InputText> input;
  Report report;
  {
    py::gil_scoped_release release;
    BuildSourceReport(std::move(source), is_path, summary, top, threads, input,
                      report, open_error, error);
  }
  if (!open_error.ok()) RaiseOSError(open_error);
  if (!error.ok()) ThrowStatus(error);
  py::tuple modules(report.modules.size());
  for (size_t i = 0; i < report.modules.size(); ++i) {
    modules[i] = ModuleReportRecord(report.modules[i], summary);
  }
  py::tuple errors(report.errors.size());
  for (size_t i = 0; i < report.errors.size(); ++i) {
    errors[i] = report.errors[i];
  }
  return MakeRecord<ReportTag>(std::move(modules), std::move(errors));
}

// A file of the folder, mapped as the CLI maps it.
class SourceText : public DumpFileText {
 public:
  explicit SourceText(std::unique_ptr<InputText> input)
      : input_(std::move(input)) {}
  absl::string_view text() const override { return input_->view(); }

 private:
  std::unique_ptr<InputText> input_;
};

// hl.report(DIR) and hl.memory(DIR): `order` is a --sort name.
py::object PyDumpFolder(const std::string& folder, const std::string& order,
                        int64_t threads) {
  DumpFolderOrder sort;
  if (!ParseDumpFolderOrder(order, &sort)) {
    throw py::value_error(
        "sort must be file, module, instructions, buffers, padding, "
        "expansion, allocated or peak, got '" +
        order + "'");
  }
  if (threads < 0 || threads > 256) {
    throw py::value_error(
        absl::StrCat("threads must be from 0 to 256, got ", threads));
  }
  absl::Status error;
  DumpFolderTable table;
  {
    py::gil_scoped_release release;
    absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(folder);
    if (!listing.ok()) {
      error = listing.status();
    } else {
      DumpFolderOptions options;
      options.threads = threads;
      table = SummarizeDumpFolder(
          *listing, options,
          [](const DumpFolderFile& file)
              -> absl::StatusOr<std::unique_ptr<DumpFileText>> {
            absl::StatusOr<std::unique_ptr<InputText>> input =
                OpenSource(file.path, true);
            if (!input.ok()) return input.status();
            return std::unique_ptr<DumpFileText>(
                new SourceText(*std::move(input)));
          });
      SortDumpFolderRows(sort, &table.rows);
    }
  }
  if (!error.ok()) RaiseOSError(error);
  if (table.rows.empty() && table.failed.empty()) {
    ThrowStatus(NoModuleFilesError(folder));
  }
  PyRecordSink sink;
  EmitDumpFolderTable(table, sink);
  return sink.Take();
}

std::string WasterPicture(const py::tuple& values) {
  absl::StatusOr<Shape> shape = ParseShape(values[3].cast<std::string>());
  if (!shape.ok()) return "";
  absl::StatusOr<std::string> svg = PaddingPictureSvg(*shape);
  return svg.ok() ? *svg : "";
}

}  // namespace

void RegisterReport(py::module_& m) {
  BindRecord<ModuleTotalsTag>(m, kModule);
  BindRecord<MemorySpaceTotalsTag>(m, kModule);
  BindRecord<PaddingWasterTag>(m, kModule, WasterPicture);
  BindRecord<ReportRowTag>(m, kModule);
  BindRecord<ModuleReportTag>(m, kModule);
  BindRecord<ReportTag>(m, kModule);
  constexpr size_t kFolderRecords = 4;
  if (DumpFolderRecordSpecs().size() != kFolderRecords) {
    throw std::logic_error("dump folder records: update kFolderRecords");
  }
  BindFolderRecords(m, std::make_index_sequence<kFolderRecords>());
  m.def("report", &PyReport, py::arg("source"), py::arg("is_path"),
        py::arg("summary"), py::arg("top"), py::arg("threads"));
  m.def("_time_report_cpp", &TimeReportCpp, py::arg("source"),
        py::arg("is_path"), py::arg("calls"));
  m.def("dump_folder", &PyDumpFolder, py::arg("folder"), py::arg("order"),
        py::arg("threads"));
}

}  // namespace hlolayout::pyext
