// triton/named_layouts.h: Triton's named layouts (TTGIR encodings and Gluon
// layout classes) and their conversion to LinearLayout, as Triton converts
// them (3.6.0 and 3.9.0; where the two differ, the newer unless the text is
// written in the older spelling: docs/triton.md, "Named layouts").
//
//   // #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
//   //               warpsPerCTA = [4, 1], order = [1, 0]}>
//   Layout blocked = Layout(BlockedLayout{{1, 4}, {4, 8}, {4, 1}, {1, 0}});
//   LinearLayout l = *ToLinearLayout(blocked, {128, 64});
//   // in-dims register, lane, warp, block; out-dims dim0, dim1
//
// Distributed layouts (blocked, slice, NVIDIA MMA, AMD MFMA and WMMA, dot
// operand, linear, generic linear) give in-dims register, lane, warp, block;
// shared layouts (swizzled, NVMMA, shared linear, AMD rotating, padded) give
// offset, block (a padded layout: its linear component, the offsets before
// padding; partitioned: offset, block, partition); the tensor memory layouts
// give row, col (and block when written with a CGA layout). Out-dims are
// dim0, dim1, ...
// Shapes must be powers of two. A layout's CGA (how the tensor is split
// across the CTAs of a cluster) is given by block bases, as TTGIR's
// `CGALayout = [[...]]`; empty means one CTA.
// Invalid parameters give an error with Triton's message where Triton has
// one (its attribute verifiers and conversion asserts).
#ifndef HLOLAYOUT_TRITON_NAMED_LAYOUTS_H_
#define HLOLAYOUT_TRITON_NAMED_LAYOUTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// Block bases, one per CTA bit, each with one value per tensor dim (TTGIR's
// CGALayout). Empty: a single CTA.
using CgaBases = std::vector<std::vector<int32_t>>;

// #ttg.blocked: each thread holds size_per_thread elements, a warp
// threads_per_warp threads, a CTA warps_per_cta warps; `order` lists the
// dims fastest first.
struct BlockedLayout {
  std::vector<int32_t> size_per_thread;
  std::vector<int32_t> threads_per_warp;
  std::vector<int32_t> warps_per_cta;
  std::vector<int32_t> order;
  CgaBases cga;
};

// #ttg.nvidia_mma: the accumulator of MMA v2 (Ampere, instr_shape [16, 8])
// or v3 (Hopper wgmma, instr_shape [16, N, K]).
struct NvidiaMmaLayout {
  int version_major = 2;
  int version_minor = 0;
  std::vector<int32_t> warps_per_cta;
  std::vector<int32_t> instr_shape;
  CgaBases cga;
};

// #ttg.swizzled_shared (older dumps: #triton_gpu.shared): rows of `order`
// are XOR-swizzled by vec * ((row / per_phase) % max_phase).
struct SwizzledSharedLayout {
  int32_t vec = 1;
  int32_t per_phase = 1;
  int32_t max_phase = 1;
  std::vector<int32_t> order;
  CgaBases cga;
};

// #ttg.nvmma_shared: the 32/64/128-byte swizzles TMA and wgmma use (0: no
// swizzle).
struct NvmmaSharedLayout {
  int32_t swizzle_bytes = 128;
  bool transposed = false;
  int32_t element_bits = 16;
  bool fp4_padded = false;
  CgaBases cga;
  int32_t rank = 2;  // without a CGA layout (`rank = N`; 2 when not written)
};

// #ttg.linear and #ttg.shared_linear: a LinearLayout given directly.
struct LinearEncoding {
  LinearLayout layout;
};
struct SharedLinearEncoding {
  LinearLayout layout;
  int32_t alignment = 1;
};

// #ttg.amd_mfma: the accumulator of AMD's matrix-core instructions (CDNA,
// 64 lanes per warp); instr_shape is [M, N, K] with (M, N) one of (32, 32),
// (16, 16), (64, 4), (4, 64). tiles_per_warp: one per dim (all 1 if empty).
struct AmdMfmaLayout {
  int32_t version = 0;
  std::vector<int32_t> warps_per_cta;
  std::vector<int32_t> instr_shape;
  bool is_transposed = false;
  std::vector<int32_t> tiles_per_warp;
  int32_t element_bits = 32;
  CgaBases cga;
};

// #ttg.amd_wmma: the accumulator of AMD's WMMA instructions (RDNA3 = v1,
// RDNA4 = v2, gfx1250 = v3; 32 lanes per warp). Today's spelling gives the
// CTA layout as bases in units of one instruction tile,
// `ctaLayout = {register = [...], warp = [...]}`; Triton 3.6's spelling
// gives warps_per_cta (and tiles_per_warp) instead, and converts
// differently (legacy_warps is then true).
struct AmdWmmaLayout {
  int32_t version = 1;
  bool is_transposed = false;
  DimBases cta_register;
  DimBases cta_warp;
  int32_t rank = 2;
  bool legacy_warps = false;
  std::vector<int32_t> warps_per_cta;   // the 3.6 spelling
  std::vector<int32_t> tiles_per_warp;  // the 3.6 spelling (all 1 if empty)
  std::vector<int32_t> instr_shape = {16, 16, 16};
  CgaBases cga;
};

