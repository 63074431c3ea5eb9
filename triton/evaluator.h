// triton/evaluator.h: applying a LinearLayout fast, to many inputs.
//
//   // Column-wise (what Python's vectorised apply and pictures call):
//   std::vector<int32_t> reg(n), lane(n), warp(n), block(n), d0(n), d1(n);
//   ApplyBatch(l, {reg.data(), lane.data(), warp.data(), block.data()},
//              {d0.data(), d1.data()}, n);  // d0[i], d1[i] = L(inputs i)
//
//   LayoutEvaluator e(l);                  // tables built once
//   uint64_t packed = e.Apply(e.Pack({reg, lane, warp, block}));
//   int32_t row = e.Out(packed, 0);        // out-dim 0
//   std::vector<uint64_t> all(l.TotalInDimSize());
//   e.ApplyAll(absl::MakeSpan(all));       // all[x] = Apply(x), every x
//
// Inputs are packed as the layout's bits in order (in-dim d at bit
// InDimOffset(d), low bits first), outputs as out-dim values side by side
// (out-dim o at bit OutShift(o)). Apply XORs one precomputed table entry per
// byte of input (2 lookups for 16 input bits) instead of one basis per set
// bit; ApplyAll fills every input in Gray-code style order with one XOR per
// element. Matches LinearLayout::Apply on every input (tested).
#ifndef HLOLAYOUT_TRITON_EVALUATOR_H_
#define HLOLAYOUT_TRITON_EVALUATOR_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

class LayoutEvaluator {
 public:
  explicit LayoutEvaluator(const LinearLayout& l);

  // The packed input of one value per in-dim (bits above each in-dim's size
  // are dropped, as Apply does).
  uint64_t Pack(absl::Span<const int32_t> ins) const;

  uint64_t Apply(uint64_t in) const {
    const uint64_t* t = tables_.data();
    if (chunks_ <= 2) {  // up to 16 input bits: two lookups
      return t[in & 0xff] ^ t[256 + ((in >> 8) & 0xff)];
    }
    uint64_t r = 0;
    for (int k = 0; k < chunks_; ++k, in >>= 8) r ^= t[256 * k + (in & 0xff)];
    return r;
  }

  int32_t Out(uint64_t packed, int o) const {
    return static_cast<int32_t>((packed >> out_shift_[o]) & out_mask_[o]);
  }
  // Where out-dim o starts in a packed output (0 for an out-dim of size 1).
  int OutShift(int o) const { return out_shift_[o]; }

  // Every input in order: out[x] = Apply(x) for x < out.size()
  // (precondition: out.size() <= 2^TotalInDimSizeLog2()).
  void ApplyAll(absl::Span<uint64_t> out) const;

 private:
  std::vector<int> in_offset_, in_bits_;
  std::vector<int> out_shift_;
  std::vector<uint64_t> out_mask_;
  std::vector<uint64_t> basis_;  // packed output of each input bit
  // 256 entries per byte of input (at least two tables, zero when unused).
  std::vector<uint64_t> tables_;
  int chunks_ = 0;
};

// ApplyBatch
//
// L at n inputs given column-wise: ins[d][i] is in-dim d of input i (in-dim
// order), outs[o][i] receives out-dim o. Bits above an in-dim's size are
// ignored, as LinearLayout::Apply ignores them (negative values included:
// their low bits count). Over blocks of inputs: the in-dims packed as Pack
// packs them and the outputs unpacked (loops the compiler vectorises), and
// LayoutEvaluator::Apply between, one table lookup per byte of input bits
// (2 for up to 16).
// Preconditions: ins.size() == num_in_dims(), outs.size() == num_out_dims(),
// every pointer valid for n values (n >= 0).
void ApplyBatch(const LinearLayout& l, absl::Span<const int32_t* const> ins,
                absl::Span<int32_t* const> outs, int64_t n);
void ApplyBatch(const LinearLayout& l, absl::Span<const int64_t* const> ins,
                absl::Span<int32_t* const> outs, int64_t n);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_EVALUATOR_H_
