#include "hlolayout/layout/tiling.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"

namespace hlolayout {
namespace {

absl::Status Overflow(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(what, " overflows int64"));
}

absl::Status CheckMinorToMajor(absl::Span<const int64_t> m2m, int64_t rank) {
  bool ok = static_cast<int64_t>(m2m.size()) == rank;
  std::vector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (!ok) break;
    if (d < 0 || d >= rank || seen[d]) {
      ok = false;
      break;
    }
    seen[d] = true;
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("minor_to_major {", absl::StrJoin(m2m, ","),
                   "} is not a permutation of 0..", rank - 1));
}

// Combines the `*` runs of `tile` over `work` (the leading ones and the
// input): fills `level->combined`, `combined_from` and `tile_sizes`.
absl::Status CombineDims(const Tile& tile, const std::vector<TilingDim>& work,
                         TileLevel* level) {
  const int64_t k = tile.rank();
  const int64_t prefix = static_cast<int64_t>(work.size()) - k;
  level->combined.reserve(work.size());
  level->combined_from.reserve(work.size());
  level->tile_sizes.reserve(k);
  for (int64_t i = 0; i < prefix; ++i) {
    level->combined.push_back(work[i]);
    level->combined_from.push_back({i, i});
  }
  int64_t start = -1;
  int64_t product = 1;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t pos = prefix + j;
    const int64_t t = tile.dimension(j);
    if (t == Tile::kCombineDimension) {
      if (start < 0) start = pos;
      if (__builtin_mul_overflow(product, work[pos].size, &product)) {
        return Overflow("combined dimension");
      }
      continue;
    }
    if (t <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tile ", tile.ToString(), " has a dimension ", t, " (must be > 0)"));
    }
    TilingDim dim = work[pos];
    if (start >= 0) {
      std::vector<TilingDim> parts(work.begin() + start,
                                   work.begin() + pos + 1);
      int64_t logical = -1;
      int nontrivial = 0;
      for (const TilingDim& p : parts) {
        if (p.logical_dimension >= 0 || p.size != 1) {
          ++nontrivial;
          logical = p.logical_dimension;
        }
      }
      if (__builtin_mul_overflow(product, dim.size, &dim.size)) {
        return Overflow("combined dimension");
      }
      dim.logical_dimension = nontrivial == 1 ? logical : -1;
      level->combined_from.push_back({start, pos});
    } else {
      level->combined_from.push_back({pos, pos});
    }
    level->combined.push_back(dim);
    level->tile_sizes.push_back(t);
    start = -1;
    product = 1;
  }
  if (start >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tile ", tile.ToString(),
        " ends with `*`: a combined dimension needs a more minor one"));
  }
  return absl::OkStatus();
}

// Pads each tiled dim of `level->combined` to a multiple of its tile size
// and splits it into (count, tile): fills `padded`, `split`, `permutation`
// (the prefix, then every count, then every in-tile dim) and `output`.
absl::Status SplitTiledDims(TileLevel* level) {
  const int64_t p = level->prefix_rank();
  const int64_t tiled = static_cast<int64_t>(level->tile_sizes.size());
  std::vector<TilingDim> counts, insides;
  counts.reserve(tiled);
  insides.reserve(tiled);
  level->padded.reserve(p + tiled);
  level->split.reserve(p + 2 * tiled);
  level->permutation.reserve(p + 2 * tiled);
  level->output.reserve(p + 2 * tiled);
  for (int64_t i = 0; i < p; ++i) {
    level->padded.push_back(level->combined[i].size);
    level->split.push_back(level->combined[i].size);
    level->permutation.push_back(i);
    level->output.push_back(level->combined[i]);
  }
  for (int64_t i = 0; i < tiled; ++i) {
    const TilingDim& d = level->combined[p + i];
    const int64_t t = level->tile_sizes[i];
    const int64_t count = d.size / t + (d.size % t != 0 ? 1 : 0);
    int64_t padded;
    if (__builtin_mul_overflow(count, t, &padded)) {
      return Overflow("padded dimension");
    }
    level->padded.push_back(padded);
    level->split.push_back(count);
    level->split.push_back(t);
    counts.push_back(TilingDim{count, d.logical_dimension});
    insides.push_back(TilingDim{t, d.logical_dimension});
  }
  for (int64_t i = 0; i < tiled; ++i) level->permutation.push_back(p + 2 * i);
  for (int64_t i = 0; i < tiled; ++i) {
    level->permutation.push_back(p + 2 * i + 1);
  }
  level->output.insert(level->output.end(), counts.begin(), counts.end());
  level->output.insert(level->output.end(), insides.begin(), insides.end());
  return absl::OkStatus();
}

