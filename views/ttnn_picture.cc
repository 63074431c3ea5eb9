#include "hlolayout/views/ttnn_picture.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/util/bytes.h"

namespace hlolayout::draw {
namespace {

constexpr int64_t kMaxCells = 16384;
// The cores picture: shards counted page by page, and listed per core.
constexpr int64_t kMaxShardsCounted = int64_t{1} << 20;
constexpr int64_t kMaxShardsListed = 64;

absl::Status TooMany(absl::string_view what, int64_t n) {
  return absl::InvalidArgumentError(
      absl::StrCat("the ", what, " picture would have ", n, " cells (at most ",
                   kMaxCells, " are drawn)"));
}

// The fraction of page `page` (row-major over the padded shape in pages)
// that holds logical elements.
double PageFill(const ttnn::TensorSpec& spec, int64_t page) {
  const std::vector<int64_t>& pages = spec.padded_shape_in_pages();
  const std::vector<int64_t>& shape = spec.logical_shape();
  const std::array<int64_t, 2>& ps = spec.page_shape();
  const int rank = static_cast<int>(pages.size());
  const int offset = rank - static_cast<int>(shape.size());
  double fill = 1;
  for (int i = rank - 1; i >= 0; --i) {
    const int64_t c = page % pages[i];
    page /= pages[i];
    const int64_t extent = i == rank - 1 ? ps[1] : i == rank - 2 ? ps[0] : 1;
    const int64_t logical = i >= offset ? shape[i - offset] : 1;
    const int64_t held =
        std::min<int64_t>(extent, std::max<int64_t>(0, logical - c * extent));
    fill *= static_cast<double>(held) / extent;
  }
  return fill;
}

// The host pages shard `s` holds (a partial shard at the tensor's edge
// holds fewer than the shard's volume).
int64_t ShardDataPages(const ttnn::BufferDistribution& d, int64_t s) {
  const std::vector<int64_t>& grid = d.shard_grid();
  const std::vector<int64_t>& shard = d.shard_shape_in_pages();
  const std::vector<int64_t>& tensor = d.tensor_shape_in_pages();
  int64_t n = 1;
  for (int k = static_cast<int>(grid.size()) - 1; k >= 0; --k) {
    const int64_t c = s % grid[k];
    s /= grid[k];
    n *= std::min(shard[k], tensor[k] - c * shard[k]);
  }
  return n;
}

// The host pages on core `i`: its shards' (i, i + n, ...).
int64_t DataPagesOnCore(const ttnn::BufferDistribution& d, int64_t i) {
  if (d.host_pages() == 0) return 0;
  int64_t n = 0;
  for (int64_t s = i; s < d.num_shards(); s += d.num_cores()) {
    n += ShardDataPages(d, s);
  }
  return n;
}

}  // namespace

absl::StatusOr<CellGrid> TtnnPagesGrid(const ttnn::TensorSpec& spec) {
  const std::vector<int64_t>& pages = spec.padded_shape_in_pages();
  const int64_t cols = pages.empty() ? 1 : pages.back();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < pages.size(); ++i) rows *= pages[i];
  if (rows * cols > kMaxCells || rows > kMaxCells)
    return TooMany("pages", rows * cols);
  CellGrid g;
  g.heading = absl::StrCat("the tensor's ", rows * cols, " pages (",
                           spec.page_shape()[0], "x", spec.page_shape()[1],
                           "), by the ", spec.sharded() ? "core" : "bank",
                           " holding each");
  g.notes.push_back(absl::StrCat("padded shape in pages [",
                                 absl::StrJoin(pages, ", "), "], folded to ",
                                 rows, " x ", cols));
  g.css_class = "ttnn pages";
  g.rows = rows;
  g.cols = cols;
  g.cells.resize(rows * cols);
  const ttnn::BufferDistribution* d =
      spec.distribution() ? &*spec.distribution() : nullptr;
  for (int64_t p = 0; p < rows * cols; ++p) {
    GridCell& c = g.cells[p];
    c.css_class = "ttnn-page";
    c.attrs.push_back({"data-page", absl::StrCat(p)});
    if (d) {
      const ttnn::DevicePlace place = d->Place(p);
      const ttnn::CoreCoord core = d->cores()[place.core_index];
      c.label = absl::StrCat(core.x, ",", core.y);
      c.colour = place.core_index;
      c.group = place.shard;
      c.attrs.push_back({"data-core", c.label});
      c.title = absl::StrCat("page ", p, ": shard ", place.shard, ", core (",
                             c.label, "), device page ", place.device_page);
    } else {
      const int64_t bank = p % spec.num_banks();
      c.label = absl::StrCat(bank);
      c.colour = bank;
      c.attrs.push_back({"data-bank", c.label});
      c.title = absl::StrCat("page ", p, ": bank ", bank, ", page ",
                             p / spec.num_banks(), " of that bank");
    }
    const double fill = PageFill(spec, p);
    if (fill < 1) {
      c.fill = fill;
      c.title +=
          absl::StrCat(" (", static_cast<int>(fill * 100 + 0.5), "% data)");
    }
  }
  return g;
}

