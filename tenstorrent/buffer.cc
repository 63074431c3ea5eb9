#include "hlolayout/tenstorrent/buffer.h"

namespace hlolayout::tenstorrent {

absl::string_view MemoryLayoutName(TensorMemoryLayout v) {
  switch (v) {
    case TensorMemoryLayout::kInterleaved:
      return "INTERLEAVED";
    case TensorMemoryLayout::kHeightSharded:
      return "HEIGHT_SHARDED";
    case TensorMemoryLayout::kWidthSharded:
      return "WIDTH_SHARDED";
    case TensorMemoryLayout::kBlockSharded:
      return "BLOCK_SHARDED";
    case TensorMemoryLayout::kNdSharded:
      return "ND_SHARDED";
  }
  return "?";
}

absl::string_view BufferTypeName(BufferType v) {
  // In the enum's order.
  static constexpr absl::string_view kNames[] = {"DRAM", "L1", "SYSTEM_MEMORY",
                                                 "L1_SMALL", "TRACE"};
  return kNames[static_cast<int>(v)];
}

bool IsSharded(TensorMemoryLayout v) {
  return v != TensorMemoryLayout::kInterleaved;
}

absl::Span<const TensorMemoryLayout> AllMemoryLayouts() {
  static constexpr TensorMemoryLayout kAll[] = {
      TensorMemoryLayout::kInterleaved, TensorMemoryLayout::kHeightSharded,
      TensorMemoryLayout::kWidthSharded, TensorMemoryLayout::kBlockSharded,
      TensorMemoryLayout::kNdSharded};
  return kAll;
}

absl::Span<const BufferType> AllBufferTypes() {
  static constexpr BufferType kAll[] = {
      BufferType::kDram, BufferType::kL1, BufferType::kSystemMemory,
      BufferType::kL1Small, BufferType::kTrace};
  return kAll;
}

}  // namespace hlolayout::tenstorrent
