#include "hlolayout/python/hlolayout/layout_copy.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace {

// Runs f(begin, end) over [0, n) split between up to `threads` threads.
template <typename F>
void SplitRange(int64_t n, int threads, int64_t min_per_thread, const F& f) {
  const int64_t parts =
      std::max<int64_t>(1, std::min<int64_t>(threads, n / min_per_thread));
  if (parts <= 1) {
    f(int64_t{0}, n);
    return;
  }
  const int64_t step = (n + parts - 1) / parts;
  std::vector<std::thread> pool;
  for (int64_t p = 1; p < parts; ++p) {
    const int64_t begin = p * step, end = std::min(n, begin + step);
    if (begin < end) pool.emplace_back([&f, begin, end] { f(begin, end); });
  }
  f(int64_t{0}, std::min(n, step));
  for (std::thread& t : pool) t.join();
}

template <typename T, bool kToPhysical>
inline void CopyRun(const uint8_t* src, uint8_t* dst, int64_t logical,
                    int64_t physical, int64_t stride, int64_t run) {
  if (kToPhysical) {
    const T* s = reinterpret_cast<const T*>(src) + logical;
    T* d = reinterpret_cast<T*>(dst) + physical;
    if (stride == 1) {
      std::memcpy(d, s, run * sizeof(T));
    } else {
      for (int64_t i = 0; i < run; ++i) d[i * stride] = s[i];
    }
  } else {
    const T* s = reinterpret_cast<const T*>(src) + physical;
    T* d = reinterpret_cast<T*>(dst) + logical;
    if (stride == 1) {
      std::memcpy(d, s, run * sizeof(T));
    } else {
      for (int64_t i = 0; i < run; ++i) d[i] = s[i * stride];
    }
  }
}

struct Bytes16 {
  uint8_t b[16];
};

template <bool kToPhysical>
inline void CopyRunWidth(int64_t width, const uint8_t* src, uint8_t* dst,
                         int64_t logical, int64_t physical, int64_t stride,
                         int64_t run) {
  switch (width) {
    case 1:
      return CopyRun<uint8_t, kToPhysical>(src, dst, logical, physical, stride,
                                           run);
    case 2:
      return CopyRun<uint16_t, kToPhysical>(src, dst, logical, physical, stride,
                                            run);
    case 4:
      return CopyRun<uint32_t, kToPhysical>(src, dst, logical, physical, stride,
                                            run);
    case 8:
      return CopyRun<uint64_t, kToPhysical>(src, dst, logical, physical, stride,
                                            run);
    default:
      return CopyRun<Bytes16, kToPhysical>(src, dst, logical, physical, stride,
                                           run);
  }
}

absl::Status CheckSize(const char* what, size_t got, int64_t expected) {
  if (static_cast<int64_t>(got) == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " buffer has ", got, " bytes, expected ", expected));
}

}  // namespace

absl::StatusOr<LayoutCopy> LayoutCopy::Create(const Shape& shape) {
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError("layout copy needs an array shape");
  }
  if (!shape.is_static()) {
    return absl::InvalidArgumentError(
        "layout copy needs static dimensions (no <=N or ?)");
  }
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (!sizes.ok()) return sizes.status();
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
  if (!ix.ok()) return ix.status();
  LayoutCopy c;
  c.type_ = shape.element_type();
  c.width_ = ByteWidth(c.type_);
  c.bits_ = sizes->element_bits;
  if (c.bits_ != 8 * c.width_ && c.bits_ != 1 && c.bits_ != 2 && c.bits_ != 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "E(", c.bits_, ") packing of ", PrimitiveTypeName(c.type_),
        " is not supported (1, 2 or 4 bits, or the type's own width)"));
  }
  if (c.bits_ < 8 * c.width_ && c.width_ != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("E(", c.bits_, ") packing of ", PrimitiveTypeName(c.type_),
                     " is not supported"));
  }
  c.logical_elements_ = sizes->logical_elements;
  c.physical_bytes_ = sizes->padded_bytes;
  c.indexer_ = std::make_shared<const TiledIndexer>(*std::move(ix));
  const TiledIndexer& t = *c.indexer_;
  if (t.rank() > 0) {
    c.row_length_ = t.dimensions()[t.rank() - 1];
  }
  c.rows_ = c.row_length_ == 0 ? 0 : c.logical_elements_ / c.row_length_;
  if (t.rank() > 0 && c.logical_elements_ > 0 && t.last_dim_separable()) {
    std::vector<int64_t> index(t.rank(), 0);
    const int64_t base = t.Offset(index);
    for (int64_t j = 0; j < c.row_length_;) {
      index[t.rank() - 1] = j;
      int64_t stride = 0, run = 0;
      const int64_t start = t.OffsetRun(index, &stride, &run);
      run = std::min(run, c.row_length_ - j);
      c.row_segments_.push_back({j, start - base, stride, run});
      j += run;
    }
  }
  return c;
}

