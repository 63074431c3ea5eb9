// fuzz/shape_parser_fuzzer.cc: ParseShape, ParseShapeAt and ParseLayout on
// arbitrary text. On success: print, re-parse, require the same shape
// (round trip), compute the sizes, build a TiledIndexer and, for small
// arrays, check index -> offset -> index against the reference
// ReferenceOffset / ReferenceElementAt. ParseCommonShapeAt, where it
// answers, must agree with the token-based parser.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/common_shape_parser.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::fuzz {
namespace {

// The reference functions rebuild the tiling model on every call, and the
// model keeps every level's intermediate shape (levels x rank, up to
// kMaxTilingModelDims): with 1000 tile levels, 50 reference calls took 17 s
// under the sanitizers. Past this many levels only the fast indexer's own
// round trips are checked.
constexpr size_t kMaxReferenceLevels = 32;

void CheckIndexing(const Shape& shape, absl::string_view text) {
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  CheckError(sizes.status(), text);
  absl::StatusOr<TiledIndexer> indexer = TiledIndexer::Create(shape);
  CheckError(indexer.status(), text);
  // An array whose elements fit int64 and whose bytes do not is refused by
  // ComputeArraySizes (it answers bytes) and taken by the indexer (element
  // offsets fit): the indexer must then refuse exactly the bytes past int64.
  if (!sizes.ok() && indexer.ok() &&
      sizes.status().message() == "byte size overflows int64") {
    const int64_t last = indexer->padded_elements() - 1;
    const bool fits =
        static_cast<__int128>(last) * indexer->element_bits() / 8 <= INT64_MAX;
    if (indexer->TryBitPositionOf(last).ok() != fits) {
      Fail("TryBitPositionOf disagrees with the last element's byte", text);
    }
    return;
  }
  if (sizes.ok() != indexer.ok()) {
    Fail("ComputeArraySizes and TiledIndexer::Create disagree", text,
         sizes.ok() ? indexer.status().message() : sizes.status().message());
  }
  if (!indexer.ok()) return;
  if (sizes->padded_elements != indexer->padded_elements() ||
      sizes->logical_elements != indexer->logical_elements() ||
      sizes->tiled_elements != indexer->tiled_elements()) {
    Fail("sizes disagree with the indexer", text);
  }
  if (indexer->padded_elements() > 4096) return;
  const bool reference_checks =
      !shape.has_layout() ||
      shape.layout().tiles().size() <= kMaxReferenceLevels;
  const int64_t rank = indexer->rank();
  absl::Span<const int64_t> dims = indexer->dimensions();
  std::vector<int64_t> index(rank, 0), back(rank, 0);
  // A few elements: first, last and a stride through the array.
  const int64_t n = indexer->logical_elements();
  if (n == 0) return;
  const int64_t step = n > 16 ? n / 16 : 1;
  for (int64_t linear = 0; linear < n; linear += step) {
    int64_t rest = linear;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    absl::StatusOr<int64_t> offset = indexer->TryOffsetInElements(index);
    if (!offset.ok()) Fail("TryOffset failed in bounds", text);
    if (reference_checks) {
      absl::StatusOr<int64_t> reference = ReferenceOffset(shape, index);
      if (!reference.ok() || *reference != *offset) {
        Fail("TiledIndexer::Offset differs from ReferenceOffset", text);
      }
    }
    if (*offset < 0 || *offset >= indexer->padded_elements()) {
      Fail("offset out of the buffer", text);
    }
    absl::StatusOr<OffsetKind> kind =
        indexer->TryElementAtOffsetInElements(*offset, absl::MakeSpan(back));
    if (!kind.ok() || *kind != OffsetKind::kElement || back != index) {
      Fail("ElementAt(Offset(index)) != index", text);
    }
    if (!reference_checks) continue;
    absl::StatusOr<ElementAtOffset> ref_back =
        ReferenceElementAt(shape, *offset);
    if (!ref_back.ok() || ref_back->kind != OffsetKind::kElement ||
        ref_back->index != index) {
      Fail("ReferenceElementAt(ReferenceOffset(index)) != index", text);
    }
  }
  if (!reference_checks) return;
  // Every offset of a small buffer: the fast and the reference inverse agree.
  for (int64_t offset = 0; offset < indexer->padded_elements(); ++offset) {
    absl::StatusOr<OffsetKind> kind =
        indexer->TryElementAtOffsetInElements(offset, absl::MakeSpan(back));
    absl::StatusOr<ElementAtOffset> ref = ReferenceElementAt(shape, offset);
    if (!kind.ok() || !ref.ok() || *kind != ref->kind ||
        (*kind == OffsetKind::kElement && back != ref->index)) {
      Fail("TiledIndexer::ElementAt differs from ReferenceElementAt", text);
    }
  }
}

// What printing keeps of a layout: M(n) is written only when n > 0 (as
// XLA's printer does), so M(-6) reads back as no M.
Layout AsPrinted(Layout layout) {
  if (layout.dynamic_shape_metadata_prefix_bytes() < 0) {
    layout.set_dynamic_shape_metadata_prefix_bytes(0);
  }
  return layout;
}
Shape AsPrinted(Shape shape) {
  if (shape.has_layout()) *shape.mutable_layout() = AsPrinted(shape.layout());
  for (int64_t i = 0; i < shape.tuple_size(); ++i) {
    *shape.mutable_tuple_shape(i) = AsPrinted(shape.tuple_shape(i));
  }
  return shape;
}

void CheckShape(const Shape& shape, absl::string_view text) {
  const std::string printed = HumanStringWithLayout(shape);
  absl::StatusOr<Shape> again = ParseShape(printed);
  if (!again.ok()) Fail("printed shape does not parse", printed, text);
  if (!(*again == AsPrinted(shape))) {
    Fail("round trip changed the shape", printed,
         HumanStringWithLayout(*again));
  }
  if (HumanStringWithLayout(*again) != printed) {
    Fail("second print differs", printed, text);
  }
  if (shape.IsArray()) CheckIndexing(shape, text);
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (element.IsArray()) CheckIndexing(element, text);
    }
  }
}

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size > kMaxInputSize) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data), size);

  absl::StatusOr<Shape> shape = ParseShape(text);
  CheckError(shape.status(), text);
  if (shape.ok()) CheckShape(*shape, text);

  // Unvalidated, no default layouts: still must not crash; print/parse of
  // the printed text must not crash either.
  ShapeParseOptions raw;
  raw.validate = false;
  raw.fill_missing_layouts = false;
  absl::StatusOr<Shape> raw_shape = ParseShape(text, raw);
  CheckError(raw_shape.status(), text);
  if (raw_shape.ok()) {
    (void)ParseShape(HumanStringWithLayout(*raw_shape), raw);
    (void)HumanString(*raw_shape);
  }

  size_t offset = 0;
  Shape at;
  absl::Status status = ParseShapeAt(text, &offset, &at);
  CheckError(status, text);
  if (status.ok()) {
    if (offset > text.size()) Fail("ParseShapeAt offset past the end", text);
    absl::StatusOr<Shape> prefix = ParseShape(text.substr(0, offset));
    if (!prefix.ok() || !(*prefix == at)) {
      Fail("ParseShapeAt and ParseShape of its prefix differ", text);
    }
  }

  // The common forms' path answers as the token-based parser does, under
  // every combination of options that changes the answer.
  for (int mode = 0; mode < 4; ++mode) {
    ShapeParseOptions options;
    options.validate = (mode & 1) != 0;
    options.fill_missing_layouts = (mode & 2) != 0;
    Shape common;
    size_t common_end = 0;
    if (!ParseCommonShapeAt(text, &common_end, &common, options)) continue;
    options.try_common_forms = false;
    Shape general;
    size_t general_end = 0;
    if (!ParseShapeAt(text, &general_end, &general, options).ok()) {
      Fail("common path accepts what the parser refuses", text);
    }
    if (!(common == general) || common_end != general_end) {
      Fail("common path and parser differ", text);
    }
  }

  absl::StatusOr<Layout> layout = ParseLayout(text);
  CheckError(layout.status(), text);
  if (layout.ok()) {
    std::string printed;
    AppendLayout(&printed, *layout);
    absl::StatusOr<Layout> again = ParseLayout(printed);
    // "{}" prints as "" for an empty layout: only compare when it parses.
    if (!printed.empty()) {
      if (!again.ok()) Fail("printed layout does not parse", printed, text);
      if (!(*again == AsPrinted(*layout))) {
        Fail("layout round trip", printed, text);
      }
    }
  }
  return 0;
}
