#include "hlolayout/views/layout_picture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout::draw {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

std::string Percent(double f) {
  return absl::StrCat(static_cast<int64_t>(std::floor(f * 100 + 0.5)), "%");
}

// Everything the views need about one shape.
struct Ctx {
  const Shape* shape = nullptr;
  TilingModel model;
  std::optional<TiledIndexer> ix;
  int64_t rank = 0;
  int64_t row_dim = -1, col_dim = -1;  // logical dims drawn
  int64_t tr = 1, tc = 1;  // first-level tile sizes along them (1: none)
  int64_t s0 = 0, s1 = 0;  // slots per first / second level block
  int64_t nt0 = 0;         // number of first-level tiles
  bool sub_byte = false;

  int64_t TileOf(int64_t offset) const { return s0 > 0 ? offset / s0 : 0; }
  int64_t SubOf(int64_t offset) const { return s1 > 0 ? offset / s1 : -1; }
  int64_t ByteOf(int64_t offset) const {
    return sub_byte ? offset * model.element_bits / 8 : -1;
  }
  std::string ByteNote(int64_t offset) const {
    if (!sub_byte) return "";
    const BitPosition p = ix->BitPositionOf(offset);
    return absl::StrCat(" (byte ", p.byte, ", bits ", p.bit, "-",
                        p.bit + model.element_bits - 1, ")");
  }
  // Fraction of the slots of first-level tile `t` that hold elements,
  // from the tile's position (the first level's padding only).
  double TileFill(int64_t t) const {
    const TileLevel& lvl = model.levels[0];
    const int64_t k = static_cast<int64_t>(lvl.tile_sizes.size());
    const int64_t pre = lvl.prefix_rank();
    double valid = 1;
    for (int64_t i = k - 1; i >= 0; --i) {
      const int64_t count = lvl.output[pre + i].size;
      const int64_t c = count > 0 ? t % count : 0;
      t = count > 0 ? t / count : 0;
      const int64_t ts = lvl.tile_sizes[i];
      const int64_t size = lvl.combined[pre + i].size;
      valid *= static_cast<double>(std::min(ts, size - c * ts));
    }
    return s0 > 0 ? valid / static_cast<double>(s0) : 1.0;
  }
};

absl::StatusOr<Ctx> MakeCtx(const Shape& shape) {
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot draw ", shape.ToString(true), ": not an array"));
  }
  Ctx ctx;
  ctx.shape = &shape;
  absl::StatusOr<TilingModel> model = BuildTilingModel(shape);
  if (!model.ok()) return model.status();
  ctx.model = *std::move(model);
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(ctx.model);
  if (!ix.ok()) return ix.status();
  ctx.ix = *std::move(ix);
  const TilingModel& m = ctx.model;
  ctx.rank = m.rank();
  if (ctx.rank >= 1) ctx.col_dim = m.minor_to_major[0];
  if (ctx.rank >= 2) ctx.row_dim = m.minor_to_major[1];
  ctx.sub_byte = m.packed && m.element_bits < 8;
  auto blocks = [&](const TileLevel& lvl) {
    int64_t n = 1;
    const size_t k = lvl.tile_sizes.size();
    for (size_t i = 0; i + k < lvl.output.size(); ++i) n *= lvl.output[i].size;
    return n;
  };
  if (!m.levels.empty()) {
    ctx.nt0 = blocks(m.levels[0]);
    ctx.s0 = ctx.nt0 > 0 ? m.tiled_elements / ctx.nt0 : 0;
    const TileLevel& l0 = m.levels[0];
    bool merged = false;
    for (const auto& [first, last] : l0.combined_from) {
      merged = merged || first != last;
    }
    if (!merged && ctx.rank >= 1) {
      auto tile_along = [&](int64_t physical) -> int64_t {
        const int64_t ci = physical + l0.leading_ones;
        const int64_t pre = l0.prefix_rank();
        if (ci < pre) return 1;
        return l0.tile_sizes[ci - pre];
      };
      ctx.tc = tile_along(ctx.rank - 1);
      if (ctx.rank >= 2) ctx.tr = tile_along(ctx.rank - 2);
    }
  }
  if (m.levels.size() >= 2) {
    const int64_t n1 = blocks(m.levels[1]);
    ctx.s1 = n1 > 0 ? m.tiled_elements / n1 : 0;
  }
  return ctx;
}

