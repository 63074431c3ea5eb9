#include "hlolayout/triton/evaluator.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hlolayout::triton {

LayoutEvaluator::LayoutEvaluator(const LinearLayout& l) {
  int shift = 0;
  // A dim of size 1 (0 bits) gets shift or offset 0: after 64 bits of
  // others, shifting by its place (64) would be undefined.
  for (int o = 0; o < l.num_out_dims(); ++o) {
    const int bits = l.OutDimSizeLog2(o);
    out_shift_.push_back(bits == 0 ? 0 : shift);
    out_mask_.push_back(bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    shift += bits;
  }
  for (int d = 0; d < l.num_in_dims(); ++d) {
    in_offset_.push_back(l.InDimSizeLog2(d) == 0 ? 0 : l.InDimOffset(d));
    in_bits_.push_back(l.InDimSizeLog2(d));
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      uint64_t packed = 0;
      for (int o = 0; o < l.num_out_dims(); ++o) {
        packed |=
            static_cast<uint64_t>(static_cast<uint32_t>(l.BasisValue(d, i, o)))
            << out_shift_[o];
      }
      basis_.push_back(packed);
    }
  }
  const size_t n = basis_.size();
  chunks_ = static_cast<int>(std::max<size_t>(2, (n + 7) / 8));
  tables_.assign(256 * static_cast<size_t>(chunks_), 0);
  for (int k = 0; k < chunks_; ++k) {
    uint64_t* t = &tables_[256 * static_cast<size_t>(k)];
    for (int bit = 0; bit < 8; ++bit) {
      const size_t b = 8 * k + bit;
      const uint64_t v = b < n ? basis_[b] : 0;
      const int half = 1 << bit;
      for (int j = 0; j < half; ++j) t[j + half] = t[j] ^ v;
    }
  }
}

uint64_t LayoutEvaluator::Pack(absl::Span<const int32_t> ins) const {
  uint64_t in = 0;
  for (size_t d = 0; d < in_offset_.size(); ++d) {
    const uint64_t mask =
        in_bits_[d] == 0 ? 0 : (uint64_t{1} << in_bits_[d]) - 1;
    in |= (static_cast<uint64_t>(static_cast<uint32_t>(ins[d])) & mask)
          << in_offset_[d];
  }
  return in;
}

void LayoutEvaluator::ApplyAll(absl::Span<uint64_t> out) const {
  // Blocks of 256 inputs share their high bits: one Apply per block, then
  // the low byte's table XORed in (a loop the compiler vectorises).
  const uint64_t* low = tables_.data();
  for (size_t base = 0; base < out.size(); base += 256) {
    const uint64_t high = Apply(base);
    const size_t n = std::min<size_t>(256, out.size() - base);
    uint64_t* dst = out.data() + base;
    for (size_t j = 0; j < n; ++j) dst[j] = low[j] ^ high;
  }
}

