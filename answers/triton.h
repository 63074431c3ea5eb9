// answers/triton.h: the answers of `hlolayout triton cvt` (and, as they
// move here, the other Triton commands), as values with one field list each
// (util/fields.h): the CLI's --json is AnswerJson(answer, kIndented), its
// text a view of the same value (views/triton_text.h).
//
//   GivenLayout src = *ReadGivenLayout(mma_text, {{64, 64}}, nullptr);
//   GivenLayout dst = *ReadGivenLayout(blocked_text, {{64, 64}}, nullptr);
//   TritonCvtAnswer a = *AnswerCvt(src, dst, /*bits=*/16, kNewestTriton,
//                                  /*version_given=*/false,
//                                  {"cuda:90", "cuda:80"});
//   a.targets[0].scratch_bytes == 2048
//   CvtText(a);  // views/triton_text.h
//   // convert_layout of 64x64 (16-bit elements)
//   //   from #ttg.nvidia_mma<...>
//   //   to   #ttg.blocked<...>
//   // kind: shared_memory (warps exchange values through a shared-memory ...
//   // figures: Triton 3.9.0's rules (the newest modelled; --triton 3.6.0 ...
//   // target    scratch  rounds  stores per thread ...
#ifndef HLOLAYOUT_ANSWERS_TRITON_H_
#define HLOLAYOUT_ANSWERS_TRITON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {

// A LinearLayout's bases by in-dim, in its order: the JSON object
// {"register": [[0, 1], ...], "lane": [...], ...} (FieldJson::kStringPairs;
// Python's to_dict() gives that dict).
using BasesByInDim =
    std::vector<std::pair<std::string, std::vector<std::vector<int64_t>>>>;
BasesByInDim BasesOf(const LinearLayout& l);

// One shared-memory instruction a thread issues, `count` times.
struct CvtInstr {
  std::string instr;
  int64_t bits = 0;
  int64_t count = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CvtInstr& i) {
    f.Type("CvtInstr", "One shared-memory instruction of a thread.");
    f("instr", i.instr,
      "st.shared, ld.shared, stmatrix(.trans), ldmatrix(.trans), ds_write, "
      "ds_read.");
    f("bits", i.bits, "Its width in bits.");
    f("count", i.count, "How many a thread issues.");
  }
};

// What the conversion costs on one target. The shared-memory figures are
// null where the kind moves no data through shared memory; stores and
// loads are empty lists for registers and shuffles, null for a cross-CTA
// conversion (not modelled).
struct CvtTargetRow {
  std::string target;
  int64_t scratch_bytes = 0;
  std::optional<int64_t> reps;
  std::optional<std::vector<CvtInstr>> stores;
  std::optional<std::vector<CvtInstr>> loads;
  std::optional<int64_t> store_ways;
  std::optional<int64_t> load_ways;
  std::optional<std::string> empirical;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CvtTargetRow& r) {
    f.Type("CvtTargetRow", "What a convert_layout costs on one target.");
    f("target", r.target, "cuda:90, hip:gfx942, ...");
    f("scratch_bytes", r.scratch_bytes, "The shared memory Triton allocates.");
    f("reps", r.reps, "Rounds of store, barrier, load; None without one.");
    f("stores", r.stores, "Each thread's stores (None: not modelled).");
    f("loads", r.loads, "Each thread's loads (None: not modelled).");
    f("store_ways", r.store_ways, "Bank conflicts of a store (1: none).");
    f("load_ways", r.load_ways, "Bank conflicts of a load (1: none).");
    f("empirical", r.empirical,
      "The rule fitted to Triton's answers that chose the loads, if one did.");
  }
};

// `hlolayout triton cvt SRC DST --shape S`: what one convert_layout costs
// on each target asked for. kind, scratch_bytes, map and
// mixed_transpositions are the first target's.
struct TritonCvtAnswer {
  std::string src, dst;
  std::vector<int64_t> shape;
  int64_t bits = 0;
  std::string triton;
  std::string kind;
  int64_t scratch_bytes = 0;
  BasesByInDim map;
  std::string map_str;
  std::optional<int64_t> mixed_transpositions;
  std::vector<CvtTargetRow> targets;
  // For the text: the release was named (--triton); the minimal map has no
  // out-dims (the same layout).
  bool version_given = false;
  bool nothing_moves = false;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TritonCvtAnswer& a) {
    f.Type("TritonCvtAnswer", "What a ttg.convert_layout costs.");
    f("src", a.src, "The source layout as given.");
    f("dst", a.dst, "The destination layout as given.");
    f("shape", a.shape, "The tensor's shape.");
    f("bits", a.bits, "The element width in bits.");
    f("triton", a.triton, "The Triton release whose rules are modelled.");
    f("kind", a.kind, "registers, warp_shuffle, shared_memory or cross_cta.");
    f("scratch_bytes", a.scratch_bytes, "The first target's scratch bytes.");
    f("map", a.map, "The minimal conversion's bases by in-dim.",
      FieldOptions().Json(FieldJson::kStringPairs));
    f("map_str", a.map_str, "The minimal conversion as Triton prints it.");
    f("mixed_transpositions", a.mixed_transpositions,
      "Register<->lane transpositions of the shuffle decomposition.");
    f("targets", a.targets, "One row per target, in the order asked.");
    f("version_given", a.version_given, "The release was named.",
      FieldOptions().Json(FieldJson::kLeftOut));
    f("nothing_moves", a.nothing_moves, "SRC and DST are the same layout.",
      FieldOptions().Json(FieldJson::kLeftOut));
  }
};

