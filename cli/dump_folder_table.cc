#include "hlolayout/cli/dump_folder_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/report/dump_folder_record.h"
#include "hlolayout/report/render.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/util/json_string.h"
#include "hlolayout/util/record.h"

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

// The table's JSON (report/dump_folder_record.h). `extra`: more keys of the
// object, written before its end (", \"k\": ...").
std::string RenderJson(const DumpFolderTable& table,
                       absl::string_view extra = "") {
  std::string out;
  RecordJsonWriter writer(&out);
  EmitDumpFolderTable(table, writer);
  out.pop_back();  // the closing brace, after `extra`
  out.append(extra.data(), extra.size());
  out += "}\n";
  return out;
}

std::string RenderText(const DumpFolderTable& table) {
  std::string out = absl::StrCat(
      "dump folder ", table.folder, ": ", table.rows.size(),
      table.rows.size() == 1 ? " module" : " modules", " in ", table.files_read,
      table.files_read == 1 ? " file" : " files", ", ", table.skipped.size(),
      " skipped",
      table.failed.empty() ? ""
                           : absl::StrCat(", ", table.failed.size(), " failed"),
      "\n");
  if (!table.rows.empty()) {
    std::vector<std::vector<std::string>> cells = {
        {"module", "instructions", "buffers", "padding", "expansion",
         "XLA allocates", "live-range peak", "file"}};
    int64_t instructions = 0, logical = 0, padded = 0;
    for (const DumpFolderRow& r : table.rows) {
      const std::string none = r.scheduled ? "error" : "not scheduled";
      std::string allocated = none;
      if (r.allocated_bytes >= 0) {
        allocated =
            absl::StrCat(ShortBytes(r.allocated_bytes), " (", r.platform, ")");
      } else if (r.platform == "tpu") {
        allocated = "n/a (tpu)";
      }
      const std::string peak =
          r.peak_bytes >= 0 ? ShortBytes(r.peak_bytes) : none;
      cells.push_back(
          {r.module.empty() ? "(no name)" : r.module,
           absl::StrCat(r.instructions),
           ShortBytes(r.buffer_padded_bytes) + (r.buffer_overflow ? "+" : ""),
           ShortBytes(r.padding_bytes()),
           absl::StrFormat("%.2fx", r.expansion()), allocated, peak, r.file});
      instructions += r.instructions;
      logical += r.buffer_logical_bytes;
      padded += r.buffer_padded_bytes;
    }
    std::vector<size_t> width(cells[0].size(), 0);
    for (const auto& row : cells) {
      for (size_t c = 0; c < row.size(); ++c) {
        width[c] = std::max(width[c], row[c].size());
      }
    }
    for (const auto& row : cells) {
      for (size_t c = 0; c < row.size(); ++c) {
        const std::string& cell = row[c];
        const std::string pad(width[c] - cell.size(), ' ');
        // Names left-aligned, figures right-aligned; no trailing blanks.
        const bool text = c == 0 || c + 1 == row.size();
        if (c > 0) out += "  ";
        if (c + 1 == row.size()) {
          out += cell;
        } else {
          out += text ? cell + pad : pad + cell;
        }
      }
      out += "\n";
    }
    for (const DumpFolderRow& r : table.rows) {
      if (r.peak_error.empty()) continue;
      absl::StrAppend(&out, "no peak for ",
                      r.module.empty() ? "(no name)" : r.module, " (", r.file,
                      "): ", r.peak_error, "\n");
    }
    absl::StrAppend(&out, "all modules: ", instructions,
                    " instructions, buffers ", ShortBytes(padded), " padded (",
                    ShortBytes(logical), " logical), padding ",
                    ShortBytes(padded - logical), "\n");
  }
  if (!table.skipped.empty()) {
    // By reason, with the first few names.
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const SkippedDumpFile& s : table.skipped) {
      by_reason[s.reason].push_back(s.name);
    }
    absl::StrAppend(&out, "skipped ", table.skipped.size(),
                    table.skipped.size() == 1 ? " file:\n" : " files:\n");
    for (const auto& [reason, names] : by_reason) {
      absl::StrAppend(&out, "  ", names.size(), " ", reason, ": ");
      const size_t shown = std::min<size_t>(names.size(), 3);
      for (size_t i = 0; i < shown; ++i) {
        absl::StrAppend(&out, i > 0 ? ", " : "", names[i]);
      }
      if (names.size() > shown) {
        absl::StrAppend(&out, ", ... (", names.size() - shown, " more)");
      }
      out += "\n";
    }
  }
  for (const FailedDumpFile& f : table.failed) {
    absl::StrAppend(&out, "failed: ", f.name, ": ", f.error, "\n");
  }
  return out;
}

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

