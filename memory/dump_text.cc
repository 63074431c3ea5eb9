#include "hlolayout/memory/dump_text.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/give_back.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/opcode.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {

std::vector<std::string> UnknownOpcodeWarnings(
    absl::string_view text, absl::string_view file_name,
    const std::vector<HloModule>& modules) {
  struct Unknown {
    absl::string_view opcode;
    int64_t instructions;
    size_t offset;
  };
  std::vector<Unknown> unknown;
  absl::flat_hash_map<absl::string_view, size_t> index;  // into unknown
  for (const HloModule& module : modules) {
    // Counted as it was read: most modules have none to look for.
    if (module.unknown_opcodes == 0) continue;
    for (const HloComputation& computation : module.computations) {
      for (const HloInstruction& in : computation.instructions) {
        if (in.opcode != HloOpcode::kUnknown) continue;
        auto [it, added] = index.try_emplace(in.opcode_name(), unknown.size());
        if (!added) {
          ++unknown[it->second].instructions;
          continue;
        }
        // The caret under the opcode when it is a view into the text.
        const bool in_text =
            in.opcode_name().data() >= text.data() &&
            in.opcode_name().data() < text.data() + text.size();
        unknown.push_back({in.opcode_name(), 1,
                           in_text ? static_cast<size_t>(
                                         in.opcode_name().data() - text.data())
                                   : in.offset});
      }
    }
  }
  std::vector<std::string> out;
  OffsetLocator locator(text);  // the offsets come in text order
  for (const Unknown& u : unknown) {
    out.push_back(FormatDiagnostic(
        text, u.offset, UnknownOpcodeWarning(u.opcode, u.instructions),
        file_name, &locator));
  }
  return out;
}

absl::Status ForEachDumpModule(absl::string_view text,
                               const DumpTextOptions& options,
                               std::vector<std::string>* warnings,
                               const DumpModuleVisitor& visit,
                               std::vector<HloModule>* keep) {
  HloReadOptions read;
  read.file_name = options.file_name;
  read.passed = options.text_passed;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, read, nullptr, options.threads);
  if (!modules.ok()) return modules.status();
  if (modules->empty()) return NoHloModuleError(text, options.file_name);
  if (options.text_read) options.text_read();
  absl::Status status;
  // XLA:TPU's target_arguments file beside the dump, read once when needed.
  absl::optional<std::string> target_arguments;
  // The reader counted them: without any, no instruction is looked at again.
  const bool unknown = std::any_of(
      modules->begin(), modules->end(),
      [](const HloModule& module) { return module.unknown_opcodes != 0; });
  for (size_t m = 0; m < modules->size(); ++m) {
    HloModule& own = (*modules)[m];
    const HloModule& module = own;
    std::function<void(absl::Span<const int32_t>)> operands_read;
    if (options.give_back_operands) {
      operands_read = [&own](absl::Span<const int32_t> computations) {
        GiveBackOperandLists(&own, computations);
      };
    }
    absl::StatusOr<DumpModuleMemory> analysed;
    const auto analyse = [&] {
      const absl::Status checked =
          CheckEntryComputationLayout(text, module, options.file_name);
      if (!checked.ok()) {
        analysed = checked;
        return;
      }
      const DumpPlatform platform =
          ChooseDumpPlatform(module, options.file_name, options.platform);
      absl::optional<TpuGeneration> generation;
      if (platform == DumpPlatform::kTpu && options.tpu_buffers) {
        if (!target_arguments.has_value()) {
          target_arguments =
              ReadXlaTpuTargetArguments(options.file_name).value_or("");
        }
        generation = TpuGenerationFor(module, *target_arguments, options.tpu);
      }
      analysed = AnalyzeDumpModule(module, platform, options.xla_creation_order,
                                   options.threads, operands_read,
                                   options.tpu_buffers, generation);
      if (!analysed.ok() && !options.file_name.empty()) {
        const absl::Status& e = analysed.status();
        analysed = absl::Status(
            e.code(), absl::StrCat(options.file_name, ": ", e.message()));
      }
    };
    if (m == 0 && warnings != nullptr && unknown) {
      // Every instruction's opcode is looked at for the warnings while the
      // first module is analysed (both only read the modules).
      RunSideBySide(options.threads != 1, analyse, [&] {
        *warnings = UnknownOpcodeWarnings(text, options.file_name, *modules);
      });
    } else {
      if (m == 0 && warnings != nullptr) warnings->clear();
      analyse();
    }
    if (!analysed.ok()) {
      status = analysed.status();
      break;
    }
    status = visit(module, *analysed);
    if (!status.ok()) break;
  }
  // The vector moves whole: the modules stay where the answers saw them.
  if (keep != nullptr) *keep = *std::move(modules);
  return status;
}

}  // namespace hlolayout
