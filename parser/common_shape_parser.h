// parser/common_shape_parser.h: the common forms of shape text, read without
// tokens (the first try of ParseShapeAt, parser/shape_parser.h).
//
//   bf16[8,1280]{1,0:T(8,128)(2,1)S(1)}       read here
//   (f32[2]{0}, /*index=1*/s32[])             read here
//   f32[<=4]{0}  f32[2]{0:D(D)}  f32[ 2 ]     left to the general parser
//
// Dumps hold thousands of distinct shape texts, and a reader meets each one
// once: this reads the forms XLA prints for dense arrays (element type,
// static dimensions, minor_to_major, tiles with `*`, L, E, S) and tuples of
// them (", " between elements, XLA's `/*index=N*/` comments) straight from
// the bytes, several times faster than the token-based parser.
#ifndef HLOLAYOUT_PARSER_COMMON_SHAPE_PARSER_H_
#define HLOLAYOUT_PARSER_COMMON_SHAPE_PARSER_H_

#include <cstddef>

#include "absl/strings/string_view.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// ParseCommonShapeAt
//
// Reads the shape that starts exactly at `*offset` in `text` when it has one
// of the common forms above and is valid under `options` (ValidateShape when
// options.validate, missing layouts filled when options.fill_missing_layouts,
// nesting below options.max_depth). Then sets `*shape` and `*offset` exactly
// as ParseShapeAt would (offset just past the shape's last character) and
// returns true. Returns false for anything else (another form, an error of
// any kind), with `*shape` in an unspecified state and `*offset` unchanged:
// the general parser then reads the text and gives the answer or the
// located error. Never reads past the end of `text`.
//
// Precondition: `*shape` is default-constructed.
bool ParseCommonShapeAt(absl::string_view text, size_t* offset, Shape* shape,
                        const ShapeParseOptions& options);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PARSER_COMMON_SHAPE_PARSER_H_
