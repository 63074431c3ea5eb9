// report/dump_folder.h: one table for a whole `--xla_dump_to` folder.
//
//   hlolayout report /tmp/xla_dump      # every module of the folder
//   hlolayout memory /tmp/xla_dump      # the same table, most allocated first
//
//   DumpFolderListing listing = *ListDumpFolder("/tmp/xla_dump");
//   DumpFolderTable table = SummarizeDumpFolder(listing, options, opener);
//   table.rows[0].module        // "jit_train_step"
//   table.rows[0].buffer_bytes  // padded bytes of the values it defines
//   table.rows[0].allocated_bytes  // what XLA allocates, when scheduled
//   table.rows[0].peak_bytes       // XLA's live-range peak, when scheduled
//
// XLA writes hundreds of files per run into a dump folder: each module before
// and after optimizations, its buffer assignment, live ranges, memory usage,
// and non-text files. ListDumpFolder picks the module files: the
// `*after_optimizations.txt` files when there are any, else every `.txt`
// file that holds a module (an `HloModule` line near its start); every other
// file is listed as skipped, with the reason. SummarizeDumpFolder reads them
// on all cores and gives one row per module: instructions, the buffers it
// defines (logical and padded bytes, padding, expansion; report/report.h)
// and, for scheduled modules, what XLA will allocate (its buffer
// assignment, memory/buffer_assignment.h) and the peak of its live ranges
// (memory/live_range.h). Files are read largest first, and a file starts
// only while the files being read add up to no more bytes than the largest
// one, so a folder of 500 files needs about the memory of its largest file.
#ifndef HLOLAYOUT_REPORT_DUMP_FOLDER_H_
#define HLOLAYOUT_REPORT_DUMP_FOLDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/report/report.h"

namespace hlolayout {

struct DumpFolderFile {
  std::string path;  // folder + "/" + name
  std::string name;  // the file name alone
  int64_t bytes = 0;
};

struct SkippedDumpFile {
  std::string name;
  std::string reason;  // "not a .txt file", ...
};

struct DumpFolderListing {
  std::string folder;
  std::vector<DumpFolderFile> files;     // to read, by name
  std::vector<SkippedDumpFile> skipped;  // by name
};

// ListDumpFolder
//
// The module files of `folder` (not its subfolders) and the other files with
// why they are skipped. Errors: the folder cannot be read ("cannot read
// folder 'x': No such file or directory").
absl::StatusOr<DumpFolderListing> ListDumpFolder(const std::string& folder);

// One module of one file.
struct DumpFolderRow {
  std::string file;    // its name in the folder
  std::string module;  // the HloModule name ("" without a header line)
  int64_t computations = 0;
  int64_t instructions = 0;
  // The values the module defines (ModuleTotals::buffer_bytes).
  int64_t buffer_values = 0;
  int64_t buffer_logical_bytes = 0;
  int64_t buffer_padded_bytes = 0;
  bool buffer_overflow = false;  // a sum stopped at INT64_MAX
  bool scheduled = false;        // is_scheduled=true
  // Scheduled modules (-1 when not scheduled or the analysis failed, which
  // `peak_error` says): what XLA will allocate by its buffer assignment
  // (memory/buffer_assignment.h: arguments + temp + outputs - aliases, for
  // the platform the file name or the module tells), compiled.
  // memory_analysis()'s figures, and the peak of XLA's live ranges over all
  // memory spaces.
  // "gpu" or "cpu"; "tpu" for modules that look like XLA:TPU's, whose
  // allocations are not modelled (allocated_bytes -1, peak_bytes set).
  std::string platform;
  int64_t allocated_bytes = -1;
  XlaMemoryStats memory_analysis;
  int64_t peak_bytes = -1;
  std::string peak_error;

