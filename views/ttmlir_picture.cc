#include "hlolayout/views/ttmlir_picture.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::draw {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string Percent(double f) {
  return absl::StrCat(static_cast<int64_t>(f * 100 + 0.5), "%");
}

// A plane of rows x cols scalars cut into shards of sy x sx (one shard for
// layouts without them), with counts of the rows and columns holding
// elements and the owner (colour group) of each position.
struct Plane {
  int64_t rows = 1, cols = 1;
  int64_t sy = 1, sx = 1;
  int64_t th = 0, tw = 0;  // tile, 0 when not tiled
  std::function<int64_t(int64_t lo, int64_t hi)> valid_rows;
  std::function<int64_t(int64_t lo, int64_t hi)> valid_cols;
  // Colour group and label of the position (r, c).
  std::function<int64_t(int64_t r, int64_t c)> group;
  std::function<std::string(int64_t r, int64_t c)> owner;
  std::string heading;
  std::vector<std::string> notes;
};

absl::StatusOr<CellGrid> DrawPlane(Plane p, bool for_text) {
  if (p.rows < 1 || p.cols < 1) {
    return absl::InvalidArgumentError("nothing to draw");
  }
  const int64_t max_cells = for_text ? 1024 : 4096;
  const int64_t max_cols = for_text ? 48 : int64_t{1} << 30;
  // One cell is k x k scalars; blocks are whole tiles when they can be.
  int64_t k = 1;
  auto fits = [&](int64_t u) {
    return CeilDiv(p.rows, u) * CeilDiv(p.cols, u) <= max_cells &&
           CeilDiv(p.cols, u) <= max_cols;
  };
  while (!fits(k)) {
    if (p.th > 0 && k < p.th && fits(p.th)) {
      k = p.th;
      break;
    }
    k += std::max<int64_t>(1, k / 8);
  }
  CellGrid g;
  g.css_class = "grid-layout";
  g.compact = !for_text;
  g.heading = std::move(p.heading);
  g.notes = std::move(p.notes);
  g.notes.push_back(
      k == 1 ? (p.th > 0 ? "1 cell = 1 scalar; red boxes: tiles"
                         : "1 cell = 1 scalar")
             : absl::StrCat("scale: 1 cell = ", k, "x", k,
                            " scalars; filled in proportion to the elements "
                            "it holds"));
  g.rows = CeilDiv(p.rows, k);
  g.cols = CeilDiv(p.cols, k);
  g.cells.resize(g.rows * g.cols);
  for (int64_t r = 0; r < g.rows; ++r) {
    const int64_t r0 = r * k, r1 = std::min(p.rows, r0 + k);
    const int64_t vy = p.valid_rows(r0, r1);
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t c0 = c * k, c1 = std::min(p.cols, c0 + k);
      const int64_t vx = p.valid_cols(c0, c1);
      const double fill =
          static_cast<double>(vy) * vx /
          (static_cast<double>(r1 - r0) * static_cast<double>(c1 - c0));
      GridCell& cell = g.cells[r * g.cols + c];
      const int64_t group = p.group(r0, c0);
      const std::string shard = absl::StrCat(r0 / p.sy, ",", c0 / p.sx);
      cell.css_class = fill > 0 ? "grid-cell" : "grid-cell padding";
      cell.attrs = {{"data-shard", shard}, {"data-fill", Percent(fill)}};
      cell.group = (r0 / p.sy) * 1000003 + c0 / p.sx;
      cell.colour = group;
      if (k == 1) {
        cell.hatched = fill == 0;
        if (p.th > 0) {
          cell.sub = cell.group * 1000003 + ((r0 % p.sy) / p.th) * 1009 +
                     (c0 % p.sx) / p.tw;
        }
      } else {
        cell.fill = fill;
      }
      if (for_text) {
        cell.label = fill == 0 ? "." : absl::StrCat(group);
        if (fill > 0 && fill < 1) cell.label += "~";
      }
      cell.title =
          absl::StrCat(p.owner(r0, c0), ", ",
                       k == 1 ? absl::StrCat("position (", r0, ",", c0, ")")
                              : absl::StrCat("rows ", r0, "-", r1 - 1,
                                             ", columns ", c0, "-", c1 - 1),
                       ": ",
                       fill == 0  ? "padding"
                       : fill < 1 ? absl::StrCat(Percent(fill), " elements")
                                  : "elements");
    }
  }
  return g;
}

