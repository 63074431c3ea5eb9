// cute/tiler.h: the second operand of by-mode composition, divide and
// product.
//
// A Tiler is a Layout, a tuple of Tilers (written `<3:4, 8:2>`), or `_`
// (leave that mode alone). A shape is a tiler of stride-1 layouts: the
// integer 3 means `3:_1` and the tuple (3,8) means <3:_1, 8:_1>.
//
//   Tiler t = Tiler::Tuple({Tiler::Of(Layout::Make(3, 4)),
//                           Tiler::Of(Layout::Make(8, 2))});  // <3:4, 8:2>
//   Tiler s = Tiler::FromShape(IntTuple::Tuple({3, 8}));       // <3:_1, 8:_1>
#ifndef HLOLAYOUT_CUTE_TILER_H_
#define HLOLAYOUT_CUTE_TILER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

class Tiler {
 public:
  enum class Kind { kLayout, kTuple, kUnderscore };

  // The tiler `_`.
  Tiler() : kind_(Kind::kUnderscore) {}

  static Tiler Of(Layout layout);
  static Tiler Tuple(std::vector<Tiler> elements);
  static Tiler Underscore() { return Tiler(); }

  // FromShape
  //
  // An integer n becomes the layout n:_1 (CuTe's make_layout(n)), a tuple
  // a tuple tiler of the elements. Returns an error for a non-positive
  // integer.
  static absl::StatusOr<Tiler> FromShape(const IntTuple& shape);

  Kind kind() const { return kind_; }
  bool is_layout() const { return kind_ == Kind::kLayout; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_underscore() const { return kind_ == Kind::kUnderscore; }

  // layout
  //
  // Precondition: is_layout() (CHECK).
  const Layout& layout() const;

  // elements
  //
  // Precondition: is_tuple() (CHECK).
  const std::vector<Tiler>& elements() const;

  friend bool operator==(const Tiler& a, const Tiler& b) {
    return a.kind_ == b.kind_ && a.layout_ == b.layout_ &&
           a.elements_ == b.elements_;
  }

 private:
  Kind kind_;
  Layout layout_;
  std::vector<Tiler> elements_;
};

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_TILER_H_