int RunDumpFolder(absl::string_view command, const Args& args,
                  DumpFolderOrder default_order, IoContext& io) {
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
  DumpFolderOrder order = default_order;
  if (args.Has("sort")) {
    SortKey key;
    if (!ParseSortKey(args.Value("sort", ""), &key)) {
      io.err << prefix << "--sort must be " << kSortKeyList << ", not '"
             << args.Value("sort", "") << "'\n";
      return 2;
    }
    order = key.folder;
  }
  DumpFolderOptions options;
  options.keep_going = args.Has("keep-going");
  const std::string threads = args.Value("threads", "0");
  if (!absl::SimpleAtoi(threads, &options.threads) || options.threads < 0 ||
      options.threads > 256) {
    io.err << prefix << "--threads must be a number from 0 to 256, not '"
           << threads << "'\n";
    return 2;
  }
  const std::string folder = args.positional[0];
  absl::StatusOr<DumpFolderListing> listing =
      ListDumpFolder(ResolveUserPath(folder));
  if (!listing.ok()) {
    io.err << prefix << listing.status().message() << "\n";
    return 1;
  }
  listing->folder = folder;  // as the user wrote it
  DumpFolderTable table =
      SummarizeDumpFolder(*listing, options,
                          [&io](const DumpFolderFile& file)
                              -> absl::StatusOr<std::unique_ptr<DumpFileText>> {
                            absl::StatusOr<std::unique_ptr<InputText>> input =
                                OpenInput(file.path, io);
                            if (!input.ok()) return input.status();
                            return std::unique_ptr<DumpFileText>(
                                new MappedDumpFile(*std::move(input)));
                          });
  SortDumpFolderRows(order, &table.rows);
  // Warnings, once per unknown opcode over the folder, on standard error
  // with --json too, as for files (docs/hlo-text.md).
  for (const DumpFolderUnknownOpcode& u : table.unknown_opcodes) {
    io.err << u.warning << "\n";
  }
  for (const std::string& e : table.errors) io.err << e << "\n";
  io.out << (args.Has("json") ? RenderJson(table) : RenderText(table));
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

const absl::string_view kSortKeyList =
    "order|file, name|module, padded, buffers, padding, expansion, "
    "instructions, allocated or peak";

const absl::string_view kSortKeysHelp =
    R"(Sort keys (--sort=KEY), one set for files, globs and folders:
  key            a file's instructions          a folder's modules
  order, file    text order (files' default)    file name
  name, module   computation, instruction       module name
  padded         most padded bytes first        most buffer bytes first
  buffers        most buffer bytes (buffer B)   most buffer bytes first
                 first                          (report DIR's default)
  padding        most padding bytes first       most padding first
  expansion      largest expansion first        largest expansion first
  instructions   modules with the most          most instructions first
                 instructions first
  allocated      modules by what XLA allocates  most allocated first
                 (not with --summary)           (memory DIR's default)
  peak           modules by live-range peak     largest peak first
                 (not with --summary)
Keys of the last three order the modules of files; their instructions
stay in text order.
)";

bool ParseSortKey(absl::string_view name, SortKey* key) {
  struct Entry {
    absl::string_view name;
    RowOrder rows;
    ModuleOrder modules;
    DumpFolderOrder folder;
    ModuleOrder folder_modules;
  };
  static constexpr Entry kKeys[] = {
      {"order", RowOrder::kText, ModuleOrder::kText, DumpFolderOrder::kFile,
       ModuleOrder::kText},
      {"file", RowOrder::kText, ModuleOrder::kText, DumpFolderOrder::kFile,
       ModuleOrder::kText},
      {"name", RowOrder::kName, ModuleOrder::kText, DumpFolderOrder::kModule,
       ModuleOrder::kName},
      {"module", RowOrder::kName, ModuleOrder::kText, DumpFolderOrder::kModule,
       ModuleOrder::kName},
      {"padded", RowOrder::kPaddedBytes, ModuleOrder::kText,
       DumpFolderOrder::kBuffers, ModuleOrder::kBuffers},
      {"buffers", RowOrder::kBufferBytes, ModuleOrder::kText,
       DumpFolderOrder::kBuffers, ModuleOrder::kBuffers},
      {"padding", RowOrder::kPaddingBytes, ModuleOrder::kText,
       DumpFolderOrder::kPadding, ModuleOrder::kPadding},
      {"expansion", RowOrder::kExpansion, ModuleOrder::kText,
       DumpFolderOrder::kExpansion, ModuleOrder::kExpansion},
      {"instructions", RowOrder::kText, ModuleOrder::kInstructions,
       DumpFolderOrder::kInstructions, ModuleOrder::kInstructions},
      {"allocated", RowOrder::kText, ModuleOrder::kAllocated,
       DumpFolderOrder::kAllocated, ModuleOrder::kAllocated},
      {"peak", RowOrder::kText, ModuleOrder::kPeak, DumpFolderOrder::kPeak,
       ModuleOrder::kPeak},
  };
  for (const Entry& e : kKeys) {
    if (e.name != name) continue;
    key->rows = e.rows;
    key->modules = e.modules;
    key->folder = e.folder;
    key->folder_modules = e.folder_modules;
    key->needs_analysis =
        e.modules == ModuleOrder::kAllocated || e.modules == ModuleOrder::kPeak;
    return true;
  }
  return false;
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

namespace {

// The table, then the top padding wasters over the folder (most padding
// first; `report` holds the modules in the table's order).
void WriteFolderWasters(const Report& report, const DumpFolderTable& table,
                        int64_t top, bool json, std::ostream& out) {
  std::vector<std::pair<size_t, const PaddingWaster*>> wasters;
  for (size_t i = 0; i < report.modules.size(); ++i) {
    for (const PaddingWaster& w : report.modules[i].top_wasters) {
      wasters.emplace_back(i, &w);
    }
  }
  std::stable_sort(
      wasters.begin(), wasters.end(), [](const auto& a, const auto& b) {
        return a.second->bytes.wasted_bytes() > b.second->bytes.wasted_bytes();
      });
  if (static_cast<int64_t>(wasters.size()) > top) {
    wasters.resize(static_cast<size_t>(top));
  }
  auto module_name = [&](size_t i) {
    return report.modules[i].name.empty() ? std::string("(no name)")
                                          : std::string(report.modules[i].name);
  };
  if (json) {
    std::ostringstream extra;
    extra << ", \"top_padding_wasters\": [";
    for (size_t k = 0; k < wasters.size(); ++k) {
      const size_t i = wasters[k].first;
      std::ostringstream where;
      where << "\"module\": ";
      WriteJsonString(where, report.modules[i].name);
      where << ", \"file\": ";
      WriteJsonString(where, table.rows[i].file);
      extra << (k == 0 ? "\n  " : ",\n  ");
      RenderWasterJson(*wasters[k].second, where.str(), extra);
    }
    extra << (wasters.empty() ? "]" : "\n]");
    out << RenderJson(table, extra.str());
    return;
  }
  out << RenderText(table);
  out << "top padding wasters over the folder (buffers, each once, with "
         "their other names):\n";
  if (wasters.empty()) out << "  (no padding)\n";
  int rank = 0;
  for (const auto& [i, w] : wasters) {
    RenderWasterText(*w, ++rank,
                     absl::StrCat(w->computation, " of ", module_name(i), " (",
                                  table.rows[i].file, ")"),
                     out);
  }
}

}  // namespace

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
  WriteFolderWasters(report, table, options.top_wasters, args.Has("json"),
                     io.out);
  return status;
}

}  // namespace hlolayout::cli
