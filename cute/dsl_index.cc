// cute/dsl_index.cc: crd2idx and idx2crd with the integers' arithmetic
// (see dsl_index.h).
#include "hlolayout/cute/dsl_index.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// The DSL's words ("Mismatched Ranks"), which the twin's refusals keep.
absl::Status Mismatched(const char* op) {
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": Mismatched Ranks of the coordinate and the shape"));
}

// The size of a mode that splits an index: an error when it is known to be
// 0 (CuTe divides by it).
absl::StatusOr<Int> Divisor(const IntTuple& mode, const char* op) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Int size, Product(mode));
  if (IsConstant(size, 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": division by zero (a mode of size 0)"));
  }
  return size;
}

// The index split over the modes of a tuple shape: the remainder of each
// mode but the last, then the rest. `visit(k, part)` sees each.
template <typename Visit>
absl::Status Split(Int index, const IntTuple& shape, const char* op,
                   Visit visit) {
  const int rank = Rank(shape);
  if (rank == 0) return absl::OkStatus();  // `()`: no mode takes a part
  for (int k = 0; k + 1 < rank; ++k) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int size, Divisor(shape[k], op));
    HLOLAYOUT_RETURN_IF_ERROR(visit(k, Mod(index, size)));
    index = Div(index, size);
  }
  return visit(rank - 1, index);
}

}  // namespace

absl::StatusOr<IntTuple> IdxToCrdInt(const IntTuple& index,
                                     const IntTuple& shape) {
  if (!index.is_int()) {
    if (shape.is_int() || Rank(index) != Rank(shape)) {
      return Mismatched("idx2crd");
    }
    std::vector<IntTuple> out;
    for (int k = 0; k < Rank(shape); ++k) {
      HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c, IdxToCrdInt(index[k], shape[k]));
      out.push_back(std::move(c));
    }
    return IntTuple::Tuple(std::move(out));
  }
  if (shape.is_int()) return index;
  std::vector<IntTuple> out;
  HLOLAYOUT_RETURN_IF_ERROR(Split(
      index.integer(), shape, "idx2crd", [&](int k, Int part) -> absl::Status {
        HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c,
                                   IdxToCrdInt(IntTuple(part), shape[k]));
        out.push_back(std::move(c));
        return absl::OkStatus();
      }));
  return IntTuple::Tuple(std::move(out));
}

absl::StatusOr<Int> CrdToIdxInt(const IntTuple& coord, const IntTuple& shape,
                                const IntTuple& stride) {
  if (!Congruent(shape, stride)) {
    return absl::InvalidArgumentError(
        "crd2idx: shape and stride are not congruent");
  }
  Int offset = Int::Static(0);
  const auto add = [&](Int term) -> absl::Status {
    if (!TryAdd(offset, term, &offset)) {
      return absl::OutOfRangeError("crd2idx: the offset overflows int64");
    }
    return absl::OkStatus();
  };
  if (!coord.is_int()) {
    if (shape.is_int() || Rank(coord) != Rank(shape)) {
      return Mismatched("crd2idx");
    }
    for (int k = 0; k < Rank(shape); ++k) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Int term,
                                 CrdToIdxInt(coord[k], shape[k], stride[k]));
      HLOLAYOUT_RETURN_IF_ERROR(add(term));
    }
    return offset;
  }
  if (shape.is_int()) {
    Int term;
    if (!TryMul(coord.integer(), stride.integer(), &term)) {
      return absl::OutOfRangeError("crd2idx: the offset overflows int64");
    }
    return term;
  }
  HLOLAYOUT_RETURN_IF_ERROR(Split(
      coord.integer(), shape, "crd2idx", [&](int k, Int part) -> absl::Status {
        HLOLAYOUT_ASSIGN_OR_RETURN(
            Int term, CrdToIdxInt(IntTuple(part), shape[k], stride[k]));
        return add(term);
      }));
  return offset;
}

}  // namespace hlolayout::cute