absl::StatusOr<std::vector<int64_t>> SliceBase(
    const Ctx& ctx, const std::vector<int64_t>& slice) {
  const int64_t rank = ctx.rank;
  std::vector<int64_t> base(rank, 0);
  const int64_t n = static_cast<int64_t>(slice.size());
  const int64_t drawn = std::min<int64_t>(rank, 2);
  if (n == rank) {
    base = slice;
  } else if (n == rank - drawn) {
    int64_t j = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == ctx.row_dim || d == ctx.col_dim) continue;
      base[d] = slice[j++];
    }
  } else if (n != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "slice has ", n, " entries, expected ", rank,
        rank - drawn != rank ? absl::StrCat(" or ", rank - drawn) : ""));
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (d == ctx.row_dim || d == ctx.col_dim) {
      base[d] = 0;
      continue;
    }
    if (base[d] < 0 || base[d] >= ctx.model.logical_dims[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("slice index ", base[d], " out of bounds for dim ", d,
                       " of size ", ctx.model.logical_dims[d]));
    }
  }
  return base;
}

std::string IndexText(absl::Span<const int64_t> idx) {
  return absl::StrJoin(idx, ",");
}

std::string TileNames(const TilingModel& m) {
  std::string s;
  for (const TileLevel& l : m.levels) s += l.tile.ToString();
  return s;
}

const char* FillChar(double f, bool ascii) {
  if (f >= 0.999) return ascii ? "#" : "█";
  if (f >= 0.5) return ascii ? "+" : "▓";
  if (f > 0) return ascii ? "-" : "▒";
  return ascii ? "." : "░";
}

struct Limits {
  int64_t max_cells;
  int64_t max_cols;  // fine grids wider than this go coarse
  int64_t coarse_cells;
  int64_t coarse_cols;
  bool text;
  bool ascii;
};

// The offset of the element at row r, column c of the slice at `*idx` (the
// drawn dims of `*idx` are set to r and c).
int64_t OffsetAt(const Ctx& ctx, int64_t r, int64_t c,
                 std::vector<int64_t>* idx) {
  if (ctx.row_dim >= 0) (*idx)[ctx.row_dim] = r;
  if (ctx.col_dim >= 0) (*idx)[ctx.col_dim] = c;
  return ctx.ix->OffsetInElements(*idx);
}

// The logical view's notes: the dims drawn (R rows, C columns), the slice
// of a higher rank, what the colours and hatching mean.
void AddLogicalNotes(const Ctx& ctx, const std::vector<int64_t>& base,
                     const Limits& lim, int64_t R, int64_t C, CellGrid& g) {
  const TilingModel& m = ctx.model;
  if (ctx.rank >= 1) {
    g.notes.push_back(ctx.rank >= 2 ? absl::StrCat("rows: dim ", ctx.row_dim,
                                                   " (", R, "), columns: dim ",
                                                   ctx.col_dim, " (", C, ")")
                                    : absl::StrCat("one row: dim 0 (", C, ")"));
  }
  if (ctx.rank > 2) {
    std::vector<std::string> parts;
    for (int64_t d = 0; d < ctx.rank; ++d) {
      parts.push_back(
          d == ctx.row_dim || d == ctx.col_dim ? "*" : absl::StrCat(base[d]));
    }
    g.notes.push_back(absl::StrCat("slice (", absl::StrJoin(parts, ","), ")"));
  }
  if (!m.levels.empty()) {
    std::string n = absl::StrCat("colour: tile ", m.levels[0].tile.ToString());
    if (m.levels.size() >= 2) {
      absl::StrAppend(&n, lim.text ? "" : "; red boxes: tiles ",
                      lim.text ? "" : m.levels[1].tile.ToString());
    }
    if (ctx.tr > 1 || ctx.tc > 1) {
      absl::StrAppend(&n, lim.text ? "; '.': padding" : "; hatched: padding");
    }
    g.notes.push_back(n);
  }
}

