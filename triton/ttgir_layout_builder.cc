// Layouts from TTGIR attribute values: each kind's keys read as Triton's
// attribute parsers read them (TritonGPU's Dialect.cpp, TritonNvidiaGPU's
// struct(params) formats), then Triton's attribute verifiers
// (layout_verifier.h).

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/layout_utils.h"
#include "hlolayout/triton/layout_verifier.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser_internal.h"
#include "hlolayout/util/edit_distance.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton::ttgir_internal {
namespace {

// Kinds whose Triton parser ignores keys it does not know (it looks up the
// ones it wants in the dictionary).
bool IgnoresUnknownKeys(absl::string_view kind) {
  return kind == "amd_mfma" || kind == "amd_wmma";
}

// The keys of each kind, as the builder below reads them (Triton's
// attribute parsers refuse any other, except those IgnoresUnknownKeys
// names). The CGA keys: today's CGALayout and the older CTAsPerCGA,
// CTASplitNum and CTAOrder; the tensor memory encodings have CGALayout
// (Triton 3.7+) or CTASplitM/N (Triton 3.6).
std::vector<absl::string_view> KnownKeys(absl::string_view kind) {
  static constexpr absl::string_view kCga[] = {"CGALayout", "CTAsPerCGA",
                                               "CTASplitNum", "CTAOrder"};
  std::vector<absl::string_view> keys;
  bool with_cga = true;
  if (kind == "blocked") {
    keys = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
  } else if (kind == "nvidia_mma" || kind == "mma") {
    keys = {"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"};
  } else if (kind == "swizzled_shared" || kind == "amd_rotating_shared") {
    keys = {"vec", "perPhase", "maxPhase", "order"};
  } else if (kind == "shared") {
    keys = {"vec", "perPhase", "maxPhase", "order", "hasLeadingOffset"};
  } else if (kind == "nvmma_shared") {
    keys = {"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded",
            "rank"};
  } else if (kind == "amd_mfma") {
    keys = {"version",      "warpsPerCTA",  "instrShape",
            "isTransposed", "tilesPerWarp", "elementBitWidth"};
  } else if (kind == "amd_wmma") {
    keys = {"version",     "isTranspose",  "ctaLayout", "rank",
            "warpsPerCTA", "tilesPerWarp", "instrShape"};
  } else {
    with_cga = false;
    if (kind == "slice") keys = {"dim", "parent"};
    if (kind == "dot_op") keys = {"opIdx", "parent", "kWidth"};
    // `alignment` belongs after the braces; the builder says so.
    if (kind == "linear") {
      keys = {"register", "lane", "warp", "block", "order", "alignment"};
    }
    if (kind == "generic_linear") keys = {"register", "lane", "warp", "block"};
    if (kind == "shared_linear") keys = {"offset", "block", "alignment"};
    // Either form: {offset, block} or {order, shape}; the builder refuses
    // a key of the other form as Triton does.
    if (kind == "padded_shared") keys = {"offset", "block", "order", "shape"};
    if (kind == "partitioned_shared") {
      keys = {"numPartitions", "numGroups", "partitionDim", "partitionLayout"};
    }
    if (kind == "tensor_memory_encoding") {
      keys = {"blockM",    "blockN",    "colStride", "twoCTAs",
              "CTASplitM", "CTASplitN", "CGALayout", "fp4Padded"};
    }
    if (kind == "tensor_memory_scales_encoding") {
      keys = {"CTASplitM", "CTASplitN", "CGALayout", "blockRepOrder"};
    }
  }
  if (with_cga) keys.insert(keys.end(), std::begin(kCga), std::end(kCga));
  return keys;
}

// What Triton itself says of an unknown key where its words are not
// "unexpected key" (the lit tests and the live harness compare them).
std::string TritonWords(absl::string_view kind, absl::string_view key) {
  if (kind == "padded_shared") {
    return absl::StrCat("Unexpected attribute \"", key, "\" found");
  }
  if (StructBodyKind(kind)) {
    return absl::StrCat("duplicate or unknown struct parameter name: ", key);
  }
  return "";
}

// "unknown key 'threadPerWarp' in #ttg.blocked; did you mean
// 'threadsPerWarp'? (its keys: sizePerThread, ...)", or "...; the nearest
// known is 'order' (...)" for a key that is no misspelling of one; Triton's
// own words after, where they differ.
std::string UnknownKey(absl::string_view key, absl::string_view attribute,
                       absl::string_view kind,
                       const std::vector<absl::string_view>& known) {
  std::vector<std::string> names(known.begin(), known.end());
  const std::vector<std::string> nearest = NearestNames(key, names, 1);
  std::string out = absl::StrCat("unknown key '", key, "' in #", attribute);
  if (!nearest.empty()) {
    absl::StrAppend(&out,
                    CloseEnough(key, nearest[0]) ? "; did you mean '"
                                                 : "; the nearest known is '",
                    nearest[0], CloseEnough(key, nearest[0]) ? "'?" : "'");
  }
  absl::StrAppend(&out, " (its keys: ", absl::StrJoin(names, ", "), ")");
  const std::string triton = TritonWords(kind, key);
  if (!triton.empty()) absl::StrAppend(&out, "; Triton: ", triton);
  return out;
}

bool Contains(const std::vector<absl::string_view>& names,
              absl::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

absl::StatusOr<Layout> LayoutBuilder::Build(const Value& v, int depth) {
  if (depth > kMaxDepth) {
    return p_.ErrorAt(v.offset, "layouts nested too deeply");
  }
  if (v.type == Value::Type::kRef) {
    if (aliases_ == nullptr) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("undefined attribute alias ", v.text));
    }
    auto it = aliases_->find(v.text);
    if (it == aliases_->end()) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("undefined attribute alias ", v.text));
    }
    if (it->second.layout == nullptr) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat(v.text, ": ", it->second.unsupported));
    }
    return *it->second.layout;
  }
  if (v.type != Value::Type::kDialect) {
    return p_.ErrorAt(v.offset,
                      "expected a layout attribute (#ttg.<kind><...>)");
  }
  const absl::string_view kind = TritonKind(v.text);
  if (!KnownLayoutKind(kind)) {
    return p_.ErrorAt(v.offset, Unsupported(v.text));
  }
  keys_ = &v;
  used_.assign(v.body.size(), false);
  // A key the kind does not have, before a key it misses: a misspelling
  // answers with the nearest known key, not "missing". The kinds whose
  // Triton parser ignores unknown keys keep doing so (a misspelling of a
  // key they miss is named where the missing key is reported).
  if (!IgnoresUnknownKeys(kind)) {
    const std::vector<absl::string_view> known = KnownKeys(kind);
    for (size_t i = 0; i < v.body.size(); ++i) {
      if (!Contains(known, v.body[i].first)) {
        return p_.ErrorAt(v.body_offsets[i],
                          UnknownKey(v.body[i].first, v.text, kind, known));
      }
    }
  }
  absl::StatusOr<Layout> l = BuildKind(kind, v, depth);
  if (!l.ok()) return l;
  for (size_t i = 0; i < v.body.size(); ++i) {
    if (!used_[i] && IgnoresUnknownKeys(kind)) {
      // Triton reads on without it; so does this reader, but says so.
      p_.WarnAt(v.body_offsets[i],
                absl::StrCat(
                    "warning: ",
                    UnknownKey(v.body[i].first, v.text, kind, KnownKeys(kind)),
                    "; Triton ignores it, and so does this reader"));
    }
    if (used_[i] || IgnoresUnknownKeys(kind)) continue;
    return p_.ErrorAt(
        v.body_offsets[i],
        StructBodyKind(kind)
            ? absl::StrCat("duplicate or unknown struct parameter name: ",
                           v.body[i].first)
            : absl::StrCat("unexpected key: ", v.body[i].first));
  }
  // Triton's attribute verifiers, for today's spelling (dumps of the older
  // `#triton_gpu.` one predate some of them, such as kWidth).
  if (absl::StartsWith(v.text, "ttg.") || absl::StartsWith(v.text, "ttng.")) {
    absl::Status verified = VerifyLayout(*l);
    if (!verified.ok()) return p_.ErrorAt(v.offset, verified.message());
  }
  return l;
}

