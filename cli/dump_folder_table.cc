#include "hlolayout/cli/dump_folder_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/views/dump_folder_text.h"

namespace hlolayout::cli {
namespace {

// A mapped file (cli/input.h) as the folder summary reads it.
class MappedDumpFile : public DumpFileText {
 public:
  explicit MappedDumpFile(std::unique_ptr<InputText> input)
      : input_(std::move(input)) {}
  absl::string_view text() const override { return input_->view(); }

 private:
  std::unique_ptr<InputText> input_;
};

}  // namespace

const absl::string_view kDumpFolderHelp =
    R"(A folder (as written by --xla_dump_to) instead of files: one table of its
modules, read on all cores: module, instructions, the buffers it defines
(padded bytes), padding, expansion, for scheduled modules what XLA will
allocate (its buffer assignment: arguments + temp + outputs - aliases; n/a
for modules that look like XLA:TPU's, whose allocations are not modelled)
and the peak of its live ranges, and the file. It reads the
*after_optimizations.txt files when there are any, else every .txt file
with an HloModule line; every other file is listed as skipped with the
reason. Files are read largest first, never more bytes at once than the
largest file, so memory stays about what that file needs. Opcodes the
reader does not know (newer XLA) are read with their shapes as written and
warned of on standard error, once per name with the files that use them.
)";

std::vector<absl::string_view> WithDumpFolderFlags(
    std::vector<absl::string_view> own, bool switches) {
  const absl::Span<const absl::string_view> folder =
      switches ? absl::MakeConstSpan(kDumpFolderSwitches)
               : absl::MakeConstSpan(kDumpFolderValued);
  for (absl::string_view name : folder) {
    if (std::find(own.begin(), own.end(), name) == own.end()) {
      own.push_back(name);
    }
  }
  return own;
}

absl::Status CheckNoFolderOnlyFlags(absl::string_view command, const Args& args,
                                    absl::Span<const absl::string_view> own) {
  for (const auto* folder : {&kDumpFolderSwitches, &kDumpFolderValued}) {
    for (absl::string_view name : *folder) {
      if (args.Has(name) &&
          std::find(own.begin(), own.end(), name) == own.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", name, " applies to a dump folder only (hlolayout ", command,
            " DIR)"));
      }
    }
  }
  return absl::OkStatus();
}

bool IsFolderArgument(const Args& args) {
  if (args.positional.size() != 1) return false;
  struct stat st = {};
  return stat(ResolveUserPath(args.positional[0]).c_str(), &st) == 0 &&
         S_ISDIR(st.st_mode);
}

DumpFileOpener MappedDumpFileOpener(IoContext& io) {
  return [&io](const DumpFolderFile& file)
             -> absl::StatusOr<std::unique_ptr<DumpFileText>> {
    absl::StatusOr<std::unique_ptr<InputText>> input = OpenInput(file.path, io);
    if (!input.ok()) return input.status();
    return std::unique_ptr<DumpFileText>(new MappedDumpFile(*std::move(input)));
  };
}

int ParseDumpFolderFlags(absl::string_view command, const Args& args,
                         DumpFolderOrder default_order, DumpFolderFlags& flags,
                         IoContext& io) {
  const std::string prefix = absl::StrCat("hlolayout ", command, ": ");
  // --summary changes nothing: the table is the summary.
  for (const std::string& name : args.switches) {
    if (name != "json" && name != "summary" && name != "keep-going") {
      io.err << prefix << "--" << name << " does not apply to a folder\n";
      return 2;
    }
  }
  for (const auto& entry : args.values) {
    if (entry.first == "html" && command != "report") {
      io.err << prefix
             << "--html does not apply to a folder; `hlolayout report "
                "--html FILE DIR` draws a folder's modules on one page, each "
                "with its memory curve and XLA's heap\n";
      return 2;
    }
    if (entry.first != "sort" && entry.first != "threads") {
      io.err << prefix << "--" << entry.first
             << " does not apply to a folder\n";
      return 2;
    }
  }
  flags.order = default_order;
  if (args.Has("sort")) {
    SortKey key;
    if (!ParseSortKey(args.Value("sort", ""), &key)) {
      io.err << prefix << "--sort must be " << kSortKeyList << ", not '"
             << args.Value("sort", "") << "'\n";
      return 2;
    }
    flags.order = key.folder;
  }
  flags.keep_going = args.Has("keep-going");
  flags.json = args.Has("json");
  const std::string threads = args.Value("threads", "0");
  if (!absl::SimpleAtoi(threads, &flags.threads) || flags.threads < 0 ||
      flags.threads > 256) {
    io.err << prefix << "--threads must be a number from 0 to 256, not '"
           << threads << "'\n";
    return 2;
  }
  return 0;
}

