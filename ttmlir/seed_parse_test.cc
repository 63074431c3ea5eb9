#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/ttmlir/padding.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {
namespace {

using Dims = std::vector<int64_t>;

// Every tensor of the seed document, verbatim, with what the seed says
// about it.
struct SeedCase {
  const char* text;
  Dims grid;
  Dims shard;   // scalar shard shape
  Dims memref;  // as written
};

const SeedCase kSeedCases[] = {
    {R"(tensor<2x3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),
    undef,
    <1x1>,
    memref<384x128xf32, #tt.memory_space<l1>>
  >
>)",
     {1, 1},
     {384, 128},
     {384, 128}},
    {R"(tensor<2x3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),
    undef,
    <2x4>,
    memref<192x32xf32, #tt.memory_space<l1>>
  >
>)",
     {2, 4},
     {192, 32},
     {192, 32}},
    {R"(tensor<8x300xf32,
  #tt.metal_layout<(d0, d1) -> (d0, d1),
    undef,
    <1x2>,
    memref<8x150xf32, #tt.memory_space<l1>>
  >
>)",
     {1, 2},
     {8, 150},
     {8, 150}},
    {R"(tensor<8x96x32xf32,
  #tt.metal_layout<(d0, d1, d2) -> (d0 * 96 + d1, d2),
    undef,
    <2x1>,
    memref<384x32xf32, #tt.memory_space<l1>>
  >
>)",
     {2, 1},
     {384, 32},
     {384, 32}},
    {R"(tensor<8x96x32xf32,
  #tt.metal_layout<(d0, d1, d2) -> (d0 * 96 + d1, d1, d2),
    undef,
    <2x1x2>,
    memref<384x96x16xf32, #tt.memory_space<l1>>
  >
>)",
     {2, 1, 2},
     {384, 96, 16},
     {384, 96, 16}},
    {R"(tensor<5x3x2x2x7x32x32xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3, d4, d5, d6)
      -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6),
    undef,
    <3x2x2x2>,
    memref<4480x4x16x16xf32, #tt.memory_space<l1>>
  >
>)",
     {3, 2, 2, 2},
     {4480, 4, 16, 16},
     {4480, 4, 16, 16}},
    {R"(tensor<3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 64 + d1, d2),
    undef,
    <3x2>,
    memref<64x64xf32, #tt.memory_space<l1>>
  >
>)",
     {3, 2},
     {64, 64},
     {64, 64}},
    {R"(tensor<3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 64 + d1, d2),
    undef,
    <3x2>,
    memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>)",
     {3, 2},
     {64, 64},
     {2, 2}},
    {R"(tensor<53x63xf32,
  #tt.metal_layout<
    (d0, d1) -> (d0, d1),
    undef,
    <3x2>,
    memref<18x32xf32, #tt.memory_space<l1>>
  >
>)",
     {3, 2},
     {18, 32},
     {18, 32}},
    {R"(tensor<53x63xf32,
  #tt.metal_layout<
    (d0, d1) -> (d0, d1),
    undef,
    <3x2>,
    memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>)",
     {3, 2},
     {18, 32},
     {1, 1}},
    {R"(tensor<2x8x32xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 8 + d1, d2),
    undef,
    <1x2>,
    memref<16x16xf32, #tt.memory_space<l1>>
  >
>)",
     {1, 2},
     {16, 16},
     {16, 16}},
    {R"(tensor<2x3x64x128xf32,
  #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3),
    undef,
    <2x2x4>,
    memref<1x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>)",
     {2, 2, 4},
     {1, 96, 32},
     {1, 3, 1}},
};

TEST(Parse, EverySeedTensor) {
  for (const SeedCase& c : kSeedCases) {
    absl::StatusOr<MetalLayout> l = ParseTensorType(c.text);
    ASSERT_TRUE(l.ok()) << l.status() << "\n" << c.text;
    EXPECT_EQ(l->grid(), c.grid) << c.text;
    EXPECT_EQ(l->shard_shape(), c.shard) << c.text;
    EXPECT_EQ(l->memref_shape(), c.memref) << c.text;
    EXPECT_EQ(l->memory_space(), MemorySpace::kDeviceL1);
    EXPECT_EQ(l->oob_val(), OobVal::kUndef);
    // Printing and reading back gives the same layout and the same text.
    const std::string printed = TensorTypeToString(*l);
    absl::StatusOr<MetalLayout> again = ParseTensorType(printed);
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
    EXPECT_EQ(TensorTypeToString(*again), printed);
    EXPECT_EQ(again->linear(), l->linear());
    EXPECT_EQ(again->tile(), l->tile());
  }
}

