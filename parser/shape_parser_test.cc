#include "hlolayout/parser/shape_parser.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout {
namespace {

// Inputs XLA prints, which must print back byte for byte.
const char* const kCanonical[] = {
    // Every primitive type.
    "pred[2]{0}",
    "s1[2]{0}",
    "s2[2]{0}",
    "s4[2]{0}",
    "s8[2]{0}",
    "s16[2]{0}",
    "s32[2]{0}",
    "s64[2]{0}",
    "u1[2]{0}",
    "u2[2]{0}",
    "u4[2]{0}",
    "u8[2]{0}",
    "u16[2]{0}",
    "u32[2]{0}",
    "u64[2]{0}",
    "f16[2]{0}",
    "bf16[2]{0}",
    "f32[2]{0}",
    "f64[2]{0}",
    "f8e5m2[2]{0}",
    "f8e4m3[2]{0}",
    "f8e4m3fn[2]{0}",
    "f8e4m3b11fnuz[2]{0}",
    "f8e3m4[2]{0}",
    "f8e5m2fnuz[2]{0}",
    "f8e4m3fnuz[2]{0}",
    "f4e2m1fn[2]{0}",
    "f8e8m0fnu[2]{0}",
    "f6e3m2fn[2]{0}",
    "f6e2m3fn[2]{0}",
    "c64[2]{0}",
    "c128[2]{0}",
    "token[]",
    "opaque[]",
    // Scalars.
    "f32[]",
    "f32[]{:T(256)}",
    "u32[]{:S(2)}",
    "s32[]{:T(128)S(1)}",
    // Each layout attribute alone.
    "f32[3,5]{1,0}",
    "f32[3,5]{0,1}",
    "f32[0]{0}",
    "f32[3,5]{1,0:T(2,2)}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "f32[8,8]{1,0:T(2,4)(2,1,1,1)}",
    "f32[100]{0:L(1024)}",
    "s4[64,128]{1,0:E(4)}",
    "s4[64,64]{1,0:E(4)}",
    "s2[1001]{0:E(2)}",
    "pred[8,8,8]{0,2,1:E(32)}",
    "f32[4]{0:S(5)}",
    "f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}",
    "f32[4]{0:M(8)}",
    // Combined attributes.
    "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
    "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)L(2048)E(16)S(1)SC(0:16)M(4)}",
    // Dynamic dimensions.
    "f32[<=16,3]{1,0}",
    "f32[?,3]{1,0}",
    "f32[<=4,?,<=0]{2,1,0}",
    // Tuples.
    "()",
    "(f32[2]{0})",
    "(f32[2]{0}, (s32[], token[]), ())",
    "(s32[], s32[], s32[], s32[], s32[], /*index=5*/s32[])",
    "((f32[1]{0}, f32[1]{0}, f32[1]{0}, f32[1]{0}, f32[1]{0}, "
    "/*index=5*/f32[1]{0}), s32[], s32[], s32[], s32[], /*index=5*/s32[], "
    "s32[], s32[], s32[], s32[], /*index=10*/s32[])",
    // Buffers.
    "b(f32[8]{0})",
    "(b(s32[2,2]{0,1}), f32[])",
};

class CanonicalRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(CanonicalRoundTrip, PrintsBackIdentically) {
  absl::StatusOr<Shape> shape = ParseShape(GetParam());
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), GetParam());
  absl::StatusOr<Shape> again = ParseShape(HumanStringWithLayout(*shape));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *shape);
}

INSTANTIATE_TEST_SUITE_P(XlaPrinted, CanonicalRoundTrip,
                         ::testing::ValuesIn(kCanonical));

// Sparse layouts as the 2024 XLA printed them, with keep_dim_levels.
TEST(ShapeParser, KeptDimLevelsRoundTrip) {
  ShapeParseOptions keep;
  keep.keep_dim_levels = true;
  for (const char* text :
       {"f32[10,10]{1,0:D(D,C)}", "f32[10,10]{1,0:D(D,C+~)#(u32)*(u16)}",
        "f32[10,10]{1,0:D(D,C)P(s32[4]{0})}"}) {
    absl::StatusOr<Shape> shape = ParseShape(text, keep);
    ASSERT_TRUE(shape.ok()) << text << ": " << shape.status();
    EXPECT_EQ(HumanStringWithLayout(*shape), text);
  }
  absl::StatusOr<Shape> mismatch = ParseShape("f32[2,2]{1,0:D(D)}", keep);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.status().message().find(
                "D(...) has 1 entries but the shape has rank 2"),
            absl::string_view::npos);
}

