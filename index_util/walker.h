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

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "index_util/tiled_indexer.h"
#include "layout/tiled_index.h"

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
    const int64_t base0 = ix.Offset(idx);
    for (int64_t e = 0; e < last_size;) {
      idx[last] = e;
      int64_t stride, count;
      const int64_t offset = ix.OffsetRun(idx, &stride, &count);
      runs.push_back(Run{e, offset - base0, stride, count});
      e += count;
    }
    while (true) {
      idx[last] = 0;
      const int64_t base = ix.Offset(idx);
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

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_WALKER_H_
