// The opcode table of hlo/opcode.h: names by enumerator, and enumerators by
// name through a hash index built before main.
#include "hlolayout/hlo/opcode.h"

#include <cstddef>
#include <cstdint>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/names.h"

namespace hlolayout {
namespace {

constexpr absl::string_view kNames[kHloOpcodeCount] = {
#define HLOLAYOUT_HLO_OPCODE_NAME(e, text) text,
    HLOLAYOUT_HLO_OPCODES(HLOLAYOUT_HLO_OPCODE_NAME)
#undef HLOLAYOUT_HLO_OPCODE_NAME
        "",  // kWrappedAsync
    "",      // kUnknown
};

// Enumerators by the hash of their text: open addressing over a power of
// two about four times the number of opcodes, so most lookups probe once.
class OpcodeIndex {
 public:
  OpcodeIndex() {
    for (size_t s = 0; s < kSlots; ++s) slots_[s] = kEmpty;
    for (int k = 0; k < static_cast<int>(HloOpcode::kWrappedAsync); ++k) {
      size_t s = hlo_internal::NameHash(kNames[k]) & (kSlots - 1);
      while (slots_[s] != kEmpty) s = (s + 1) & (kSlots - 1);
      slots_[s] = static_cast<uint8_t>(k);
    }
  }
  HloOpcode Find(absl::string_view text) const {
    for (size_t s = hlo_internal::NameHash(text) & (kSlots - 1);
         slots_[s] != kEmpty; s = (s + 1) & (kSlots - 1)) {
      if (hlo_internal::SameName(kNames[slots_[s]], text)) {
        return static_cast<HloOpcode>(slots_[s]);
      }
    }
    return HloOpcode::kUnknown;
  }

 private:
  static constexpr size_t kSlots = 512;
  static constexpr uint8_t kEmpty = 0xff;
  static_assert(kHloOpcodeCount < kEmpty, "opcodes fit in a byte");
  uint8_t slots_[kSlots];
};

// Built on first use: other tables built before main look opcodes up.
const OpcodeIndex& Index() {
  static const OpcodeIndex* const index = new OpcodeIndex;
  return *index;
}

// The opcodes whose `-start`/`-done` forms are opcodes of their own, and
// `async` itself: their suffixed texts are not sugar.
bool HasStartDoneOfItsOwn(absl::string_view op) {
  static constexpr absl::string_view kOwn[] = {"async",
                                               "all-reduce",
                                               "all-gather",
                                               "copy",
                                               "send",
                                               "recv",
                                               "all-to-all",
                                               "ragged-all-to-all",
                                               "collective-permute",
                                               "reduce-scatter",
                                               "collective-broadcast"};
  for (absl::string_view own : kOwn) {
    if (op == own) return true;
  }
  return false;
}

}  // namespace

HloOpcode HloOpcodeOf(absl::string_view text) {
  const HloOpcode opcode = Index().Find(text);
  if (opcode != HloOpcode::kUnknown) return opcode;
  return HloAsyncSugarOf(text).stage >= 0 ? HloOpcode::kWrappedAsync
                                          : HloOpcode::kUnknown;
}

HloCallKind HloCallKindOf(HloOpcode caller) {
  switch (caller) {
    case HloOpcode::kWhile:
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kAsyncStart:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
      return HloCallKind::kControlFlow;
    default:
      return HloCallKind::kEmbedded;
  }
}

absl::string_view HloOpcodeName(HloOpcode opcode) {
  const int k = static_cast<int>(opcode);
  return k >= 0 && k < kHloOpcodeCount ? kNames[k] : absl::string_view();
}

HloAsyncSugar HloAsyncSugarOf(absl::string_view text) {
  static constexpr absl::string_view kSuffixes[3] = {"-start", "-update",
                                                     "-done"};
  for (int stage = 0; stage < 3; ++stage) {
    if (!absl::EndsWith(text, kSuffixes[stage])) continue;
    const absl::string_view op =
        text.substr(0, text.size() - kSuffixes[stage].size());
    if (op.empty() || HasStartDoneOfItsOwn(op)) return {};
    return {stage, op};
  }
  return {};
}

std::string UnknownOpcodeWarning(absl::string_view opcode,
                                 int64_t instructions) {
  return absl::StrCat(
      "warning: unknown opcode '", opcode, "' (", instructions,
      instructions == 1 ? " instruction" : " instructions", ", read with ",
      instructions == 1 ? "its shape" : "their shapes", " as written)");
}

}  // namespace hlolayout