std::string LayoutBuilder::Unsupported(absl::string_view name) {
  return absl::StrCat("#", name,
                      " is not a Triton layout (the TritonGPU and "
                      "TritonNvidiaGPU dialects' layouts are read)");
}

// The body entry `key`, or nullptr; marks it used.
const Value* LayoutBuilder::Find(absl::string_view key) {
  for (size_t i = 0; i < keys_->body.size(); ++i) {
    if (keys_->body[i].first == key) {
      used_[i] = true;
      return &keys_->body[i].second;
    }
  }
  return nullptr;
}

template <typename S>
absl::Status LayoutBuilder::SwizzleKeys(S* s) {
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* vec, Require("vec"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s->vec, Uint(*vec, "vec"));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* pp, Require("perPhase"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s->per_phase, Uint(*pp, "perPhase"));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* mp, Require("maxPhase"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s->max_phase, Uint(*mp, "maxPhase"));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* order, Require("order"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s->order, Uints(*order, "order"));
  return absl::OkStatus();
}

absl::StatusOr<const Value*> LayoutBuilder::Require(absl::string_view key) {
  const Value* v = Find(key);
  if (v == nullptr) {
    if (StructBodyKind(TritonKind(keys_->text))) {
      return p_.ErrorAt(
          keys_->offset,
          absl::StrCat("struct is missing required parameter: ", key));
    }
    return p_.ErrorAt(MisspellingOf(key).value_or(keys_->offset), Missing(key));
  }
  return v;
}

// Where a key that is no key of the attribute but a misspelling of `key`
// is written, if one is.
std::optional<size_t> LayoutBuilder::MisspellingOf(
    absl::string_view key) const {
  const std::vector<absl::string_view> known =
      KnownKeys(TritonKind(keys_->text));
  for (size_t i = 0; i < keys_->body.size(); ++i) {
    const std::string& name = keys_->body[i].first;
    if (!Contains(known, name) && CloseEnough(name, key)) {
      return keys_->body_offsets[i];
    }
  }
  return std::nullopt;
}