// Today's XLA drops D(...): the same texts read as dense layouts.
TEST(ShapeParser, DimLevelsDroppedByDefault) {
  absl::StatusOr<Shape> shape = ParseShape("f32[10,10]{1,0:D(D,C)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), "f32[10,10]{1,0}");
  shape = ParseShape("f32[2,2]{1,0:D(D)}");  // no entry count to check
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), "f32[2,2]{1,0}");
}

struct Normalized {
  const char* input;
  const char* printed;
};

// Inputs that parse to a canonical form that differs from their text.
const Normalized kNormalized[] = {
    {"f32[3,5]", "f32[3,5]{1,0}"},
    {"f32[]", "f32[]"},
    {"f32[1024, 16]", "f32[1024,16]{1,0}"},
    {"f32[3,5] {1, 0 : T(2, 2)}", "f32[3,5]{1,0:T(2,2)}"},
    {"bf16[8,1,1280,16384]<3,2,0,1:T(8,128)(2,1)S(1)>",
     "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"},
    {"f32[2]<0>", "f32[2]{0}"},
    {"f32[]<:T(256)>", "f32[]{:T(256)}"},
    {"f32[]{:}", "f32[]"},
    {"f32[2]{0:}", "f32[2]{0}"},
    {"f32[2]{0:L(1)E(0)S(0)M(0)}", "f32[2]{0}"},
    {"f32[2]{0:D(D)}", "f32[2]{0}"},
    {"/* lead */ f32[2] // trailing\n", "f32[2]{0}"},
    {"(f32[2],\n /*index=1*/ s32[])", "(f32[2]{0}, s32[])"},
    {"f32[\n3,\n5\n]", "f32[3,5]{1,0}"},
    {"(((())))", "(((())))"},
    {"f32[2,3]{1,0:T(2,1)(1)}", "f32[2,3]{1,0:T(2,1)(1)}"},
};

class NormalizedParse : public ::testing::TestWithParam<Normalized> {};

TEST_P(NormalizedParse, PrintsCanonically) {
  absl::StatusOr<Shape> shape = ParseShape(GetParam().input);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), GetParam().printed);
}

INSTANTIATE_TEST_SUITE_P(Forms, NormalizedParse,
                         ::testing::ValuesIn(kNormalized));

TEST(ShapeParser, DesignCardShape) {
  absl::StatusOr<Shape> shape =
      ParseShape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->element_type(), BF16);
  EXPECT_EQ(shape->dimensions(),
            (absl::Span<const int64_t>{8, 1, 1280, 16384}));
  const Layout& layout = shape->layout();
  EXPECT_EQ(layout.minor_to_major(), (absl::Span<const int64_t>{3, 2, 0, 1}));
  ASSERT_EQ(layout.tiles().size(), 2u);
  EXPECT_EQ(layout.tiles()[0], Tile({8, 128}));
  EXPECT_EQ(layout.tiles()[1], Tile({2, 1}));
  EXPECT_EQ(layout.memory_space(), 1);
}

TEST(ShapeParser, DynamicDimensions) {
  absl::StatusOr<Shape> shape = ParseShape("f32[<=16,?,3]");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_TRUE(shape->is_dynamic_dimension(0));
  EXPECT_EQ(shape->dimension(0), 16);
  EXPECT_TRUE(shape->is_unbounded_dynamic_dimension(1));
  EXPECT_FALSE(shape->is_dynamic_dimension(2));
}

