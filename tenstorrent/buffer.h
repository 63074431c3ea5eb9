// tenstorrent/buffer.h: where a Tenstorrent buffer lives and how its pages
// are spread, in tt-metal's words (BufferType, TensorMemoryLayout): the
// vocabulary both Tenstorrent models share, the TTNN model (ttnn/) and
// tt-mlir's layouts (ttmlir/), each reading and writing the names its own way
// (ttnn/memory_config.h: "L1_SMALL", "ttnn.BufferType.DRAM"; ttmlir/
// ttmlir_attrs.h: "l1_small", "dram").
//
//   INTERLEAVED     pages dealt round-robin over every bank
//                   (InterleavedPage below);
//   HEIGHT_SHARDED, WIDTH_SHARDED, BLOCK_SHARDED
//                   a 2-D plane cut into shards, one per core;
//   ND_SHARDED      shards of any rank (TTNN only; tt-mlir has another
//                   attribute for it).
//
//   BufferTypeName(BufferType::kL1Small) == "L1_SMALL"
//   InterleavedPage(13, 12) == BankPage{1, 1}
#ifndef HLOLAYOUT_TENSTORRENT_BUFFER_H_
#define HLOLAYOUT_TENSTORRENT_BUFFER_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout::tenstorrent {

enum class TensorMemoryLayout {
  kInterleaved,
  kHeightSharded,
  kWidthSharded,
  kBlockSharded,
  kNdSharded,
};
// tt-metal's buffer types: DRAM, L1, SYSTEM_MEMORY (the host), L1_SMALL and
// TRACE.
enum class BufferType { kDram, kL1, kSystemMemory, kL1Small, kTrace };

// tt-metal's names, upper case: "HEIGHT_SHARDED", "DRAM", "SYSTEM_MEMORY".
absl::string_view MemoryLayoutName(TensorMemoryLayout v);
absl::string_view BufferTypeName(BufferType v);

// Every layout but INTERLEAVED.
bool IsSharded(TensorMemoryLayout v);

// Every memory layout and every buffer type, in the enums' order.
absl::Span<const TensorMemoryLayout> AllMemoryLayouts();
absl::Span<const BufferType> AllBufferTypes();

// InterleavedPage
//
// Where an interleaved buffer over `banks` banks keeps its page `page`
// (pages dealt to the banks in turn): bank page mod banks, as the bank's
// (page div banks)-th page. Both models place interleaved pages so.
// Preconditions: page >= 0, banks > 0.
struct BankPage {
  int64_t bank = 0;
  int64_t page_in_bank = 0;
  friend bool operator==(const BankPage& a, const BankPage& b) {
    return a.bank == b.bank && a.page_in_bank == b.page_in_bank;
  }
};
inline BankPage InterleavedPage(int64_t page, int64_t banks) {
  return {page % banks, page / banks};
}

}  // namespace hlolayout::tenstorrent

#endif  // HLOLAYOUT_TENSTORRENT_BUFFER_H_
