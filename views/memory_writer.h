// views/memory_writer.h: what `hlolayout memory FILE...` prints, built by
// the library: each module of a dump's text analysed (memory/dump_text.h) and
// written in one of the command's forms, so that the CLI only parses flags,
// opens files and hands their text here.
//
//   HloModule jit_f, is_scheduled=true, entry_computation_layout=...
//   ENTRY %main (p: f32[1024]) -> f32[1024] { ... }
//
//   MemoryWriterOptions options;
//   options.form = MemoryForm::kJson;
//   MemoryWriter writer(options);
//   std::ostringstream out, warnings;
//   out << writer.Start();
//   absl::Status s = writer.WriteText(text, read_options, out, warnings);
//   out << writer.Finish();   // "[{...}]\n": one object per module
//
// Forms: kText (what XLA will allocate, memory_analysis() and the peak with
// its values; for XLA:TPU memory/tpu_memory.h's answer and each memory
// space's peak), kJson (answers/memory.h), kXla, kXlaBuffers, kXlaUsage
// (XLA's own -live-range, -buffer-assignment and -memory-usage-report dump
// files) and kHtml (one page for every module written, returned by Finish).
#ifndef HLOLAYOUT_VIEWS_MEMORY_WRITER_H_
#define HLOLAYOUT_VIEWS_MEMORY_WRITER_H_

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"

namespace hlolayout {

enum class MemoryForm { kText, kJson, kHtml, kXla, kXlaBuffers, kXlaUsage };

// The form of --format=NAME ("text", "xla", "xla-buffers", "xla-usage");
// none for another name.
absl::optional<MemoryForm> MemoryFormNamed(absl::string_view name);

struct MemoryWriterOptions {
  MemoryForm form = MemoryForm::kText;
  // Values listed at each peak (0: all).
  int64_t top = 20;
  // The peak of this memory space only (-1: all memory, and each space's
  // when there are several; for XLA:TPU each space's).
  int64_t space = -1;
  // --tpu: the generation an XLA:TPU module was compiled for, where its
  // dump does not say (TpuMemoryOptions::requested).
  absl::optional<TpuGeneration> tpu;
};

// Writes the answers of the texts given, in order. Not thread-safe.
class MemoryWriter {
 public:
  explicit MemoryWriter(const MemoryWriterOptions& options);

  // Reads, analyses and writes every module of `text` to `out`; unknown
  // opcodes' warnings go to `warnings` before the first module's answer.
  // `keep` as ForEachDumpModule's. Returns the first error (nothing more is
  // written for this text; what was written stays).
  absl::Status WriteText(absl::string_view text,
                         const DumpTextOptions& read_options, std::ostream& out,
                         std::ostream& warnings,
                         std::vector<HloModule>* keep = nullptr);

  // Writes one module's answer (`module` is the one it was made from). An
  // XLA:TPU module read with DumpTextOptions::tpu_buffers gets the answer
  // of memory/tpu_memory.h (the chip from XLA:TPU's *.target_arguments.txt
  // beside `file_name` when there is one, else MemoryWriterOptions::tpu);
  // without tpu_buffers, its live ranges only.
  absl::Status WriteModule(const HloModule& module,
                           const DumpModuleMemory& analysed,
                           absl::string_view file_name, std::ostream& out);

  // What begins the output, before the first text: "[" for JSON.
  std::string Start() const;

  // What ends the output after the last text: "]\n" for JSON, the whole
  // page for HTML, nothing for text forms.
  std::string Finish();

 private:
  MemoryWriterOptions options_;
  bool first_ = true;
  int module_index_ = 0;
  std::ostringstream page_;
};

// The text form of one module: `m` null for an XLA:TPU module, whose
// allocations are not modelled (its live ranges only).
std::string ModuleMemoryText(const MemoryAnalysis& live_ranges,
                             const ModuleMemory* m, int64_t top, int64_t space);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_MEMORY_WRITER_H_
