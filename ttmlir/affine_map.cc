#include "hlolayout/ttmlir/affine_map.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/util/check.h"

namespace hlolayout::grid {
namespace {

// Terms of result `r` whose dim has size > 1, by decreasing coefficient.
std::vector<AffineTerm> SignificantTermsByCoefficient(
    const AffineResult& r, absl::Span<const int64_t> shape) {
  std::vector<AffineTerm> terms;
  for (const AffineTerm& t : r.terms) {
    if (shape[t.dim] > 1) terms.push_back(t);
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const AffineTerm& a, const AffineTerm& b) {
                     return a.coefficient > b.coefficient;
                   });
  return terms;
}

std::string TermString(const AffineTerm& t) {
  if (t.coefficient == 1) return absl::StrCat("d", t.dim);
  return absl::StrCat("d", t.dim, " * ", t.coefficient);
}

}  // namespace

AffineMap::AffineMap(int64_t num_dims, std::vector<AffineResult> results)
    : num_dims_(num_dims), results_(std::move(results)) {
  HLOLAYOUT_CHECK(num_dims >= 0) << "num_dims " << num_dims;
  for (AffineResult& r : results_) {
    HLOLAYOUT_CHECK(r.constant >= 0) << "constant " << r.constant;
    std::sort(
        r.terms.begin(), r.terms.end(),
        [](const AffineTerm& a, const AffineTerm& b) { return a.dim < b.dim; });
    std::vector<AffineTerm> merged;
    for (const AffineTerm& t : r.terms) {
      HLOLAYOUT_CHECK(t.dim >= 0 && t.dim < num_dims) << "dim " << t.dim;
      HLOLAYOUT_CHECK(t.coefficient >= 1) << "coefficient " << t.coefficient;
      if (!merged.empty() && merged.back().dim == t.dim) {
        int64_t sum;
        HLOLAYOUT_CHECK(!__builtin_add_overflow(merged.back().coefficient,
                                                t.coefficient, &sum))
            << "coefficient overflow";
        merged.back().coefficient = sum;
      } else {
        merged.push_back(t);
      }
    }
    r.terms = std::move(merged);
  }
}

AffineMap AffineMap::Identity(int64_t num_dims) {
  std::vector<AffineResult> results(num_dims);
  for (int64_t d = 0; d < num_dims; ++d) results[d].terms = {{d, 1}};
  return AffineMap(num_dims, std::move(results));
}

const AffineResult& AffineMap::result(int64_t i) const {
  HLOLAYOUT_CHECK(i >= 0 && i < num_results()) << "result " << i;
  return results_[i];
}

int64_t AffineMap::Coefficient(int64_t i, int64_t dim) const {
  for (const AffineTerm& t : result(i).terms) {
    if (t.dim == dim) return t.coefficient;
  }
  return 0;
}

absl::StatusOr<std::vector<int64_t>> AffineMap::Evaluate(
    absl::Span<const int64_t> index) const {
  HLOLAYOUT_CHECK(static_cast<int64_t>(index.size()) == num_dims_)
      << "index rank " << index.size() << " vs " << num_dims_;
  std::vector<int64_t> out;
  out.reserve(results_.size());
  for (const AffineResult& r : results_) {
    int64_t value = r.constant;
    for (const AffineTerm& t : r.terms) {
      int64_t product;
      if (__builtin_mul_overflow(index[t.dim], t.coefficient, &product) ||
          __builtin_add_overflow(value, product, &value)) {
        return absl::OutOfRangeError("map value overflows int64");
      }
    }
    out.push_back(value);
  }
  return out;
}

std::string AffineMap::ToString() const {
  std::vector<std::string> dims;
  for (int64_t d = 0; d < num_dims_; ++d) dims.push_back(absl::StrCat("d", d));
  std::vector<std::string> results;
  for (const AffineResult& r : results_) {
    std::vector<std::string> parts;
    for (const AffineTerm& t : r.terms) parts.push_back(TermString(t));
    if (r.constant != 0 || parts.empty()) {
      parts.push_back(absl::StrCat(r.constant));
    }
    results.push_back(absl::StrJoin(parts, " + "));
  }
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ") -> (",
                      absl::StrJoin(results, ", "), ")");
}