TEST(Parse, SeedPaddingExampleTilized) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(kSeedCases[9].text);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(*PaddingPerDim(*l), (std::vector<Dims>{{14, 14, 15}, {0, 1}}));
  EXPECT_EQ(l->tile()->dtype, TileDataType::kBfpBF8);
  EXPECT_EQ(l->shard_bytes(), 1088);
}

TEST(Parse, PrintsOneLine) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(kSeedCases[9].text);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(TensorTypeToString(*l),
            "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
            "<3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, "
            "#tt.memory_space<l1>>>>");
  EXPECT_EQ(MemrefToString(*l),
            "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>");
}

TEST(Parse, AcceptsVariants) {
  const char* ok[] = {
      // Bumped stride (seed).
      "tensor<2x8x32xf32, #tt.metal_layout<(d0, d1, d2) -> (d0 * 32 + d1, "
      "d2), undef, <1x2>, memref<40x16xf32, #tt.memory_space<l1>>>>",
      // Compact tile spelling, other oob values and memory spaces.
      "tensor<53x63xbf16, #tt.metal_layout<(d0, d1) -> (d0, d1), zero, "
      "<3x2>, memref<1x1x!tt.tile<32x32, bf16>, #tt.memory_space<dram>>>>",
      "tensor<4x4xsi32, #tt.metal_layout<(a, b) -> (a, b), neginf, <1x1>, "
      "memref<4x4xsi32, #tt.memory_space<mmio>>>>",
      "tensor<4x4xi1, #tt.metal_layout<(d0, d1) -> (d0, d1), one, <1x1>, "
      "memref<4x4xi1>>>",
      "tensor<128xf32, #tt.metal_layout<(d0) -> (0, 0, d0), inf, <1x2x4>, "
      "memref<1x1x32xf32, #tt.memory_space<system>>>>",
      "tensor<f32, #tt.metal_layout<() -> (0, 0), undef, <1x1>, "
      "memref<1x1xf32, #tt.memory_space<l1>>>>",
      // Constants, parentheses and commuted products.
      "tensor<2x3x4xf32, #tt.metal_layout<(d0, d1, d2) -> ((d0 * 3 + d1) * 4 "
      "+ d2 + 0, 2 * 0), undef, <2x1>, memref<12x1xf32>>>",
      "tensor<4x6xui8, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, "
      "memref<1x1x!tt.tile<16 x 16, u8>, #tt.memory_space<l1>>>>",
  };
  for (const char* text : ok) {
    absl::StatusOr<MetalLayout> l = ParseTensorType(text);
    ASSERT_TRUE(l.ok()) << l.status();
    absl::StatusOr<MetalLayout> again = ParseTensorType(TensorTypeToString(*l));
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(TensorTypeToString(*again), TensorTypeToString(*l));
  }
  absl::StatusOr<MetalLayout> l = ParseTensorType(ok[6]);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->linear().ToString(),
            "(d0, d1, d2) -> (d0 * 12 + d1 * 4 + d2, 0)");
  l = ParseTensorType(ok[3]);
  EXPECT_EQ(l->memory_space(), MemorySpace::kSystem);
  EXPECT_EQ(l->element_type().type, PRED);
}

TEST(Parse, AffineMapOnItsOwn) {
  absl::StatusOr<AffineMap> m =
      ParseAffineMap("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->Coefficient(0, 0), 192);
  EXPECT_EQ(ParseAffineMap("(i, j) -> (j, i)")->ToString(),
            "(d0, d1) -> (d1, d0)");
  EXPECT_EQ(ParseAffineMap("(d0) -> (d0 + d0 * 2 + 3)")->ToString(),
            "(d0) -> (d0 * 3 + 3)");
}

struct BadCase {
  const char* text;
  const char* message;  // the whole diagnostic
};

// Each input with its whole diagnostic; the caret is under the offending
// token.
const BadCase kBadTensors[] = {
    {"tensor<53x63xf32>",
     "1:17: expected ',' and a #tt.metal_layout encoding\n"
     "tensor<53x63xf32>\n"
     "                ^"},
    {"tensor<53x63xf32, #tt.layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x32xf32>>>",
     "1:19: expected '#tt.metal_layout', found '#tt.layout'\n"
     "tensor<53x63xf32, #tt.layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x32xf32>>>\n"
     "                  ^"},
    // Map rank not matching the tensor.
    {"tensor<53x63xf32, #tt.metal_layout<(d0) -> (d0), undef, <3>, "
     "memref<18xf32>>>",
     "1:36: map has 1 dims but the tensor has rank 2\n"
     "tensor<53x63xf32, #tt.metal_layout<(d0) -> (d0), undef, <3>, "
     "memref<18xf32>>>\n"
     "                                   ^"},
    // Grid rank not matching the map.
    {"tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2x1>, "
     "memref<18x32xf32>>>",
     "1:65: map has 2 results but the grid has rank 3\n"
     "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2x1>, "
     "memref<18x32xf32>>>\n"
     "                                                                ^"},
    // Zero grid dim.
    {"tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x0>, "
     "memref<18x32xf32>>>",
     "1:68: grid dim 1 is 0\n"
     "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x0>, "
     "memref<18x32xf32>>>\n"
     "                                                                   ^"},
    // Memref shape disagreeing with the computed one.
    {"tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x31xf32, #tt.memory_space<l1>>>>",
     // 112 columns: shown as a window of 100 around the caret.
     "1:79: memref shape 18x31 does not match the computed shard shape 18x32\n"
     "...xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x31xf32, #tt.memory_space<l1>>>>\n"
     "                                                                     ^"},
    {"tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x32x!tt.tile<32 x 32, bfp_bf8>>>>",
     "1:79: memref shape 18x32 does not match the computed shard shape 1x1 (in "
     "tiles)\n"
     "...f32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<18x32x!tt.tile<32 x 32, bfp_bf8>>>>\n"
     "                                                                    ^"},
};

TEST(Parse, BadTensorsWithCarets) {
  for (const BadCase& c : kBadTensors) {
    absl::StatusOr<MetalLayout> l = ParseTensorType(c.text);
    ASSERT_FALSE(l.ok()) << c.text;
    EXPECT_EQ(l.status().message(), c.message);
  }
}

// Only the first line of the diagnostic ("L:C: message").
std::string FirstLine(absl::string_view text) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(text);
  if (l.ok()) return "ok";
  absl::string_view m = l.status().message();
  return std::string(m.substr(0, m.find('\n')));
}