// "missing 'instrShape' in #ttg.amd_mfma", and the key written in its place
// when one is a misspelling of it ("; 'instrShap' is no key of it: did you
// mean 'instrShape'?"): the kinds that ignore unknown keys get there.
std::string LayoutBuilder::Missing(absl::string_view key) const {
  std::string out = absl::StrCat("missing '", key, "' in #", keys_->text);
  const std::vector<absl::string_view> known =
      KnownKeys(TritonKind(keys_->text));
  for (const auto& [name, unused] : keys_->body) {
    if (!Contains(known, name) && CloseEnough(name, key)) {
      absl::StrAppend(&out, "; '", name, "' is no key of it: did you mean '",
                      key, "'?");
      break;
    }
  }
  return out;
}

absl::StatusOr<int32_t> LayoutBuilder::Uint(const Value& v,
                                            absl::string_view what) {
  if (v.type != Value::Type::kInt) {
    return p_.ErrorAt(v.offset,
                      absl::StrCat("expected an integer type in ", what));
  }
  if (!v.int_ok || v.integer < 0 ||
      v.integer > std::numeric_limits<int32_t>::max()) {
    return p_.ErrorAt(
        v.offset, absl::StrCat("expected an unsigned integer value in ", what));
  }
  return static_cast<int32_t>(v.integer);
}

absl::StatusOr<std::vector<int32_t>> LayoutBuilder::Uints(
    const Value& v, absl::string_view what) {
  if (v.type != Value::Type::kArray) {
    return p_.ErrorAt(v.offset, absl::StrCat("expected an array for ", what));
  }
  std::vector<int32_t> out;
  for (const Value& x : v.items) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int32_t n, Uint(x, what));
    out.push_back(n);
  }
  return out;
}

absl::StatusOr<bool> LayoutBuilder::Bool(const Value& v,
                                         absl::string_view what) {
  if (v.type != Value::Type::kBool) {
    return p_.ErrorAt(v.offset, absl::StrCat("expected a bool type in ", what));
  }
  return v.boolean;
}

// Bases: an array of arrays of (possibly negative) int32.
absl::StatusOr<DimBases> LayoutBuilder::Bases(const Value& v,
                                              absl::string_view what) {
  if (v.type != Value::Type::kArray) {
    return p_.ErrorAt(v.offset, absl::StrCat("Expected array of arrays for "
                                             "basis of '",
                                             what, "'"));
  }
  DimBases out;
  for (const Value& b : v.items) {
    if (b.type != Value::Type::kArray) {
      return p_.ErrorAt(b.offset, absl::StrCat("Expected array of integers in "
                                               "basis for '",
                                               what, "'"));
    }
    std::vector<int32_t> basis;
    for (const Value& x : b.items) {
      if (x.type != Value::Type::kInt || !x.int_ok ||
          x.integer < std::numeric_limits<int32_t>::min() ||
          x.integer > std::numeric_limits<int32_t>::max()) {
        return p_.ErrorAt(x.offset, absl::StrCat("Expected integer in basis "
                                                 "for '",
                                                 what, "'"));
      }
      basis.push_back(static_cast<int32_t>(x.integer));
    }
    out.push_back(std::move(basis));
  }
  return out;
}

// Triton's parseLinearLayout: the bases of `ins` (each required) from the
// dictionary entries of `v` (a dialect body or a dict value), out-dims
// dim0.. with sizes inferred and surjectivity required. An empty layout
// takes `serialized_rank` out-dims (refused when 0).
absl::StatusOr<LinearLayout> LayoutBuilder::LinearBases(
    const Value& v, absl::Span<const char* const> ins, int serialized_rank) {
  const auto& entries = v.type == Value::Type::kDict ? v.dict : v.body;
  NamedBases bases;
  size_t rank = 0;
  for (const char* in : ins) {
    const Value* b = nullptr;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].first != in) continue;
      b = &entries[i].second;
      if (&entries == &keys_->body) used_[i] = true;
    }
    if (b == nullptr) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("Expected basis of '", in, "' not found"));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(DimBases db, Bases(*b, in));
    if (rank == 0 && !db.empty()) rank = db[0].size();
    bases.emplace_back(in, std::move(db));
  }
  if (rank == 0 && serialized_rank == 0) {
    return p_.ErrorAt(v.offset, "Empty Layout not supported");
  }
  if (rank == 0) {
    rank = static_cast<size_t>(serialized_rank);
  } else if (serialized_rank != 0 &&
             rank != static_cast<size_t>(serialized_rank)) {
    return p_.ErrorAt(v.offset,
                      "Serialized rank and rank deduced from LL need to match");
  }
  for (const auto& [name, db] : bases) {
    for (const auto& b : db) {
      if (b.size() != rank) {
        return p_.ErrorAt(v.offset, absl::StrCat("every basis of '", name,
                                                 "' has ", rank, " values"));
      }
    }
  }
  absl::StatusOr<LinearLayout> ll = LinearLayout::CreateInferred(
      std::move(bases), StandardOutDimNames(static_cast<int>(rank)));
  if (!ll.ok()) return p_.ErrorAt(v.offset, ll.status().message());
  return ll;
}