// AnswerCvt
//
// Costs the conversion from `src` to `dst` (of one shape) for elements of
// `bits` bits on each of `targets` (names CvtTargetsFlag accepts), as
// Triton `version` lowers it. Precondition: `targets` is not empty and
// names modelled targets. Errors: the first target's refusal (Triton's).
absl::StatusOr<TritonCvtAnswer> AnswerCvt(
    const GivenLayout& src, const GivenLayout& dst, int bits,
    TritonVersion version, bool version_given,
    const std::vector<std::string>& targets);

// A LinearLayout's out-dims as [name, size] pairs.
using OutDimSizes = std::vector<std::pair<std::string, int64_t>>;
OutDimSizes OutDimSizesOf(const LinearLayout& l);

// `hlolayout triton explain LAYOUT [--shape S]`: the layout's facts. `cute`,
// `xla`, `view` and `view_hw` are None where there is no such form; the
// fields left out of the JSON say why, for the text.
struct TritonExplainAnswer {
  std::string layout;
  std::optional<std::string> as_read;
  std::string kind;
  std::vector<int64_t> shape;
  BasesByInDim bases;
  OutDimSizes out_dims;
  std::string str;
  std::optional<std::string> linear;
  std::optional<std::string> padding;
  bool injective = false, surjective = false, invertible = false;
  std::vector<std::pair<std::string, int64_t>> free_variable_masks;
  int64_t consecutive = 1;
  std::optional<std::string> cute, xla, view, view_hw;
  std::string first_in_dim;  // "none" without in-dims
  std::string cute_none, xla_none;
  std::string views_none;  // empty also when the layout has no views

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TritonExplainAnswer& a) {
    constexpr FieldOptions kObject =
        FieldOptions().Json(FieldJson::kStringPairs);
    constexpr FieldOptions kText = FieldOptions().Json(FieldJson::kLeftOut);
    f.Type("TritonExplainAnswer", "What `hlolayout triton explain` says.");
    f("layout", a.layout, "The layout as given.");
    f("as_read", a.as_read, "A named layout as read (defaults filled in).");
    f("kind", a.kind, "blocked, nvidia_mma, ..., or linear layout.");
    f("shape", a.shape, "The out-dims' sizes.");
    f("bases", a.bases, "The bases by in-dim.", kObject);
    f("out_dims", a.out_dims, "[name, size] per out-dim.");
    f("str", a.str, "Triton's printed form.");
    f("linear", a.linear, "The same as #ttg.linear, where there is one.");
    f("padding", a.padding, "A padded layout's padding.");
    f("injective", a.injective, "No two positions hold one element.");
    f("surjective", a.surjective, "Every element is held.");
    f("invertible", a.invertible, "Injective and surjective.");
    f("free_variable_masks", a.free_variable_masks,
      "Per in-dim, the bits that do not change the element.", kObject);
    f("consecutive", a.consecutive,
      "Elements of the first in-dim in a row (row-major).");
    f("cute", a.cute, "The CuTe layout of the same map, or None.");
    f("xla", a.xla, "The XLA layout of the same map, or None.");
    f("view", a.view, "Triton's view (at most 1,024 elements), or None.");
    f("view_hw", a.view_hw, "Triton's hardware view, or None.");
    f("first_in_dim", a.first_in_dim, "The first in-dim's name.", kText);
    f("cute_none", a.cute_none, "Why there is no CuTe form.", kText);
    f("xla_none", a.xla_none, "Why there is no XLA form.", kText);
    f("views_none", a.views_none, "Why there are no views.", kText);
  }
};

// AnswerExplain
//
// The facts of `given` (ExplainLayout), for elements of `bits` bits (which
// choose the XLA form's element type).
TritonExplainAnswer AnswerExplain(GivenLayout given, int bits);

// `hlolayout triton check LAYOUT --shape S`: whether Triton accepts the
// layout on the type. bases, out_dims and error are None as they do not
// apply; notes are left out of the JSON when there are none.
struct TritonCheckAnswer {
  bool ok = false;
  std::optional<std::string> kind;
  std::optional<std::string> ttgir;
  std::vector<int64_t> shape;
  std::optional<BasesByInDim> bases;
  std::optional<OutDimSizes> out_dims;
  std::optional<std::string> error;
  Omit<std::vector<std::string>> notes;
  std::string type;  // tensor<64x64xf32> or !ttg.memdesc<...>
  int64_t threads_per_warp = 0;
  std::string str;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TritonCheckAnswer& a) {
    constexpr FieldOptions kText = FieldOptions().Json(FieldJson::kLeftOut);
    f.Type("TritonCheckAnswer", "What `hlolayout triton check` answers.");
    f("ok", a.ok, "Triton accepts the layout on the type.");
    f("kind", a.kind, "The layout's kind, or None when it did not parse.");
    f("ttgir", a.ttgir, "The layout as read, or None.");
    f("shape", a.shape, "The type's shape.");
    f("bases", a.bases, "The bases by in-dim, or None when refused.",
      FieldOptions().Json(FieldJson::kStringPairs));
    f("out_dims", a.out_dims, "[name, size] per out-dim, or None.");
    f("error", a.error, "Triton's refusal, or None.");
    f("notes", a.notes,
      "What an accepted type will not do; absent when there is nothing.");
    f("type", a.type, "The type checked, as TTGIR.", kText);
    f("threads_per_warp", a.threads_per_warp, "The module's warp size.", kText);
    f("str", a.str, "Triton's printed form of the layout.", kText);
  }
};

// AnswerCheck
//
// CheckLayout(request) as a value.
TritonCheckAnswer AnswerCheck(const LayoutCheckRequest& request);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_TRITON_H_