std::string CoreText(const tenstorrent::CoreCoord& c) {
  return absl::StrCat("(", c.x, ",", c.y, ")");
}

}  // namespace

absl::StatusOr<CellGrid> TtnnLayoutGrid(const grid::TtnnLayoutAttr& l,
                                        bool for_text) {
  Plane p;
  const std::vector<int64_t>& E = l.collapsed_shape();
  if (l.tiled()) {
    p.th = l.element().tile->height;
    p.tw = l.element().tile->width;
  }
  p.valid_rows = [&l](int64_t lo, int64_t hi) {
    return l.ValidRowsBelow(hi) - l.ValidRowsBelow(lo);
  };
  p.valid_cols = [&l](int64_t lo, int64_t hi) {
    return l.ValidColsBelow(hi) - l.ValidColsBelow(lo);
  };
  const std::string where = absl::StrCat(
      grid::BufferTypeMlirName(l.buffer_type()),
      l.mem_layout()
          ? absl::StrCat(" ", grid::MemoryLayoutMlirName(*l.mem_layout()))
          : "");
  if (l.sharded()) {
    p.sy = l.physical_shard_shape()[0];
    p.sx = l.physical_shard_shape()[1];
    p.rows = l.grid()[0] * p.sy;
    p.cols = l.grid()[1] * p.sx;
    const int64_t gx = l.grid()[1], sy = p.sy, sx = p.sx;
    p.group = [gx, sy, sx](int64_t r, int64_t c) {
      return (r / sy) * gx + c / sx;
    };
    const bool dram = grid::IsDram(l.buffer_type());
    p.owner = [&l, gx, dram, sy, sx](int64_t r, int64_t c) {
      const int64_t y = r / sy, x = c / sx;
      std::string s = absl::StrCat("shard (", y, ",", x, ")");
      absl::optional<tenstorrent::CoreCoord> core =
          grid::CoreOfRanges(l.core_ranges(), y * gx + x);
      if (core) {
        absl::StrAppend(
            &s, dram ? absl::StrCat(" in DRAM bank ",
                                    core->x + core->y * l.device().dram_banks)
                     : absl::StrCat(" on core ", CoreText(*core)));
      }
      return s;
    };
    p.heading = absl::StrCat(
        where, ", grid ", grid::DimsToString(l.grid()), ": ", l.num_shards(),
        " shards of ", grid::DimsToString(l.physical_shard_shape()),
        l.tiled() ? absl::StrCat(" (", grid::DimsToString(l.memref_shape()),
                                 " tiles)")
                  : "");
    p.notes.push_back(
        absl::StrCat("collapsed tensor ", grid::DimsToString(E),
                     "; colour: shard (number, row-major); hatched",
                     for_text ? " or '.'" : "", ": padding"));
  } else {
    p.rows = l.tiled() ? CeilDiv(E[0], p.th) * p.th : E[0];
    p.cols = l.tiled() ? CeilDiv(E[1], p.tw) * p.tw : E[1];
    p.sy = p.rows;
    p.sx = p.cols;
    const bool dram = grid::IsDram(l.buffer_type());
    const bool system =
        l.buffer_type() == tenstorrent::BufferType::kSystemMemory;
    const int64_t banks = l.device().dram_banks;
    const int64_t tiles_per_row = l.tiled() ? p.cols / p.tw : 1;
    const bool tiled = l.tiled();
    const int64_t th = p.th, tw = p.tw;
    auto page = [=](int64_t r, int64_t c) {
      return tiled ? (r / th) * tiles_per_row + c / tw : r;
    };
    p.group = [=](int64_t r, int64_t c) {
      if (system) return int64_t{0};
      return dram ? page(r, c) % banks : page(r, c);
    };
    p.owner = [=](int64_t r, int64_t c) {
      const int64_t k = page(r, c);
      return dram ? absl::StrCat("page ", k, " in DRAM bank ", k % banks)
                  : absl::StrCat("page ", k);
    };
    p.heading = absl::StrCat(where, ": ", l.num_pages(), " pages (",
                             tiled ? "tiles" : "rows", ")");
    p.notes.push_back(
        absl::StrCat("collapsed tensor ", grid::DimsToString(E), "; colour: ",
                     system ? "one buffer"
                     : dram ? absl::StrCat("DRAM bank (page mod ", banks, ")")
                            : "page",
                     "; hatched", for_text ? " or '.'" : "", ": padding"));
  }
  return DrawPlane(std::move(p), for_text);
}

