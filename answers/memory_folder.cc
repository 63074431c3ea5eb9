#include "hlolayout/answers/memory_folder.h"

#include <utility>

namespace hlolayout::answers {

absl::StatusOr<MemoryFolderAnswer> AnswerMemoryFolder(
    const MemoryFolderRequest& request, const DumpFileOpener& open) {
  absl::StatusOr<DumpFolderListing> listing =
      ListDumpFolder(request.path.empty() ? request.folder : request.path);
  if (!listing.ok()) return listing.status();
  listing->folder = request.folder;  // as the user wrote it
  DumpFolderOptions options;
  options.threads = request.threads;
  options.keep_going = request.keep_going;
  options.analyze_memory = true;
  MemoryFolderAnswer answer;
  answer.table = SummarizeDumpFolder(*listing, options, open);
  SortDumpFolderRows(request.order, &answer.table.rows);
  return answer;
}

}  // namespace hlolayout::answers
