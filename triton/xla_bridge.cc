#include "hlolayout/triton/xla_bridge.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/triton/layout_utils.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

absl::Status Err(absl::string_view m) { return absl::InvalidArgumentError(m); }

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int Log2(int64_t v) { return 63 - __builtin_clzll(static_cast<uint64_t>(v)); }

// An offset bit of a bit permutation: the dim it moves and which bit of it.
using DimBit = std::pair<int, int>;

// Each offset bit of `l` as (dim, bit); refused when a bit moves more than
// one index bit.
absl::StatusOr<std::vector<DimBit>> OffsetBits(const LinearLayout& l) {
  const int n = l.TotalInDimSizeLog2();
  std::vector<DimBit> bits;
  for (int i = 0; i < n; ++i) {
    int dim = -1, bit = -1;
    for (int o = 0; o < l.num_out_dims(); ++o) {
      const int32_t v = l.BasisValue(0, i, o);
      if (v == 0) continue;
      if (dim >= 0 || !IsPow2(v)) {
        return Err(
            "not a bit permutation: an offset bit moves a swizzled "
            "combination of index bits, which XLA cannot tile");
      }
      dim = o;
      bit = Log2(v);
    }
    bits.emplace_back(dim, bit);
  }
  return bits;
}

// A run of consecutive bits of one dim.
struct Run {
  int dim, start, len;
};

// The runs of bits[from, to).
std::vector<Run> Runs(const std::vector<DimBit>& bits, int from, int to) {
  std::vector<Run> out;
  for (int i = from; i < to; ++i) {
    if (!out.empty() && out.back().dim == bits[i].first &&
        out.back().start + out.back().len == bits[i].second) {
      ++out.back().len;
    } else {
      out.push_back({bits[i].first, bits[i].second, 1});
    }
  }
  return out;
}

// The offset bits cut in two: a tile (the low bits) and the counts of
// tiles (the high bits).
struct TileSplit {
  std::vector<Run> tile_runs;
  std::vector<int> tile_log2;    // each dim's bits in the tile
  std::vector<int> count_order;  // the dims of the counts, minor first
};

// The tile and counts when the first `split` offset bits are the tile; none
// when a dim's tile bits are not its low bits in one run, or its count bits
// not the rest in one run.
std::optional<TileSplit> SplitTileAndCounts(const std::vector<DimBit>& bits,
                                            int split,
                                            const std::vector<int>& dim_bits) {
  const int rank = static_cast<int>(dim_bits.size());
  TileSplit t;
  t.tile_runs = Runs(bits, 0, split);
  const std::vector<Run> count_runs =
      Runs(bits, split, static_cast<int>(bits.size()));
  t.tile_log2.assign(rank, 0);
  std::vector<bool> seen(rank, false);
  for (const Run& r : t.tile_runs) {
    if (seen[r.dim] || r.start != 0) return std::nullopt;
    seen[r.dim] = true;
    t.tile_log2[r.dim] = r.len;
  }
  std::vector<bool> counted(rank, false);
  for (const Run& r : count_runs) {
    if (counted[r.dim] || r.start != t.tile_log2[r.dim] ||
        r.start + r.len != dim_bits[r.dim]) {
      return std::nullopt;
    }
    counted[r.dim] = true;
    t.count_order.push_back(r.dim);
  }
  return t;
}

// Physical order, minor to major: the order of the counts, with the dims
// entirely inside the tile placed by the tile's order and size-1 dims last.
std::vector<int> MinorToMajor(const TileSplit& t, int rank) {
  std::vector<int> minor_to_major;
  std::vector<bool> added(rank, false);
  auto add = [&](int d) {
    if (!added[d]) {
      added[d] = true;
      minor_to_major.push_back(d);
    }
  };
  size_t ti = 0;
  for (int d : t.count_order) {
    if (t.tile_log2[d] > 0) {
      while (ti < t.tile_runs.size() && t.tile_runs[ti].dim != d) {
        add(t.tile_runs[ti++].dim);
      }
      if (ti < t.tile_runs.size()) ++ti;
    }
    add(d);
  }
  for (; ti < t.tile_runs.size(); ++ti) add(t.tile_runs[ti].dim);
  for (int d = 0; d < rank; ++d) add(d);
  return minor_to_major;
}

// ":T(...)": the tile covers the physical dims up to the last tiled one
// (size 1 for untiled dims among them); "" without tiled dims.
std::string TileText(const TileSplit& t,
                     const std::vector<int>& minor_to_major) {
  int last_tiled = -1;
  for (int p = 0; p < static_cast<int>(minor_to_major.size()); ++p) {
    if (t.tile_log2[minor_to_major[p]] > 0) last_tiled = p;
  }
  if (last_tiled < 0) return "";
  std::vector<int64_t> tile;
  for (int p = last_tiled; p >= 0; --p) {
    tile.push_back(int64_t{1} << t.tile_log2[minor_to_major[p]]);
  }
  return absl::StrCat(":T(", absl::StrJoin(tile, ","), ")");
}

}  // namespace

