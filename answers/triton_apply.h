// answers/triton_apply.h: a LinearLayout applied to one input or to every
// input of ranges, as `hlolayout triton apply` answers: the inputs named
// (IN=VALUE, IN=LO..HI, IN=* for every value of the in-dim), then a row per
// input with the outputs, in-dim ranges combined with the first fastest.
// The request is ApplyInputs (ParseApplyInputs reads the face's argument),
// the answer AppliedTable (ApplyOverInputs); AppliedJson writes its --json,
// views/triton_text.h's AppliedText its text. Was triton/apply_table.h.
//
//   #ttg.blocked<{sizePerThread=[1,4], threadsPerWarp=[8,4],
//                 warpsPerCTA=[1,1], order=[1,0]}>, shape [8,16]
//
//   absl::StatusOr<ApplyInputs> in = ParseApplyInputs(l,
//   "register=0..3,lane=1"); absl::StatusOr<AppliedTable> t =
//   ApplyOverInputs(l, *in); AppliedText(l, *t);  // views/triton_text.h
//     register=0,lane=1 -> dim0=0,dim1=4
//     register=1,lane=1 -> dim0=0,dim1=5  ...
//   FreeMasksText(l);  // views/: "register=0x0,lane=0x0,warp=0x0,block=0x0"
#ifndef HLOLAYOUT_ANSWERS_TRITON_APPLY_H_
#define HLOLAYOUT_ANSWERS_TRITON_APPLY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {

// The inputs of `triton apply`: IN=VALUE, IN=LO..HI or IN=* each, in the
// order written.
struct ApplyInputs {
  NamedInts names;                                  // the values unused
  std::vector<std::pair<int64_t, int64_t>> ranges;  // inclusive
  bool any_range = false;
};

// Reads "IN=V,IN=LO..HI,IN=*" (`*` needs an in-dim of `l`); values fit in
// 32 bits. Errors (InvalidArgument): the part of `text` that is none of the
// forms, named.
absl::StatusOr<ApplyInputs> ParseApplyInputs(const LinearLayout& l,
                                             absl::string_view text);

// At most this many inputs in one table.
inline constexpr int64_t kMaxAppliedInputs = int64_t{1} << 20;

// Every input of `in` and `l`'s outputs for it: columns of `rows` values,
// `ins` in `l`'s in-dim order (dims not named are 0), `outs` in its out-dim
// order.
struct AppliedTable {
  ApplyInputs inputs;
  int64_t rows = 0;
  std::vector<std::vector<int32_t>> ins, outs;
};

// Errors: Triton's checks of the names (each in-dim of `l` exactly once),
// and more than kMaxAppliedInputs inputs.
absl::StatusOr<AppliedTable> ApplyOverInputs(const LinearLayout& l,
                                             ApplyInputs inputs);

// One row of a table over ranges: the inputs and the outputs by dim name
// (JSON objects {"register": 1, ...}).
struct AppliedRow {
  std::vector<std::pair<std::string, int64_t>> in, out;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const AppliedRow& r) {
    constexpr FieldOptions kObject =
        FieldOptions().Json(FieldJson::kStringPairs);
    f.Type("AppliedRow", "One input of `triton apply` and its outputs.");
    f("in", r.in, "The input's value of each in-dim named.", kObject);
    f("out", r.out, "The output's value of each out-dim.", kObject);
  }
};
std::vector<AppliedRow> AppliedRows(const LinearLayout& l,
                                    const AppliedTable& t);

// {"dim0": 0, "dim1": 4} when no range was named; else a list of
// {"in": {...}, "out": {...}} (AnswerJson of AppliedRows).
std::string AppliedJson(const LinearLayout& l, const AppliedTable& t);

// FreeVariableMasks (triton/ops.h) as {"register": 0, "lane": 3, ...} (the
// text: views/triton_text.h's FreeMasksText).
std::string FreeMasksJson(const LinearLayout& l);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_TRITON_APPLY_H_