// CGALayout = [[...]], or the older CTAsPerCGA/CTASplitNum/CTAOrder.
absl::StatusOr<CgaBases> LayoutBuilder::Cga(size_t rank) {
  const Value* cga = Find("CGALayout");
  const Value* ctas = Find("CTAsPerCGA");
  const Value* split = Find("CTASplitNum");
  const Value* order = Find("CTAOrder");
  if (cga != nullptr) {
    if (cga->type != Value::Type::kArray) {
      return p_.ErrorAt(cga->offset, "expected array value for 'CGALayout'");
    }
    CgaBases b;
    for (const Value& entry : cga->items) {
      HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<int32_t> basis,
                                 Uints(entry, "CGALayout entry"));
      if (basis.size() != rank) {
        return p_.ErrorAt(cga->offset,
                          absl::StrCat("'CGALayout' entry length does not "
                                       "match rank ",
                                       rank));
      }
      b.push_back(std::move(basis));
    }
    return b;
  }
  if (ctas == nullptr && split == nullptr && order == nullptr) {
    return CgaBases{};
  }
  if (ctas == nullptr || split == nullptr || order == nullptr) {
    return p_.ErrorAt(keys_->offset,
                      "CTAsPerCGA, CTASplitNum and CTAOrder go together");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<int32_t> c,
                             Uints(*ctas, "CTAsPerCGA"));
  HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<int32_t> s,
                             Uints(*split, "CTASplitNum"));
  HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<int32_t> o, Uints(*order, "CTAOrder"));
  if (c.size() != rank || s.size() != rank || o.size() != rank) {
    return p_.ErrorAt(ctas->offset,
                      "CTAsPerCGA, CTASplitNum and CTAOrder must have the "
                      "layout's rank");
  }
  LinearLayout l;
  for (int32_t dim : o) {
    if (dim < 0 || dim >= static_cast<int32_t>(rank) || s[dim] == 0 ||
        c[dim] % s[dim] != 0) {
      return p_.ErrorAt(ctas->offset, "invalid CGA encoding parameters");
    }
    absl::StatusOr<LinearLayout> id =
        LinearLayout::Identity1D(s[dim], "block", absl::StrCat("dim", dim));
    absl::StatusOr<LinearLayout> zeros = LinearLayout::Zeros1D(
        c[dim] / s[dim], "block", absl::StrCat("dim", dim));
    if (!id.ok() || !zeros.ok()) {
      return p_.ErrorAt(ctas->offset, "invalid CGA encoding parameters");
    }
    absl::StatusOr<LinearLayout> part = Product(*id, *zeros);
    if (!part.ok()) return p_.ErrorAt(ctas->offset, part.status().message());
    absl::StatusOr<LinearLayout> next = Product(l, *part);
    if (!next.ok()) return p_.ErrorAt(ctas->offset, next.status().message());
    l = *next;
  }
  absl::StatusOr<LinearLayout> t =
      TransposeOuts(l, StandardOutDimNames(static_cast<int>(rank)));
  if (!t.ok()) return p_.ErrorAt(ctas->offset, t.status().message());
  CgaBases bases;
  if (t->num_in_dims() > 0) bases = t->bases()[0].second;
  return bases;
}

// A layout nested under `key` (slice's and dot_op's parent, a partitioned
// layout's partitionLayout).
absl::StatusOr<std::shared_ptr<const Layout>> LayoutBuilder::Nested(
    absl::string_view key, int depth) {
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* v, Require(key));
  const Value* saved_keys = keys_;
  std::vector<bool> saved_used = used_;
  LayoutBuilder inner(p_, aliases_);
  absl::StatusOr<Layout> l = inner.Build(*v, depth + 1);
  keys_ = saved_keys;
  used_ = std::move(saved_used);
  if (!l.ok()) return l.status();
  return std::make_shared<const Layout>(*std::move(l));
}

absl::StatusOr<Layout> LayoutBuilder::BuildKind(absl::string_view kind,
                                                const Value& v, int depth) {
  if (kind == "amd_mfma" || kind == "amd_wmma" || kind == "generic_linear" ||
      kind == "amd_rotating_shared") {
    return BuildAmd(kind, v, depth);
  }
  if (kind == "padded_shared" || kind == "partitioned_shared" ||
      StructBodyKind(kind)) {
    return BuildMemory(kind, v, depth);
  }
  if (kind == "linear" || kind == "shared_linear" ||
      kind == "swizzled_shared" || kind == "shared" || kind == "nvmma_shared") {
    return BuildShared(kind, v, depth);
  }
  return BuildNvidia(kind, v, depth);
}

