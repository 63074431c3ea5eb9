#include "hlolayout/cute/ops.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace hlolayout::cute {
namespace {

std::string Op(absl::string_view op, std::vector<absl::string_view> args) {
  absl::StatusOr<std::string> r = RunCuteOp(op, args);
  return r.ok() ? *r : "error: " + std::string(r.status().message());
}

TEST(RunCuteOp, EveryOp) {
  EXPECT_EQ(Op("coalesce", {"(2,(1,6)):(1,(6,2))"}), "12:1");
  EXPECT_EQ(Op("coalesce", {"(2,(1,6)):(1,(6,2))", "(1,1)"}), "(2,6):(1,2)");
  EXPECT_EQ(Op("filter", {"(2,3,4):(0,1,0)"}), "3:1");
  EXPECT_EQ(Op("filter", {"((2,3),4):((0,1),0)", "(1,1)"}), "(3,_1):(1,_0)");
  EXPECT_EQ(Op("composition", {"(6,2):(8,2)", "(4,3):(3,1)"}),
            "((2,2),3):((24,2),8)");
  EXPECT_EQ(Op("composition", {"(12,(4,8)):(59,(13,1))", "<3:4, 8:2>"}),
            "(3,(2,4)):(236,(26,1))");
  EXPECT_EQ(Op("composition", {"(12,(4,8)):(59,(13,1))", "(3,8)"}),
            "(3,(4,2)):(59,(13,1))");
  EXPECT_EQ(Op("composition", {"20:2", "5"}), "5:2");
  EXPECT_EQ(Op("complement", {"4:2", "24"}), "(2,3):(_1,8)");
  EXPECT_EQ(Op("complement", {"4:2"}), "2:_1");
  EXPECT_EQ(Op("right_inverse", {"(2,4,6):(4,1,8)"}), "(4,2,6):(2,_1,8)");
  EXPECT_EQ(Op("left_inverse", {"4:2"}), "(2,4):(_0,_1)");
  EXPECT_EQ(Op("logical_divide", {"(2,4,3):(4,1,8)", "4:2"}),
            "(4,(2,3)):(1,(4,8))");
  EXPECT_EQ(Op("zipped_divide", {"(8,6):(1,8)", "<2,3>"}),
            "((2,3),(4,2)):((1,8),(2,24))");
  EXPECT_EQ(Op("tiled_divide", {"(8,6):(1,8)", "<2,3>"}),
            "((2,3),4,2):((1,8),2,24)");
  EXPECT_EQ(Op("flat_divide", {"(8,6):(1,8)", "<2,3>"}),
            "(2,3,4,2):(1,8,2,24)");
  EXPECT_EQ(Op("logical_product", {"(2,2):(4,1)", "6:1"}),
            "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(Op("zipped_product", {"(2,2):(1,2)", "(3):(1)"}),
            "((2,2),(3)):((1,2),(4))");
  EXPECT_EQ(Op("tiled_product", {"(2,2):(1,2)", "(3):(1)"}),
            "((2,2),(3)):((1,2),(4))");  // CuTe keeps the rank-1 mode
  EXPECT_EQ(Op("flat_product", {"(2,2):(1,2)", "(3):(1)"}),
            "(2,2,(3)):(1,2,(4))");
  EXPECT_EQ(Op("blocked_product", {"(2,2):(1,2)", "3:1"}),
            "((2,3),(2,_1)):((1,4),(2,_0))");
  EXPECT_EQ(Op("raked_product", {"(2,2):(1,2)", "3:1"}),
            "((3,2),(_1,2)):((4,1),(_0,2))");
  EXPECT_EQ(Op("size", {"((2,2),3):((24,2),8)"}), "12");
  EXPECT_EQ(Op("cosize", {"(4):(-1)"}), "4");
  EXPECT_EQ(Op("rank", {"(4):(1)"}), "1");
  EXPECT_EQ(Op("depth", {"4:1"}), "0");
  EXPECT_EQ(Op("flatten", {"((2,2),3):((24,2),8)"}), "(2,2,3):(24,2,8)");
  EXPECT_EQ(Op("get", {"((2,2),3):((24,2),8)", "0"}), "(2,2):(24,2)");
  EXPECT_EQ(Op("make_layout", {"4:1", "(2,3):(4,8)"}), "(4,(2,3)):(1,(4,8))");
  EXPECT_EQ(Op("crd2idx", {"(3,(2,3)):(3,(12,1))", "(1,5)"}), "17");
  EXPECT_EQ(Op("crd2idx", {"(3,(2,3)):(3,(12,1))", "20"}), "9");
  EXPECT_EQ(Op("idx2crd", {"(3,(2,3))", "(1,5)"}), "(1,(1,2))");
  EXPECT_EQ(Op("congruent", {"(2,3)", "(4,5):(0,1)"}), "true");
  EXPECT_EQ(Op("compatible", {"12:1", "(3,4)"}), "true");
  EXPECT_EQ(Op("compatible", {"(3,4)", "12:1"}), "false");
  EXPECT_EQ(Op("table", {"(2,2):(1,2)"}),
            "(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n"
            "    +---+---+\n 1  | 1 | 3 |\n    +---+---+\n");
}

// Found by fuzz/cute_fuzzer: an empty tiler on an integral A read
// tiler.elements()[0] of an empty vector. It now leaves A's single mode as
// it is, as for the tuple (A).
TEST(RunCuteOp, EmptyTilerOnIntegralLayout) {
  EXPECT_EQ(Op("tiled_product", {"4615", "()"}), "((),(4615)):((),(_1))");
  EXPECT_EQ(Op("zipped_divide", {"4615", "()"}), "((),(4615)):((),(_1))");
  EXPECT_EQ(Op("logical_divide", {"4:2", "()"}), "(4):(2)");
  for (absl::string_view op :
       {"logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
        "logical_product", "zipped_product", "tiled_product", "flat_product"}) {
    EXPECT_EQ(Op(op, {"4615", "()"}), Op(op, {"(4615)", "()"})) << op;
  }
}

TEST(RunCuteOp, Offsets) {
  EXPECT_EQ(Op("offsets", {"(2,3):(3,1)"}), "[0, 3, 1, 4, 2, 5]");
  EXPECT_EQ(Op("offsets", {"Sw<1,0,-2>"}), "[0, 5, 2, 7, 4, 1, 6, 3]");
  EXPECT_EQ(Op("offsets", {"Sw<1,0,1> o _0 o (_2,_2):(_2,_1)"}),
            "[0, 3, 1, 2]");
  EXPECT_EQ(Op("size", {"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"}), "512");
  EXPECT_EQ(Op("crd2idx", {"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "(2,0)"}),
            "144");
  EXPECT_EQ(Op("offsets", {"(1024,1025)"}),
            "error: offsets: (1024,1025):(_1,1024) has 1049600 elements, more "
            "than the 1048576 listed at most");
}

// The numbers `offsets` prints, with its errors (Python's cute.offsets).
TEST(RunCuteOp, OffsetsAsNumbers) {
  EXPECT_EQ(*CuteOffsets("(2,3):(3,1)"),
            (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(*CuteOffsets("Sw<1,0,1> o _0 o (_2,_2):(_2,_1)"),
            (std::vector<int64_t>{0, 3, 1, 2}));
  for (absl::string_view bad : {"(1024,1025)", "(2,2):(1@0,1@1)", "(2,"}) {
    absl::StatusOr<std::vector<int64_t>> r = CuteOffsets(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(Op("offsets", {bad}),
              absl::StrCat("error: ", r.status().message()))
        << bad;
  }
}

TEST(RunCuteOp, EveryListedOpIsWired) {
  for (const CuteOpInfo& info : CuteOps()) {
    std::vector<absl::string_view> args(info.min_args, "4:1");
    if (info.name == "get") args[1] = "0";
    const std::string r = Op(info.name, args);
    EXPECT_EQ(r.find("not wired"), std::string::npos) << info.name;
  }
}

TEST(RunCuteOp, Errors) {
  EXPECT_EQ(Op("compose", {"4:1"}), "error: unknown cute op 'compose'");
  EXPECT_EQ(Op("composition", {"4:1"}),
            "error: composition takes 2 operands: composition A B");
  EXPECT_EQ(Op("size", {"4:1", "2"}), "error: size takes 1 operand: size L");
  EXPECT_EQ(Op("composition", {"(6,2):(8:2)", "4"}),
            "error: 1:9: expected ',' or ')', found ':'\n(6,2):(8:2)\n"
            "        ^");
  EXPECT_EQ(Op("composition", {"(4,3):(1,5)", "4:3"}),
            "error: composition (4,3):(1,5) o 4:3 fails at mode 0 of "
            "coalesced A (4:1): stride 3 and size 4 do not divide each other "
            "and the 4 elements of B at stride 3 do not fit inside it");
  EXPECT_EQ(Op("get", {"(2,3)", "2"}), "error: get: mode '2' is not in 0..1");
  EXPECT_EQ(Op("table", {"(2,2,2)"}),
            "error: table needs a layout of rank 1 or 2, found rank 3");
  // Found by fuzz/cute_fuzzer: aborted in Layout::mode(0).
  EXPECT_EQ(Op("table", {"()"}),
            "error: table needs a layout of rank 1 or 2, found rank 0");
}

}  // namespace
}  // namespace hlolayout::cute
