// memory/dump_text.h: the memory answers of one dump file's text, module by
// module: the one call `hlolayout memory FILE` and hl.memory(FILE) make.
//
//   HloModule jit_f, is_scheduled=true, entry_computation_layout=...
//   ...
//   ENTRY %main (p: f32[1024]) -> f32[1024] { ... }
//
//   DumpTextOptions options;
//   options.file_name =
//   "module_0001.jit_f.sm_9.0a_gpu_after_optimizations.txt";
//   std::vector<std::string> warnings;
//   absl::Status s = ForEachDumpModule(
//       text, options, &warnings,
//       [&](const HloModule& module, DumpModuleMemory& m) {
//         // m.platform == DumpPlatform::kGpu (the file name says so)
//         return absl::OkStatus();
//       });
//
// Each module is read (hlo/reader.h, on `threads` threads for a large
// text), checked against its entry_computation_layout (a text cut before
// its ENTRY computation is refused), and analysed under the platform
// ChooseDumpPlatform decides (memory/dump_memory.h).
//
// Preconditions: `text` outlives the call (and `keep`'s modules, which
// point into it).
#ifndef HLOLAYOUT_MEMORY_DUMP_TEXT_H_
#define HLOLAYOUT_MEMORY_DUMP_TEXT_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"

namespace hlolayout {

struct DumpTextOptions {
  // The file's name, for messages and the platform ("" for text that is
  // not a file's).
  std::string file_name;
  // The platform whose rules apply whatever the modules look like; none:
  // ChooseDumpPlatform's guess.
  absl::optional<XlaPlatform> platform;
  // BufferAssignmentOptions::xla_creation_order.
  std::vector<std::string> xla_creation_order;
  // Threads reading a large text (hlo/reader.h) and analysing a large
  // module (MemoryAnalysisOptions::threads); 0: one per idle core.
  int threads = 1;
  // Called once the modules are read, before the first analysis (may be
  // empty). The analyses read little of the text again (the names they
  // print, a few attributes): a caller whose text is a mapped file may give
  // its pages back here (InputText::ReleasePages), a fifth of the peak
  // memory of a 75 MB dump. The text must stay readable.
  std::function<void()> text_read;
  // HloReadOptions::passed, for the reading: the same for the ranges of the
  // text the reading has passed, as it goes (may be empty).
  std::function<void(size_t begin, size_t end)> text_passed;
  // For a caller that reads only the answers (and the modules' names,
  // shapes and attributes): each module's operand lists are given back as
  // soon as its analysis has read them (GiveBackOperandLists,
  // hlo/give_back.h) where that analysis is the live ranges alone
  // (DumpPlatform::kTpu). The instructions of the computations it
  // scheduled then have no operands in the modules handed to `visit` and
  // `keep`. A 75 MB dump's peak falls by 8-9 MiB; `hlolayout memory` and
  // hl.memory() do this.
  bool give_back_operands = false;
  // XLA:TPU modules get the model of XLA:TPU's buffer assignment too
  // (DumpModuleMemory::tpu_buffers), for the texts of XLA's own dump files;
  // their operand lists are then not given back.
  bool tpu_buffers = false;
  // The generation an XLA:TPU module was compiled for, as --tpu says it.
  // The model of its assignment takes the one XLA:TPU's target_arguments
  // file beside `file_name` names first, then this, then the module's
  // memory spaces (TpuGenerationFor).
  absl::optional<TpuGeneration> tpu;
};

using DumpModuleVisitor =
    std::function<absl::Status(const HloModule&, DumpModuleMemory&)>;

// Reads `text` and calls `visit` with each module and its answer, in text
// order, analysing one module at a time (`visit` may move the answer out).
// Returns the first error: the reader's (located), "no HloModule" for text
// without one, the entry check's, an analysis's (prefixed "FILE: " when there
// is a file name), or the one `visit` returns. `warnings` (may be null) gets
// one located warning per opcode the reader does not know, before the first
// module is analysed. `keep` (may be null) is replaced by the modules read,
// at the addresses the answers refer to, for a caller that keeps the answers
// or frees the modules at exit.
absl::Status ForEachDumpModule(absl::string_view text,
                               const DumpTextOptions& options,
                               std::vector<std::string>* warnings,
                               const DumpModuleVisitor& visit,
                               std::vector<HloModule>* keep = nullptr);

// The located warnings of `modules`' unknown opcodes, one per opcode at its
// first use, with its count: "f.txt:4:17: warning: unknown opcode 'x' (3
// instructions, read with their shapes as written)\n<line>\n<caret>".
// A module whose reader counted none (HloModule::unknown_opcodes == 0) is
// not looked at; one not counted (-1) is.
std::vector<std::string> UnknownOpcodeWarnings(
    absl::string_view text, absl::string_view file_name,
    const std::vector<HloModule>& modules);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_DUMP_TEXT_H_