// blocked, nvidia_mma (mma), slice, dot_op.
absl::StatusOr<Layout> LayoutBuilder::BuildNvidia(absl::string_view kind,
                                                  const Value& v, int depth) {
  if (kind == "blocked") {
    BlockedLayout b;
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* spt, Require("sizePerThread"));
    HLOLAYOUT_ASSIGN_OR_RETURN(b.size_per_thread,
                               Uints(*spt, "number of elements per thread"));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* tpw, Require("threadsPerWarp"));
    HLOLAYOUT_ASSIGN_OR_RETURN(b.threads_per_warp,
                               Uints(*tpw, "number of threads per warp"));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* wpc, Require("warpsPerCTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(b.warps_per_cta,
                               Uints(*wpc, "number of warps per CTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* order, Require("order"));
    HLOLAYOUT_ASSIGN_OR_RETURN(b.order, Uints(*order, "order"));
    HLOLAYOUT_ASSIGN_OR_RETURN(b.cga, Cga(b.size_per_thread.size()));
    return Layout(std::move(b));
  }
  if (kind == "nvidia_mma" || kind == "mma") {
    NvidiaMmaLayout m;
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* major, Require("versionMajor"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.version_major, Uint(*major, "versionMajor"));
    if (const Value* minor = Find("versionMinor")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(m.version_minor, Uint(*minor, "versionMinor"));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* wpc, Require("warpsPerCTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.warps_per_cta, Uints(*wpc, "warpsPerCTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* instr, Require("instrShape"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.instr_shape, Uints(*instr, "instrShape"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.cga, Cga(m.warps_per_cta.size()));
    return Layout(std::move(m));
  }
  if (kind == "slice") {
    SliceLayout s;
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* dim, Require("dim"));
    HLOLAYOUT_ASSIGN_OR_RETURN(s.dim, Uint(*dim, "dim"));
    HLOLAYOUT_ASSIGN_OR_RETURN(s.parent, Nested("parent", depth));
    if (!s.parent->is_distributed()) {
      return p_.ErrorAt(v.offset, "expected a distributed encoding trait");
    }
    return Layout(std::move(s));
  }
  if (kind == "dot_op") {
    DotOperandLayout d;
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* idx, Require("opIdx"));
    HLOLAYOUT_ASSIGN_OR_RETURN(d.op_idx, Uint(*idx, "opIdx"));
    HLOLAYOUT_ASSIGN_OR_RETURN(d.parent, Nested("parent", depth));
    if (const Value* kw = Find("kWidth")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(d.k_width, Uint(*kw, "kWidth"));
    }
    return Layout(std::move(d));
  }
  return p_.ErrorAt(v.offset, Unsupported(v.text));
}

// linear, shared_linear, swizzled_shared (shared), nvmma_shared.
absl::StatusOr<Layout> LayoutBuilder::BuildShared(absl::string_view kind,
                                                  const Value& v, int depth) {
  (void)depth;
  if (kind == "linear" || kind == "shared_linear") return BuildLinear(kind, v);
  if (kind == "swizzled_shared" || kind == "shared") {
    return BuildSwizzled(kind, v);
  }
  return BuildNvmma(v);
}

// The `, alignment = N` a shared linear layout writes after its braces.
absl::StatusOr<const Value*> LayoutBuilder::TrailingAlignment(const Value& v) {
  const Value* align = Find("alignment");
  if (align == nullptr || !v.trailing_alignment) {
    return p_.ErrorAt(v.end > 0 ? v.end - 1 : v.offset,
                      "expected ', alignment = N' after the bases");
  }
  return align;
}

// linear, shared_linear.
absl::StatusOr<Layout> LayoutBuilder::BuildLinear(absl::string_view kind,
                                                  const Value& v) {
  const bool shared = kind == "shared_linear";
  if (!shared) Find("order");  // written by some passes; Triton ignores it
  if (v.alignment_in_braces) {
    return p_.ErrorAt(v.offset,
                      "alignment must be specified outside of the linear "
                      "layout braces");
  }
  static constexpr const char* kShared[] = {"offset", "block"};
  static constexpr const char* kDistributed[] = {"register", "lane", "warp",
                                                 "block"};
  if (shared && Find("block") == nullptr) {
    // A shared linear layout may leave out its (empty) block bases.
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout offsets,
                               LinearBases(v, {kShared, 1}));
    NamedBases bases = offsets.bases();
    bases.emplace_back("block", DimBases{});
    absl::StatusOr<LinearLayout> ll =
        LinearLayout::CreateInferred(std::move(bases), offsets.OutDimNames());
    if (!ll.ok()) return p_.ErrorAt(v.offset, ll.status().message());
    SharedLinearEncoding e;
    e.layout = *std::move(ll);
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* align, TrailingAlignment(v));
    HLOLAYOUT_ASSIGN_OR_RETURN(e.alignment, Uint(*align, "alignment"));
    return Layout(std::move(e));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout ll,
      shared ? LinearBases(v, kShared) : LinearBases(v, kDistributed));
  if (!shared) return Layout(LinearEncoding{std::move(ll)});
  SharedLinearEncoding e;
  e.layout = std::move(ll);
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* align, TrailingAlignment(v));
  HLOLAYOUT_ASSIGN_OR_RETURN(e.alignment, Uint(*align, "alignment"));
  if (e.alignment == 0 || (e.alignment & (e.alignment - 1)) != 0) {
    return p_.ErrorAt(align->offset,
                      "alignment must be a positive power of two");
  }
  return Layout(std::move(e));
}