// Applies one tile to `current`, filling `level`.
absl::Status ApplyTile(const Tile& tile, int64_t index,
                       const std::vector<TilingDim>& current,
                       TileLevel* level) {
  level->level = index;
  level->tile = tile;
  level->input = current;
  const int64_t k = tile.rank();
  if (k == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", index, " has no dimensions"));
  }
  const int64_t rank = static_cast<int64_t>(current.size());
  level->leading_ones = k > rank ? k - rank : 0;
  // Every vector is sized once: a layout may have thousands of levels, each
  // with an intermediate shape of thousands of dims.
  std::vector<TilingDim> work;
  work.reserve(level->leading_ones + current.size());
  for (int64_t i = 0; i < level->leading_ones; ++i) {
    work.push_back(TilingDim{1, -1});
  }
  work.insert(work.end(), current.begin(), current.end());
  if (absl::Status s = CombineDims(tile, work, level); !s.ok()) return s;
  return SplitTiledDims(level);
}

// Reads `array_shape`'s dims into `m->logical_dims` and counts its elements;
// refuses unbounded and negative dims and a count past 2^63.
absl::Status ReadLogicalDims(const Shape& array_shape, TilingModel* m) {
  const int64_t rank = array_shape.rank();
  m->logical_elements = 1;
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t d = array_shape.dimension(i);
    if (array_shape.is_unbounded_dynamic_dimension(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", i, " is unbounded (`?`): no size"));
    }
    if (d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", i, " has negative size ", d));
    }
    m->logical_dims.push_back(d);
    if (__builtin_mul_overflow(m->logical_elements, d, &m->logical_elements)) {
      return Overflow("element count");
    }
  }
  return absl::OkStatus();
}

// Each level keeps its whole intermediate shape, so the model grows with
// levels x rank: the ranks are computed first (a tile of k entries, s of
// them `*`, on rank r gives rank max(r,k) - s + (k - s)) and the layout is
// refused before anything is built when they pass the documented limit.
absl::Status CheckTilingModelSize(const Layout& layout, int64_t rank) {
  int64_t dims_used = rank;
  int64_t r = rank;
  for (int64_t i = 0; i < static_cast<int64_t>(layout.tiles().size()); ++i) {
    const Tile& tile = layout.tiles()[i];
    const int64_t k = tile.rank();
    int64_t stars = 0;
    for (int64_t j = 0; j < k; ++j) {
      stars += tile.dimension(j) == Tile::kCombineDimension;
    }
    // Inputs, combined dims and outputs are all kept: count them all.
    const int64_t next = std::max(r, k) - stars + (k - stars);
    const int64_t cost = r + std::max(r, k) + next;
    if (cost > kMaxTilingModelDims - dims_used) {
      return absl::InvalidArgumentError(
          absl::StrCat("tiled layout too large: at tile level ", i, " of ",
                       layout.tiles().size(), " the intermediate shapes pass ",
                       kMaxTilingModelDims, " dimensions in all"));
    }
    dims_used += cost;
    r = next;
  }
  return absl::OkStatus();
}

// From the final dims `current`: the tiled element count, the count after
// the tail alignment L, and the element width (E, or the type's bytes).
absl::Status CountTiledElements(const Layout& layout,
                                const std::vector<TilingDim>& current,
                                TilingModel* m) {
  m->tiled_elements = 1;
  for (const TilingDim& d : current) {
    m->final_dims.push_back(d.size);
    if (__builtin_mul_overflow(m->tiled_elements, d.size, &m->tiled_elements)) {
      return Overflow("tiled element count");
    }
  }
  m->tail_alignment = layout.tail_padding_alignment_in_elements();
  if (m->tail_alignment <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tail padding alignment L(", m->tail_alignment, ") must be > 0"));
  }
  const int64_t rem = m->tiled_elements % m->tail_alignment;
  m->padded_elements = m->tiled_elements;
  if (rem != 0 &&
      __builtin_add_overflow(m->tiled_elements, m->tail_alignment - rem,
                             &m->padded_elements)) {
    return Overflow("tail-aligned element count");
  }
  const int64_t e = layout.element_size_in_bits();
  if (e < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("element size E(", e, ") must be >= 0"));
  }
  m->packed = e != 0;
  m->element_bits = m->packed ? e : 8 * int64_t{ByteWidth(m->element_type)};
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> BytesForElements(int64_t elements, int64_t element_bits,
                                         bool packed) {
  (void)packed;  // ceil(n*bits/8) equals n*bits/8 for whole-byte widths
  const __int128 bits =
      static_cast<__int128>(elements) * static_cast<__int128>(element_bits);
  const __int128 bytes = (bits + 7) / 8;
  if (elements < 0 || element_bits < 0 ||
      bytes > static_cast<__int128>(INT64_MAX)) {
    return Overflow("byte size");
  }
  return static_cast<int64_t>(bytes);
}

