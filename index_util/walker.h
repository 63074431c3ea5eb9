// index_util/walker.h: visit every element of a tiled array, in logical or
// in physical order, without any division in the inner loop.
//
//   TiledIndexer ix =
//   *TiledIndexer::Create(*ParseShape("f32[3,5]{1,0:T(2,2)}"));
//   ForEachElementInLogicalOrder(ix, [](absl::Span<const int64_t> idx,
//                                       int64_t offset) { ... });
//   // (0,0)->0 (0,1)->1 (0,2)->4 (0,3)->5 (0,4)->8 (1,0)->2 ...
//   ForEachOffsetInPhysicalOrder(ix, [](int64_t offset, OffsetKind kind,
//                                       absl::Span<const int64_t> idx) {...});
//   // 0:(0,0) 1:(0,1) 2:(1,0) 3:(1,1) 4:(0,2) ... 9: tile padding ...
//
// Both walks go by runs: a run is a stretch where the offset (logical
// order) or one index coordinate (physical order) advances by a constant
// step. TiledIndexer::OffsetRun / ElementRun compute each run's start with
// the precompiled multiply-shift program; inside a run the visitor is
// called in a plain increment loop (an odometer), which the compiler can
// inline and vectorise. For f32[4096,4096]{1,0:T(8,128)} the runs are 128
// elements long.
//
// Logical order is row-major over the logical dims (the LAST dim fastest),
// as XLA's IndexUtil::BumpIndices. Physical order is offset order, padding
// included, 0 to padded_elements() - 1.
#ifndef HLOLAYOUT_INDEX_UTIL_WALKER_H_
#define HLOLAYOUT_INDEX_UTIL_WALKER_H_

#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

