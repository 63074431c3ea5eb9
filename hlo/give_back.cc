#include "hlolayout/hlo/give_back.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "hlolayout/util/check.h"
#include "hlolayout/util/pages.h"

namespace hlolayout {
namespace {

using Range = std::pair<uintptr_t, uintptr_t>;  // [begin, end) in bytes

// The blocks of the module's list stores that hold operands, by address;
// none when a store is shared with another module (its pages are then not
// ours to give back).
std::vector<Range> OwnOperandBlocks(const HloModule& module) {
  std::vector<Range> blocks;
  for (const auto& store : module.lists) {
    if (store == nullptr) continue;
    if (store.use_count() != 1) return {};
    for (const absl::Span<HloOperand> block : store->OperandBlocks()) {
      const uintptr_t begin = reinterpret_cast<uintptr_t>(block.data());
      blocks.emplace_back(begin, begin + block.size() * sizeof(HloOperand));
    }
  }
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

// Gives back the whole pages of `run` (lists no instruction views any more)
// that lie in `blocks`: memory the stores own, not the caller's (none when
// `blocks` is empty).
void GiveBackRun(const std::vector<Range>& blocks, Range run) {
  if (run.first == run.second) return;
  // The last block that begins at or before the run, then those after it
  // that the run reaches.
  auto it = std::upper_bound(blocks.begin(), blocks.end(),
                             Range(run.first, UINTPTR_MAX));
  if (it != blocks.begin()) --it;
  for (; it != blocks.end() && it->first < run.second; ++it) {
    const uintptr_t begin = std::max(it->first, run.first);
    const uintptr_t end = std::min(it->second, run.second);
    if (begin < end) {
      DropWholePages(reinterpret_cast<void*>(begin), end - begin);
    }
  }
}

}  // namespace

void GiveBackOperandLists(HloModule* module,
                          absl::Span<const int32_t> computations) {
  const std::vector<Range> blocks = OwnOperandBlocks(*module);
  // The lists of consecutive instructions follow each other in a store's
  // block: one run of them is given back at once.
  Range run(0, 0);
  for (const int32_t c : computations) {
    HLOLAYOUT_CHECK(c >= 0 &&
                    static_cast<size_t>(c) < module->computations.size())
        << "computation " << c << " of " << module->computations.size();
    for (HloInstruction& in : module->computations[c].instructions) {
      const absl::Span<const HloOperand> operands = in.operands();
      if (operands.empty()) continue;
      in.set_operands(absl::Span<const HloOperand>());
      const uintptr_t begin = reinterpret_cast<uintptr_t>(operands.data());
      const uintptr_t end = begin + operands.size() * sizeof(HloOperand);
      if (begin == run.second) {
        run.second = end;
        continue;
      }
      GiveBackRun(blocks, run);
      run = Range(begin, end);
    }
  }
  GiveBackRun(blocks, run);
}

}  // namespace hlolayout
