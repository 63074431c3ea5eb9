#include "hlolayout/index_util/answers.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout {
namespace {

std::vector<int64_t> Sizes(const std::vector<TilingDim>& dims) {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (const TilingDim& d : dims) out.push_back(d.size);
  return out;
}

}  // namespace

absl::StatusOr<IndexAnswer> AnswerIndex(const Shape& shape,
                                        const TiledIndexer& indexer,
                                        absl::Span<const int64_t> index,
                                        PackingOrder order, bool with_bits) {
  absl::StatusOr<int64_t> offset = indexer.TryOffsetInElements(index);
  if (!offset.ok()) return offset.status();
  IndexAnswer a;
  a.shape = HumanStringWithLayout(shape);
  a.index.assign(index.begin(), index.end());
  a.offset = *offset;
  a.packed = indexer.element_bits() % 8 != 0;
  a.order = order;
  if (with_bits) a.bits = indexer.TryBitPositionOf(*offset, order);
  return a;
}

std::string IndexAnswerJson(const IndexAnswer& a) {
  JsonWriter json;
  json.BeginObject();
  json.Key("shape").String(a.shape);
  json.Key("index").IntArray(a.index);
  json.Key("offset").Int(a.offset);
  if (a.bits.ok()) {
    json.Key("byte").Int(a.bits->byte);
    json.Key("bit").Int(a.bits->shift);
    json.Key("bit_offset");
    a.bits->bit_offset < 0 ? json.Null() : json.Int(a.bits->bit_offset);
  } else {
    json.Key("byte").Null();
    json.Key("bit").Null();
    json.Key("bit_offset").Null();
  }
  if (a.packed) json.Key("packing").String(PackingOrderName(a.order));
  json.EndObject();
  return json.str();
}

std::string IndexAnswerText(const IndexAnswer& a, bool with_bytes) {
  std::string out = absl::StrCat(a.offset);
  if (with_bytes) {
    HLOLAYOUT_CHECK(a.bits.ok()) << a.bits.status();
    absl::StrAppend(&out, " (byte ", a.bits->byte);
    if (a.packed) {
      absl::StrAppend(&out, ", bit ", a.bits->shift, ", ",
                      PackingOrderName(a.order));
    }
    out += ")";
  }
  return out + "\n";
}

absl::StatusOr<ElementAnswer> AnswerElement(const Shape& shape,
                                            const TiledIndexer& indexer,
                                            int64_t offset) {
  ElementAnswer a;
  a.index.resize(indexer.rank());
  absl::StatusOr<OffsetKind> kind =
      indexer.TryElementAtOffsetInElements(offset, absl::MakeSpan(a.index));
  if (!kind.ok()) return kind.status();
  a.shape = HumanStringWithLayout(shape);
  a.offset = offset;
  a.kind = *kind;
  if (a.kind != OffsetKind::kElement) a.index.clear();
  return a;
}

std::string ElementAnswerJson(const ElementAnswer& a) {
  JsonWriter json;
  json.BeginObject();
  json.Key("shape").String(a.shape);
  json.Key("offset").Int(a.offset);
  json.Key("kind").String(OffsetKindName(a.kind));
  if (a.kind == OffsetKind::kElement) json.Key("index").IntArray(a.index);
  json.EndObject();
  return json.str();
}

std::string ElementAnswerText(const ElementAnswer& a) {
  return absl::StrCat(a.kind == OffsetKind::kElement
                          ? IndexText(a.index)
                          : std::string(OffsetKindName(a.kind)),
                      "\n");
}

std::string IndexText(absl::Span<const int64_t> index) {
  return index.empty() ? std::string("()") : absl::StrJoin(index, ",");
}

absl::StatusOr<TilingAnswer> AnswerTiling(const Shape& shape) {
  TilingAnswer a;
  absl::StatusOr<TilingModel> model = BuildTilingModel(shape);
  if (!model.ok()) return model.status();
  absl::StatusOr<std::vector<TilePadding>> padding = ExplainTilePadding(shape);
  if (!padding.ok()) return padding.status();
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (!sizes.ok()) return sizes.status();
  a.shape = HumanStringWithLayout(shape);
  a.model = *std::move(model);
  a.padding = *std::move(padding);
  a.sizes = *sizes;
  return a;
}

std::string TilingAnswerText(const TilingAnswer& a) {
  const ArraySizes& s = a.sizes;
  std::string out =
      absl::StrCat(a.shape, "\n", DescribeTiling(a.model), "bytes ",
                   s.logical_bytes, " logical, ", s.padded_bytes, " padded (",
                   FormatExpansion(s.expansion), " expansion)\n");
  for (const TilePadding& p : a.padding) {
    absl::StrAppend(&out, "  ", p.reason, "\n");
  }
  return out;
}

std::string TilingAnswerJson(const TilingAnswer& a) {
  const ArraySizes& s = a.sizes;
  JsonWriter json;
  json.BeginObject();
  json.Key("shape").String(a.shape);
  json.Key("physical").IntArray(Sizes(a.model.physical));
  json.Key("levels").BeginArray();
  for (const TileLevel& l : a.model.levels) {
    json.BeginObject();
    json.Key("tile").String(l.tile.ToString());
    json.Key("input").IntArray(Sizes(l.input));
    json.Key("combined").IntArray(Sizes(l.combined));
    json.Key("padded").IntArray(l.padded);
    json.Key("reshape").IntArray(l.split);
    json.Key("permutation").IntArray(l.permutation);
    json.Key("output").IntArray(Sizes(l.output));
    json.EndObject();
  }
  json.EndArray();
  json.Key("final").IntArray(a.model.final_dims);
  json.Key("logical_elements").Int(s.logical_elements);
  json.Key("tiled_elements").Int(s.tiled_elements);
  json.Key("padded_elements").Int(s.padded_elements);
  json.Key("logical_bytes").Int(s.logical_bytes);
  json.Key("padded_bytes").Int(s.padded_bytes);
  json.Key("padding").BeginArray();
  for (const TilePadding& p : a.padding) json.String(p.reason);
  json.EndArray();
  json.EndObject();
  return json.str();
}

}  // namespace hlolayout
