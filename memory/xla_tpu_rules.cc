// memory/xla_tpu_rules.cc: what XLA:TPU's buffer assignment does
// differently from XLA:GPU's and XLA:CPU's, as learned from the files
// XLA:TPU writes (libtpu 0.0.42.1; docs/xla-tpu.md gives each rule with
// its evidence). XLA:TPU's source is not public: nothing here was read in
// it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

// SMEM, the scalar memory (S(2)): values are as large as their elements.
constexpr int64_t kScalarMemorySpace = 2;
// The memory space of a SparseCore async-start's context flag
// (`u32[]{:S(8)}`), as large as its elements too.
constexpr int64_t kSparseCoreFlagSpace = 8;
// The memory space XLA:TPU gives the index tables of the tuples a
// SparseCore computation defines (docs/xla-tpu.md).
constexpr int64_t kSparseCoreTableSpace = 7;

int64_t RoundUp(int64_t n, int64_t to) { return (n + to - 1) / to * to; }

// The elements of `shape` placed as if tiled (8,128) on its two most
// minor dimensions (a scalar as [1,1], a vector as [1,n]); -1 past
// int64.
int64_t ElementsTiled8x128(const Shape& shape) {
  const int64_t rank = static_cast<int64_t>(shape.dimensions().size());
  std::vector<int64_t> minor_first;
  if (shape.has_layout() &&
      static_cast<int64_t>(shape.layout().minor_to_major().size()) == rank) {
    for (int64_t d : shape.layout().minor_to_major()) {
      minor_first.push_back(shape.dimensions()[d]);
    }
  } else {
    for (int64_t d = rank - 1; d >= 0; --d) {
      minor_first.push_back(shape.dimensions()[d]);
    }
  }
  int64_t elements = 1;
  for (size_t k = 0; k < std::max<size_t>(minor_first.size(), 2); ++k) {
    int64_t n = k < minor_first.size() ? minor_first[k] : 1;
    if (k == 0) n = RoundUp(n, 128);
    if (k == 1) n = RoundUp(n, 8);
    if (__builtin_mul_overflow(elements, n, &elements)) return -1;
  }
  return elements;
}

// An array split by its layout's `SC(d:i,...)` (seen on v5p only): the
// padded bytes of its largest piece, physical dimension d (0 the most major)
// cut at the split indices; none for an array without a split.
absl::optional<int64_t> SplitPieceBytes(const Shape& shape) {
  if (!shape.has_layout() || shape.layout().split_configs().empty()) {
    return absl::nullopt;
  }
  const absl::Span<const int64_t> minor_to_major =
      shape.layout().minor_to_major();
  const int64_t rank = shape.rank();
  if (static_cast<int64_t>(minor_to_major.size()) != rank) return absl::nullopt;
  Shape piece = shape;
  for (const SplitConfig& split : shape.layout().split_configs()) {
    if (split.dimension < 0 || split.dimension >= rank) return absl::nullopt;
    const int64_t d = minor_to_major[rank - 1 - split.dimension];
    const int64_t n = shape.dimension(d);
    int64_t largest = 0, from = 0;
    for (int64_t at : split.split_indices) {
      if (at < from || at > n) return absl::nullopt;
      largest = std::max(largest, at - from);
      from = at;
    }
    piece.set_dimension(d, std::max(largest, n - from));
  }
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(piece);
  if (!sizes.ok()) return absl::nullopt;
  return sizes->padded_bytes;
}

}  // namespace

int64_t XlaTpuTupleTableBytes(int64_t elements,
                              absl::optional<TpuGeneration> generation) {
  // 4 bytes an element, rounded up to 512 bytes on v4 and v5e (1 to 107
  // elements: 512; 440: 2048) and to 32 on v5p and v6e (1 to 8: 32, 9 to
  // 16: 64, 107: 448). A generation not known is taken as v4's and v5e's.
  const bool fine =
      generation.has_value() && (*generation == TpuGeneration::kV5p ||
                                 *generation == TpuGeneration::kV6e);
  const int64_t unit = fine ? 32 : 512;
  if (elements <= 0 || elements > (int64_t{1} << 40)) return 0;
  return RoundUp(elements * 4, unit);
}

int64_t XlaTpuBufferBytes(const Shape& shape, int64_t padded_bytes,
                          absl::optional<TpuGeneration> generation) {
  if (shape.IsTuple()) {
    return XlaTpuTupleTableBytes(static_cast<int64_t>(shape.tuple_size()),
                                 generation);
  }
  if (!shape.IsArray()) return padded_bytes;
  // A split array: its largest piece (v5p, `SC(0:16)` on f32[32,128] in
  // VMEM: 8,192 bytes, half the array).
  if (absl::optional<int64_t> piece = SplitPieceBytes(shape)) return *piece;
  const bool tiled = shape.has_layout() && !shape.layout().tiles().empty();
  const int64_t space = shape.has_layout() ? shape.layout().memory_space() : 0;
  if (tiled || space == kScalarMemorySpace || space == kSparseCoreFlagSpace) {
    return padded_bytes;
  }
  // An array with no tiles outside SMEM (a layoutless scalar of a reducer,
  // `s32[2]{0:S(4)}`, `u32[]{:S(6)}`): a whole (8,128) tile of its
  // elements, at least one byte each.
  const int64_t elements = ElementsTiled8x128(shape);
  const int64_t element_bytes =
      std::max<int64_t>(1, (BitWidth(shape.element_type()) + 7) / 8);
  int64_t bytes = 0;
  if (elements < 0 || __builtin_mul_overflow(elements, element_bytes, &bytes)) {
    return padded_bytes;
  }
  return std::max(bytes, padded_bytes);
}

int64_t XlaTpuSparseCoreTableSpace(const Shape& shape,
                                   absl::string_view execution_thread) {
  // Seen on v5p and v6e: an async-start in the computation a `sparsecore`
  // async computation calls (an offloaded scatter's `call-start`); its
  // {} and {0} tables are color 7 with size 0, its flag {2} `S(8)`.
  if (!shape.IsTuple()) return -1;
  absl::string_view thread = execution_thread;
  if (thread.size() >= 2 && thread.front() == '"' && thread.back() == '"') {
    thread = thread.substr(1, thread.size() - 2);
  }
  return thread == "sparsecore" ? kSparseCoreTableSpace : -1;
}

int64_t XlaTpuAlignment(int64_t memory_space) {
  switch (memory_space) {
    case 0:  // HBM
    case 5:  // host memory
      return 16384;
    case 1:  // VMEM
    case 3:  // memory-space assignment's values on v4
      return 4096;
    case kScalarMemorySpace:
      return 4;
    default:
      return 512;
  }
}

bool XlaTpuMustNotLiveOut(HloOpcode opcode) {
  // Observed (docs/xla-tpu.md, "Rules learned"): in XLA:TPU's own files of
  // the four generations, no value of these opcodes is in a maybe-live-out
  // allocation, where the model put them in one the size of a live-out
  // value whose live range they did not meet.
  switch (opcode) {
    case HloOpcode::kAllGather:
    case HloOpcode::kAllToAll:
    case HloOpcode::kCollectivePermute:
    case HloOpcode::kCollectivePermuteStart:
      return true;
    default:
      return false;
  }
}

}  // namespace buffer_internal
}  // namespace hlolayout
