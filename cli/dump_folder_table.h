// cli/dump_folder_table.h: `hlolayout report DIR` and `hlolayout memory DIR`,
// one table for a whole dump folder (report/dump_folder.h).
//
//   hlolayout report /tmp/xla_dump                # largest buffers first
//   hlolayout memory --sort=expansion /tmp/xla_dump
//   hlolayout report --json /tmp/xla_dump
#ifndef HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
#define HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/report/dump_folder.h"

namespace hlolayout::cli {

// True when the command's only positional argument names a folder.
bool IsFolderArgument(const Args& args);

// The flags a folder takes (kDumpFolderHelp lists them): --json, --summary
// (the table is the summary), --threads=N and --sort=KEY. `report` and
// `memory` accept these in ParseArgs beside their own flags, so that a
// folder's flags reach RunDumpFolder.
inline constexpr absl::string_view kDumpFolderSwitches[] = {"json", "summary"};
inline constexpr absl::string_view kDumpFolderValued[] = {"sort", "threads"};

// `own` plus the folder's flags, for ParseArgs.
std::vector<absl::string_view> WithDumpFolderFlags(
    std::vector<absl::string_view> own, bool switches);

// For a command given files: a usage error for a flag of `args` that only a
// folder takes (one of the folder's flags not in the command's own lists),
// e.g. "--sort applies to a dump folder only (hlolayout memory DIR)".
absl::Status CheckNoFolderOnlyFlags(absl::string_view command, const Args& args,
                                    absl::Span<const absl::string_view> own);

// The folder table for `command` ("report" or "memory"). Flags: --json,
// --summary, --threads=N and --sort=file|module|instructions|buffers|
// padding|expansion|allocated|peak (default `default_order`); any other flag
// is a usage error. Exit status 0, 1 when a file could not be read (the
// table still lists the others), 2 for usage errors.
int RunDumpFolder(absl::string_view command, const Args& args,
                  DumpFolderOrder default_order, IoContext& io);

// The help paragraph both commands include.
extern const absl::string_view kDumpFolderHelp;

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
