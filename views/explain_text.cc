#include "hlolayout/views/explain_text.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/layout/explain_record.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

void ArrayText(const ShapeExplanation& e, const std::string& indent,
               std::string* out) {
  absl::StrAppend(out, indent, "shape:          ", e.shape, "\n");
  absl::StrAppend(
      out, indent, "element type:   ", PrimitiveTypeName(e.element_type), " (",
      e.bit_width, " bit", e.bit_width == 1 ? "" : "s", ", ", e.byte_width,
      " byte", e.byte_width == 1 ? "" : "s", " unpacked)\n");
  absl::StrAppend(out, indent, "dimensions:     ", e.dimensions_text, " (rank ",
                  e.rank, e.is_static ? "" : ", dynamic", ")\n");
  if (e.rank > 0) {
    absl::StrAppend(out, indent,
                    "physical order: ", absl::StrJoin(e.major_to_minor, ","),
                    " (logical dimensions, major to minor)\n");
  }
  absl::StrAppend(out, indent, "layout:         ", e.layout,
                  e.attributes.empty() ? " (nothing to say)" : "", "\n");
  for (const AttributeDescription& a : e.attributes) {
    absl::StrAppend(out, indent, "  ", a.text, ": ", a.description, "\n");
  }
  absl::StrAppend(out, indent, "memory space:   ", e.memory_space, " (",
                  e.memory_space_name, ")\n");
  absl::StrAppend(out, indent, "elements:       ",
                  e.elements < 0 ? std::string("unknown (unbounded dimension "
                                               "or int64 overflow)")
                                 : absl::StrCat(e.elements),
                  "\n");
  absl::StrAppend(out, indent, "bytes:          ",
                  e.bytes < 0 ? std::string("unknown") : absl::StrCat(e.bytes),
                  e.element_size_in_bits != 0
                      ? absl::StrCat(" (packed at ", e.element_size_in_bits,
                                     " bits, before tiling padding)")
                      : std::string(" (before tiling padding)"),
                  "\n");
  if (!e.padding.ok()) {
    absl::StrAppend(out, indent,
                    "padding and size: ", e.padding.status().message(), "\n");
    return;
  }
  const PaddingAndSize& p = *e.padding;
  const ArraySizes& s = p.sizes;
  absl::StrAppend(out, indent, "padding and size:\n");
  absl::StrAppend(
      out, indent, "  physical tiled: ", DimsToString(p.physical_tiled),
      p.tiles.empty() ? " (untiled)" : absl::StrCat(" (T", p.tiles, ")"), "\n");
  absl::StrAppend(out, indent, "  elements:       ", s.logical_elements,
                  " logical, ", s.tiled_elements, " tiled, ", s.padded_elements,
                  " padded (", s.padding_elements(), " padding)\n");
  absl::StrAppend(out, indent, "  bytes:          ", s.logical_bytes,
                  " logical, ", s.padded_bytes, " padded, ", s.padding_bytes(),
                  " padding (", FormatExpansion(s.expansion), " expansion)\n");
  absl::StrAppend(out, indent, "  minor dims aligned to the tiles: ",
                  p.padded_dimensions.empty() ? "yes" : "no", "\n");
  for (const TilePadding& t : p.padded_dimensions) {
    absl::StrAppend(out, indent, "    ", t.reason, "\n");
  }
}

void Text(const ShapeExplanation& e, const std::string& path,
          const std::string& indent, std::string* out) {
  switch (e.kind) {
    case ShapeExplanation::Kind::kTuple:
      absl::StrAppend(out, indent, path.empty() ? "" : path + " ", "tuple of ",
                      e.parts.size(), " element",
                      e.parts.size() == 1 ? "" : "s", ": ", e.shape, "\n");
      for (size_t i = 0; i < e.parts.size(); ++i) {
        Text(e.parts[i],
             absl::StrCat(
                 path.empty() ? "{" : path.substr(0, path.size() - 1) + ",", i,
                 "}"),
             indent + "  ", out);
      }
      return;
    case ShapeExplanation::Kind::kBuffer:
      if (!path.empty()) absl::StrAppend(out, indent, "element ", path, ":\n");
      absl::StrAppend(out, indent, "buffer holding:\n");
      ArrayText(e.parts[0], indent + "  ", out);
      return;
    case ShapeExplanation::Kind::kToken:
    case ShapeExplanation::Kind::kOpaque:
      if (!path.empty()) absl::StrAppend(out, indent, "element ", path, ":\n");
      absl::StrAppend(out, indent, "shape:          ", e.shape, " (",
                      e.kind == ShapeExplanation::Kind::kToken
                          ? "a token orders side effects; it has no data"
                          : "an opaque value of unknown size",
                      ")\n");
      return;
    case ShapeExplanation::Kind::kArray:
      if (!path.empty()) absl::StrAppend(out, indent, "element ", path, ":\n");
      ArrayText(e, indent, out);
      return;
  }
}

}  // namespace

std::string ExplanationText(const ShapeExplanation& e) {
  std::string out;
  Text(e, "", "", &out);
  return out;
}

std::string ExplanationJson(const ShapeExplanation& e) {
  std::string out;
  RecordJsonWriter w(&out, RecordJsonWriter::Style::kIndented);
  EmitValue(ExplanationAnswerOf(e), w);
  return out;
}

}  // namespace hlolayout