namespace {

// The common case in one pass per input: up to 4 in-dims (missing ones read
// in-dim 0 with a zero mask) and kOuts out-dims, unrolled.
template <typename T, int kOuts>
void ApplyFused(const LayoutEvaluator& e, const T* const (&in)[4],
                const uint64_t (&mask)[4], const int (&offset)[4],
                int32_t* const* outs, const int* out_shift,
                const uint64_t* out_mask, int64_t n) {
  int32_t* out[kOuts];
  int shift[kOuts];
  uint64_t bits[kOuts];
  for (int o = 0; o < kOuts; ++o) {
    out[o] = outs[o];
    shift[o] = out_shift[o];
    bits[o] = out_mask[o];
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t packed =
        ((static_cast<uint64_t>(in[0][i]) & mask[0]) << offset[0]) |
        ((static_cast<uint64_t>(in[1][i]) & mask[1]) << offset[1]) |
        ((static_cast<uint64_t>(in[2][i]) & mask[2]) << offset[2]) |
        ((static_cast<uint64_t>(in[3][i]) & mask[3]) << offset[3]);
    const uint64_t r = e.Apply(packed);
    for (int o = 0; o < kOuts; ++o) {
      out[o][i] = static_cast<int32_t>((r >> shift[o]) & bits[o]);
    }
  }
}

template <typename T>
void ApplyBatchImpl(const LinearLayout& l, absl::Span<const T* const> ins,
                    absl::Span<int32_t* const> outs, int64_t n) {
  // Inputs packed as LayoutEvaluator packs them (in-dim d at bit
  // InDimOffset(d)), then one table lookup per byte of the packed input:
  // 2 for layouts of up to 16 input bits.
  const LayoutEvaluator e(l);
  std::vector<int> offset, out_shift;
  std::vector<uint64_t> mask, out_mask;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    offset.push_back(l.InDimSizeLog2(d) == 0 ? 0 : l.InDimOffset(d));
    mask.push_back((uint64_t{1} << l.InDimSizeLog2(d)) - 1);
  }
  for (int o = 0; o < l.num_out_dims(); ++o) {
    out_shift.push_back(e.OutShift(o));
    out_mask.push_back((uint64_t{1} << l.OutDimSizeLog2(o)) - 1);
  }
  const size_t num_outs = outs.size();
  if (!ins.empty() && ins.size() <= 4 && num_outs >= 1 && num_outs <= 4) {
    const T* in[4];
    uint64_t m[4];
    int off[4];
    for (size_t d = 0; d < 4; ++d) {
      const bool real = d < ins.size();
      in[d] = real ? ins[d] : ins[0];
      m[d] = real ? mask[d] : 0;
      off[d] = real ? offset[d] : 0;
    }
    switch (num_outs) {
      case 1:
        return ApplyFused<T, 1>(e, in, m, off, outs.data(), out_shift.data(),
                                out_mask.data(), n);
      case 2:
        return ApplyFused<T, 2>(e, in, m, off, outs.data(), out_shift.data(),
                                out_mask.data(), n);
      case 3:
        return ApplyFused<T, 3>(e, in, m, off, outs.data(), out_shift.data(),
                                out_mask.data(), n);
      default:
        return ApplyFused<T, 4>(e, in, m, off, outs.data(), out_shift.data(),
                                out_mask.data(), n);
    }
  }
  constexpr int64_t kBlock = 1024;
  uint64_t packed[kBlock];
  for (int64_t base = 0; base < n; base += kBlock) {
    const int64_t m = std::min(kBlock, n - base);
    std::fill(packed, packed + m, 0);
    for (size_t d = 0; d < ins.size(); ++d) {
      const T* in = ins[d] + base;
      const uint64_t dim_mask = mask[d];
      const int shift = offset[d];
      for (int64_t i = 0; i < m; ++i) {
        packed[i] |= (static_cast<uint64_t>(in[i]) & dim_mask) << shift;
      }
    }
    for (int64_t i = 0; i < m; ++i) packed[i] = e.Apply(packed[i]);
    for (size_t o = 0; o < outs.size(); ++o) {
      int32_t* out = outs[o] + base;
      const int shift = out_shift[o];
      const uint64_t out_bits = out_mask[o];
      for (int64_t i = 0; i < m; ++i) {
        out[i] = static_cast<int32_t>((packed[i] >> shift) & out_bits);
      }
    }
  }
}

}  // namespace

void ApplyBatch(const LinearLayout& l, absl::Span<const int32_t* const> ins,
                absl::Span<int32_t* const> outs, int64_t n) {
  ApplyBatchImpl(l, ins, outs, n);
}

void ApplyBatch(const LinearLayout& l, absl::Span<const int64_t* const> ins,
                absl::Span<int32_t* const> outs, int64_t n) {
  ApplyBatchImpl(l, ins, outs, n);
}

}  // namespace hlolayout::triton
