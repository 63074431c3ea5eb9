// triton/named_layouts.h: Triton's named layouts (TTGIR encodings and Gluon
// layout classes) and their conversion to LinearLayout, as Triton 3.6.0
// converts them (docs/triton.md, "Named layouts").
//
//   // #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
//   //               warpsPerCTA = [4, 1], order = [1, 0]}>
//   Layout blocked = Layout(BlockedLayout{{1, 4}, {4, 8}, {4, 1}, {1, 0}});
//   LinearLayout l = *ToLinearLayout(blocked, {128, 64});
//   // in-dims register, lane, warp, block; out-dims dim0, dim1
//
// Distributed layouts (blocked, slice, NVIDIA MMA, dot operand, linear)
// give in-dims register, lane, warp, block; shared layouts (swizzled,
// NVMMA, shared linear) give offset, block. Out-dims are dim0, dim1, ...
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
};

// #ttg.linear and #ttg.shared_linear: a LinearLayout given directly.
struct LinearEncoding {
  LinearLayout layout;
};
struct SharedLinearEncoding {
  LinearLayout layout;
  int32_t alignment = 1;
};

class Layout;

// #ttg.slice: `parent` with dim `dim` removed.
struct SliceLayout {
  int32_t dim = 0;
  std::shared_ptr<const Layout> parent;
};

// #ttg.dot_op: operand op_idx (0 = A, 1 = B) of a dot whose result has the
// `parent` layout (NVIDIA MMA or blocked).
struct DotOperandLayout {
  int32_t op_idx = 0;
  std::shared_ptr<const Layout> parent;
  int32_t k_width = 0;
};

class Layout {
 public:
  using Variant =
      std::variant<BlockedLayout, SliceLayout, NvidiaMmaLayout,
                   DotOperandLayout, LinearEncoding, SwizzledSharedLayout,
                   NvmmaSharedLayout, SharedLinearEncoding>;

  Layout(Variant v) : v_(std::move(v)) {}  // NOLINT: a layout of any kind
  const Variant& value() const { return v_; }
  template <typename T>
  const T* get() const {
    return std::get_if<T>(&v_);
  }
  // Shared-memory layouts (in-dims offset, block) as opposed to
  // distributed (register) ones.
  bool is_shared() const;
  // The TTGIR attribute name: "blocked", "slice", "nvidia_mma", "dot_op",
  // "linear", "swizzled_shared", "nvmma_shared", "shared_linear".
  const char* kind_name() const;

 private:
  Variant v_;
};

// ToLinearLayout
//
// The layout of a tensor of `shape` (Triton's toLinearLayout, plus the
// check Triton 3.6.0 makes when it wraps a distributed result in a
// LinearEncodingAttr: every basis moves in at most one dim).
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
