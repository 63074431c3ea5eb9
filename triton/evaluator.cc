#include "hlolayout/triton/evaluator.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hlolayout::triton {

LayoutEvaluator::LayoutEvaluator(const LinearLayout& l) {
  int shift = 0;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    out_shift_.push_back(shift);
    const int bits = l.OutDimSizeLog2(o);
    out_mask_.push_back(bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    shift += bits;
  }
  for (int d = 0; d < l.num_in_dims(); ++d) {
    in_offset_.push_back(l.InDimOffset(d));
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

}  // namespace hlolayout::triton