absl::StatusOr<TilingModel> BuildTilingModel(const Shape& array_shape) {
  if (!array_shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not an array shape: ", array_shape.ToString()));
  }
  TilingModel m;
  m.element_type = array_shape.element_type();
  const int64_t rank = array_shape.rank();
  absl::Status s = ReadLogicalDims(array_shape, &m);
  if (!s.ok()) return s;
  Layout layout;
  if (array_shape.has_layout()) {
    layout = array_shape.layout();
  } else {
    for (int64_t i = rank - 1; i >= 0; --i) layout.add_minor_to_major(i);
  }
  s = CheckMinorToMajor(layout.minor_to_major(), rank);
  if (!s.ok()) return s;
  m.minor_to_major.assign(layout.minor_to_major().begin(),
                          layout.minor_to_major().end());
  for (int64_t i = rank - 1; i >= 0; --i) {
    const int64_t d = m.minor_to_major[i];
    m.physical.push_back(TilingDim{m.logical_dims[d], d});
  }
  std::vector<TilingDim> current = m.physical;
  s = CheckTilingModelSize(layout, rank);
  if (!s.ok()) return s;
  m.levels.reserve(layout.tiles().size());
  for (int64_t i = 0; i < static_cast<int64_t>(layout.tiles().size()); ++i) {
    TileLevel level;
    s = ApplyTile(layout.tiles()[i], i, current, &level);
    if (!s.ok()) return s;
    m.levels.push_back(std::move(level));
    current = m.levels.back().output;
  }
  s = CountTiledElements(layout, current, &m);
  if (!s.ok()) return s;
  // No byte or bit size is needed to place elements: an offset is an
  // element count, which fits. Sizes are computed (and refused when they
  // overflow) by BytesForElements, in 128-bit arithmetic.
  return m;
}