int PrintDumpFolderTable(absl::string_view command, absl::string_view folder,
                         const DumpFolderTable& table, bool json,
                         IoContext& io) {
  const std::string prefix = absl::StrCat("hlolayout ", command, ": ");
  // Warnings, once per unknown opcode over the folder, on standard error
  // with --json too, as for files (docs/hlo-text.md).
  for (const DumpFolderUnknownOpcode& u : table.unknown_opcodes) {
    io.err << u.warning << "\n";
  }
  for (const std::string& e : table.errors) io.err << e << "\n";
  io.out << (json ? DumpFolderTableJson(table) : DumpFolderTableText(table));
  for (const FailedDumpFile& f : table.failed) {
    io.err << prefix << f.name << ": " << f.error << "\n";
  }
  if (table.rows.empty() && table.failed.empty()) {
    // Most likely the wrong folder: say so, and fail scripts.
    io.err << prefix << NoModuleFilesError(folder).message() << "\n";
    return 1;
  }
  return table.failed.empty() && table.errors.empty() ? 0 : 1;
}

int RunDumpFolder(absl::string_view command, const Args& args,
                  DumpFolderOrder default_order, IoContext& io) {
  DumpFolderFlags flags;
  if (int status =
          ParseDumpFolderFlags(command, args, default_order, flags, io);
      status != 0) {
    return status;
  }
  const std::string folder = args.positional[0];
  absl::StatusOr<DumpFolderListing> listing =
      ListDumpFolder(ResolveUserPath(folder));
  if (!listing.ok()) {
    io.err << "hlolayout " << command << ": " << listing.status().message()
           << "\n";
    return 1;
  }
  listing->folder = folder;  // as the user wrote it
  DumpFolderOptions options;
  options.keep_going = flags.keep_going;
  options.threads = flags.threads;
  DumpFolderTable table =
      SummarizeDumpFolder(*listing, options, MappedDumpFileOpener(io));
  SortDumpFolderRows(flags.order, &table.rows);
  return PrintDumpFolderTable(command, folder, table, flags.json, io);
}

int WriteHtmlReport(const Report& report, const HtmlOptions& options,
                    const std::string& path, IoContext& io) {
  if (path == "-") {
    RenderReportHtml(report, options, io.out);
    return 0;
  }
  std::ofstream file(ResolveUserPath(path), std::ios::binary);
  RenderReportHtml(report, options, file);
  file.close();
  if (!file) {
    io.err << "hlolayout report: cannot write '" << path << "'\n";
    return 1;
  }
  return 0;
}

int RunFolderReport(const Args& args, const DumpFolderListing& listing,
                    const ReportOptions& options, const SortKey& sort,
                    const HtmlOptions* html, const std::string& html_path,
                    IoContext& io) {
  const std::string prefix = "hlolayout report: ";
  DumpFolderTable table;
  table.folder = listing.folder;
  table.skipped = listing.skipped;
  Report report;
  // The texts stay mapped while the report (views into them) is used.
  std::vector<std::unique_ptr<InputText>> texts;
  for (const DumpFolderFile& file : listing.files) {
    absl::StatusOr<std::unique_ptr<InputText>> text = OpenInput(file.path, io);
    if (!text.ok()) {
      table.failed.push_back({file.name, std::string(text.status().message())});
      continue;
    }
    ReportOptions read = options;
    read.read.file_name = file.name;
    Report one;
    absl::Status status = AppendReport((*text)->view(), read, &one);
    if (!status.ok()) {
      table.failed.push_back({file.name, std::string(status.message())});
      continue;
    }
    texts.push_back(*std::move(text));
    ++table.files_read;
    table.max_bytes_in_flight += file.bytes;  // all of them, kept
    for (std::string& e : one.errors) {
      io.err << e << "\n";
      table.errors.push_back(std::move(e));
    }
    for (const UnknownOpcode& u : one.unknown_opcodes)
      io.err << u.first << "\n";
    // Views into the text, which stays mapped.
    for (ModuleReport& m : one.modules) report.modules.push_back(std::move(m));
  }
  // The modules in the table's order (ModuleOrder mirrors the folder's
  // keys), the table made from them.
  SortModules(sort.folder_modules, &report);
  for (const ModuleReport& m : report.modules) {
    table.rows.push_back(DumpFolderRowOf(m, m.file));
  }
  SortRows(sort.rows, &report);
  for (const FailedDumpFile& f : table.failed) {
    io.err << prefix << f.name << ": " << f.error << "\n";
  }
  int status = table.failed.empty() && table.errors.empty() ? 0 : 1;
  if (table.rows.empty() && table.failed.empty()) {
    io.err << prefix << NoModuleFilesError(listing.folder).message() << "\n";
    status = 1;
  }
  if (html != nullptr) {
    HtmlOptions page = *html;
    page.folder = &table;
    const int written = WriteHtmlReport(report, page, html_path, io);
    return written != 0 ? written : status;
  }
  WriteFolderReport(report, table, options.top_wasters, args.Has("json"),
                    io.out);
  return status;
}

}  // namespace hlolayout::cli