absl::StatusOr<LinearLayout> XlaToLinear(const Shape& shape) {
  if (!shape.IsArray()) return Err("an XLA layout of an array shape is needed");
  for (bool dynamic : shape.dynamic_dimensions()) {
    if (dynamic) return Err("dynamic dims have no fixed layout");
  }
  const auto dims = shape.dimensions();
  for (int64_t d : dims) {
    if (!IsPow2(d) || d > (int64_t{1} << 30)) {
      return Err(absl::StrCat("dim of size ", d,
                              " is not a power of two (up to 2^30)"));
    }
  }
  if (shape.has_layout() && shape.layout().element_size_in_bits() != 0) {
    return Err("E(n) element packing is not expressible as a LinearLayout");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(TiledIndexer ix, TiledIndexer::Create(shape));
  if (ix.padded_elements() != ix.logical_elements()) {
    return Err(absl::StrCat("the layout pads ", ix.logical_elements(),
                            " elements to ", ix.padded_elements(),
                            ": padding is not expressible as a LinearLayout"));
  }
  const int rank = static_cast<int>(dims.size());
  const int64_t n = ix.logical_elements();
  const int bits = Log2(n);
  if (bits > kMaxTotalBits) return Err("layout too large");
  std::vector<int64_t> index(rank);
  DimBases bases;
  for (int k = 0; k < bits; ++k) {
    ix.ElementAtOffsetInElements(int64_t{1} << k, absl::MakeSpan(index));
    bases.emplace_back(index.begin(), index.end());
  }
  NamedInts outs;
  for (int d = 0; d < rank; ++d) {
    outs.emplace_back(absl::StrCat("dim", d), static_cast<int32_t>(dims[d]));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout l, LinearLayout::Create({{"offset", bases}}, outs, false));
  // Linear by construction; confirm on every offset of small arrays and on
  // a fixed sample of large ones.
  std::vector<int32_t> in(1), out(rank);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  const int64_t checks = std::min<int64_t>(n, 1 << 14);
  for (int64_t c = 0; c < checks; ++c) {
    int64_t off = c;
    if (n > checks) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      off = static_cast<int64_t>(x % static_cast<uint64_t>(n));
    }
    ix.ElementAtOffsetInElements(off, absl::MakeSpan(index));
    in[0] = static_cast<int32_t>(off);
    l.ApplyIndexed(in, absl::MakeSpan(out));
    for (int d = 0; d < rank; ++d) {
      if (out[d] != index[d]) {
        return Err(
            "the layout is not linear over F2 (an offset's index is "
            "not the XOR of its bits' indices)");
      }
    }
  }
  return l;
}

absl::StatusOr<std::string> LinearToXla(const LinearLayout& l,
                                        PrimitiveType type) {
  if (l.num_in_dims() != 1) {
    return Err("an XLA layout is a map from one in-dim (the offset)");
  }
  const int rank = l.num_out_dims();
  for (int o = 0; o < rank; ++o) {
    if (l.out_dim_name(o) != absl::StrCat("dim", o)) {
      return Err("the out-dims must be dim0, dim1, ...");
    }
  }
  if (!l.IsInvertible()) return Err("the layout is not a bijection");
  HLOLAYOUT_ASSIGN_OR_RETURN(const std::vector<DimBit> bits, OffsetBits(l));
  std::vector<int> dim_bits(rank);
  for (int o = 0; o < rank; ++o) dim_bits[o] = l.OutDimSizeLog2(o);
  std::vector<int64_t> dims;
  for (int o = 0; o < rank; ++o) dims.push_back(l.OutDimSize(o));
  const std::string dims_text = absl::StrJoin(dims, ",");
  for (int split = 0; split <= static_cast<int>(bits.size()); ++split) {
    std::optional<TileSplit> t = SplitTileAndCounts(bits, split, dim_bits);
    if (!t.has_value()) continue;
    const std::vector<int> minor_to_major = MinorToMajor(*t, rank);
    std::string text = absl::StrCat(PrimitiveTypeName(type), "[", dims_text,
                                    "]{", absl::StrJoin(minor_to_major, ","),
                                    TileText(*t, minor_to_major), "}");
    // Checked by converting back.
    absl::StatusOr<Shape> shape = ParseShape(text);
    if (!shape.ok()) continue;
    absl::StatusOr<LinearLayout> back = XlaToLinear(*shape);
    if (!back.ok()) continue;
    if (back->flat_bases() == l.flat_bases()) return text;
  }
  return Err("no XLA layout with at most one tile gives this bit permutation");
}

}  // namespace hlolayout::triton