// swizzled_shared, and the older shared (an NVMMA layout when
// hasLeadingOffset is true).
absl::StatusOr<Layout> LayoutBuilder::BuildSwizzled(absl::string_view kind,
                                                    const Value& v) {
  SwizzledSharedLayout s;
  HLOLAYOUT_RETURN_IF_ERROR(SwizzleKeys(&s));
  bool leading = false;
  if (kind == "shared") {
    if (const Value* h = Find("hasLeadingOffset")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(leading, Bool(*h, "hasLeadingOffset"));
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(s.cga, Cga(s.order.size()));
  if (!leading) return Layout(std::move(s));
  // The older spelling of an NVMMA layout: the swizzle width follows from
  // (perPhase, maxPhase); the element width from the tensor type.
  NvmmaSharedLayout n;
  if (s.per_phase == 4 && s.max_phase == 2) {
    n.swizzle_bytes = 32;
  } else if (s.per_phase == 2 && s.max_phase == 4) {
    n.swizzle_bytes = 64;
  } else if (s.per_phase == 1 && s.max_phase == 8) {
    n.swizzle_bytes = 128;
  } else {
    return p_.ErrorAt(v.offset,
                      "Illegal shared encoding.  If hasLeadingOffset is "
                      "true, then (perPhase, maxPhase) must be either "
                      "(4,2), (2,4), or (1,8)");
  }
  n.transposed = s.order.size() >= 2 && s.order[0] == 0;
  n.element_bits = 0;
  n.rank = static_cast<int32_t>(s.order.size());
  n.cga = std::move(s.cga);
  return Layout(std::move(n));
}

// nvmma_shared.
absl::StatusOr<Layout> LayoutBuilder::BuildNvmma(const Value& v) {
  NvmmaSharedLayout n;
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* sw, Require("swizzlingByteWidth"));
  HLOLAYOUT_ASSIGN_OR_RETURN(n.swizzle_bytes, Uint(*sw, "swizzlingByteWidth"));
  if (const Value* t = Find("transposed")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(n.transposed, Bool(*t, "transposed"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* bits, Require("elementBitWidth"));
  HLOLAYOUT_ASSIGN_OR_RETURN(n.element_bits, Uint(*bits, "elementBitWidth"));
  if (const Value* f = Find("fp4Padded")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(n.fp4_padded, Bool(*f, "fp4Padded"));
  }
  if (n.element_bits == 0) {
    return p_.ErrorAt(bits->offset, "elementBitWidth must be non-zero");
  }
  // The rank is the CGA's when given, else `rank = N` (2 otherwise).
  size_t rank = 2;
  if (const Value* r = Find("rank")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int32_t given, Uint(*r, "rank"));
    if (given < 1 || given > 8) {
      return p_.ErrorAt(r->offset, "rank must be between 1 and 8");
    }
    rank = static_cast<size_t>(given);
  }
  for (const auto& [k, x] : v.body) {
    if (k == "CGALayout" && x.type == Value::Type::kArray && !x.items.empty() &&
        x.items[0].type == Value::Type::kArray) {
      rank = x.items[0].items.size();
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(n.cga, Cga(rank));
  n.rank = static_cast<int32_t>(rank);
  return Layout(std::move(n));
}

// amd_mfma, amd_wmma (both spellings), generic_linear, amd_rotating_shared.
absl::StatusOr<Layout> LayoutBuilder::BuildAmd(absl::string_view kind,
                                               const Value& v, int depth) {
  (void)depth;
  if (kind == "amd_mfma") {
    AmdMfmaLayout m;
    if (const Value* x = Find("version")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(m.version, Uint(*x, "version"));
    }
    // Without warpsPerCTA the layout has rank 0, which no conversion
    // takes: refused here, at the key written in its place if any.
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* warps, Require("warpsPerCTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.warps_per_cta, Uints(*warps, "warpsPerCTA"));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Value* instr, Require("instrShape"));
    HLOLAYOUT_ASSIGN_OR_RETURN(m.instr_shape, Uints(*instr, "instrShape"));
    if (m.instr_shape.size() < 2) {
      return p_.ErrorAt(instr->offset,
                        "instrShape of an AMD MFMA layout is [M, N, K]");
    }
    if (const Value* x = Find("isTransposed")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(m.is_transposed, Bool(*x, "isTransposed"));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(m.cga, Cga(m.warps_per_cta.size()));
    if (const Value* x = Find("tilesPerWarp")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(m.tiles_per_warp, Uints(*x, "tilesPerWarp"));
    }
    if (m.tiles_per_warp.empty()) {
      m.tiles_per_warp.assign(m.instr_shape.size(), 1);
    }
    if (const Value* x = Find("elementBitWidth")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(m.element_bits, Uint(*x, "elementBitWidth"));
    }
    return Layout(std::move(m));
  }
  if (kind == "amd_wmma") {
    AmdWmmaLayout w;
    if (const Value* x = Find("version")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(w.version, Uint(*x, "version"));
    }
    if (const Value* x = Find("isTranspose")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(w.is_transposed, Bool(*x, "isTranspose"));
    }
    if (const Value* x = Find("instrShape")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(w.instr_shape, Uints(*x, "instrShape"));
    }
    const Value* cta = Find("ctaLayout");
    const Value* warps = Find("warpsPerCTA");
    if (cta == nullptr && warps != nullptr) {
      // Triton 3.6's spelling.
      w.legacy_warps = true;
      HLOLAYOUT_ASSIGN_OR_RETURN(w.warps_per_cta, Uints(*warps, "warpsPerCTA"));
      if (const Value* x = Find("tilesPerWarp")) {
        HLOLAYOUT_ASSIGN_OR_RETURN(w.tiles_per_warp, Uints(*x, "tilesPerWarp"));
      }
      if (w.tiles_per_warp.empty()) {
        w.tiles_per_warp.assign(w.instr_shape.size(), 1);
      }
      w.rank = static_cast<int32_t>(w.warps_per_cta.size());
      HLOLAYOUT_ASSIGN_OR_RETURN(w.cga, Cga(w.warps_per_cta.size()));
      return Layout(std::move(w));
    }
    if (cta == nullptr) {
      return p_.ErrorAt(v.offset, Missing("ctaLayout"));
    }
    if (const Value* x = Find("rank")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(w.rank, Uint(*x, "rank"));
    }
    if (cta->type != Value::Type::kDict) {
      return p_.ErrorAt(cta->offset,
                        "expected dictionary value for 'ctaLayout'");
    }
    bool has_register = false;
    for (const auto& [k, unused] : cta->dict) has_register |= k == "register";
    static constexpr const char* kWarp[] = {"warp"};
    static constexpr const char* kRegWarp[] = {"register", "warp"};
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout ll, has_register ? LinearBases(*cta, kRegWarp, w.rank)
                                      : LinearBases(*cta, kWarp, w.rank));
    for (const auto& [name, bases] : ll.bases()) {
      if (name == "register") w.cta_register = bases;
      if (name == "warp") w.cta_warp = bases;
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(w.cga, Cga(w.rank));
    return Layout(std::move(w));
  }
  if (kind == "generic_linear") {
    static constexpr const char* kIns[] = {"register", "lane", "warp", "block"};
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout ll, LinearBases(v, kIns));
    return Layout(GenericLinearEncoding{std::move(ll)});
  }
  // amd_rotating_shared: the keys of swizzled_shared.
  AmdRotatingSharedLayout s;
  HLOLAYOUT_RETURN_IF_ERROR(SwizzleKeys(&s));
  HLOLAYOUT_ASSIGN_OR_RETURN(s.cga, Cga(s.order.size()));
  return Layout(std::move(s));
}

// padded_shared, partitioned_shared, tensor_memory_encoding,
// tensor_memory_scales_encoding.
absl::StatusOr<Layout> LayoutBuilder::BuildMemory(absl::string_view kind,
                                                  const Value& v, int depth) {
  if (kind == "padded_shared") return BuildPadded(v);
  if (kind == "partitioned_shared") return BuildPartitioned(v, depth);
  HLOLAYOUT_ASSIGN_OR_RETURN(const CtaSplit split, TensorMemorySplit(v));
  if (kind == "tensor_memory_scales_encoding") {
    return BuildTensorMemoryScales(split);
  }
  return BuildTensorMemory(split);
}

// padded_shared: the interval:+padding list before the braces, then either
// the linear component's bases {offset, block} or {order, shape}.
absl::StatusOr<Layout> LayoutBuilder::BuildPadded(const Value& v) {
  PaddedSharedLayout p;
  if (v.intervals_end <= v.intervals_offset) {
    return p_.ErrorAt(v.offset, "expected '[' (the interval:+padding list)");
  }
  for (const auto& [interval, padding] : v.intervals) {
    if (interval > std::numeric_limits<int32_t>::max() ||
        padding > std::numeric_limits<int32_t>::max()) {
      return p_.ErrorAt(v.intervals_offset,
                        "interval values must all be power of two");
    }
    p.intervals.emplace_back(static_cast<int32_t>(interval),
                             static_cast<int32_t>(padding));
  }
  const bool linear =
      std::any_of(v.body.begin(), v.body.end(), [](const auto& kv) {
        return kv.first == "offset" || kv.first == "block";
      });
  for (size_t i = 0; i < v.body.size(); ++i) {
    const std::string& key = v.body[i].first;
    const bool known = linear ? (key == "offset" || key == "block")
                              : (key == "order" || key == "shape");
    if (!known) {
      return p_.ErrorAt(
          v.body_offsets[i],
          absl::StrCat("Unexpected attribute \"", key, "\" found"));
    }
  }
  if (linear) {
    static constexpr const char* kIns[] = {"offset", "block"};
    HLOLAYOUT_ASSIGN_OR_RETURN(p.linear, LinearBases(v, kIns));
  } else {
    HLOLAYOUT_ASSIGN_OR_RETURN(p.linear, PaddedOrderShape(v));
  }
  return Layout(std::move(p));
}

// The linear component of a padded layout written as {order, shape}: an
// identity in `order`, each dim of `shape` (which must be powers of two,
// order a permutation: Triton asserts both).
absl::StatusOr<LinearLayout> LayoutBuilder::PaddedOrderShape(const Value& v) {
  std::vector<int32_t> order, shape;
  if (const Value* x = Find("order")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(order, Uints(*x, "order"));
  }
  if (const Value* x = Find("shape")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(shape, Uints(*x, "shape"));
  }
  if (order.size() != shape.size()) {
    return p_.ErrorAt(v.offset,
                      "Mismatch of shape and order ranks in padded layout");
  }
  if (absl::Status s = CheckOrder(order); !s.ok()) {
    return p_.ErrorAt(v.offset, s.message());
  }
  for (int32_t s : shape) {
    if (s <= 0 || (s & (s - 1)) != 0) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("the padded layout's shape [",
                                     absl::StrJoin(shape, ", "),
                                     "] is not made of powers of two"));
    }
  }
  if (order.empty()) {
    return p_.ErrorAt(v.offset, "linearComponent cannot be empty");
  }
  absl::StatusOr<LinearLayout> id = IdentityStandardND("offset", shape, order);
  if (id.ok()) id = Product(*id, *LinearLayout::Zeros1D(1, "block", "dim0"));
  if (id.ok()) {
    id =
        TransposeOuts(*id, StandardOutDimNames(static_cast<int>(shape.size())));
  }
  if (!id.ok()) return p_.ErrorAt(v.offset, id.status().message());
  return id;
}

absl::StatusOr<Layout> LayoutBuilder::BuildPartitioned(const Value& v,
                                                       int depth) {
  PartitionedSharedLayout p;
  if (const Value* x = Find("numPartitions")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(p.num_partitions, Uint(*x, "numPartitions"));
  } else {
    p.num_partitions = 0;
  }
  if (const Value* x = Find("numGroups")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(p.num_groups, Uint(*x, "numGroups"));
  } else {
    p.num_groups = 0;
  }
  if (const Value* x = Find("partitionDim")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(p.partition_dim, Uint(*x, "partitionDim"));
  }
  if (Find("partitionLayout") == nullptr) {
    return p_.ErrorAt(v.offset, "missing partitionLayout");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(p.partition_layout,
                             Nested("partitionLayout", depth));
  if (!p.partition_layout->is_shared()) {
    return p_.ErrorAt(v.offset,
                      "partitionLayout must be a SharedEncodingTrait");
  }
  return Layout(std::move(p));
}

// The tensor memory encodings' CTASplitM / CTASplitN (Triton 3.6), which
// no key of Triton 3.7 and later may come with.
absl::StatusOr<LayoutBuilder::CtaSplit> LayoutBuilder::TensorMemorySplit(
    const Value& v) {
  CtaSplit split;
  const Value* split_m = Find("CTASplitM");
  const Value* split_n = Find("CTASplitN");
  split.legacy = split_m != nullptr || split_n != nullptr;
  if (split_m != nullptr) {
    HLOLAYOUT_ASSIGN_OR_RETURN(split.m, Uint(*split_m, "CTASplitM"));
  }
  if (split_n != nullptr) {
    HLOLAYOUT_ASSIGN_OR_RETURN(split.n, Uint(*split_n, "CTASplitN"));
  }
  if (!split.legacy) return split;
  for (absl::string_view key : {"CGALayout", "fp4Padded", "blockRepOrder"}) {
    for (size_t i = 0; i < v.body.size(); ++i) {
      if (v.body[i].first != key) continue;
      return p_.ErrorAt(v.body_offsets[i],
                        absl::StrCat(key,
                                     " (Triton 3.7 and later) and CTASplitM / "
                                     "CTASplitN (Triton 3.6) cannot be mixed"));
    }
  }
  return split;
}

absl::StatusOr<Layout> LayoutBuilder::BuildTensorMemoryScales(
    const CtaSplit& split) {
  TensorMemoryScalesLayout t;
  t.legacy_split = split.legacy;
  t.cta_split_m = split.m;
  t.cta_split_n = split.n;
  if (!split.legacy) {
    HLOLAYOUT_ASSIGN_OR_RETURN(t.cga, Cga(2));
    if (const Value* x = Find("blockRepOrder")) {
      if (x->type != Value::Type::kIdent ||
          (x->text != "mnThenK" && x->text != "kThenMn")) {
        return p_.ErrorAt(x->offset,
                          "expected blockRepOrder = mnThenK or kThenMn");
      }
      t.k_then_mn = x->text == "kThenMn";
    }
  }
  return Layout(std::move(t));
}

absl::StatusOr<Layout> LayoutBuilder::BuildTensorMemory(const CtaSplit& split) {
  TensorMemoryLayout t;
  t.legacy_split = split.legacy;
  t.cta_split_m = split.m;
  t.cta_split_n = split.n;
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* m, Require("blockM"));
  HLOLAYOUT_ASSIGN_OR_RETURN(t.block_m, Uint(*m, "blockM"));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* n, Require("blockN"));
  HLOLAYOUT_ASSIGN_OR_RETURN(t.block_n, Uint(*n, "blockN"));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Value* stride, Require("colStride"));
  HLOLAYOUT_ASSIGN_OR_RETURN(t.col_stride, Uint(*stride, "colStride"));
  if (const Value* x = Find("twoCTAs")) {
    HLOLAYOUT_ASSIGN_OR_RETURN(t.two_ctas, Bool(*x, "twoCTAs"));
  }
  if (!split.legacy) {
    HLOLAYOUT_ASSIGN_OR_RETURN(t.cga, Cga(2));
    if (const Value* x = Find("fp4Padded")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(t.fp4_padded, Bool(*x, "fp4Padded"));
    }
  }
  return Layout(std::move(t));
}

}  // namespace hlolayout::triton::ttgir_internal