namespace {

// TtnnCoresGrid of an interleaved tensor: each bank's pages and bytes.
absl::StatusOr<CellGrid> BanksGrid(const ttnn::TensorSpec& spec, CellGrid g,
                                   int64_t page_bytes) {
  const int64_t banks = spec.num_banks();
  if (banks > kMaxCells) return TooMany("banks", banks);
  g.heading = absl::StrCat(spec.num_pages(), " pages interleaved over ", banks,
                           " ", ttnn::BufferTypeName(spec.buffer_type()),
                           " banks: each bank's pages and bytes");
  g.notes.push_back(
      absl::StrCat("pages of ", page_bytes, " bytes (aligned); at most ",
                   spec.ConsumedBytesPerBank(), " bytes on one bank"));
  WrapCells(banks, std::min<int64_t>(banks, 8), &g);
  for (int64_t b = 0; b < banks; ++b) {
    GridCell& c = g.cells[b];
    const int64_t n = spec.num_pages() / banks + (b < spec.num_pages() % banks);
    c.label = absl::StrCat(n, " ", CompactBytes(n * page_bytes));
    c.colour = b;
    c.hatched = n == 0;
    c.css_class = "ttnn-bank";
    c.attrs.push_back({"data-bank", absl::StrCat(b)});
    c.attrs.push_back({"data-bytes", absl::StrCat(n * page_bytes)});
    c.title =
        absl::StrCat("bank ", b, ": ", n, " pages, ", n * page_bytes, " bytes");
  }
  return g;
}

}  // namespace