  int64_t padding_bytes() const {
    return buffer_padded_bytes - buffer_logical_bytes;
  }
  // padded / logical; 1 when logical is 0.
  double expansion() const;
  // The table's cells for what XLA allocates and the peak: "2.0 KiB (gpu)",
  // "n/a (tpu)", "error" (scheduled, no answer) or "not scheduled".
  std::string allocated_text() const;
  std::string peak_text() const;
};

struct FailedDumpFile {
  std::string name;
  std::string error;  // the reader's located message
};

// An opcode the reader does not know (report/report.h, UnknownOpcode), over
// the whole folder: its instructions are read with their shapes as written.
struct DumpFolderUnknownOpcode {
  std::string opcode;
  int64_t instructions = 0;        // in all files
  std::vector<std::string> files;  // the files that use it, by name
  // Located at its first use in the first of `files`:
  // "a.txt:4:17: warning: unknown opcode 'x' (3 instructions in 2 files:
  // a.txt, b.txt; read with their shapes as written)\n<line>\n<caret>"
  // (one file: "(2 instructions, read with ...)", as for a single file).
  std::string warning;
};

struct DumpFolderTable {
  std::string folder;
  std::vector<DumpFolderRow> rows;       // by file name, then module order
  std::vector<SkippedDumpFile> skipped;  // from the listing
  std::vector<FailedDumpFile> failed;    // files that could not be read
  // One per opcode name, in order of first use (files by name); the CLI
  // warns of each on standard error.
  std::vector<DumpFolderUnknownOpcode> unknown_opcodes;
  // With DumpFolderOptions::keep_going: the errors of the instructions left
  // out, "file:L:C: message\n<line>\n<caret>", files in name order.
  std::vector<std::string> errors;
  int64_t files_read = 0;
  // The most file bytes being read at one time (at most the largest file's
  // size, or one file when a file alone is larger).
  int64_t max_bytes_in_flight = 0;
};

// A file's text while it is summarized; the CLI maps files
// (cli/input.h), tests give strings.
class DumpFileText {
 public:
  virtual ~DumpFileText() = default;
  virtual absl::string_view text() const = 0;
};
using DumpFileOpener =
    std::function<absl::StatusOr<std::unique_ptr<DumpFileText>>(
        const DumpFolderFile& file)>;

struct DumpFolderOptions {
  // Threads in all (0: one per core, at most 8). A file that is read alone
  // (it is larger than half the largest) is read in parts on all of them;
  // smaller files take one each.
  int64_t threads = 0;
  // Run the live-range analysis of scheduled modules (peak_bytes).
  bool analyze_memory = true;
  // Read each file with HloReadOptions::keep_going: a bad instruction is
  // left out (its error in DumpFolderTable::errors) instead of failing the
  // file.
  bool keep_going = false;
};

// SummarizeDumpFolder
//
// One row per module of every listed file. A file that fails to read or
// parse goes to `failed` and the others go on. Rows are in file name order
// whatever the threads did; so are the unknown opcodes of the files read.
DumpFolderTable SummarizeDumpFolder(const DumpFolderListing& listing,
                                    const DumpFolderOptions& options,
                                    const DumpFileOpener& open);

// The row of one module of a full report (report.h: ModuleReport::memory
// set by BuildReport with keep_rows) read from `file`: the same
// figures SummarizeDumpFolder gives, from analyses already made.
DumpFolderRow DumpFolderRowOf(const ModuleReport& module,
                              const std::string& file);

// The rows' order for display.
enum class DumpFolderOrder {
  kFile,          // file name, then module order
  kModule,        // module name
  kInstructions,  // most first
  kBuffers,       // most padded buffer bytes first
  kPadding,       // most padding bytes first
  kExpansion,     // largest expansion first
  kAllocated,     // most allocated by XLA first (unscheduled last)
  kPeak,          // largest live-range peak first (unscheduled last)
};

// One --sort vocabulary (the CLI's --sort, Python's sort=) for files, globs and
// folders: what each key orders a file's instructions, the modules of files,
// and a folder's table by (kSortKeysHelp says it in words).
struct SortKey {
  RowOrder rows = RowOrder::kText;
  ModuleOrder modules = ModuleOrder::kText;
  DumpFolderOrder folder = DumpFolderOrder::kFile;
  // The modules of a folder's full report, in the folder table's order.
  ModuleOrder folder_modules = ModuleOrder::kText;
  bool needs_analysis = false;  // allocated, peak: the full report only
};

// order|file, name|module, padded, buffers, padding, expansion,
// instructions, allocated, peak; false for anything else.
bool ParseSortKey(absl::string_view name, SortKey* key);

// The keys and what they sort, for --help.
extern const absl::string_view kSortKeysHelp;
// "order|file, name|module, padded, buffers, padding, expansion,
// instructions, allocated or peak", for errors.
extern const absl::string_view kSortKeyList;

// A folder's order by any key of ParseSortKey; false for anything else.
bool ParseDumpFolderOrder(absl::string_view name, DumpFolderOrder* order);

// The error for a folder in which no file holds a module (most likely the
// wrong folder): `hlolayout report|memory DIR` exit 1 with it, hl.report()
// and hl.memory() raise it.
absl::Status NoModuleFilesError(absl::string_view folder);

// Stable: ties keep file order.
void SortDumpFolderRows(DumpFolderOrder order,
                        std::vector<DumpFolderRow>* rows);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_DUMP_FOLDER_H_