// One cell per element of the R x C slice padded to whole tiles (PR x PC):
// the element's offset, or hatched tile padding.
void FillLogicalElements(const Ctx& ctx, const std::vector<int64_t>& base,
                         const Limits& lim, int64_t R, int64_t C, int64_t PR,
                         int64_t PC, CellGrid& g) {
  const TilingModel& m = ctx.model;
  std::vector<int64_t> idx = base;
  g.rows = PR;
  g.cols = PC;
  if (ctx.rank >= 2) {
    for (int64_t r = 0; r < PR; ++r) g.row_labels.push_back(absl::StrCat(r));
  }
  if (ctx.rank >= 1) {
    for (int64_t c = 0; c < PC; ++c) g.col_labels.push_back(absl::StrCat(c));
  }
  g.cells.resize(PR * PC);
  for (int64_t r = 0; r < PR; ++r) {
    for (int64_t c = 0; c < PC; ++c) {
      GridCell& cell = g.cells[r * PC + c];
      if (r < R && c < C) {
        const int64_t off = OffsetAt(ctx, r, c, &idx);
        cell.label = absl::StrCat(off);
        cell.css_class = "element";
        cell.attrs = {{"data-index", IndexText(idx)},
                      {"data-offset", absl::StrCat(off)}};
        cell.title = absl::StrCat("(", IndexText(idx), ") at offset ", off,
                                  ctx.ByteNote(off));
        cell.colour = cell.group = ctx.TileOf(off);
        cell.sub = ctx.SubOf(off);
      } else {
        const int64_t off =
            OffsetAt(ctx, std::min(r, R - 1), std::min(c, C - 1), &idx);
        cell.css_class = "logical-padding";
        cell.hatched = true;
        cell.label = lim.text ? "." : "";
        cell.group = ctx.TileOf(off);
        cell.title = absl::StrCat("row ", r, ", column ", c,
                                  ": padding that completes tile ",
                                  m.levels[0].tile.ToString());
      }
    }
  }
}

// Tile granularity: k x k tiles per cell, k the smallest (in growing steps)
// that fits the limits; each cell filled in proportion to its elements.
void FillLogicalTiles(const Ctx& ctx, const std::vector<int64_t>& base,
                      const Limits& lim, int64_t R, int64_t C, int64_t PR,
                      int64_t PC, CellGrid& g) {
  std::vector<int64_t> idx = base;
  g.coarse = true;
  const int64_t TR = PR / ctx.tr, TC = PC / ctx.tc;
  int64_t k = 1;
  while (CeilDiv(TR, k) * CeilDiv(TC, k) > lim.coarse_cells ||
         CeilDiv(TC, k) > lim.coarse_cols) {
    k += std::max<int64_t>(1, k / 8);
  }
  g.rows = CeilDiv(TR, k);
  g.cols = CeilDiv(TC, k);
  const bool tiled = ctx.tr > 1 || ctx.tc > 1;
  g.notes.push_back(absl::StrCat(
      "scale: 1 cell = ", k, "x", k, " ",
      tiled ? absl::StrCat("tiles of ", ctx.tr, "x", ctx.tc, " elements")
            : "elements",
      "; filled in proportion to the elements it holds"));
  g.cells.resize(g.rows * g.cols);
  for (int64_t a = 0; a < g.rows; ++a) {
    for (int64_t b = 0; b < g.cols; ++b) {
      GridCell& cell = g.cells[a * g.cols + b];
      const int64_t r0 = a * k * ctx.tr,
                    r1 = std::min(PR, (a + 1) * k * ctx.tr);
      const int64_t c0 = b * k * ctx.tc,
                    c1 = std::min(PC, (b + 1) * k * ctx.tc);
      const int64_t vr = std::clamp<int64_t>(R - r0, 0, r1 - r0);
      const int64_t vc = std::clamp<int64_t>(C - c0, 0, c1 - c0);
      const double fill = static_cast<double>(vr) * vc /
                          (static_cast<double>(r1 - r0) * (c1 - c0));
      const int64_t off = OffsetAt(ctx, r0, c0, &idx);
      cell.css_class = "tile-block";
      cell.fill = fill;
      cell.colour = 0;  // one colour: the bar shows the fill
      cell.group = ctx.TileOf(off);
      cell.label = lim.text ? FillChar(fill, lim.ascii) : "";
      cell.attrs = {{"data-index", IndexText(idx)},
                    {"data-offset", absl::StrCat(off)},
                    {"data-fill", Percent(fill)}};
      cell.title = absl::StrCat("rows ", r0, "-", r1 - 1, ", columns ", c0, "-",
                                c1 - 1, ": ", Percent(fill), " elements; (",
                                IndexText(idx), ") at offset ", off);
    }
  }
}

CellGrid LogicalGrid(const Ctx& ctx, const std::vector<int64_t>& base,
                     const Limits& lim) {
  const TilingModel& m = ctx.model;
  CellGrid g;
  g.css_class = "view logical";
  g.heading = "logical view: the offset of each element";
  const int64_t R = ctx.row_dim >= 0 ? m.logical_dims[ctx.row_dim] : 1;
  const int64_t C = ctx.col_dim >= 0 ? m.logical_dims[ctx.col_dim] : 1;
  AddLogicalNotes(ctx, base, lim, R, C, g);
  if (m.logical_elements == 0) {
    g.notes.push_back("no elements");
    return g;
  }
  const int64_t PR = CeilDiv(R, ctx.tr) * ctx.tr;
  const int64_t PC = CeilDiv(C, ctx.tc) * ctx.tc;
  if (PR * PC <= lim.max_cells && PC <= lim.max_cols) {
    FillLogicalElements(ctx, base, lim, R, C, PR, PC, g);
  } else {
    FillLogicalTiles(ctx, base, lim, R, C, PR, PC, g);
  }
  return g;
}

