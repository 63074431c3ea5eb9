// cli/dump_folder_table.h: `hlolayout report DIR` and `hlolayout memory DIR`,
// one table for a whole dump folder (report/dump_folder.h).
//
//   hlolayout report /tmp/xla_dump                # largest buffers first
//   hlolayout memory --sort=expansion /tmp/xla_dump
//   hlolayout report --json /tmp/xla_dump
#ifndef HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
#define HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/report.h"
#include "hlolayout/views/html.h"

namespace hlolayout::cli {

// True when the command's only positional argument names a folder.
bool IsFolderArgument(const Args& args);

// The flags a folder's table takes (kDumpFolderHelp lists them): --json,
// --summary (the table is the summary), --keep-going, --threads=N and
// --sort=KEY. `report` and `memory` accept these in ParseArgs beside their
// own flags, so that a folder's flags reach RunDumpFolder. (`report DIR`
// takes all of report's flags: --html and --top read the modules whole,
// RunFolderReport.)
inline constexpr absl::string_view kDumpFolderSwitches[] = {"json", "summary"};
inline constexpr absl::string_view kDumpFolderValued[] = {"sort", "threads"};

// Writes the HTML page of `report` to `path` ('-': io.out). 0, or 1 with a
// message when the file cannot be written.
int WriteHtmlReport(const Report& report, const HtmlOptions& options,
                    const std::string& path, IoContext& io);

// `report DIR` with the flags that read the modules whole (--html, --top):
// every module file of `listing` read as `report FILE...` reads it (the
// full report: `options`), the folder's table made from those reports
// (DumpFolderRowOf), sorted by `sort`; then the page (`html`: the table
// leads it, views/html.h) or the table followed by the top padding
// wasters over the folder (text; --json adds "top_padding_wasters"). Exit
// status as RunDumpFolder, 1 too when --keep-going left instructions out.
int RunFolderReport(const Args& args, const DumpFolderListing& listing,
                    const ReportOptions& options, const SortKey& sort,
                    const HtmlOptions* html, const std::string& html_path,
                    IoContext& io);

// `own` plus the folder's flags, for ParseArgs.
std::vector<absl::string_view> WithDumpFolderFlags(
    std::vector<absl::string_view> own, bool switches);

// For a command given files: a usage error for a flag of `args` that only a
// folder takes (one of the folder's flags not in the command's own lists),
// e.g. "--sort applies to a dump folder only (hlolayout memory DIR)".
absl::Status CheckNoFolderOnlyFlags(absl::string_view command, const Args& args,
                                    absl::Span<const absl::string_view> own);

// A folder's flags, checked (ParseDumpFolderFlags).
struct DumpFolderFlags {
  DumpFolderOrder order = DumpFolderOrder::kFile;  // --sort's
  int64_t threads = 0;                             // --threads's
  bool keep_going = false;
  bool json = false;
};

// Reads the folder's flags of `args` for `command` into `flags`: --json,
// --summary, --keep-going, --threads=N and --sort=KEY (ParseSortKey;
// default `default_order`); any other flag is a usage error. 0, or 2 after
// the usage error printed.
int ParseDumpFolderFlags(absl::string_view command, const Args& args,
                         DumpFolderOrder default_order, DumpFolderFlags& flags,
                         IoContext& io);

// The folder's files mapped (cli/input.h) as SummarizeDumpFolder reads them.
DumpFileOpener MappedDumpFileOpener(IoContext& io);

// Prints `table` (views/dump_folder_text.h; JSON with `json`), its warnings
// and errors on standard error, and NoModuleFilesError when no file holds a
// module. Exit status: 0, 1 when a file could not be read or has errors, or
// no file holds a module.
int PrintDumpFolderTable(absl::string_view command, absl::string_view folder,
                         const DumpFolderTable& table, bool json,
                         IoContext& io);

// `report DIR`'s table (`memory DIR` is answered by
// answers/memory_folder.h). Flags: --json,
// --summary, --keep-going, --threads=N and --sort=KEY (ParseSortKey;
// default `default_order`); any other flag is a usage error. Exit status 0, 1
// when a file could not be read (the table still lists the others), 2 for usage
// errors.
int RunDumpFolder(absl::string_view command, const Args& args,
                  DumpFolderOrder default_order, IoContext& io);

// The help paragraph both commands include.
extern const absl::string_view kDumpFolderHelp;

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
