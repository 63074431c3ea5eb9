// testing/dump_file_reader.h: the files of a dump folder read into strings,
// as SummarizeDumpFolder and AnswerMemoryFolder take them in tests (the CLI
// maps them, cli/dump_folder_table.h).
//
//   DumpFolderTable t = SummarizeDumpFolder(listing, options, ReadDumpFile);
#ifndef HLOLAYOUT_TESTING_DUMP_FILE_READER_H_
#define HLOLAYOUT_TESTING_DUMP_FILE_READER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "hlolayout/report/dump_folder.h"

namespace hlolayout {

// The text of `file`, read whole; NotFound "cannot open NAME" when it cannot
// be opened.
absl::StatusOr<std::unique_ptr<DumpFileText>> ReadDumpFile(
    const DumpFolderFile& file);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_DUMP_FILE_READER_H_
