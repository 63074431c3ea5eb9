#include "hlolayout/views/cute_tikz.h"

#include <utility>

#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/views/cute_picture.h"
#include "hlolayout/views/tv_picture.h"

namespace hlolayout::draw {

absl::StatusOr<std::vector<std::string>> CuteLayoutTikz(
    absl::string_view layout, const TikzCellFill& fill) {
  absl::StatusOr<cute::AnyLayout> l = cute::ParseAnyLayout(layout);
  if (!l.ok()) return l.status();
  absl::StatusOr<CellGrid> g = CuteLayoutGrid(*l);
  if (!g.ok()) return g.status();
  return GridToTikz(*g, fill, TikzOptions{});
}

absl::StatusOr<std::vector<std::string>> CuteTvTikz(absl::string_view tv,
                                                    absl::string_view tile,
                                                    const TikzCellFill& fill,
                                                    TikzOptions options) {
  absl::StatusOr<cute::Layout> tile_layout = cute::ParseLayout(tile);
  if (!tile_layout.ok()) return tile_layout.status();
  absl::StatusOr<cute::Layout> tv_layout = cute::ParseLayout(tv);
  if (!tv_layout.ok()) return tv_layout.status();
  options.striped = true;
  absl::StatusOr<CellGrid> g =
      TvTileGrid(*tv_layout, *tile_layout, &options.order);
  if (!g.ok()) return g.status();
  return GridToTikz(*g, fill, options);
}

}  // namespace hlolayout::draw
