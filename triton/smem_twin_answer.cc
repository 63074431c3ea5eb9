#include "hlolayout/triton/smem_twin_answer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::triton {
namespace {

std::string OrderText(const CuteSmemTwin& t) {
  return t.order ? cute::ToString(*t.order) : "none";
}

}  // namespace

absl::StatusOr<SmemTwinAnswer> AnswerSmemAtom(
    absl::string_view name, const std::optional<cute::IntTuple>& shape,
    const std::optional<cute::IntTuple>& order) {
  absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(name);
  if (!atom.ok()) return atom.status();
  absl::StatusOr<cute::SmemTile> tile = cute::TileSmemAtom(
      *atom, shape ? absl::make_optional(*shape) : absl::nullopt,
      order ? absl::make_optional(*order) : absl::nullopt);
  if (!tile.ok()) return tile.status();
  absl::StatusOr<absl::optional<NvmmaTwin>> twin = NvmmaTwinOf(*atom, *tile);
  if (!twin.ok()) return twin.status();
  SmemTwinAnswer a;
  a.tile = *std::move(tile);
  if (twin->has_value()) a.nvmma_twin = **std::move(twin);
  return a;
}

absl::StatusOr<SmemTwinAnswer> AnswerNvmmaShared(
    const NvmmaSharedLayout& layout, std::vector<int64_t> dims) {
  absl::StatusOr<absl::optional<CuteSmemTwin>> twin = CuteTwinOf(layout, dims);
  if (!twin.ok()) return twin.status();
  SmemTwinAnswer a;
  a.triton_attr = NvmmaAttr(layout);
  a.memdesc_shape = std::move(dims);
  if (twin->has_value()) a.cute_twin = **std::move(twin);
  return a;
}

std::string SmemTwinAnswerText(const SmemTwinAnswer& a) {
  if (a.triton_attr.has_value()) {
    if (!a.cute_twin.has_value()) {
      return absl::StrCat("Triton: ", *a.triton_attr, "\nAtom: none\n");
    }
    const CuteSmemTwin& t = *a.cute_twin;
    return absl::StrCat(
        "Atom: ", t.atom, "\nShape: ", cute::ToString(t.shape),
        "\nOrder: ", OrderText(t), "\nLayout: ", cute::ToString(t.tile.layout),
        "\nLayoutElements: ", cute::ToString(t.tile.elements), "\n");
  }
  std::string text = absl::StrCat(
      "Layout: ", cute::ToString(a.tile->layout),
      "\nLayoutElements: ", cute::ToString(a.tile->elements),
      "\nTriton: ", a.nvmma_twin.has_value() ? a.nvmma_twin->attr : "none");
  if (a.nvmma_twin.has_value()) {
    absl::StrAppend(&text, " on memdesc shape [",
                    absl::StrJoin(a.nvmma_twin->memdesc_shape, ", "), "]");
  }
  return text + "\n";
}

std::string SmemTwinAnswerJson(const SmemTwinAnswer& a) {
  JsonWriter json;
  json.BeginObject();
  if (a.triton_attr.has_value()) {
    json.Key("Triton").String(*a.triton_attr);
    json.Key("MemdescShape").IntArray(a.memdesc_shape);
    if (!a.cute_twin.has_value()) {
      json.Key("Atom").String("none");
    } else {
      const CuteSmemTwin& t = *a.cute_twin;
      json.Key("Atom").String(t.atom);
      json.Key("Shape").String(cute::ToString(t.shape));
      json.Key("Order").String(OrderText(t));
      json.Key("Layout").String(cute::ToString(t.tile.layout));
      json.Key("LayoutElements").String(cute::ToString(t.tile.elements));
    }
  } else {
    json.Key("Layout").String(cute::ToString(a.tile->layout));
    json.Key("LayoutElements").String(cute::ToString(a.tile->elements));
    json.Key("Triton");
    if (!a.nvmma_twin.has_value()) {
      json.String("none");
    } else {
      json.String(a.nvmma_twin->attr);
      json.Key("MemdescShape").IntArray(a.nvmma_twin->memdesc_shape);
    }
  }
  json.EndObject();
  return json.str();
}

}  // namespace hlolayout::triton