TEST(Parse, BadInputsMessages) {
  const std::string head = "tensor<53x63xf32, #tt.metal_layout<";
  const std::string tail = ", undef, <3x2>, memref<18x32xf32>>>";
  EXPECT_EQ(FirstLine(""), "1:1: expected 'tensor', found end of input");
  EXPECT_EQ(FirstLine("tensor<"),
            "1:8: expected a dim or an element type, found end of input");
  EXPECT_EQ(FirstLine("tensor<53x?xf32>"),
            "1:11: dynamic dims are not supported");
  EXPECT_EQ(FirstLine("tensor<*xf32>"),
            "1:8: unranked types are not supported");
  EXPECT_EQ(FirstLine("tensor<53 63xf32>"),
            "1:11: expected 'x' after a dim, found '63'");
  EXPECT_EQ(FirstLine("tensor<53x0xf32>"), "1:11: tensor dim 1 has size 0");
  EXPECT_EQ(FirstLine("tensor<53xf31>"), "1:11: unknown element type 'f31'");
  EXPECT_EQ(FirstLine("tensor<99999999999999999999xf32>"),
            "1:8: integer '99999999999999999999' is too large");
  EXPECT_EQ(FirstLine(head + "(d0, d0) -> (d0, d0)" + tail),
            "1:41: duplicate dim name 'd0'");
  EXPECT_EQ(FirstLine(head + "(d0, d1)[s0] -> (d0, d1)" + tail),
            "1:44: symbols are not supported in a layout map");
  EXPECT_EQ(FirstLine(head + "(d0, d1) (d0, d1)" + tail),
            "1:45: expected '->', found '('");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0 - 1, d1)" + tail),
            "1:52: '-' is not supported: layout maps have nonnegative "
            "coefficients");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0 floordiv 2, d1)" + tail),
            "1:52: 'floordiv' is not supported in a layout map");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0 * d1, d1)" + tail),
            "1:52: a product needs a constant factor");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d2, d1)" + tail),
            "1:49: unknown dim 'd2'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0 d1)" + tail),
            "1:52: expected '+', '*', ',' or ')', found 'd1'");
  EXPECT_EQ(FirstLine(head +
                      "(d0, d1) -> (d0 * 4611686018427387904 * 2, "
                      "d1)" +
                      tail),
            "1:74: coefficient overflows int64");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0)" + tail),
            "1:36: d1 does not appear in the map");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0 * 32 + d1, 0)" + tail),
            "1:36: result 0 is not one-to-one: d0 has coefficient 32 but the "
            "smaller terms reach 62");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), nan, <3x2>, "
                             "memref<18x32xf32>>>"),
            "1:58: expected an oob_val (undef, zero, one, inf, neginf), found "
            "'nan'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, 3x2, "
                             "memref<18x32xf32>>>"),
            "1:65: expected '<' before the grid shape, found '3'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "tensor<18x32xf32>>>"),
            "1:72: expected 'memref', found 'tensor'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18xf32>>>"),
            "1:79: memref has rank 1 but the grid has rank 2");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18x32xf16>>>"),
            "1:85: memref element type f16 does not match the tensor's f32");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<1x1x!tt.tile<16 x 32, bfp_bf8>>>>"),
            "1:83: bfp_bf8 tiles must be 32x32, got 16x32");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<1x1x!tt.tile<32 x 32, f8>>>>"),
            "1:101: unknown tile data type 'f8'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<1x1x!tt.tile<32 32, f32>>>>"),
            "1:95: expected 'x' in the tile shape, found '32'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<1x1x!tt.foo<32 x 32, f32>>>>"),
            "1:83: expected a scalar type or '!ttcore.tile', found '!tt.foo'");
  // A memref cut short is a syntax error before its rank is compared.
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18x>>>"),
            "1:82: expected a dim or an element type, found '>'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18x32xf32, #tt.memory_space<l2>>>>"),
            "1:107: expected a memory space (system, mmio, dram, l1), found "
            "'l2'");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18x32xf32>>> trailing"),
            "1:92: unexpected 'trailing' after the tensor type");
  EXPECT_EQ(FirstLine(head + "(d0, d1) -> (d0, d1), undef, <3x2>, "
                             "memref<18x32xf32>>"),
            "1:90: expected '>' to close the tensor type, found end of input");
  EXPECT_EQ(FirstLine(head + "(d0) -> (d0), undef, <3>, "
                             "memref<1x!tt.tile<32 x 32, f32>>>>"),
            "1:36: map has 1 dims but the tensor has rank 2");
  EXPECT_EQ(FirstLine("tensor<64xf32, #tt.metal_layout<(d0) -> (d0), undef, "
                      "<2>, memref<1x!tt.tile<32 x 32, f32>>>>"),
            "1:68: a tiled memref needs rank >= 2, the grid has rank 1");
  EXPECT_EQ(FirstLine("tensor<53x63xf32, @"),
            "1:19: expected '#tt.metal_layout', found '@'");
}

