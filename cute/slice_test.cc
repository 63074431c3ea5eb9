#include "hlolayout/cute/slice.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;

std::string SO(absl::string_view coord, absl::string_view layout) {
  absl::StatusOr<SliceCoord> c = ParseSliceCoord(coord);
  if (!c.ok()) return "error: " + std::string(c.status().message());
  absl::StatusOr<SlicedLayout> s = SliceAndOffset(*c, L(layout));
  if (!s.ok()) return "error: " + std::string(s.status().message());
  return ToString(s->layout) + " + " + ToString(IntTuple(s->offset));
}

TEST(SliceAndOffset, AsCute) {
  EXPECT_EQ(SO("(_,1)", "(3,4):(4,1)"), "(3):(4) + 1");
  EXPECT_EQ(SO("(_,_1)", "(_3,_4):(_4,_1)"), "(_3):(_4) + _1");
  EXPECT_EQ(SO("((_,1),_)", "((2,3),4):((1,2),6)"), "(2,4):(1,6) + 2");
  EXPECT_EQ(SO("_", "(3,4):(4,1)"), "(3,4):(4,1) + _0");
  EXPECT_EQ(SO("5", "(3,4):(4,1)"), "():() + 9");
  EXPECT_EQ(SO("(_,5)", "((_2,_2,_2),(_2,_2,_2)):((_32,_2,_8),(_4,_1,_16))"),
            "((_2,_2,_2)):((_32,_2,_8)) + _20");
  EXPECT_EQ(SO("(_,_,_)", "(3,4):(4,1)"),
            "error: coordinate (_,_,_) does not fit the profile of (3,4)");
  EXPECT_EQ(SO("(4,_)", "(3,4):(4,1)"),
            "error: coordinate 4 out of range in mode 0 of size 3");
  EXPECT_EQ(SO("(_;1)", "(3,4):(4,1)"),
            "error: 1:3: expected ',' or ')', found ';'\n(_;1)\n  ^");
}

TEST(SliceAndOffset, PropertyEveryPointOfTheSlice) {
  // For random layouts and a coordinate fixing mode k: the slice at i plus
  // the offset is the layout at the full coordinate.
  internal::LayoutGenerator gen(5);
  for (int trial = 0; trial < 300; ++trial) {
    const Layout l = gen.Any(/*negative=*/true);
    if (l.rank() < 2 || l.shape().is_int()) continue;
    const int k = static_cast<int>(gen.Uniform(0, l.rank() - 1));
    const int64_t v = gen.Uniform(0, *Size(l.shape()[k]) - 1);
    std::vector<SliceCoord> elems(l.rank());
    elems[k] = SliceCoord::Of(Int::Static(v));
    const SliceCoord c = SliceCoord::Tuple(elems);
    absl::StatusOr<SlicedLayout> s = SliceAndOffset(c, l);
    ASSERT_TRUE(s.ok()) << s.status().message();
    absl::StatusOr<Layout> d = Dice(c, l);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(s->layout.size() * d->size(), l.size());
    for (int64_t i = 0; i < s->layout.size(); ++i) {
      // The full coordinate: mode j < k and j > k from i, mode k is v.
      std::vector<IntTuple> full;
      int64_t rest = i;
      for (int j = 0; j < l.rank(); ++j) {
        if (j == k) {
          full.push_back(v);
          continue;
        }
        const int64_t sz = *Size(l.shape()[j]);
        full.push_back(rest % sz);
        rest /= sz;
      }
      ASSERT_EQ(s->layout(i) + s->offset.value,
                *l.Evaluate(IntTuple::Tuple(full)))
          << ToString(l) << " " << ToString(c);
    }
  }
}

}  // namespace
}  // namespace hlolayout::cute
