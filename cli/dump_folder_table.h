// cli/dump_folder_table.h: `hlolayout report DIR` and `hlolayout memory DIR`,
// one table for a whole dump folder (report/dump_folder.h).
//
//   hlolayout report /tmp/xla_dump                # largest buffers first
//   hlolayout memory --sort=expansion /tmp/xla_dump
//   hlolayout report --json /tmp/xla_dump
#ifndef HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
#define HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/report/dump_folder.h"

namespace hlolayout::cli {

// True when the command's only positional argument names a folder.
bool IsFolderArgument(const Args& args);

// The folder table for `command` ("report" or "memory"). Flags: --json,
// --threads=N and --sort=file|module|instructions|buffers|padding|expansion|
// allocated|peak (default `default_order`); any other flag is a usage error.
// Exit status 0, 1 when a file could not be read (the table still lists the
// others), 2 for usage errors.
int RunDumpFolder(absl::string_view command, const Args& args,
                  DumpFolderOrder default_order, IoContext& io);

// The help paragraph both commands include.
extern const absl::string_view kDumpFolderHelp;

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_DUMP_FOLDER_TABLE_H_
