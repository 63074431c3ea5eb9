#include "hlolayout/cli/padding_section.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/cli/json.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"

namespace hlolayout::cli {

bool AppendPaddingSection(const Shape& shape, const std::string& indent,
                          std::string* out) {
  absl::StatusOr<TilingModel> m = BuildTilingModel(shape);
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(shape);
  absl::StatusOr<std::vector<TilePadding>> p = ExplainTilePadding(shape);
  if (!m.ok() || !s.ok() || !p.ok()) {
    absl::StrAppend(out, indent, "padding and size: ",
                    (!m.ok()   ? m.status()
                     : !s.ok() ? s.status()
                               : p.status())
                        .message(),
                    "\n");
    return false;
  }
  absl::StrAppend(out, indent, "padding and size:\n");
  std::string tiles;
  for (const TileLevel& l : m->levels)
    absl::StrAppend(&tiles, l.tile.ToString());
  absl::StrAppend(
      out, indent, "  physical tiled: ", DimsToString(m->final_dims),
      tiles.empty() ? " (untiled)" : absl::StrCat(" (T", tiles, ")"), "\n");
  absl::StrAppend(out, indent, "  elements:       ", s->logical_elements,
                  " logical, ", s->tiled_elements, " tiled, ",
                  s->padded_elements, " padded (", s->padding_elements(),
                  " padding)\n");
  absl::StrAppend(out, indent, "  bytes:          ", s->logical_bytes,
                  " logical, ", s->padded_bytes, " padded, ",
                  s->padding_bytes(), " padding (",
                  FormatExpansion(s->expansion), " expansion)\n");
  absl::StrAppend(out, indent, "  minor dims aligned to the tiles: ",
                  p->empty() ? "yes" : "no", "\n");
  for (const TilePadding& t : *p) {
    absl::StrAppend(out, indent, "    ", t.reason, "\n");
  }
  return true;
}

bool WritePaddingJson(const Shape& shape, JsonWriter& json) {
  json.Key("padding_and_size");
  absl::StatusOr<TilingModel> m = BuildTilingModel(shape);
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(shape);
  absl::StatusOr<std::vector<TilePadding>> p = ExplainTilePadding(shape);
  if (!m.ok() || !s.ok() || !p.ok()) {
    json.Null();
    json.Key("padding_and_size_error")
        .String((!m.ok()   ? m.status()
                 : !s.ok() ? s.status()
                           : p.status())
                    .message());
    return false;
  }
  json.BeginObject();
  json.Key("physical_tiled").IntArray(m->final_dims);
  json.Key("logical_elements").Int(s->logical_elements);
  json.Key("tiled_elements").Int(s->tiled_elements);
  json.Key("padded_elements").Int(s->padded_elements);
  json.Key("padding_elements").Int(s->padding_elements());
  json.Key("logical_bytes").Int(s->logical_bytes);
  json.Key("padded_bytes").Int(s->padded_bytes);
  json.Key("padding_bytes").Int(s->padding_bytes());
  json.Key("expansion").String(FormatExpansion(s->expansion));
  json.Key("aligned_to_tiles").Bool(p->empty());
  json.Key("padded_dimensions").BeginArray();
  for (const TilePadding& t : *p) {
    json.BeginObject();
    json.Key("dimension").Int(t.dimension);
    json.Key("size").Int(t.size);
    json.Key("tile_size").Int(t.tile_size);
    json.Key("padded_size").Int(t.padded_size);
    json.Key("tile_level").Int(t.tile_level);
    json.Key("reason").String(t.reason);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return true;
}

}  // namespace hlolayout::cli