// One cell per slot, `w` a row: the element's index, tile padding or tail
// padding.
void FillMemorySlots(const Ctx& ctx, int64_t w, CellGrid& g) {
  const TilingModel& m = ctx.model;
  const int64_t padded = m.padded_elements;
  WrapCells(padded, std::min(w, std::max<int64_t>(padded, 1)), &g);
  g.notes.push_back(
      ctx.s0 > 0 && w == ctx.s0
          ? absl::StrCat("one tile ", TileNames(m), " (", w, " slots) per row")
          : absl::StrCat(g.cols, " slots per row"));
  g.notes.back() += "; rows start at the offset on the left";
  for (int64_t r = 0; r < g.rows; ++r) {
    g.row_labels.push_back(absl::StrCat(r * g.cols));
  }
  std::vector<int64_t> idx(ctx.rank);
  for (int64_t o = 0; o < padded; ++o) {
    GridCell& cell = g.cells[o];
    const OffsetKind kind =
        ctx.ix->ElementAtOffsetInElements(o, absl::MakeSpan(idx));
    cell.attrs = {{"data-offset", absl::StrCat(o)}};
    cell.byte = ctx.ByteOf(o);
    if (kind == OffsetKind::kElement) {
      cell.css_class = "element";
      cell.attrs.insert(cell.attrs.begin(), {"data-index", IndexText(idx)});
      cell.label = ctx.rank == 0 ? "()" : IndexText(idx);
      cell.title = absl::StrCat("offset ", o, ": (", IndexText(idx), ")",
                                ctx.ByteNote(o));
      cell.colour = cell.group = ctx.TileOf(o);
      cell.sub = ctx.SubOf(o);
    } else if (kind == OffsetKind::kTilePadding) {
      cell.css_class = "padding tile-padding";
      cell.hatched = true;
      cell.label = "pad";
      cell.title =
          absl::StrCat("offset ", o, ": tile padding", ctx.ByteNote(o));
      cell.group = ctx.TileOf(o);
      cell.sub = ctx.SubOf(o);
    } else {
      cell.css_class = "padding tail-padding";
      cell.hatched = true;
      cell.label = "tail";
      cell.title = absl::StrCat("offset ", o, ": tail padding (L(",
                                m.tail_alignment, "))", ctx.ByteNote(o));
      cell.group = -2;
    }
  }
}

// Tile granularity: a number of tiles (or runs of `w` slots of the minor
// dim) per cell, in offset order, then one cell for the tail padding.
void FillMemoryBlocks(const Ctx& ctx, const Limits& lim, int64_t w,
                      CellGrid& g) {
  const TilingModel& m = ctx.model;
  const int64_t padded = m.padded_elements;
  const int64_t tail = padded - m.tiled_elements;
  g.coarse = true;
  const bool tiled = ctx.s0 > 0;
  const int64_t unit = tiled ? ctx.s0 : w;
  const int64_t units = tiled ? ctx.nt0 : CeilDiv(m.tiled_elements, unit);
  const int64_t per = std::max<int64_t>(1, CeilDiv(units, lim.coarse_cells));
  const int64_t n = CeilDiv(units, per);
  const int64_t total = n + (tail > 0 ? 1 : 0);
  WrapCells(total,
            std::min<int64_t>(lim.coarse_cols, std::max<int64_t>(total, 1)),
            &g);
  g.notes.push_back(absl::StrCat(
      "scale: 1 cell = ", per, tiled ? " tiles of " : " runs of ", unit,
      " slots, in offset order, ", g.cols,
      " cells per row; filled in proportion to the elements it holds"));
  for (int64_t i = 0; i < total; ++i) {
    GridCell& cell = g.cells[i];
    if (i == n) {  // tail padding
      cell.css_class = "tail-padding-block";
      cell.fill = 0;
      cell.group = -2;
      cell.label = lim.text ? FillChar(0, lim.ascii) : "";
      cell.attrs = {{"data-offset", absl::StrCat(m.tiled_elements)},
                    {"data-fill", "0%"}};
      cell.title = absl::StrCat("offsets ", m.tiled_elements, "-", padded - 1,
                                ": tail padding (L(", m.tail_alignment, "))");
      continue;
    }
    const int64_t t0 = i * per, t1 = std::min(units, t0 + per);
    double fill = 1;
    if (tiled) {
      const int64_t step = std::max<int64_t>(1, (t1 - t0) / 64);
      double sum = 0;
      int64_t count = 0;
      for (int64_t t = t0; t < t1; t += step, ++count) sum += ctx.TileFill(t);
      fill = count > 0 ? sum / count : 1;
    }
    const int64_t first = t0 * unit;
    const int64_t last = std::min(m.tiled_elements, t1 * unit) - 1;
    cell.css_class = "tile-block";
    cell.fill = fill;
    cell.colour = 0;
    cell.group = i;
    cell.label = lim.text ? FillChar(fill, lim.ascii) : "";
    cell.attrs = {{"data-offset", absl::StrCat(first)},
                  {"data-fill", Percent(fill)}};
    cell.title = absl::StrCat("offsets ", first, "-", last, ": ", Percent(fill),
                              " elements");
  }
}