// ForEachRunInLogicalOrder
//
// Calls f(absl::Span<const int64_t> start_index, int64_t offset,
// int64_t stride, int64_t count) for each run: the elements start_index,
// start_index + (0,...,0,1), ... (count of them, along the last dim) are at
// offset, offset + stride, ... A rank-0 array is one run of one element.
template <typename F>
void ForEachRunInLogicalOrder(const TiledIndexer& ix, F&& f) {
  if (ix.logical_elements() == 0) return;
  const int64_t rank = ix.rank();
  if (rank == 0) {
    absl::Span<const int64_t> none;
    f(none, int64_t{0}, int64_t{0}, int64_t{1});
    return;
  }
  absl::InlinedVector<int64_t, 8> idx(rank, 0);
  const int64_t last = rank - 1;
  const int64_t last_size = ix.dimensions()[last];
  if (ix.last_dim_separable()) {
    // Every row has the runs of row 0, shifted by the row's base offset.
    struct Run {
      int64_t start, delta, stride, count;
    };
    absl::InlinedVector<Run, 64> runs;
    const int64_t base0 = ix.OffsetInElements(idx);
    for (int64_t e = 0; e < last_size;) {
      idx[last] = e;
      int64_t stride, count;
      const int64_t offset = ix.OffsetRun(idx, &stride, &count);
      runs.push_back(Run{e, offset - base0, stride, count});
      e += count;
    }
    while (true) {
      idx[last] = 0;
      const int64_t base = ix.OffsetInElements(idx);
      for (const Run& r : runs) {
        idx[last] = r.start;
        f(absl::Span<const int64_t>(idx), base + r.delta, r.stride, r.count);
      }
      idx[last] = 0;
      int64_t d = last - 1;
      for (; d >= 0; --d) {
        if (++idx[d] < ix.dimensions()[d]) break;
        idx[d] = 0;
      }
      if (d < 0) return;
    }
  }
  while (true) {
    for (int64_t e = 0; e < last_size;) {
      idx[last] = e;
      int64_t stride, run;
      const int64_t offset = ix.OffsetRun(idx, &stride, &run);
      f(absl::Span<const int64_t>(idx), offset, stride, run);
      e += run;
    }
    idx[last] = 0;
    int64_t d = last - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < ix.dimensions()[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// ForEachElementInLogicalOrder
//
// Calls f(absl::Span<const int64_t> index, int64_t offset) for every
// element, in logical row-major order.
template <typename F>
void ForEachElementInLogicalOrder(const TiledIndexer& ix, F&& f) {
  absl::InlinedVector<int64_t, 8> idx(ix.rank(), 0);
  ForEachRunInLogicalOrder(
      ix, [&](absl::Span<const int64_t> start, int64_t offset, int64_t stride,
              int64_t count) {
        for (size_t i = 0; i < start.size(); ++i) idx[i] = start[i];
        for (int64_t i = 0; i < count; ++i) {
          f(absl::Span<const int64_t>(idx), offset);
          offset += stride;
          if (!idx.empty()) ++idx.back();
        }
      });
}

// ForEachOffsetInPhysicalOrder
//
// Calls f(int64_t offset, OffsetKind kind, absl::Span<const int64_t> index)
// for every offset below padded_elements(); `index` is meaningful only
// when kind == kElement.
template <typename F>
void ForEachOffsetInPhysicalOrder(const TiledIndexer& ix, F&& f) {
  absl::InlinedVector<int64_t, 8> idx(ix.rank(), 0);
  const int64_t end = ix.padded_elements();
  for (int64_t offset = 0; offset < end;) {
    int64_t dim, run;
    const OffsetKind kind =
        ix.ElementRun(offset, absl::MakeSpan(idx), &dim, &run);
    if (kind == OffsetKind::kElement) {
      for (int64_t i = 0; i < run; ++i) {
        f(offset + i, kind, absl::Span<const int64_t>(idx));
        if (dim >= 0) ++idx[dim];
      }
    } else {
      for (int64_t i = 0; i < run; ++i) {
        f(offset + i, kind, absl::Span<const int64_t>(idx));
      }
    }
    offset += run;
  }
}

namespace walker_internal {

// Outputs at least this big are written with non-temporal (streaming)
// stores: they bypass the cache, so the destination is not read first
// (memcpy does the same for large copies). Below it, plain stores leave
// the table in cache for whoever reads it next.
constexpr int64_t kStreamingBytes = int64_t{4} << 20;

// out[i] = base + i * stride for i in [0, count). T is uint32_t, int32_t,
// uint64_t or int64_t; values wrap to T.
template <typename T, bool kStream>
inline void EmitRun(T* out_t, int64_t count, T base_t, T stride_t) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit entries");
  // Unsigned arithmetic: wrapping is defined.
  using U = std::make_unsigned_t<T>;
  U* out = reinterpret_cast<U*>(out_t);
  const U base = static_cast<U>(base_t);
  const U stride = static_cast<U>(stride_t);
  int64_t i = 0;
#if defined(__SSE2__)
  if (kStream) {
    // Scalar head up to 16-byte alignment, then 16-byte streaming stores.
    for (; i < count && (reinterpret_cast<uintptr_t>(out + i) & 15) != 0; ++i) {
      out[i] = static_cast<U>(base + static_cast<U>(i) * stride);
    }
    constexpr int kLanes = 16 / sizeof(T);
    __m128i v, step;
    const U first = static_cast<U>(base + static_cast<U>(i) * stride);
    if (sizeof(T) == 4) {
      const uint32_t f = static_cast<uint32_t>(first);
      const uint32_t s = static_cast<uint32_t>(stride);
      v = _mm_setr_epi32(static_cast<int>(f), static_cast<int>(f + s),
                         static_cast<int>(f + 2 * s),
                         static_cast<int>(f + 3 * s));
      step = _mm_set1_epi32(static_cast<int>(4 * s));
    } else {
      const uint64_t f = static_cast<uint64_t>(first);
      const uint64_t s = static_cast<uint64_t>(stride);
      v = _mm_set_epi64x(static_cast<long long>(f + s),
                         static_cast<long long>(f));
      step = _mm_set1_epi64x(static_cast<long long>(2 * s));
    }
    for (; i + 4 * kLanes <= count; i += 4 * kLanes) {
      __m128i* p = reinterpret_cast<__m128i*>(out + i);
      const __m128i v1 =
          sizeof(T) == 4 ? _mm_add_epi32(v, step) : _mm_add_epi64(v, step);
      const __m128i v2 =
          sizeof(T) == 4 ? _mm_add_epi32(v1, step) : _mm_add_epi64(v1, step);
      const __m128i v3 =
          sizeof(T) == 4 ? _mm_add_epi32(v2, step) : _mm_add_epi64(v2, step);
      _mm_stream_si128(p, v);
      _mm_stream_si128(p + 1, v1);
      _mm_stream_si128(p + 2, v2);
      _mm_stream_si128(p + 3, v3);
      v = sizeof(T) == 4 ? _mm_add_epi32(v3, step) : _mm_add_epi64(v3, step);
    }
    for (; i + kLanes <= count; i += kLanes) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(out + i), v);
      v = sizeof(T) == 4 ? _mm_add_epi32(v, step) : _mm_add_epi64(v, step);
    }
  }
#endif
  // The plain loop (the tail, or everything when not streaming): the
  // compiler vectorises it.
  for (; i < count; ++i)
    out[i] = static_cast<U>(base + static_cast<U>(i) * stride);
}

inline void StreamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace walker_internal

// WriteOffsetsInLogicalOrder
//
// out[i] = the offset of the i-th element in logical (row-major) order:
// f32[3,5]{1,0:T(2,2)} gives 0 1 4 5 8 2 3 6 7 10 12 13 16 17 20. This is
// the gather table that turns the tiled buffer into a row-major array.
// Runs (for T(8,128): 128 consecutive offsets) are written by a vector
// loop; the odometer only moves at run ends. Outputs of 4 MiB and more use
// streaming stores. T is a 32- or 64-bit integer; offsets are truncated
// to T (use 32 bits only when padded_elements() fits).
// CHECKs out.size() == logical_elements() (a short span aborted with a
// message instead of being written past).
template <typename T>
void WriteOffsetsInLogicalOrder(const TiledIndexer& ix, absl::Span<T> out) {
  static_assert(std::is_integral<T>::value, "integer table");
  HLOLAYOUT_CHECK(static_cast<int64_t>(out.size()) == ix.logical_elements())
      << "WriteOffsetsInLogicalOrder: output has " << out.size()
      << " entries, the array has " << ix.logical_elements() << " elements";
  T* p = out.data();
  const bool stream = static_cast<int64_t>(out.size() * sizeof(T)) >=
                      walker_internal::kStreamingBytes;
  auto emit = [&](auto streaming) {
    ForEachRunInLogicalOrder(ix, [&](absl::Span<const int64_t>, int64_t offset,
                                     int64_t stride, int64_t count) {
      walker_internal::EmitRun<T, decltype(streaming)::value>(
          p, count, static_cast<T>(offset), static_cast<T>(stride));
      p += count;
    });
  };
  if (stream) {
    emit(std::true_type());
    walker_internal::StreamFence();
  } else {
    emit(std::false_type());
  }
}

// WriteLogicalIndicesInPhysicalOrder
//
// The inverse table: out[offset] = the row-major linear index of the
// element at `offset`, or all ones (T(-1)) for padding, for every offset
// below padded_elements(). f32[3,5]{1,0:T(2,2)} starts 0 1 5 6 2 3 7 8 4
// -1 9 -1 ... This is the scatter table from the tiled buffer to a
// row-major array, written in memory order. Runs as above.
// CHECKs out.size() == padded_elements().
template <typename T>
void WriteLogicalIndicesInPhysicalOrder(const TiledIndexer& ix,
                                        absl::Span<T> out) {
  static_assert(std::is_integral<T>::value, "integer table");
  HLOLAYOUT_CHECK(static_cast<int64_t>(out.size()) == ix.padded_elements())
      << "WriteLogicalIndicesInPhysicalOrder: output has " << out.size()
      << " entries, the buffer has " << ix.padded_elements() << " elements";
  const int64_t rank = ix.rank();
  // Row-major strides of the logical dims.
  absl::InlinedVector<int64_t, 8> strides(rank, 1);
  for (int64_t d = rank - 1; d > 0; --d) {
    strides[d - 1] = strides[d] * ix.dimensions()[d];
  }
  absl::InlinedVector<int64_t, 8> idx(rank, 0);
  const int64_t end = ix.padded_elements();
  const bool stream = static_cast<int64_t>(out.size() * sizeof(T)) >=
                      walker_internal::kStreamingBytes;
  auto emit = [&](auto streaming) {
    constexpr bool kStream = decltype(streaming)::value;
    for (int64_t offset = 0; offset < end;) {
      int64_t dim, run;
      const OffsetKind kind =
          ix.ElementRun(offset, absl::MakeSpan(idx), &dim, &run);
      if (kind == OffsetKind::kElement) {
        int64_t linear = 0;
        for (int64_t d = 0; d < rank; ++d) linear += idx[d] * strides[d];
        walker_internal::EmitRun<T, kStream>(
            out.data() + offset, run, static_cast<T>(linear),
            static_cast<T>(dim >= 0 ? strides[dim] : 0));
      } else {
        walker_internal::EmitRun<T, kStream>(out.data() + offset, run,
                                             static_cast<T>(-1), T{0});
      }
      offset += run;
    }
  };
  if (stream) {
    emit(std::true_type());
    walker_internal::StreamFence();
  } else {
    emit(std::false_type());
  }
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_WALKER_H_