absl::StatusOr<CellGrid> MetalHeadLayoutGrid(const grid::TtcoreMetalLayout& l,
                                             bool for_text) {
  Plane p;
  const std::vector<int64_t>& phys = l.physical_shape();
  const std::vector<int64_t>& shard = l.shard_shape();
  const std::vector<int64_t>& grid = l.grid();
  const int64_t n = static_cast<int64_t>(phys.size());
  const int64_t a = n >= 2 ? n - 2 : -1, b = n - 1;
  p.rows = a >= 0 ? phys[a] : 1;
  p.cols = phys[b];
  p.sy = a >= 0 ? shard[a] : 1;
  p.sx = shard[b];
  if (l.tiled()) {
    p.th = l.element().tile->height;
    p.tw = l.element().tile->width;
  }
  p.valid_rows = [&l, a](int64_t lo, int64_t hi) {
    return a < 0 ? std::min<int64_t>(hi, 1) - std::min<int64_t>(lo, 1)
                 : l.ValidBelow(a, hi) - l.ValidBelow(a, lo);
  };
  p.valid_cols = [&l, b](int64_t lo, int64_t hi) {
    return l.ValidBelow(b, hi) - l.ValidBelow(b, lo);
  };
  const int64_t gx = grid[b], sy = p.sy, sx = p.sx;
  p.group = [gx, sy, sx](int64_t r, int64_t c) {
    return (r / sy) * gx + c / sx;
  };
  const bool cores = l.text().memory_space == grid::MemorySpace::kDeviceL1 &&
                     n == 2 && grid[0] <= l.device().worker_rows &&
                     grid[1] <= l.device().worker_cols;
  p.owner = [sy, sx, cores](int64_t r, int64_t c) {
    const int64_t y = r / sy, x = c / sx;
    return absl::StrCat(
        "shard (", y, ",", x, ")",
        cores ? absl::StrCat(" on core (", x, ",", y, ")") : "");
  };
  p.heading = absl::StrCat(
      grid::MemorySpaceName(l.text().memory_space), " ",
      grid::MetalMemoryLayoutName(l.text().memory_layout), ", grid ",
      grid::DimsToString(grid), ": shards of ", grid::DimsToString(shard),
      l.tiled() ? absl::StrCat(" (", grid::DimsToString(l.shard_shape_units()),
                               " tiles)")
                : "");
  p.notes.push_back(absl::StrCat(
      "physical shape ", grid::DimsToString(phys), " (logical ",
      l.logical_shape().empty() ? std::string("scalar")
                                : grid::DimsToString(l.logical_shape()),
      "); colour: shard; hatched", for_text ? " or '.'" : "", ": padding"));
  if (n > 2) {
    p.notes.push_back(
        absl::StrCat("the last two physical dims; outer index 0 of ",
                     grid::DimsToString(
                         std::vector<int64_t>(phys.begin(), phys.end() - 2))));
  }
  return DrawPlane(std::move(p), for_text);
}

}  // namespace hlolayout::draw
