// XlaShapeToCute against the library's own tiled linear index, on every
// element of small shapes with every minor_to_major permutation and a
// range of tiles.
#include "hlolayout/cute/xla_shape.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::cute {
namespace {

hlolayout::Shape Parse(const std::string& text) {
  absl::StatusOr<hlolayout::Shape> shape = hlolayout::ParseShape(text);
  EXPECT_TRUE(shape.ok()) << text << ": " << shape.status();
  return *shape;
}

TEST(XlaShape, SeedExamples) {
  absl::StatusOr<Layout> l = XlaShapeToCute(Parse("f32[3,5]{1,0:T(2,2)}"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(*l->Evaluate(IntTuple::Tuple({2, 3})), 17);
  absl::StatusOr<Layout> m =
      XlaShapeToCute(Parse("f32[8,8]{1,0:T(2,4)(2,1,1,1)}"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m->Evaluate(IntTuple::Tuple({6, 5})), 51);
}

TEST(XlaShape, RejectsWhatItCannotExpress) {
  EXPECT_FALSE(XlaShapeToCute(Parse("(f32[2])")).ok());
  EXPECT_FALSE(XlaShapeToCute(Parse("f32[<=4]")).ok());
  absl::StatusOr<Layout> star = XlaShapeToCute(Parse("f32[3,5]{1,0:T(*,2)}"));
  ASSERT_FALSE(star.ok());
  EXPECT_NE(star.status().message().find("cannot be expressed"),
            std::string::npos)
      << star.status();
}

// Every element of every shape: the CuTe layout's value is the tiled index.
TEST(XlaShape, AgreesWithTiledLinearIndex) {
  const std::vector<std::vector<int64_t>> dim_sets = {
      {5}, {3, 5}, {4, 4}, {2, 3, 4}, {5, 1, 3}, {2, 3, 2, 3}};
  const std::vector<std::string> tile_sets = {"",
                                              ":T(2)",
                                              ":T(2,2)",
                                              ":T(2,4)(2,1)",
                                              ":T(3,2)(1,2)",
                                              ":T(4)(2)",
                                              ":T(2,2,2)",
                                              ":T(8,128)(2,1)",
                                              ":T(1,2)L(16)E(16)"};
  int checked_shapes = 0;
  int64_t checked_elements = 0;
  for (const std::vector<int64_t>& dims : dim_sets) {
    std::vector<int64_t> order(dims.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    do {
      for (const std::string& tiles : tile_sets) {
        const std::string text =
            absl::StrCat("f32[", absl::StrJoin(dims, ","), "]{",
                         absl::StrJoin(order, ","), tiles, "}");
        const hlolayout::Shape shape = Parse(text);
        absl::StatusOr<Layout> layout = XlaShapeToCute(shape);
        if (!layout.ok()) {
          // Only "cannot be expressed" is acceptable, never a bad input.
          EXPECT_NE(layout.status().message().find("cannot be expressed"),
                    std::string::npos)
              << text << ": " << layout.status();
          continue;
        }
        ++checked_shapes;
        std::vector<int64_t> index(dims.size(), 0);
        while (true) {
          absl::StatusOr<int64_t> expected =
              hlolayout::ReferenceOffset(shape, index);
          ASSERT_TRUE(expected.ok()) << expected.status();
          std::vector<IntTuple> coord;
          for (int64_t e : index) coord.push_back(IntTuple(e));
          absl::StatusOr<int64_t> actual =
              layout->Evaluate(IntTuple::Tuple(coord));
          ASSERT_TRUE(actual.ok()) << actual.status();
          ASSERT_EQ(*actual, *expected) << text << " as " << ToString(*layout)
                                        << " at " << absl::StrJoin(index, ",");
          ++checked_elements;
          size_t d = dims.size();
          while (d > 0 && ++index[d - 1] == dims[d - 1]) index[--d] = 0;
          if (d == 0) break;
        }
      }
    } while (std::next_permutation(order.begin(), order.end()));
  }
  EXPECT_GT(checked_shapes, 100);
  EXPECT_GT(checked_elements, 5000);
}

}  // namespace
}  // namespace hlolayout::cute
