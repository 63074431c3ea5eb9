#include "hlolayout/triton/smem_access.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_smem.h"
#include "hlolayout/triton/lds_banks.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

struct OpName {
  absl::string_view spelled;  // as TTGIR writes it
  absl::string_view name;     // SmemOp::op
  bool store;
};

constexpr OpName kOps[] = {
    {"ttg.local_alloc", "local_alloc", true},
    {"ttg.local_store", "local_store", true},
    {"ttg.local_load", "local_load", false},
    {"ttg.async_copy_global_to_local", "async_copy_global_to_local", true},
};

// The `%name = ` before `offset` on its line, or "".
std::string ResultBefore(absl::string_view text, size_t offset) {
  size_t start = text.rfind('\n', offset);
  start = start == absl::string_view::npos ? 0 : start + 1;
  absl::string_view head =
      absl::StripAsciiWhitespace(text.substr(start, offset - start));
  if (!absl::ConsumeSuffix(&head, "=")) return "";
  head = absl::StripAsciiWhitespace(head);
  if (head.empty() || head[0] != '%') return "";
  return std::string(head);
}

// An async copy's result type as TTGIR 3.x writes it, `-> <64x32xf16,
// #shared, #smem, mutable>`: the memdesc, its layout from `m`'s aliases.
bool BareMemdesc(const TtgirModule& m, absl::string_view line, TtgirType& out) {
  size_t arrow = line.rfind("-> <");
  if (arrow == absl::string_view::npos) return false;
  absl::string_view body = line.substr(arrow + 4);
  size_t close = body.find('>');
  if (close == absl::string_view::npos) return false;
  std::vector<absl::string_view> parts =
      absl::StrSplit(body.substr(0, close), ',');
  if (parts.size() < 2) return false;
  std::vector<absl::string_view> dims =
      absl::StrSplit(absl::StripAsciiWhitespace(parts[0]), 'x');
  if (dims.size() < 2) return false;
  out = TtgirType();
  out.memdesc = true;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    int64_t d = 0;
    if (!absl::SimpleAtoi(dims[i], &d)) return false;
    out.shape.push_back(d);
  }
  out.element_type = std::string(dims.back());
  out.element_bits = ElementBits(out.element_type);
  out.encoding = std::string(absl::StripAsciiWhitespace(parts[1]));
  auto it = m.aliases.find(out.encoding);
  if (it == m.aliases.end()) return false;
  out.layout = it->second;
  return true;
}

int64_t PaddedOffset(int64_t offset,
                     const std::vector<std::pair<int32_t, int32_t>>& pads) {
  int64_t out = offset;
  for (const auto& [interval, padding] : pads) {
    out += (offset / interval) * padding;
  }
  return out;
}

// `l` without its all-zero register bases (copies of one element).
absl::StatusOr<LinearLayout> WithoutCopies(const LinearLayout& l) {
  NamedBases bases = l.bases();
  for (auto& [name, vs] : bases) {
    if (name != "register") continue;
    std::vector<std::vector<int32_t>> kept;
    for (const std::vector<int32_t>& v : vs) {
      if (std::any_of(v.begin(), v.end(), [](int32_t x) { return x != 0; })) {
        kept.push_back(v);
      }
    }
    vs = std::move(kept);
  }
  return LinearLayout::Create(std::move(bases), l.out_dims(),
                              /*require_surjective=*/false);
}