absl::StatusOr<CellGrid> TtnnCoresGrid(const ttnn::TensorSpec& spec) {
  CellGrid g;
  g.css_class = "ttnn cores";
  g.stacked_labels = true;
  const int64_t page_bytes = spec.AlignedPageSize(spec.page_alignment());
  if (!spec.sharded()) return BanksGrid(spec, std::move(g), page_bytes);
  const ttnn::BufferDistribution& d = *spec.distribution();
  const ttnn::CoreRangeSet& grid = spec.memory_config().nd_shard_spec->grid;
  if (grid.empty()) {  // a tensor without pages may have no cores
    g.heading = absl::StrCat(d.num_shards(), " shards on no cores");
    return g;
  }
  const ttnn::CoreRange box = grid.BoundingBox();
  if (box.size() > kMaxCells) return TooMany("cores", box.size());
  g.heading = absl::StrCat(d.num_shards(), " shards on ", d.num_cores(),
                           " cores: each core's shards and bytes");
  g.notes.push_back(absl::StrCat(
      spec.ConsumedBytesPerBank(), " bytes allocated on every core (",
      d.max_shards_per_core(), " shard slot",
      d.max_shards_per_core() == 1 ? "" : "s", " of ", d.shard_volume(),
      " pages of ", page_bytes, " bytes)"));
  g.notes.push_back(absl::StrCat(
      "grid ", grid.ToString(), ", ",
      ttnn::OrientationName(spec.memory_config().nd_shard_spec->orientation),
      "; x across, y down"));
  // The pages holding data are counted shard by shard up to
  // kMaxShardsCounted shards; past that a core's bytes are those allocated
  // to its shards. A core lists at most kMaxShardsListed of its shards.
  const bool counted = d.num_shards() <= kMaxShardsCounted;
  if (!counted) {
    g.notes.push_back(absl::StrCat(
        "more than ", kMaxShardsCounted,
        " shards: each core's bytes are those allocated to its shards, not "
        "counted page by page"));
  }
  g.rows = box.height();
  g.cols = box.width();
  g.cells.resize(g.rows * g.cols);
  for (GridCell& c : g.cells) c.present = false;
  for (int64_t i = 0; i < d.num_cores(); ++i) {
    const ttnn::CoreCoord core = d.cores()[i];
    GridCell& c =
        g.cells[(core.y - box.start.y) * g.cols + (core.x - box.start.x)];
    c.present = true;
    const int64_t count =
        i < d.num_shards() ? (d.num_shards() - 1 - i) / d.num_cores() + 1 : 0;
    std::vector<int64_t> shards;
    for (int64_t s = i; s < d.num_shards() &&
                        static_cast<int64_t>(shards.size()) < kMaxShardsListed;
         s += d.num_cores()) {
      shards.push_back(s);
    }
    // Allocated: no more than the bytes every core has room for.
    const int64_t data_bytes = counted ? DataPagesOnCore(d, i) * page_bytes
                                       : count * d.shard_volume() * page_bytes;
    const std::string more =
        count > static_cast<int64_t>(shards.size()) ? ",.." : "";
    c.label = absl::StrCat(shards.empty() ? "-"
                           : shards.size() <= 3
                               ? absl::StrJoin(shards, ",")
                               : absl::StrCat(shards[0], ",", shards[1], ",.."),
                           " ", CompactBytes(data_bytes));
    c.colour = i;
    c.hatched = shards.empty();
    c.css_class = "ttnn-core";
    c.attrs.push_back({"data-core", absl::StrCat(core.x, ",", core.y)});
    c.attrs.push_back(
        {"data-shards", absl::StrCat(absl::StrJoin(shards, ","), more)});
    c.attrs.push_back({"data-bytes", absl::StrCat(data_bytes)});
    c.title = absl::StrCat(
        "core ", ttnn::CoreName(core), ": shards ",
        shards.empty() ? "none" : absl::StrJoin(shards, ", "),
        more.empty() ? "" : absl::StrCat(", .. (", count, " in all)"), "; ",
        data_bytes, counted ? " bytes of data (" : " bytes allocated (",
        data_bytes / page_bytes, " pages)");
  }
  return g;
}

absl::StatusOr<CellGrid> TtnnCorePagesGrid(const ttnn::TensorSpec& spec,
                                           int64_t core_index) {
  const ttnn::BufferDistribution& d = *spec.distribution();
  const int64_t all = d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  const ttnn::CoreCoord core = d.cores()[core_index];
  CellGrid g;
  g.heading = absl::StrCat("core ", ttnn::CoreName(core), ": ", all,
                           " device pages, by the host page each holds");
  // A core with more pages than a picture holds shows its first ones.
  const int64_t n = std::min(all, kMaxCells);
  if (n < all) {
    g.notes.push_back(absl::StrCat("the first ", n, " of its ", all,
                                   " device pages (at most ", kMaxCells,
                                   " are drawn)"));
  }
  g.notes.push_back(
      absl::StrCat(d.ShardsOnCore(core_index), " of ", d.max_shards_per_core(),
                   " shard slots used; shard in pages [",
                   absl::StrJoin(d.shard_shape_in_pages(), ", "), "]"));
  g.css_class = "ttnn core";
  const std::vector<int64_t>& sp = d.shard_shape_in_pages();
  WrapCells(n, std::max<int64_t>(1, std::min<int64_t>(sp.back(), 64)), &g);
  for (int64_t p = 0; p < n; ++p) {
    GridCell& c = g.cells[p];
    const int64_t host = d.HostPage(core_index, p);
    c.css_class = host < 0 ? "ttnn-device-page padding" : "ttnn-device-page";
    c.label = host < 0 ? "" : absl::StrCat(host);
    c.hatched = host < 0;
    c.colour = host < 0 ? -1 : p / d.shard_volume();
    c.group = p / d.shard_volume();
    c.attrs.push_back({"data-device-page", absl::StrCat(p)});
    c.attrs.push_back({"data-host-page", absl::StrCat(host)});
    c.title = host < 0 ? absl::StrCat("device page ", p, ": padding")
                       : absl::StrCat("device page ", p, ": host page ", host);
  }
  return g;
}