absl::Status ValidateLayoutMap(const AffineMap& map,
                               absl::Span<const int64_t> shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (map.num_dims() != rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map has ", map.num_dims(), " dims but the tensor has rank ", rank));
  }
  for (int64_t s : shape) {
    HLOLAYOUT_CHECK(s >= 1) << "tensor dim " << s;
  }
  std::vector<bool> used(rank, false);
  for (int64_t i = 0; i < map.num_results(); ++i) {
    const AffineResult& r = map.result(i);
    for (const AffineTerm& t : r.terms) used[t.dim] = true;
    // Walk from the smallest coefficient up, tracking the largest value the
    // smaller terms reach; each coefficient must exceed it.
    std::vector<AffineTerm> terms = SignificantTermsByCoefficient(r, shape);
    int64_t reach = 0;  // max of sum of the smaller terms
    for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
      if (it->coefficient <= reach) {
        return absl::InvalidArgumentError(absl::StrCat(
            "result ", i, " is not one-to-one: d", it->dim, " has coefficient ",
            it->coefficient, " but the smaller terms reach ", reach));
      }
      int64_t span;
      if (__builtin_mul_overflow(shape[it->dim] - 1, it->coefficient, &span) ||
          __builtin_add_overflow(reach, span, &reach)) {
        return absl::InvalidArgumentError(
            absl::StrCat("extent of result ", i, " overflows int64"));
      }
    }
    int64_t last;
    if (__builtin_add_overflow(reach, r.constant, &last) ||
        __builtin_add_overflow(last, 1, &last)) {
      return absl::InvalidArgumentError(
          absl::StrCat("extent of result ", i, " overflows int64"));
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!used[d] && shape[d] > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("d", d, " does not appear in the map"));
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> CollapsedExtent(const AffineMap& map,
                                     absl::Span<const int64_t> shape) {
  std::vector<int64_t> last(shape.begin(), shape.end());
  for (int64_t& v : last) --v;
  absl::StatusOr<std::vector<int64_t>> value = map.Evaluate(last);
  HLOLAYOUT_CHECK(value.ok()) << value.status();
  for (int64_t& v : *value) ++v;  // ValidateLayoutMap checked the +1.
  return *std::move(value);
}

absl::optional<std::vector<int64_t>> InvertLayoutMap(
    const AffineMap& map, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> coordinate) {
  HLOLAYOUT_CHECK(static_cast<int64_t>(coordinate.size()) == map.num_results())
      << "coordinate rank " << coordinate.size();
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> index(rank, 0);
  std::vector<bool> assigned(rank, false);
  for (int64_t i = 0; i < map.num_results(); ++i) {
    const AffineResult& r = map.result(i);
    int64_t rest = coordinate[i] - r.constant;
    if (coordinate[i] < r.constant) return absl::nullopt;
    for (const AffineTerm& t : SignificantTermsByCoefficient(r, shape)) {
      const int64_t digit = rest / t.coefficient;
      if (digit >= shape[t.dim]) return absl::nullopt;
      if (assigned[t.dim] && index[t.dim] != digit) return absl::nullopt;
      index[t.dim] = digit;
      assigned[t.dim] = true;
      rest -= digit * t.coefficient;
    }
    if (rest != 0) return absl::nullopt;
  }
  return index;
}

int64_t CountImageBelow(const AffineMap& map, absl::Span<const int64_t> shape,
                        int64_t i, int64_t bound) {
  const AffineResult& r = map.result(i);
  if (bound <= r.constant) return 0;
  int64_t x = bound - r.constant;
  const std::vector<AffineTerm> terms = SignificantTermsByCoefficient(r, shape);
  // rest[k] = product of the sizes of terms after k; bounded by the tensor
  // volume of those dims, which ValidateLayoutMap's extent check bounds.
  std::vector<int64_t> rest(terms.size() + 1, 1);
  for (size_t k = terms.size(); k-- > 0;) {
    HLOLAYOUT_CHECK(
        !__builtin_mul_overflow(rest[k + 1], shape[terms[k].dim], &rest[k]))
        << "volume overflow";
  }
  int64_t count = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    const int64_t size = shape[terms[k].dim];
    const int64_t q = x / terms[k].coefficient;
    if (q >= size) return count + rest[k];  // every remaining tuple is below
    count += q * rest[k + 1];
    x -= q * terms[k].coefficient;
  }
  return count + (x > 0 ? 1 : 0);
}

bool IsSeparable(const AffineMap& map, absl::Span<const int64_t> shape) {
  std::vector<int> uses(shape.size(), 0);
  for (const AffineResult& r : map.results()) {
    for (const AffineTerm& t : r.terms) {
      if (shape[t.dim] > 1) ++uses[t.dim];
    }
  }
  return std::all_of(uses.begin(), uses.end(), [](int u) { return u <= 1; });
}

}  // namespace hlolayout::grid
