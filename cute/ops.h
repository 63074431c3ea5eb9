// cute/ops.h: every cute operation by its CuTe name, on text operands.
//
// The one entry point behind `hlolayout cute OP ARGS...` and the batch op
// `cute<TAB>OP<TAB>ARG1[<TAB>ARG2]`:
//
//   RunCuteOp("composition", {"(6,2):(8,2)", "(4,3):(3,1)"})
//       -> "((2,2),3):((24,2),8)"
//   RunCuteOp("complement", {"4:2", "24"})          -> "(2,3):(_1,8)"
//   RunCuteOp("size", {"((2,2),3):((24,2),8)"})     -> "12"
//   RunCuteOp("composition", {"(4,3):(1,5)", "4:3"}) -> error naming the
//       operation, both layouts, the mode and the failed condition
//
// Operands are CuTe text (cute/parse.h). The second operand is the profile
// for coalesce and filter, the cotarget for complement, a layout for
// blocked/raked products, make_layout, congruent and compatible, a
// coordinate for crd2idx and idx2crd, a mode number for get, and a layout,
// shape, integer or tiler otherwise.
//
// ScaledBasis strides (`1@0`, cute/coord_layout.h): `composition A B` with B
// a coordinate layout, `crd2idx L COORD` (answers a coordinate), `size`,
// `rank`, `depth`, and `identity SHAPE`; any other op given an `@` operand
// says so.
#ifndef HLOLAYOUT_CUTE_OPS_H_
#define HLOLAYOUT_CUTE_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout::cute {

struct CuteOpInfo {
  absl::string_view name;
  int min_args;
  int max_args;
  // "composition A B", for help texts.
  absl::string_view usage;
  // One line: what the op answers.
  absl::string_view summary;
};

// CuteOps
//
// Every operation RunCuteOp knows, in help order.
absl::Span<const CuteOpInfo> CuteOps();

// FindCuteOp
//
// The op named `name`, or nullptr.
const CuteOpInfo* FindCuteOp(absl::string_view name);

// RunCuteOp
//
// Runs `op` on `args` (operands only) and returns the printed result
// without a trailing newline (the `table` op returns several lines).
// Returns InvalidArgument for an unknown op ("unknown cute op 'x'"), a
// wrong operand count ("composition takes 2 operands: composition A B"),
// text that does not parse (with line:column and caret), or any failure of
// the operation itself.
absl::StatusOr<std::string> RunCuteOp(absl::string_view op,
                                      absl::Span<const absl::string_view> args);

// CuteOffsets
//
// `offsets L` as numbers: the offset of each index of layout `layout` (a
// layout, swizzle or composed layout), as RunCuteOp("offsets", {layout})
// prints them, with its errors.
absl::StatusOr<std::vector<int64_t>> CuteOffsets(absl::string_view layout);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_OPS_H_