// (register, lane, warp) -> offset of the op's tensor in its memdesc.
absl::StatusOr<LinearLayout> RegistersToOffsets(const SmemOp& op) {
  for (const TtgirType* t : {&op.tensor, &op.memdesc}) {
    if (!t->layout.layout) {
      return absl::InvalidArgumentError(
          absl::StrCat(t->encoding.empty() ? "the type" : t->encoding,
                       " is not converted: ", t->layout.unsupported));
    }
  }
  const std::vector<int64_t> shape = op.memdesc.LayoutShape();
  if (shape != op.tensor.shape) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the tensor's shape [", absl::StrJoin(op.tensor.shape, ", "),
        "] is not the memdesc's [", absl::StrJoin(shape, ", "), "]"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout regs,
                             ToLinearLayout(*op.tensor.layout.layout, shape));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout smem,
                             ToLinearLayout(*op.memdesc.layout.layout, shape));
  for (const LinearLayout* l : {&regs, &smem}) {
    const int block = l->InDimIndex("block");
    if (block >= 0 && l->InDimSize(block) > 1) {
      return absl::UnimplementedError(
          "layouts over several CTAs are not modelled");
    }
  }
  if (!smem.HasInDim("offset") || smem.IsInjective() == false) {
    return absl::InvalidArgumentError(absl::StrCat(
        op.memdesc.encoding, " does not give each element one offset"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout map, InvertAndCompose(regs, smem));
  const std::vector<std::string> ins = {"register", "lane", "warp"};
  const std::vector<std::string> outs = {"offset"};
  HLOLAYOUT_ASSIGN_OR_RETURN(map, Sublayout(map, ins, outs));
  return WithoutCopies(map);
}

}  // namespace

std::vector<SmemOp> FindSmemOps(const TtgirModule& m, absl::string_view text) {
  std::vector<SmemOp> out;
  for (const OpName& name : kOps) {
    for (size_t at = text.find(name.spelled); at != absl::string_view::npos;
         at = text.find(name.spelled, at + 1)) {
      const size_t after = at + name.spelled.size();
      if (after < text.size() && (absl::ascii_isalnum(text[after]) ||
                                  text[after] == '_' || text[after] == '.')) {
        continue;  // a longer name (ttg.local_alloc_x)
      }
      size_t end = text.find('\n', at);
      if (end == absl::string_view::npos) end = text.size();
      SmemOp op;
      op.op = std::string(name.name);
      op.store = name.store;
      op.offset = at;
      op.result = ResultBefore(text, at);
      bool has_tensor = false, has_memdesc = false;
      for (const TtgirType& t : m.types) {
        if (t.offset < at || t.offset >= end) continue;
        if (t.memdesc && !has_memdesc) {
          op.memdesc = t;
          has_memdesc = true;
        } else if (!t.memdesc && !has_tensor) {
          op.tensor = t;
          has_tensor = true;
        }
      }
      if (!has_memdesc) {
        has_memdesc = BareMemdesc(m, text.substr(at, end - at), op.memdesc);
      }
      if (has_tensor && has_memdesc) out.push_back(std::move(op));
    }
  }
  std::sort(out.begin(), out.end(), [](const SmemOp& a, const SmemOp& b) {
    return a.offset < b.offset;
  });
  return out;
}

namespace {

// The widest vector of `vec` elements or fewer that stays within each
// padding interval and aligned to its width.
int VectorWithinIntervals(
    int vec, const std::vector<std::pair<int32_t, int32_t>>& pads) {
  for (const auto& [interval, padding] : pads) {
    while (vec > 1 && (interval % vec != 0 || padding % vec != 0)) {
      vec /= 2;
    }
  }
  return vec;
}

// The instruction `op` lowers to on `target`, and what the figures leave
// out.
void NameInstruction(const SmemOp& op, const CvtTarget& target,
                     SmemAccessCost& c) {
  const bool async = op.op == "async_copy_global_to_local";
  if (async && target.amd) {
    c.instr = "global_load_lds";
    c.note =
        "direct-to-LDS: the global load writes LDS in lane order, "
        "conflict-free";
  } else if (async) {
    c.instr = "cp.async";
  } else if (op.store) {
    c.instr = target.amd ? "ds_write" : "st.shared";
  } else {
    c.instr = target.amd ? "ds_read" : "ld.shared";
    // A dot operand may be loaded with a matrix or transposing load that
    // is not modelled: said, never silently costed as something else.
    if (op.tensor.layout.kind == "dot_op" && target.smem.ld_matrix) {
      c.note =
          "Triton may load this dot operand with ldmatrix (not modelled): "
          "the figures are for ld.shared";
    } else if (op.tensor.layout.kind == "dot_op" &&
               target.name == "hip:gfx950") {
      c.note =
          "Triton may load this dot operand with ds_read_tr (not "
          "modelled): the figures are for ds_read";
    }
  }
}

// The register -> offset map of an access, its in-dims' places.
struct AccessMap {
  const LinearLayout& map;
  int reg_dim, lane_dim, warp_dim;

