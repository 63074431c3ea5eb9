// answers/memory_folder.h: the answer of `hlolayout memory DIR` (and
// hl.memory(DIR)): one row per module of a --xla_dump_to folder, most
// allocated first, as one value built by one call; views/dump_folder_text.h
// writes it (text, or the JSON of its field list,
// report/dump_folder_record.h).
//
//   answers::MemoryFolderRequest request;
//   request.folder = "/tmp/xla_dump";
//   absl::StatusOr<answers::MemoryFolderAnswer> a =
//       answers::AnswerMemoryFolder(request, open);
//   a->table.rows[0].module           // "jit_train_step"
//   a->table.rows[0].allocated_bytes  // what XLA allocates (memory/)
//   a->table.rows[0].peak_bytes       // the live-range peak (memory/)
//
// The memory figures of each row come from memory/module_figures.h; the
// listing, the reading of the files on all cores and the columns on the
// buffers the modules define are report/dump_folder.h's, which
// `hlolayout report DIR` shares (its own table, by buffers).
#ifndef HLOLAYOUT_ANSWERS_MEMORY_FOLDER_H_
#define HLOLAYOUT_ANSWERS_MEMORY_FOLDER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/report/dump_folder.h"

namespace hlolayout::answers {

// What is asked: the CLI's `memory DIR` flags and hl.memory(DIR)'s
// arguments, checked by them.
struct MemoryFolderRequest {
  // The folder as the user wrote it: the table's name and messages.
  std::string folder;
  // Where it is read ("": `folder`), e.g. with ~ resolved.
  std::string path;
  // Threads in all (0: one per core, at most 8).
  int64_t threads = 0;
  // DumpFolderOptions::keep_going.
  bool keep_going = false;
  // The rows' order (--sort's folder order).
  DumpFolderOrder order = DumpFolderOrder::kAllocated;
};

// The folder's table, its rows in the request's order.
struct MemoryFolderAnswer {
  DumpFolderTable table;

  // No file of the folder holds a module (most likely the wrong folder):
  // NoModuleFilesError's case.
  bool no_module_files() const {
    return table.rows.empty() && table.failed.empty();
  }
};

// AnswerMemoryFolder
//
// The table of the folder: every module file read with `open` (the CLI
// maps files, tests give strings), one row per module with what XLA will
// allocate and the live-range peak of scheduled modules. Files that fail
// are in table.failed. Errors: the folder cannot be read.
absl::StatusOr<MemoryFolderAnswer> AnswerMemoryFolder(
    const MemoryFolderRequest& request, const DumpFileOpener& open);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_MEMORY_FOLDER_H_