namespace {

// Labels nest this deep through `*` merges at most; deeper parts are "...".
constexpr int kMaxLabelDepth = 4;
// At most this many "tiles (Tn)" / "in tile (Tn)" steps are spelled out:
// the innermost ones and the outermost, with a count of those left out.
constexpr size_t kMaxLabelSteps = 6;

std::string OutputLabel(const TilingModel& m, int64_t level, int64_t index,
                        int depth);

// Label of entries [first, last] of (leading 1s + input) at `level`.
std::string PartsLabel(const TilingModel& m, int64_t level, int64_t first,
                       int64_t last, int depth) {
  const TileLevel& l = m.levels[level];
  if (first == last) {
    return first < l.leading_ones
               ? std::string("leading 1")
               : OutputLabel(m, level - 1, first - l.leading_ones, depth);
  }
  if (depth >= kMaxLabelDepth) return "(...)";
  std::vector<std::string> labels;
  bool all_roots = true;
  for (int64_t j = first; j <= last; ++j) {
    labels.push_back(PartsLabel(m, level, j, j, depth + 1));
    const std::string& label = labels.back();
    all_roots = all_roots && absl::StartsWith(label, "dim ") &&
                label.find(' ', 4) == std::string::npos;
  }
  if (all_roots) {
    for (std::string& label : labels) label = label.substr(4);
    return absl::StrCat("dims ", absl::StrJoin(labels, "*"));
  }
  return absl::StrCat("(", absl::StrJoin(labels, ")*("), ")");
}

// Label of dim `index` of the shape after tile level `level` (-1: the
// physical shape). Walks back through the levels, collecting one step per
// level that split the dim, so it costs O(levels) time and no more memory
// than the (bounded) label.
std::string OutputLabel(const TilingModel& m, int64_t level, int64_t index,
                        int depth) {
  std::vector<std::pair<int64_t, bool>> steps;  // (level, inside), outer first
  std::string base;
  while (true) {
    if (level < 0) {
      base = absl::StrCat("dim ", m.physical[index].logical_dimension);
      break;
    }
    const TileLevel& l = m.levels[level];
    const int64_t p = l.prefix_rank();
    const int64_t t = static_cast<int64_t>(l.tile_sizes.size());
    int64_t c = index;
    if (index >= p) {
      const bool inside = index >= p + t;
      c = p + (inside ? index - p - t : index - p);
      steps.push_back({level, inside});
    }
    const auto [first, last] = l.combined_from[c];
    if (first != last || first < l.leading_ones) {
      base = PartsLabel(m, level, first, last, depth);
      break;
    }
    index = first - l.leading_ones;
    --level;
  }
  std::string out = std::move(base);
  auto append = [&](size_t i) {
    const auto& [lvl, inside] = steps[steps.size() - 1 - i];  // inner first
    absl::StrAppend(&out, inside ? " in tile (T" : " tiles (T", lvl, ")");
  };
  if (steps.size() <= kMaxLabelSteps) {
    for (size_t i = 0; i < steps.size(); ++i) append(i);
  } else {
    const size_t head = kMaxLabelSteps - 2;
    for (size_t i = 0; i < head; ++i) append(i);
    absl::StrAppend(&out, " ... (", steps.size() - kMaxLabelSteps,
                    " more tile levels)");
    for (size_t i = steps.size() - 2; i < steps.size(); ++i) append(i);
  }
  return out;
}

}  // namespace

std::string CombinedDimLabel(const TilingModel& model, int64_t level,
                             int64_t index) {
  const auto [first, last] = model.levels[level].combined_from[index];
  return PartsLabel(model, level, first, last, 0);
}

std::string OutputDimLabel(const TilingModel& model, int64_t level,
                           int64_t index) {
  return OutputLabel(model, level, index, 0);
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

std::string DimsToString(const std::vector<TilingDim>& dims) {
  std::vector<int64_t> sizes;
  for (const TilingDim& d : dims) sizes.push_back(d.size);
  return DimsToString(sizes);
}

std::string DescribeTiling(const TilingModel& m) {
  std::string out;
  std::vector<int64_t> physical_order;
  for (const TilingDim& d : m.physical) {
    physical_order.push_back(d.logical_dimension);
  }
  if (physical_order.empty()) {
    absl::StrAppend(&out, "physical [] (rank 0: one element, no dims)\n");
  } else {
    absl::StrAppend(&out, "physical ", DimsToString(m.physical), " (dims ",
                    absl::StrJoin(physical_order, ","), ", major to minor)\n");
  }
  for (const TileLevel& l : m.levels) {
    absl::StrAppend(&out, "T", l.level, " ", l.tile.ToString(), " on ",
                    DimsToString(l.input), ":");
    const bool combines = static_cast<int64_t>(l.combined.size()) !=
                          static_cast<int64_t>(l.input.size()) + l.leading_ones;
    if (l.leading_ones > 0 || combines) {
      absl::StrAppend(&out, " ");
      if (l.leading_ones > 0) {
        absl::StrAppend(&out, "add ", l.leading_ones, " leading 1s, ");
      }
      absl::StrAppend(&out, combines ? "combine " : "", "-> ",
                      DimsToString(l.combined), ",");
    }
    absl::StrAppend(&out, " pad ", DimsToString(l.padded), " reshape ",
                    DimsToString(l.split), " transpose {",
                    absl::StrJoin(l.permutation, ","), "} -> ",
                    DimsToString(l.output), "\n");
  }
  absl::StrAppend(&out, "final ", DimsToString(m.final_dims), ": ",
                  m.tiled_elements, " elements (", m.logical_elements,
                  " logical, ", m.tiled_elements - m.logical_elements,
                  " padding)");
  if (m.tail_alignment != 1) {
    absl::StrAppend(&out, "; L(", m.tail_alignment, ") -> ", m.padded_elements,
                    " elements");
  }
  absl::StrAppend(&out, "\n");
  return out;
}

}  // namespace hlolayout