template <bool kToPhysical>
void LayoutCopy::CopyRows(const uint8_t* src, uint8_t* dst, int64_t row_begin,
                          int64_t row_end) const {
  const TiledIndexer& t = *indexer_;
  const int64_t rank = t.rank();
  if (rank == 0) {
    CopyRunWidth<kToPhysical>(width_, src, dst, 0, t.Offset({}), 1, 1);
    return;
  }
  // The multi-index of the first row.
  std::vector<int64_t> index(rank, 0);
  for (int64_t d = rank - 2, r = row_begin; d >= 0; --d) {
    index[d] = r % t.dimensions()[d];
    r /= t.dimensions()[d];
  }
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t logical = row * row_length_;
    index[rank - 1] = 0;
    if (!row_segments_.empty()) {
      const int64_t base = t.Offset(index);
      for (const Segment& s : row_segments_) {
        CopyRunWidth<kToPhysical>(width_, src, dst, logical + s.j,
                                  base + s.start, s.stride, s.run);
      }
    } else {
      for (int64_t j = 0; j < row_length_;) {
        index[rank - 1] = j;
        int64_t stride = 0, run = 0;
        const int64_t start = t.OffsetRun(index, &stride, &run);
        run = std::min(run, row_length_ - j);
        CopyRunWidth<kToPhysical>(width_, src, dst, logical + j, start, stride,
                                  run);
        j += run;
      }
    }
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++index[d] < t.dimensions()[d]) break;
      index[d] = 0;
    }
  }
}

template <bool kToPhysical>
void LayoutCopy::CopyPacked(const uint8_t* src, uint8_t* dst) const {
  const TiledIndexer& t = *indexer_;
  const int64_t rank = t.rank();
  const uint8_t mask = static_cast<uint8_t>((1u << bits_) - 1);
  const bool sign = IsSignedIntegralType(type_);
  std::vector<int64_t> index(rank, 0);
  for (int64_t e = 0; e < logical_elements_; ++e) {
    const int64_t bit = t.Offset(index) * bits_;
    const int64_t byte = bit >> 3;
    const int shift = static_cast<int>(bit & 7);
    if (kToPhysical) {
      dst[byte] |= static_cast<uint8_t>((src[e] & mask) << shift);
    } else {
      uint8_t v = (src[byte] >> shift) & mask;
      if (sign && (v >> (bits_ - 1)) != 0) v |= static_cast<uint8_t>(~mask);
      dst[e] = v;
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < t.dimensions()[d]) break;
      index[d] = 0;
    }
  }
}

absl::Status LayoutCopy::ToPhysical(absl::Span<const uint8_t> logical,
                                    absl::Span<uint8_t> physical,
                                    int threads) const {
  absl::Status s = CheckSize("logical", logical.size(), logical_bytes());
  if (s.ok()) s = CheckSize("physical", physical.size(), physical_bytes_);
  if (!s.ok()) return s;
  if (physical.empty()) return absl::OkStatus();
  if (bits_ < 8 * width_) {
    std::memset(physical.data(), 0, physical.size());
    CopyPacked<true>(logical.data(), physical.data());
    return absl::OkStatus();
  }
  if (logical_elements_ == 0) {
    std::memset(physical.data(), 0, physical.size());
    return absl::OkStatus();
  }
  // Padding is zero: clear the buffer unless every byte is an element.
  if (physical_bytes_ != logical_bytes()) {
    SplitRange(physical_bytes_, threads, 1 << 22, [&](int64_t b, int64_t e) {
      std::memset(physical.data() + b, 0, e - b);
    });
  }
  if (indexer_->rank() == 0) {
    CopyRows<true>(logical.data(), physical.data(), 0, 1);
    return absl::OkStatus();
  }
  SplitRange(rows_, threads, std::max<int64_t>(1, (1 << 16) / row_length_),
             [&](int64_t b, int64_t e) {
               CopyRows<true>(logical.data(), physical.data(), b, e);
             });
  return absl::OkStatus();
}

absl::Status LayoutCopy::ToLogical(absl::Span<const uint8_t> physical,
                                   absl::Span<uint8_t> logical,
                                   int threads) const {
  absl::Status s = CheckSize("physical", physical.size(), physical_bytes_);
  if (s.ok()) s = CheckSize("logical", logical.size(), logical_bytes());
  if (!s.ok()) return s;
  if (logical_elements_ == 0) return absl::OkStatus();
  if (bits_ < 8 * width_) {
    CopyPacked<false>(physical.data(), logical.data());
    return absl::OkStatus();
  }
  if (indexer_->rank() == 0) {
    CopyRows<false>(physical.data(), logical.data(), 0, 1);
    return absl::OkStatus();
  }
  SplitRange(rows_, threads, std::max<int64_t>(1, (1 << 16) / row_length_),
             [&](int64_t b, int64_t e) {
               CopyRows<false>(physical.data(), logical.data(), b, e);
             });
  return absl::OkStatus();
}

absl::Status RelayoutBytes(const LayoutCopy& from,
                           absl::Span<const uint8_t> src, const LayoutCopy& to,
                           absl::Span<uint8_t> dst, int threads) {
  if (from.type_ != to.type_ ||
      from.indexer_->dimensions() != to.indexer_->dimensions()) {
    return absl::InvalidArgumentError(
        "relayout needs the same element type and dimensions on both sides");
  }
  std::vector<uint8_t> logical(from.logical_bytes());
  absl::Status s = from.ToLogical(src, absl::MakeSpan(logical), threads);
  if (!s.ok()) return s;
  return to.ToPhysical(logical, dst, threads);
}

}  // namespace hlolayout
