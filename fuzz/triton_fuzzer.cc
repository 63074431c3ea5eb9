// fuzz/triton_fuzzer.cc: the Triton layout readers on fuzzed text. The
// first byte picks a mode (mod 4), the rest is the text:
//   0  a TTGIR module (ParseTtgirModule); each convert_layout of a small
//      tensor converted and costed;
//   1  one layout attribute (ParseLayout): print/parse round trip, then
//      the conversion at a shape from the second byte, with the fast path
//      checked against the general one;
//   2  JSON bases (LayoutFromJson): JSON and TTGIR round trips, the
//      evaluator and ApplyBatch against ApplyIndexed, pseudoinverse, pictures
//      (refused quickly when large), views of small layouts;
//   3  two JSON layouts separated by a tab: the binary operations.
// Invariants broken abort with "FUZZ INVARIANT BROKEN".
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/named_layouts_fast.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/views.h"
#include "hlolayout/views/triton_picture.h"

namespace {

using namespace hlolayout::triton;
using hlolayout::fuzz::CheckError;
using hlolayout::fuzz::Fail;
using hlolayout::fuzz::SplitN;

// Views and costs enumerate elements: only small layouts.
constexpr int kMaxEnumeratedBits = 12;

void CheckLayout(const LinearLayout& l, absl::string_view input) {
  const std::string s = l.ToString();
  // JSON round trip.
  const std::string json = LayoutToJson(l);
  absl::StatusOr<LinearLayout> back = LayoutFromJson(json);
  if (!back.ok()) Fail("LayoutToJson does not read back", json, input);
  if (*back != l) Fail("JSON round trip", s, back->ToString());
  // The evaluator agrees with ApplyIndexed on a few inputs.
  const LayoutEvaluator e(l);
  std::vector<int32_t> ins(l.num_in_dims()), outs(l.num_out_dims());
  for (int k = 0; k < 16; ++k) {
    for (int d = 0; d < l.num_in_dims(); ++d) {
      ins[d] = static_cast<int32_t>((k * 0x9e3779b9u + d * 0x85ebca6bu) &
                                    (l.InDimSize(d) - 1));
    }
    l.ApplyIndexed(ins, absl::MakeSpan(outs));
    const uint64_t packed = e.Apply(e.Pack(ins));
    for (int o = 0; o < l.num_out_dims(); ++o) {
      if (e.Out(packed, o) != outs[o]) Fail("evaluator != ApplyIndexed", s);
    }
    // The batch form (one input here; the unit test covers blocks).
    std::vector<const int32_t*> in_ptrs;
    for (const int32_t& v : ins) in_ptrs.push_back(&v);
    std::vector<int32_t> batch(l.num_out_dims());
    std::vector<int32_t*> out_ptrs;
    for (int32_t& v : batch) out_ptrs.push_back(&v);
    ApplyBatch(l, in_ptrs, out_ptrs, 1);
    if (batch != outs) Fail("ApplyBatch != ApplyIndexed", s);
  }
  // A(pseudoinvert(A)(x)) == x for surjective A.
  absl::StatusOr<LinearLayout> p = Pseudoinvert(l);
  CheckError(p.status(), s);
  if (p.ok() && l.IsSurjective()) {
    absl::StatusOr<LinearLayout> round = Compose(*p, l);
    CheckError(round.status(), s);
    if (round.ok()) {
      // The composition is the identity on the out-dims of l.
      for (int d = 0; d < round->num_in_dims(); ++d) {
        for (int i = 0; i < round->InDimSizeLog2(d); ++i) {
          for (int o = 0; o < round->num_out_dims(); ++o) {
            const int32_t want =
                round->out_dim_name(o) == round->in_dim_name(d) ? 1 << i : 0;
            if (round->BasisValue(d, i, o) != want) {
              Fail("A(pseudoinvert(A)(x)) != x", s, round->ToString());
            }
          }
        }
      }
    }
  }
  CheckError(Invert(l).status(), s);
  // Pictures refuse large layouts before enumerating (up to 64 input bits).
  CheckError(LayoutPicture(l, "fuzz").status(), s);
  FreeVariableMasks(l);
  CheckError(FlattenIns(l).status(), s);
  CheckError(FlattenOuts(l).status(), s);
  if (l.TotalInDimSizeLog2() <= kMaxEnumeratedBits &&
      l.TotalOutDimSizeLog2() <= kMaxEnumeratedBits) {
    CheckError(DistributedView(l, false).status(), s);
    CheckError(DistributedView(l, true).status(), s);
    CheckError(SharedView(l, false).status(), s);
    CheckError(SharedView(l, true).status(), s);
  }
}

void CheckConversion(const Layout& layout, const std::vector<int64_t>& shape,
                     absl::string_view printed) {
  absl::StatusOr<LinearLayout> l = ToLinearLayout(layout, shape);
  CheckError(l.status(), printed);
  absl::StatusOr<LinearLayout> general = ToLinearLayoutGeneral(layout, shape);
  if (l.ok() != general.ok() || (l.ok() && *l != *general)) {
    Fail("ToLinearLayout != ToLinearLayoutGeneral", printed);
  }
  std::optional<LinearLayout> fast = FastToLinearLayout(layout, shape);
  if (fast && (!general.ok() || *fast != *general)) {
    Fail("fast conversion != general conversion", printed);
  }
  if (l.ok()) CheckLayout(*l, printed);
}

void Ttgir(absl::string_view text) {
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(text, "fuzz.ttgir");
  CheckError(m.status(), text);
  if (!m.ok()) return;
  int costed = 0;
  for (const ConvertLayoutOp& c : m->converts) {
    if (c.src.layout.layout == nullptr || c.dst.layout.layout == nullptr) {
      continue;
    }
    const std::vector<int64_t> shape = c.src.LayoutShape();
    int64_t elements = 1;
    for (int64_t s : shape) {
      elements = s <= 0 || s > 4096 ? 1 << 30 : elements * s;
      if (elements > (1 << kMaxEnumeratedBits)) break;
    }
    if (elements > (1 << kMaxEnumeratedBits) || ++costed > 4) continue;
    absl::StatusOr<LinearLayout> src =
        ToLinearLayout(*c.src.layout.layout, shape);
    absl::StatusOr<LinearLayout> dst =
        ToLinearLayout(*c.dst.layout.layout, shape);
    CheckError(src.status(), c.src.layout.text);
    CheckError(dst.status(), c.dst.layout.text);
    if (!src.ok() || !dst.ok()) continue;
    if (c.src.layout.layout->is_shared() || c.dst.layout.layout->is_shared()) {
      continue;
    }
    const int bits =
        c.src.element_bits > 0 ? c.src.element_bits : kDefaultElementBits;
    // The module's target when modelled, and every modelled target.
    absl::StatusOr<CvtTarget> own = CvtTargetNamed(m->target);
    if (own.ok())
      CheckError(ConvertLayoutCost(*src, *dst, bits, *own).status(), text);
    for (const std::string& name : ModelledCvtTargets()) {
      CheckError(
          ConvertLayoutCost(*src, *dst, bits, *CvtTargetNamed(name)).status(),
          text);
    }
  }
}

void OneLayout(absl::string_view text, uint8_t shape_byte) {
  absl::StatusOr<Layout> layout = ParseLayout(text, nullptr, "fuzz");
  CheckError(layout.status(), text);
  if (!layout.ok()) return;
  const std::string printed = PrintLayout(*layout);
  absl::StatusOr<Layout> again = ParseLayout(printed);
  if (!again.ok()) Fail("printed layout does not parse", printed, text);
  if (PrintLayout(*again) != printed) {
    Fail("layout print/parse round trip", printed, PrintLayout(*again));
  }
  int rank = LayoutRank(*layout);
  if (rank <= 0) rank = 2;
  if (rank > 4) return;
  std::vector<int64_t> shape;
  for (int d = 0; d < rank; ++d) {
    // Sizes 1..64 (log2 from two bits each of the byte, plus one).
    shape.push_back(int64_t{1} << (((shape_byte >> (2 * d)) & 3) * 2));
  }
  CheckConversion(*layout, shape, printed);
  // The layout's own default: 16 x 16 ... per dim.
  CheckConversion(*layout, std::vector<int64_t>(rank, 16), printed);
}

void Json(absl::string_view text) {
  absl::StatusOr<LinearLayout> l = LayoutFromJson(text, "fuzz.json");
  CheckError(l.status(), text);
  if (!l.ok()) return;
  CheckLayout(*l, text);
}

void Binary(absl::string_view text) {
  std::vector<absl::string_view> parts = SplitN(text, '\t', 2);
  if (parts.size() != 2) return;
  absl::StatusOr<LinearLayout> a = LayoutFromJson(parts[0]);
  absl::StatusOr<LinearLayout> b = LayoutFromJson(parts[1]);
  if (!a.ok() || !b.ok()) return;
  const std::string s = a->ToString() + "\n" + b->ToString();
  absl::StatusOr<LinearLayout> product = Product(*a, *b);
  CheckError(product.status(), s);
  if (product.ok()) {
    // divideLeft(A * B, A) == B when B's dims are A's (Triton's property).
    absl::StatusOr<std::optional<LinearLayout>> q = DivideLeft(*product, *a);
    CheckError(q.status(), s);
  }
  CheckError(Compose(*a, *b).status(), s);
  CheckError(InvertAndCompose(*a, *b).status(), s);
  CheckError(DivideRight(*a, *b).status(), s);
  CheckError(ConcatIns(*a, *b).status(), s);
  CheckError(ConcatOuts(*a, *b).status(), s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > hlolayout::fuzz::kMaxInputSize) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      Ttgir(text);
      break;
    case 1:
      OneLayout(text.substr(1), data[1]);
      break;
    case 2:
      Json(text);
      break;
    default:
      Binary(text);
      break;
  }
  return 0;
}