absl::StatusOr<CellGrid> TtnnShardsGrid(const ttnn::TensorSpec& spec) {
  const ttnn::BufferDistribution& d = *spec.distribution();
  const int64_t shards = d.num_shards();
  if (shards > kMaxCells) return TooMany("shards", shards);
  const std::vector<int64_t>& grid = d.shard_grid();
  const std::vector<int64_t>& pages = spec.padded_shape_in_pages();
  const int64_t plane_width = pages.empty() ? 1 : pages.back();
  CellGrid g;
  g.css_class = "ttnn shards";
  g.cols = grid.empty() ? 1 : grid.back();
  g.rows = g.cols == 0 ? 0 : shards / std::max<int64_t>(g.cols, 1);
  // Shards squeezed to one dim that are whole rows of the plane stack down.
  if (grid.size() == 1 && d.shard_volume() % plane_width == 0) {
    g.rows = g.cols;
    g.cols = 1;
  }
  g.heading = absl::StrCat("the tensor's ", shards, " shards (",
                           absl::StrJoin(d.shard_shape_in_pages(), "x"),
                           " pages each), by the core holding each");
  g.notes.push_back(absl::StrCat("shards along the tensor's dims (squeezed) [",
                                 absl::StrJoin(grid, ", "), "], folded to ",
                                 g.rows, " x ", g.cols,
                                 "; --core X,Y shows one core's "
                                 "pages"));
  g.cells.resize(g.rows * g.cols);
  for (int64_t s = 0; s < shards && s < g.rows * g.cols; ++s) {
    GridCell& c = g.cells[s];
    const int64_t core_index = s % d.num_cores();
    const ttnn::CoreCoord core = d.cores()[core_index];
    c.css_class = "ttnn-shard";
    c.label = absl::StrCat(core.x, ",", core.y);
    c.colour = core_index;
    c.attrs.push_back({"data-shard", absl::StrCat(s)});
    c.attrs.push_back({"data-core", c.label});
    const int64_t held = ShardDataPages(d, s);
    c.title = absl::StrCat("shard ", s, ": core (", c.label, "), slot ",
                           s / d.num_cores(), ", ", held, " of ",
                           d.shard_volume(), " pages hold data");
    if (held < d.shard_volume()) {
      c.fill = static_cast<double>(held) / d.shard_volume();
    }
  }
  return g;
}

absl::StatusOr<std::vector<CellGrid>> TtnnPicture(
    const ttnn::TensorSpec& spec, absl::optional<int64_t> core_index) {
  std::vector<CellGrid> grids;
  absl::StatusOr<CellGrid> cores = TtnnCoresGrid(spec);
  if (!cores.ok()) return cores.status();
  absl::StatusOr<CellGrid> pages = TtnnPagesGrid(spec);
  if (!pages.ok()) {
    const std::string too_many =
        absl::StrCat(spec.num_pages(),
                     " pages are too many to draw one by one "
                     "(at most ",
                     kMaxCells, ")");
    // The tensor in shards instead.
    if (spec.distribution()) pages = TtnnShardsGrid(spec);
    if (pages.ok()) {
      pages->notes.insert(pages->notes.begin(),
                          absl::StrCat(too_many, ": the tensor in shards"));
    } else {
      cores->notes.push_back(too_many);
    }
  }
  if (pages.ok()) grids.push_back(*std::move(pages));
  grids.insert(grids.begin(), *std::move(cores));
  if (core_index) {
    absl::StatusOr<CellGrid> core = TtnnCorePagesGrid(spec, *core_index);
    if (!core.ok()) return core.status();
    grids.push_back(*std::move(core));
  }
  return grids;
}

}  // namespace hlolayout::draw