TEST(Parse, NestingIsCapped) {
  const std::string deep = std::string(64, '(') + "d0" + std::string(64, ')');
  EXPECT_TRUE(ParseAffineMap("(d0) -> (" + deep + ")").ok());
  const std::string deeper =
      std::string(10000, '(') + "d0" + std::string(10000, ')');
  absl::StatusOr<AffineMap> m = ParseAffineMap("(d0) -> (" + deeper + ")");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message().substr(0, 39),
            "1:74: parentheses nested too deeply\n...");
}

TEST(Parse, ErrorsOnLaterLines) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(
      "tensor<53x63xf32,\n"
      "  #tt.metal_layout<(d0, d1) -> (d0, d1),\n"
      "    undef, <3x2>,\n"
      "    memref<18x30xf32, #tt.memory_space<l1>>>>");
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            "4:12: memref shape 18x30 does not match the computed shard shape "
            "18x32\n"
            "    memref<18x30xf32, #tt.memory_space<l1>>>>\n"
            "           ^");
}

// Print -> parse round trip over many generated layouts.
TEST(Parse, PropertyRoundTripOverGeneratedLayouts) {
  int count = 0;
  for (const Dims& shape : std::vector<Dims>{{3}, {5, 7}, {2, 3, 4}}) {
    for (int64_t g0 = 1; g0 <= 3; ++g0) {
      for (int64_t g1 = 1; g1 <= 3; ++g1) {
        for (int tiled = 0; tiled < 3; ++tiled) {
          std::vector<AffineResult> results;
          const int64_t rank = shape.size();
          if (rank == 1) {
            results = {{{}, 0}, {{{0, 1}}, 0}};
          } else {
            AffineResult r;
            int64_t stride = 1 + tiled;  // bump some strides
            for (int64_t d = rank - 2; d >= 0; --d) {
              r.terms.push_back({d, stride});
              stride *= shape[d] + 1;
            }
            results = {r, {{{rank - 1, 1}}, 0}};
          }
          absl::optional<TileType> tile;
          if (tiled == 1) tile = TileType{2, 2, TileDataType::kF16};
          if (tiled == 2) tile = TileType{32, 32, TileDataType::kBfpF2};
          auto l = MetalLayout::Create(
              shape, ScalarType{S32, true}, AffineMap(rank, results),
              OobVal::kOne, {g0, g1}, tile, MemorySpace::kDeviceDRAM);
          ASSERT_TRUE(l.ok()) << l.status();
          const std::string text = TensorTypeToString(*l);
          auto again = ParseTensorType(text);
          ASSERT_TRUE(again.ok()) << again.status();
          EXPECT_EQ(TensorTypeToString(*again), text);
          EXPECT_EQ(again->linear(), l->linear());
          EXPECT_EQ(again->memref_shape(), l->memref_shape());
          EXPECT_EQ(again->element_type(), l->element_type());
          ++count;
        }
      }
    }
  }
  EXPECT_EQ(count, 81);
}

}  // namespace
}  // namespace hlolayout::grid