TEST(ShapeParser, CombinedTileDimensionIsInt64Min) {
  absl::StatusOr<Shape> shape = ParseShape("f32[2,3]{1,0:T(*,3)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->layout().tiles()[0].dimension(0), INT64_MIN);
}

TEST(ShapeParser, ScalarGetsEmptyLayout) {
  absl::StatusOr<Shape> shape = ParseShape("f32[]");
  ASSERT_TRUE(shape.ok());
  ASSERT_TRUE(shape->has_layout());
  EXPECT_EQ(shape->layout(), Layout());
}

TEST(ShapeParser, NoFillLeavesLayoutMissing) {
  ShapeParseOptions options;
  options.fill_missing_layouts = false;
  absl::StatusOr<Shape> shape = ParseShape("f32[2,3]", options);
  ASSERT_TRUE(shape.ok());
  EXPECT_FALSE(shape->has_layout());
}

TEST(ShapeParser, NoValidateAcceptsWhatXlaParserAccepts) {
  ShapeParseOptions options;
  options.validate = false;
  absl::StatusOr<Shape> shape = ParseShape("f32[2,3]{0,0:T(0)}", options);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), "f32[2,3]{0,0:T(0)}");
}

TEST(ShapeParser, ParseShapeAtStopsAfterShape) {
  const std::string text = "%p = f32[2,3]{1,0} parameter(0)";
  size_t offset = 4;
  Shape shape;
  ASSERT_TRUE(ParseShapeAt(text, &offset, &shape).ok());
  EXPECT_EQ(text.substr(offset), " parameter(0)");
  EXPECT_EQ(HumanStringWithLayout(shape), "f32[2,3]{1,0}");
}

TEST(ShapeParser, ParseShapeAtReportsPositionsInWholeText) {
  const std::string text = "a\nb = f32[2,x]";
  size_t offset = 6;
  Shape shape;
  ShapeParseOptions options;
  options.file_name = "m.hlo";
  absl::Status status = ParseShapeAt(text, &offset, &shape, options);
  EXPECT_EQ(status.message(),
            "m.hlo:2:11: expected a dimension size, '<=' or '?', found 'x'\n"
            "b = f32[2,x]\n"
            "          ^");
  EXPECT_EQ(offset, 6u);
}

TEST(ShapeParser, DepthLimit) {
  std::string deep(101, '(');
  deep += std::string(101, ')');
  absl::StatusOr<Shape> shape = ParseShape(deep);
  ASSERT_FALSE(shape.ok());
  EXPECT_EQ(std::string(shape.status().message()).substr(0, 41),
            "1:101: shape nested deeper than 100 level");
  std::string ok(100, '(');
  ok += std::string(100, ')');
  EXPECT_TRUE(ParseShape(ok).ok());
}

TEST(ParseLayout, Forms) {
  absl::StatusOr<Layout> layout = ParseLayout("{1,0:T(2,2)}");
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->ToString(), "{1,0:T(2,2)}");
  EXPECT_EQ(ParseLayout("{}")->ToString(), "{}");
  EXPECT_EQ(ParseLayout("<0:S(1)>")->ToString(), "{0:S(1)}");
  EXPECT_EQ(ParseLayout("{0} x").status().message(),
            "1:5: extra content after layout: 'x'\n{0} x\n    ^");
  EXPECT_FALSE(ParseLayout("[0]").ok());
}

struct Invalid {
  const char* input;
  const char* message;  // "L:C: message" (first line of the status)
};