  // The offset (in elements) lane `lane` of warp `warp` reaches at register
  // `r`.
  int32_t Offset(int32_t r, int32_t lane, int32_t warp) const {
    int32_t ins[3] = {0, 0, 0};
    int32_t out[1] = {0};
    ins[reg_dim] = r;
    ins[lane_dim] = lane;
    ins[warp_dim] = warp;
    map.ApplyIndexed(ins, out);
    return out[0];
  }
};

// The bank-conflict ways and wavefronts of every instruction of every warp
// (the instructions beginning at `starts`): the worst ways, and the warp
// of most wavefronts with its conflict-free count.
void CostWarps(const AccessMap& m, const std::vector<int32_t>& starts,
               const std::vector<std::pair<int32_t, int32_t>>& pads,
               const SmemOp& op, const CvtTarget& target, SmemAccessCost& c) {
  const bool direct_to_lds =
      op.op == "async_copy_global_to_local" && target.amd;
  const int bytes = c.bits / 8;
  const int32_t lanes = m.map.InDimSize(m.lane_dim);
  const int32_t warps = m.map.InDimSize(m.warp_dim);
  std::vector<int64_t> addresses(lanes);
  for (int32_t w = 0; w < warps; ++w) {
    int64_t total = 0, ideal = 0;
    for (int32_t r : starts) {
      for (int32_t lane = 0; lane < lanes; ++lane) {
        addresses[lane] =
            PaddedOffset(m.Offset(r, lane, w), pads) * (c.element_bits / 8);
      }
      if (direct_to_lds) {
        const std::pair<int, int64_t> plain = BankWays(
            std::vector<int64_t>(lanes, 0), bytes, /*load=*/false, target);
        total += plain.second;
        ideal += plain.second;
        continue;
      }
      const auto [ways, wavefronts] =
          BankWays(addresses, bytes, !op.store, target);
      const std::pair<int, int64_t> best =
          BankWays(std::vector<int64_t>(lanes, 0), bytes, !op.store, target);
      c.ways = std::max(c.ways, ways);
      total += wavefronts;
      ideal += best.second;
    }
    if (total > c.wavefronts) {
      c.wavefronts = total;
      c.ideal_wavefronts = ideal;
    }
  }
}

}  // namespace

absl::StatusOr<SmemAccessCost> CostSmemOp(const SmemOp& op,
                                          const CvtTarget& target) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout map, RegistersToOffsets(op));
  SmemAccessCost c;
  c.target = target.name;
  c.element_bits = std::max(8, ElementBits(op.memdesc.element_type));
  if (c.element_bits > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "element type ", op.memdesc.element_type, " is not modelled"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(int vec, LargestVector(map, c.element_bits));
  std::vector<std::pair<int32_t, int32_t>> pads;
  if (const auto* padded =
          op.memdesc.layout.layout->get<PaddedSharedLayout>()) {
    pads = padded->intervals;
    vec = VectorWithinIntervals(vec, pads);
  }
  NameInstruction(op, target, c);
  c.bits = vec * c.element_bits;
  const AccessMap m{map, map.InDimIndex("register"), map.InDimIndex("lane"),
                    map.InDimIndex("warp")};
  const int32_t lanes = map.InDimSize(m.lane_dim);
  if (lanes != target.warp_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("the layout has ", lanes, " lanes, ", target.name,
                     " warps have ", target.warp_size));
  }
  std::vector<int32_t> starts;  // the registers each instruction begins at
  for (int32_t r = 0; r < map.InDimSize(m.reg_dim); ++r) {
    if (m.Offset(r, 0, 0) % vec == 0) starts.push_back(r);
  }
  c.count = static_cast<int64_t>(starts.size());
  CostWarps(m, starts, pads, op, target, c);
  return c;
}

}  // namespace hlolayout::triton