CellGrid MemoryGrid(const Ctx& ctx, const Limits& lim) {
  const TilingModel& m = ctx.model;
  CellGrid g;
  g.css_class = "view memory";
  g.heading = "memory view: the element in each slot";
  const int64_t padded = m.padded_elements;
  const int64_t tail = padded - m.tiled_elements;
  const int64_t tile_pad = m.tiled_elements - m.logical_elements;
  g.notes.push_back(
      absl::StrCat(padded, " slots: ", m.logical_elements, " elements, ",
                   tile_pad, " tile padding",
                   tail > 0 ? absl::StrCat(", ", tail, " tail padding (L(",
                                           m.tail_alignment, "))")
                            : ""));
  if (ctx.sub_byte) {
    g.notes.push_back(absl::StrCat(m.element_bits, "-bit elements, ",
                                   8 / m.element_bits,
                                   " per byte: dotted lines between bytes"));
  }
  // Slots a row: one first-level tile, else the minor dim, halved to 64.
  int64_t w =
      ctx.s0 > 0 ? ctx.s0 : (ctx.rank >= 1 ? m.physical.back().size : 1);
  while (w > 64 && w % 2 == 0) w /= 2;
  w = std::clamp<int64_t>(w, 1, 64);
  if (padded <= lim.max_cells && std::min(w, padded) <= lim.max_cols) {
    FillMemorySlots(ctx, w, g);
  } else {
    FillMemoryBlocks(ctx, lim, w, g);
  }
  return g;
}

absl::StatusOr<std::vector<CellGrid>> Grids(const Shape& shape,
                                            const LayoutDrawOptions& options,
                                            const Limits& lim) {
  absl::StatusOr<Ctx> ctx = MakeCtx(shape);
  if (!ctx.ok()) return ctx.status();
  absl::StatusOr<std::vector<int64_t>> base = SliceBase(*ctx, options.slice);
  if (!base.ok()) return base.status();
  std::vector<CellGrid> grids;
  if (options.view != View::kMemory) {
    grids.push_back(LogicalGrid(*ctx, *base, lim));
  }
  if (options.view != View::kLogical) grids.push_back(MemoryGrid(*ctx, lim));
  return grids;
}

}  // namespace

absl::StatusOr<View> ParseView(absl::string_view text) {
  if (text == "logical") return View::kLogical;
  if (text == "memory") return View::kMemory;
  if (text == "both") return View::kBoth;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown view '", text, "' (logical, memory or both)"));
}

absl::StatusOr<std::vector<CellGrid>> LayoutGrids(
    const Shape& shape, const LayoutDrawOptions& options) {
  return Grids(shape, options,
               Limits{options.max_cells, options.max_cells,
                      options.coarse_cells, options.coarse_cols, false, false});
}

absl::StatusOr<std::string> LayoutSvg(const Shape& shape,
                                      const LayoutDrawOptions& options) {
  absl::StatusOr<std::vector<CellGrid>> grids = LayoutGrids(shape, options);
  if (!grids.ok()) return grids.status();
  return GridsToSvg(*grids, shape.ToString(true));
}

absl::StatusOr<std::string> LayoutText(const Shape& shape,
                                       const LayoutDrawOptions& options,
                                       TextStyle style) {
  absl::StatusOr<std::vector<CellGrid>> grids =
      Grids(shape, options,
            Limits{std::min<int64_t>(options.max_cells, 1024), 32, 64 * 16, 64,
                   true, style.ascii});
  if (!grids.ok()) return grids.status();
  return absl::StrCat(shape.ToString(true), "\n\n", GridsToText(*grids, style));
}

}  // namespace hlolayout::draw
