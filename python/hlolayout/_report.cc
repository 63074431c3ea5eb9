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
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "_record.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/answers/memory_folder.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/dump_folder_record.h"
#include "hlolayout/report/report.h"
#include "hlolayout/report/report_record.h"
#include "hlolayout/views/padding_picture.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

constexpr char kModule[] = "hlolayout.reports";

// A waster's picture for Jupyter (views/padding_picture.h), from its
// shape; nothing when the shape has no tiles.
std::string WasterPicture(const py::tuple& values);

// The --sort key `name` (ParseSortKey, the CLI's vocabulary); ValueError
// naming the keys for anything else.
SortKey SortKeyNamed(const std::string& name) {
  SortKey key;
  if (!ParseSortKey(name, &key)) {
    throw py::value_error(
        absl::StrCat("sort must be ", kSortKeyList, ", got '", name, "'"));
  }
  return key;
}

// The library calls of hl.report, without Python (call without the GIL):
// `report`, its modules and rows in `sort`'s order as `hlolayout report
// --sort` gives them, or the error opening the source or reading it.
void BuildSourceReport(std::string source, bool is_path, bool summary,
                       int64_t top, int64_t threads, const SortKey& sort,
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
  // Not part of the Python record; sort="allocated" orders modules by it.
  options.allocations = sort.modules == ModuleOrder::kAllocated;
  absl::StatusOr<Report> r = BuildReport(input->view(), options);
  if (r.ok()) {
    report = *std::move(r);
    SortModules(sort.modules, &report);
    SortRows(sort.rows, &report);
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
    BuildSourceReport(source, is_path, false, 10, DefaultThreads(), SortKey(),
                      input, report, open_error, error);
    sink += report.modules.size();
  }
  const std::chrono::duration<double> t =
      std::chrono::steady_clock::now() - start;
  return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
}

// hl.report() of a file (is_path) or of HLO text; `sort` is a --sort name
// ("order": as in the text).
py::object PyReport(std::string source, bool is_path, bool summary, int64_t top,
                    int64_t threads, const std::string& sort) {
  const SortKey key = SortKeyNamed(sort);
  if (summary && key.needs_analysis) {
    throw py::value_error(absl::StrCat(
        "sort='", sort,
        "' orders modules by their memory analysis, which summary=True "
        "leaves out"));
  }
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
    BuildSourceReport(std::move(source), is_path, summary, top, threads, key,
                      input, report, open_error, error);
  }
  if (!open_error.ok()) RaiseOSError(open_error);
  if (!error.ok()) ThrowStatus(error);
  return ToPython(ReportAnswerOf(report, summary));
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

// A folder's file, mapped as the CLI maps it.
absl::StatusOr<std::unique_ptr<DumpFileText>> OpenFolderFile(
    const DumpFolderFile& file) {
  absl::StatusOr<std::unique_ptr<InputText>> input =
      OpenSource(file.path, true);
  if (!input.ok()) return input.status();
  return std::unique_ptr<DumpFileText>(new SourceText(*std::move(input)));
}

void CheckFolderThreads(int64_t threads) {
  if (threads < 0 || threads > 256) {
    throw py::value_error(
        absl::StrCat("threads must be from 0 to 256, got ", threads));
  }
}

// The folder's table as Python's DumpFolderTable; NoModuleFilesError's
// ValueError when no file holds a module.
py::object FolderTableObject(const std::string& folder,
                             const DumpFolderTable& table) {
  if (table.rows.empty() && table.failed.empty()) {
    ThrowStatus(NoModuleFilesError(folder));
  }
  return ToPython(DumpFolderAnswerOf(table));
}

// hl.report(DIR): `order` is a --sort name.
py::object PyDumpFolder(const std::string& folder, const std::string& order,
                        int64_t threads) {
  const DumpFolderOrder sort = SortKeyNamed(order).folder;
  CheckFolderThreads(threads);
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
      table = SummarizeDumpFolder(*listing, options, OpenFolderFile);
      SortDumpFolderRows(sort, &table.rows);
    }
  }
  if (!error.ok()) RaiseOSError(error);
  return FolderTableObject(folder, table);
}

// hl.memory(DIR): the request -> answers::AnswerMemoryFolder -> the table.
py::object PyMemoryFolder(const std::string& folder, const std::string& order,
                          int64_t threads) {
  answers::MemoryFolderRequest request;
  request.folder = folder;
  request.order = SortKeyNamed(order).folder;
  CheckFolderThreads(threads);
  request.threads = threads;
  absl::StatusOr<answers::MemoryFolderAnswer> answer =
      absl::UnknownError("not answered");
  {
    py::gil_scoped_release release;
    answer = answers::AnswerMemoryFolder(request, OpenFolderFile);
  }
  if (!answer.ok()) RaiseOSError(answer.status());
  return FolderTableObject(folder, answer->table);
}

std::string WasterPicture(const py::tuple& values) {
  absl::StatusOr<Shape> shape = ParseShape(values[3].cast<std::string>());
  if (!shape.ok()) return "";
  absl::StatusOr<std::string> svg = PaddingPictureSvg(*shape);
  return svg.ok() ? *svg : "";
}

}  // namespace

void RegisterReport(py::module_& m) {
  // The waster first: its class draws its shape (html_extra).
  BindAnswer<report_answer::PaddingWaster>(m, kModule, &WasterPicture);
  BindAnswer<report_answer::Report>(m, kModule);
  BindAnswer<report_answer::DumpFolderTable>(m, kModule);
  m.def("report", &PyReport, py::arg("source"), py::arg("is_path"),
        py::arg("summary"), py::arg("top"), py::arg("threads"),
        py::arg("sort"));
  m.def("_time_report_cpp", &TimeReportCpp, py::arg("source"),
        py::arg("is_path"), py::arg("calls"));
  m.def("dump_folder", &PyDumpFolder, py::arg("folder"), py::arg("order"),
        py::arg("threads"));
  m.def("memory_folder", &PyMemoryFolder, py::arg("folder"), py::arg("order"),
        py::arg("threads"));
}

}  // namespace hlolayout::pyext