// #ttg.amd_rotating_shared: like swizzled_shared, the phase of each row
// XORed with its block of max_phase * per_phase rows.
struct AmdRotatingSharedLayout {
  int32_t vec = 1;
  int32_t per_phase = 1;
  int32_t max_phase = 1;
  std::vector<int32_t> order;
  CgaBases cga;
};

// #ttg.padded_shared: `linear` (offset, block -> dims) places the elements
// in order; after every `interval` elements `padding` unused ones follow
// (each pair counted separately, paddings summed).
struct PaddedSharedLayout {
  std::vector<std::pair<int32_t, int32_t>> intervals;  // (interval, padding)
  LinearLayout linear;
};

// #ttg.generic_linear: a distributed layout given by its bases; unlike
// #ttg.linear its warp bases may move in several dims.
struct GenericLinearEncoding {
  LinearLayout layout;
};

// #ttng.tensor_memory_encoding: Blackwell tensor memory, rows (lanes of the
// TMEM) x 32-bit columns. Today's spelling splits across CTAs with a CGA
// layout; Triton 3.6's with CTASplitM / CTASplitN (legacy_split true).
struct TensorMemoryLayout {
  int32_t block_m = 128;
  int32_t block_n = 128;
  int32_t col_stride = 1;
  CgaBases cga;
  bool two_ctas = false;
  bool fp4_padded = false;
  bool legacy_split = false;
  int32_t cta_split_m = 1;  // the 3.6 spelling
  int32_t cta_split_n = 1;
};

// #ttng.tensor_memory_scales_encoding: the block scales of a scaled MMA in
// tensor memory (k_then_mn: blockRepOrder = kThenMn).
struct TensorMemoryScalesLayout {
  CgaBases cga;
  bool k_then_mn = false;
  bool legacy_split = false;
  int32_t cta_split_m = 1;  // the 3.6 spelling
  int32_t cta_split_n = 1;
};

class Layout;

// #ttg.partitioned_shared: the tensor cut along partition_dim into
// num_partitions * num_groups pieces of `partition_layout`; piece i lives in
// partition i % num_partitions.
struct PartitionedSharedLayout {
  int32_t num_partitions = 2;
  int32_t num_groups = 1;
  int32_t partition_dim = 0;
  std::shared_ptr<const Layout> partition_layout;
};

// #ttg.slice: `parent` with dim `dim` removed.
struct SliceLayout {
  int32_t dim = 0;
  std::shared_ptr<const Layout> parent;
};

// #ttg.dot_op: operand op_idx (0 = A, 1 = B) of a dot whose result has the
// `parent` layout (NVIDIA MMA, AMD MFMA or WMMA, or blocked).
struct DotOperandLayout {
  int32_t op_idx = 0;
  std::shared_ptr<const Layout> parent;
  int32_t k_width = 0;
};

class Layout {
 public:
  using Variant = std::variant<
      BlockedLayout, SliceLayout, NvidiaMmaLayout, DotOperandLayout,
      LinearEncoding, SwizzledSharedLayout, NvmmaSharedLayout,
      SharedLinearEncoding, AmdMfmaLayout, AmdWmmaLayout, GenericLinearEncoding,
      AmdRotatingSharedLayout, PaddedSharedLayout, PartitionedSharedLayout,
      TensorMemoryLayout, TensorMemoryScalesLayout>;

  Layout(Variant v) : v_(std::move(v)) {}  // NOLINT: a layout of any kind
  const Variant& value() const { return v_; }
  template <typename T>
  const T* get() const {
    return std::get_if<T>(&v_);
  }
  // Shared-memory layouts (in-dims offset, block, ...), tensor memory
  // layouts (row, col, ...), as opposed to distributed (register) ones.
  bool is_shared() const;
  bool is_tensor_memory() const;
  bool is_distributed() const { return !is_shared() && !is_tensor_memory(); }
  // The TTGIR attribute name: "blocked", "slice", "nvidia_mma", "dot_op",
  // "linear", "swizzled_shared", "nvmma_shared", "shared_linear",
  // "amd_mfma", "amd_wmma", "generic_linear", "amd_rotating_shared",
  // "padded_shared", "partitioned_shared", "tensor_memory_encoding",
  // "tensor_memory_scales_encoding".
  const char* kind_name() const;

 private:
  Variant v_;
};

// ToLinearLayout
//
// The layout of a tensor of `shape` (Triton's toLinearLayout, plus the
// check Triton makes when it wraps a distributed result in a
// LinearEncodingAttr: every basis moves in at most one dim). A padded
// layout gives its linear component (Triton's paddedLinearLayout; Triton's
// toLinearLayout refuses padded layouts), a partitioned one over a padded
// layout likewise.
absl::StatusOr<LinearLayout> ToLinearLayout(const Layout& layout,
                                            absl::Span<const int64_t> shape);

// The same, always by the general construction (ToLinearLayout first tries
// the allocation-light path of named_layouts_fast.h; tests compare both).
absl::StatusOr<LinearLayout> ToLinearLayoutGeneral(
    const Layout& layout, absl::Span<const int64_t> shape);

// The layout's rank, from its parameters (0 when only the shape can tell,
// as for a rank-free nvmma_shared).
int LayoutRank(const Layout& layout);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_NAMED_LAYOUTS_H_