const Invalid kInvalid[] = {
    {"", "1:1: expected a shape, found end of input"},
    {"F32[2]", "1:1: unknown element type 'F32'"},
    {"opaque_type[]", "1:1: unknown element type 'opaque_type'"},
    {"tuple[]", "1:1: unknown element type 'tuple'"},
    {"f31[2]", "1:1: unknown element type 'f31'"},
    {"f32", "1:4: expected '[' after element type, found end of input"},
    {"f32(2)", "1:4: expected '[' after element type, found '('"},
    {"f32[", "1:5: expected a dimension size, '<=' or '?', found end of input"},
    {"f32[2", "1:6: expected ',' or ']' in dimensions, found end of input"},
    {"f32[2,]", "1:7: expected a dimension size, '<=' or '?', found ']'"},
    {"f32[,2]", "1:5: expected a dimension size, '<=' or '?', found ','"},
    {"f32[2;3]", "1:6: unexpected character"},
    {"f32[-1]", "1:5: dimension size must not be negative, found -1"},
    {"f32[<=]", "1:7: expected a bound after '<=', found ']'"},
    {"f32[<=-2]", "1:7: dimension size must not be negative, found -2"},
    {"f32[?3]", "1:6: expected ',' or ']' in dimensions, found '3'"},
    {"f32[9223372036854775808]", "1:5: integer out of range"},
    {"f32[99999999999999999999]", "1:5: integer out of range"},
    {"f32[2x]", "1:5: malformed integer"},
    {"f32[2]{}", "1:7: extra content after shape: '{'"},
    {"f32[]{}", "1:6: extra content after shape: '{'"},
    {"f32[2]{0}}", "1:10: extra content after shape: '}'"},
    {"f32[2] f32[2]", "1:8: extra content after shape: 'f32'"},
    {"f32[2]{0", "1:9: expected ',', ':' or '}' in layout, found end of input"},
    {"f32[2]{0,}",
     "1:10: expected a dimension number in minor_to_major, "
     "found '}'"},
    {"f32[2]{0 1}", "1:10: expected ',', ':' or '}' in layout, found '1'"},
    {"f32[2]<0}", "1:9: expected ',', ':' or '>' in layout, found '}'"},
    {"f32[2]<>", "1:7: layout has 0 dimensions but the shape has rank 1"},
    {"f32[2,3]{0}", "1:9: layout has 1 dimension but the shape has rank 2"},
    {"f32[2]{1,0}", "1:7: layout has 2 dimensions but the shape has rank 1"},
    {"f32[2,3]{0,0}",
     "1:9: minor_to_major {0,0} is not a permutation: 0 appears twice"},
    {"f32[2,3]{2,0}",
     "1:9: minor_to_major {2,0} names dimension 2, outside 0..1"},
    {"f32[2,3]{1,-1}",
     "1:9: minor_to_major {1,-1} names dimension -1, outside 0..1"},
    {"f32[2]{0:X(1)}", "1:10: unknown layout attribute 'X'"},
    {"f32[2]{0:t(1)}", "1:10: unknown layout attribute 't'"},
    {"f32[2]{0:T}", "1:11: expected '(' after T, found '}'"},
    {"f32[2]{0:T()}", "1:7: tile () is empty"},
    {"f32[2]{0:T(0)}", "1:7: tile (0) has a zero dimension"},
    {"f32[2]{0:T(2,)}", "1:14: expected a tile size or '*', found ')'"},
    {"f32[2]{0:T(2 3)}", "1:14: expected ',' or ')' in tile, found '3'"},
    {"f32[2]{0:T(a)}", "1:12: expected a tile size or '*', found 'a'"},
    {"f32[2]{0:L(0)}", "1:7: L(0) must be positive"},
    {"f32[2]{0:L(-8)}", "1:7: L(-8) must be positive"},
    {"f32[2]{0:L}", "1:11: expected '(' after L, found '}'"},
    {"f32[2]{0:L()}", "1:12: expected an integer in L(...), found ')'"},
    {"f32[2]{0:L(4}", "1:13: expected ')' after L(4, found '}'"},
    {"f32[2]{0:E(-4)}", "1:7: E(-4) must not be negative"},
    {"f32[2]{0:E(x)}", "1:12: expected an integer in E(...), found 'x'"},
    {"f32[2]{0:S(1)T(2)}",
     "1:14: layout attribute 'T' must come before 'S' (order: D T L # * E S "
     "SC P M)"},
    {"f32[2]{0:S(1)S(1)}", "1:14: layout attribute 'S' given twice"},
    {"f32[2]{0:E(4)L(2)}",
     "1:14: layout attribute 'L' must come before 'E' (order: D T L # * E S "
     "SC P M)"},
    {"f32[2]{0:#(u32)}", "1:7: #(u32) is only allowed on sparse arrays"},
    {"f32[2]{0:*(u16)}", "1:7: *(u16) is only allowed on sparse arrays"},
    {"f32[2]{0:D(C)#(f32)}",
     "1:16: expected an integral type in #(...), "
     "found 'f32'"},
    {"f32[2]{0:D(X)}",
     "1:12: expected a dim level type D, C, S or H, "
     "found 'X'"},
    {"f32[2]{0:D(DC)}",
     "1:12: expected a dim level type D, C, S or H, "
     "found 'DC'"},
    {"f32[2]{0:D(D;)}", "1:13: unexpected character"},
    {"f32[2]{0:D(C)#(u32)}", "1:7: #(u32) is only allowed on sparse arrays"},
    {"f32[?]{0:SC(0:1)}",
     "1:7: SC(0:...) splits physical dimension 0, which is unbounded (`?`)"},
    {"f32[2]{0:P(s32[2])}", "1:7: P(...) is only allowed on sparse arrays"},
    {"f32[2]{0:D(C)P(s32[2]}", "1:22: expected ')' after P(shape, found '}'"},
    {"f32[2]{0:SC(1:1)}",
     "1:7: SC(1:...) names physical dimension 1, "
     "outside 0..0"},
    {"f32[4]{0:SC(0:0)}",
     "1:7: SC(0:0): split indices must increase strictly "
     "inside (0, 4)"},
    {"f32[4]{0:SC(0:2,2)}",
     "1:7: SC(0:2,2): split indices must increase "
     "strictly inside (0, 4)"},
    {"f32[4]{0:SC(0:4)}",
     "1:7: SC(0:4): split indices must increase strictly "
     "inside (0, 4)"},
    {"f32[4,4]{1,0:SC(0:1)(0:2)}",
     "1:9: SC(0:...) splits physical dimension "
     "0 twice"},
    {"f32[4]{0:SC(0)}",
     "1:14: expected ':' after the SC dimension, "
     "found ')'"},
    {"f32[4]{0:SC(0:)}", "1:15: expected a split index, found ')'"},
    {"token[2]", "1:1: token shapes have no dimensions"},
    {"opaque[1]", "1:1: opaque shapes have no dimensions"},
    {"(f32[2]", "1:8: expected ',' or ')' in tuple, found end of input"},
    {"(f32[2],)", "1:9: expected a shape, found ')'"},
    {"(f32[2] s32[])", "1:9: expected ',' or ')' in tuple, found 's32'"},
    {"())", "1:3: extra content after shape: ')'"},
    {"b(", "1:3: expected a shape, found end of input"},
    {"b((f32[2]))", "1:3: a buffer b(...) must hold an array shape"},
    {"b(f32[2]", "1:9: expected ')' after buffer shape, found end of input"},
    {"b", "1:1: unknown element type 'b'"},
    {"f32[2] /* open", "1:8: unterminated comment"},
    {"f32[3037000500,3037000500]",
     "1:1: element count of f32[3037000500,3037000500] overflows int64"},
    {"[2]", "1:1: expected a shape, found '['"},
    {"f32 [2]{0}\n{", "2:1: extra content after shape: '{'"},
    {"f32[2]{0:T(2)\nS(1)X}", "2:5: unknown layout attribute 'X'"},
    {"(f32[2],\n  s32[2]{0:T(0)})", "2:9: tile (0) has a zero dimension"},
};

