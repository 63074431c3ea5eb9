#include "hlolayout/triton/ttgir_printer.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace hlolayout::triton {
namespace {

std::string Ints(const std::vector<int32_t>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}

std::string BasesText(const DimBases& bases) {
  std::vector<std::string> parts;
  for (const auto& b : bases) parts.push_back(Ints(b));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

std::string Cga(const CgaBases& cga) {
  if (cga.empty()) return "";
  return absl::StrCat(", CGALayout = ", BasesText(cga));
}

std::string Bool(bool b) { return b ? "true" : "false"; }

std::string LinearBody(const LinearLayout& l, bool skip_empty_block) {
  std::vector<std::string> parts;
  for (const auto& [name, b] : l.bases()) {
    if (skip_empty_block && name == "block" && b.empty()) continue;
    parts.push_back(absl::StrCat(name, " = ", BasesText(b)));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

std::string PrintLinear(const LinearLayout& l, int32_t alignment) {
  if (l.num_in_dims() == 2 && l.in_dim_name(0) == "offset" &&
      l.in_dim_name(1) == "block") {
    return absl::StrCat("#ttg.shared_linear<{", LinearBody(l, true),
                        "}, alignment = ", alignment, ">");
  }
  return absl::StrCat("#ttg.linear<{", LinearBody(l, false), "}>");
}

std::string PrintLayout(const Layout& layout) {
  struct Visitor {
    std::string operator()(const BlockedLayout& b) {
      return absl::StrCat(
          "#ttg.blocked<{sizePerThread = ", Ints(b.size_per_thread),
          ", threadsPerWarp = ", Ints(b.threads_per_warp),
          ", warpsPerCTA = ", Ints(b.warps_per_cta),
          ", order = ", Ints(b.order), Cga(b.cga), "}>");
    }
    std::string operator()(const SliceLayout& s) {
      return absl::StrCat("#ttg.slice<{dim = ", s.dim,
                          ", parent = ", s.parent ? PrintLayout(*s.parent) : "",
                          "}>");
    }
    std::string operator()(const NvidiaMmaLayout& m) {
      return absl::StrCat("#ttg.nvidia_mma<{versionMajor = ", m.version_major,
                          ", versionMinor = ", m.version_minor,
                          ", warpsPerCTA = ", Ints(m.warps_per_cta), Cga(m.cga),
                          ", instrShape = ", Ints(m.instr_shape), "}>");
    }
    std::string operator()(const DotOperandLayout& d) {
      std::string s =
          absl::StrCat("#ttg.dot_op<{opIdx = ", d.op_idx,
                       ", parent = ", d.parent ? PrintLayout(*d.parent) : "");
      if (d.k_width != 0) absl::StrAppend(&s, ", kWidth = ", d.k_width);
      return s + "}>";
    }
    std::string operator()(const LinearEncoding& e) {
      return PrintLinear(e.layout);
    }
    std::string operator()(const SwizzledSharedLayout& s) {
      return absl::StrCat("#ttg.swizzled_shared<{vec = ", s.vec,
                          ", perPhase = ", s.per_phase,
                          ", maxPhase = ", s.max_phase,
                          ", order = ", Ints(s.order), Cga(s.cga), "}>");
    }
    std::string operator()(const NvmmaSharedLayout& n) {
      std::string s = absl::StrCat(
          "#ttg.nvmma_shared<{swizzlingByteWidth = ", n.swizzle_bytes,
          ", transposed = ", Bool(n.transposed),
          ", elementBitWidth = ", n.element_bits);
      if (n.fp4_padded) s += ", fp4Padded = true";
      return s + Cga(n.cga) + "}>";
    }
    std::string operator()(const SharedLinearEncoding& e) {
      return PrintLinear(e.layout, e.alignment);
    }
  };
  return std::visit(Visitor{}, layout.value());
}

}  // namespace hlolayout::triton
