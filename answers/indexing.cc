#include "hlolayout/answers/indexing.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/shape/printer.h"

namespace hlolayout {

std::vector<int64_t> TilingSizes(const std::vector<TilingDim>& dims) {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (const TilingDim& d : dims) out.push_back(d.size);
  return out;
}

std::vector<TilingLevelAnswer> TilingLevels(const TilingModel& model) {
  std::vector<TilingLevelAnswer> out;
  for (const TileLevel& l : model.levels) {
    out.push_back({l.tile.ToString(), TilingSizes(l.input),
                   TilingSizes(l.combined), l.padded, l.split, l.permutation,
                   TilingSizes(l.output)});
  }
  return out;
}

std::vector<std::string> TilePaddingReasons(
    const std::vector<TilePadding>& padding) {
  std::vector<std::string> out;
  for (const TilePadding& p : padding) out.push_back(p.reason);
  return out;
}

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

}  // namespace hlolayout