class InvalidShape : public ::testing::TestWithParam<Invalid> {};

TEST_P(InvalidShape, ExactMessageAndColumn) {
  absl::StatusOr<Shape> shape = ParseShape(GetParam().input);
  ASSERT_FALSE(shape.ok()) << GetParam().input << " parsed as "
                           << HumanStringWithLayout(*shape);
  EXPECT_EQ(shape.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(shape.status().message());
  EXPECT_EQ(message.substr(0, message.find('\n')), GetParam().message)
      << GetParam().input;
  // Three lines: message, source line, caret.
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 2) << message;
}

INSTANTIATE_TEST_SUITE_P(Table, InvalidShape, ::testing::ValuesIn(kInvalid));

TEST(ShapeParser, AtLeastSixtyInvalidInputs) {
  EXPECT_GE(sizeof(kInvalid) / sizeof(kInvalid[0]), 60u);
}

TEST(ShapeParser, CaretUnderOffendingToken) {
  absl::StatusOr<Shape> shape = ParseShape("f32[2]{0:T(2,0)}");
  EXPECT_EQ(shape.status().message(),
            "1:7: tile (2,0) has a zero dimension\n"
            "f32[2]{0:T(2,0)}\n"
            "      ^");
  shape = ParseShape("(f32[2],\n  bogus[])");
  EXPECT_EQ(shape.status().message(),
            "2:3: unknown element type 'bogus'\n"
            "  bogus[])\n"
            "  ^");
}

}  // namespace
}  // namespace hlolayout
