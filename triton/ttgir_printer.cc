#include "hlolayout/triton/ttgir_printer.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

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

std::string LinearBody(const LinearLayout& l, bool skip_empty_block,
                       bool skip_all_empty = false) {
  std::vector<std::string> parts;
  for (const auto& [name, b] : l.bases()) {
    if (skip_empty_block && name == "block" && b.empty()) continue;
    if (skip_all_empty && b.empty()) continue;
    parts.push_back(absl::StrCat(name, " = ", BasesText(b)));
  }
  return absl::StrJoin(parts, ", ");
}

bool AllOnes(const std::vector<int32_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int32_t x) { return x == 1; });
}

std::string WmmaCta(const AmdWmmaLayout& w) {
  std::vector<std::string> parts;
  if (!w.cta_register.empty()) {
    parts.push_back("register = " + BasesText(w.cta_register));
  }
  if (!w.cta_warp.empty()) parts.push_back("warp = " + BasesText(w.cta_warp));
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

// PaddedSharedEncodingAttr::print: `order = [...], shape = [...]` when the
// offsets are the identity in the order they first move in and there are
// no block bases; the bases otherwise.
std::string PaddedBody(const PaddedSharedLayout& p) {
  const LinearLayout& l = p.linear;
  const int rank = l.num_out_dims();
  const int offset = l.InDimIndex("offset");
  const int block = l.InDimIndex("block");
  if (offset >= 0 && (block < 0 || l.InDimSizeLog2(block) == 0)) {
    std::vector<int32_t> order;
    auto add = [&order](int32_t d) {
      if (std::find(order.begin(), order.end(), d) == order.end()) {
        order.push_back(d);
      }
    };
    for (int i = 0; i < l.InDimSizeLog2(offset); ++i) {
      for (int o = 0; o < rank; ++o) {
        if (l.BasisValue(offset, i, o) != 0) {
          add(o);
          break;
        }
      }
    }
    for (int o = rank - 1; o >= 0; --o) add(o);
    std::vector<int32_t> shape;
    for (int o = 0; o < rank; ++o) shape.push_back(l.OutDimSize(o));
    DimBases identity;
    for (int32_t d : order) {
      for (int32_t v = 1; v < shape[d]; v *= 2) {
        std::vector<int32_t> b(rank, 0);
        b[d] = v;
        identity.push_back(std::move(b));
      }
    }
    DimBases offsets;
    for (int i = 0; i < l.InDimSizeLog2(offset); ++i) {
      auto b = l.Basis(offset, i);
      offsets.emplace_back(b.begin(), b.end());
    }
    if (offsets == identity) {
      return absl::StrCat("order = ", Ints(order), ", shape = ", Ints(shape));
    }
  }
  return LinearBody(l, false);
}

std::string Intervals(const PaddedSharedLayout& p) {
  std::vector<std::string> parts;
  for (const auto& [interval, padding] : p.intervals) {
    parts.push_back(absl::StrCat(interval, ":+", padding));
  }
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

// The keys swizzled_shared and amd_rotating_shared share (S is either).
template <typename S>
std::string SwizzledText(absl::string_view kind, const S& s) {
  return absl::StrCat("#ttg.", kind, "<{vec = ", s.vec,
                      ", perPhase = ", s.per_phase,
                      ", maxPhase = ", s.max_phase, ", order = ", Ints(s.order),
                      Cga(s.cga), "}>");
}

// Each kind's text, as Triton's attribute printers write it.
struct LayoutPrinter {
  std::string operator()(const BlockedLayout& b) {
    return absl::StrCat(
        "#ttg.blocked<{sizePerThread = ", Ints(b.size_per_thread),
        ", threadsPerWarp = ", Ints(b.threads_per_warp),
        ", warpsPerCTA = ", Ints(b.warps_per_cta), ", order = ", Ints(b.order),
        Cga(b.cga), "}>");
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
    return SwizzledText("swizzled_shared", s);
  }
  std::string operator()(const NvmmaSharedLayout& n) {
    std::string s = absl::StrCat(
        "#ttg.nvmma_shared<{swizzlingByteWidth = ", n.swizzle_bytes,
        ", transposed = ", Bool(n.transposed),
        ", elementBitWidth = ", n.element_bits);
    if (n.fp4_padded) s += ", fp4Padded = true";
    // Triton prints the rank when there is no CGA layout to tell it.
    if (n.cga.empty() && n.rank != 2) {
      absl::StrAppend(&s, ", rank = ", n.rank);
    }
    return s + Cga(n.cga) + "}>";
  }
  std::string operator()(const SharedLinearEncoding& e) {
    return PrintLinear(e.layout, e.alignment);
  }
  std::string operator()(const AmdMfmaLayout& m) {
    std::string s =
        absl::StrCat("#ttg.amd_mfma<{version = ", m.version,
                     ", warpsPerCTA = ", Ints(m.warps_per_cta),
                     ", instrShape = ", Ints(m.instr_shape),
                     ", isTransposed = ", Bool(m.is_transposed), Cga(m.cga));
    if (!AllOnes(m.tiles_per_warp)) {
      absl::StrAppend(&s, ", tilesPerWarp = ", Ints(m.tiles_per_warp));
    }
    if (m.element_bits != 32) {
      absl::StrAppend(&s, ", elementBitWidth = ", m.element_bits);
    }
    return s + "}>";
  }
  std::string operator()(const AmdWmmaLayout& w) {
    std::string s = absl::StrCat("#ttg.amd_wmma<{version = ", w.version,
                                 ", isTranspose = ", Bool(w.is_transposed));
    if (w.legacy_warps) {
      absl::StrAppend(&s, ", warpsPerCTA = ", Ints(w.warps_per_cta),
                      Cga(w.cga));
      if (!AllOnes(w.tiles_per_warp)) {
        absl::StrAppend(&s, ", tilesPerWarp = ", Ints(w.tiles_per_warp));
      }
    } else {
      absl::StrAppend(&s, ", ctaLayout = ", WmmaCta(w), Cga(w.cga));
    }
    if (w.instr_shape != std::vector<int32_t>{16, 16, 16}) {
      absl::StrAppend(&s, ", instrShape = ", Ints(w.instr_shape));
    }
    return s + "}>";
  }
  std::string operator()(const GenericLinearEncoding& e) {
    return absl::StrCat("#ttg.generic_linear<{", LinearBody(e.layout, false),
                        "}>");
  }
  std::string operator()(const AmdRotatingSharedLayout& r) {
    return SwizzledText("amd_rotating_shared", r);
  }
  std::string operator()(const PaddedSharedLayout& p) {
    return absl::StrCat("#ttg.padded_shared<", Intervals(p), " {",
                        PaddedBody(p), "}>");
  }
  std::string operator()(const PartitionedSharedLayout& p) {
    return absl::StrCat(
        "#ttg.partitioned_shared<{numPartitions = ", p.num_partitions,
        ", numGroups = ", p.num_groups, ", partitionDim = ", p.partition_dim,
        ", partitionLayout = ",
        p.partition_layout ? PrintLayout(*p.partition_layout) : "", "}>");
  }
  std::string operator()(const TensorMemoryLayout& t) {
    std::string s =
        absl::StrCat("#ttng.tensor_memory_encoding<blockM = ", t.block_m,
                     ", blockN = ", t.block_n, ", colStride = ", t.col_stride);
    if (t.legacy_split) {
      if (t.cta_split_m != 1)
        absl::StrAppend(&s, ", CTASplitM = ", t.cta_split_m);
      if (t.cta_split_n != 1)
        absl::StrAppend(&s, ", CTASplitN = ", t.cta_split_n);
    } else {
      absl::StrAppend(&s, Cga(t.cga));
    }
    if (t.two_ctas) s += ", twoCTAs = true";
    if (t.fp4_padded) s += ", fp4Padded = true";
    return s + ">";
  }
  std::string operator()(const TensorMemoryScalesLayout& t) {
    std::vector<std::string> parts;
    if (t.legacy_split) {
      if (t.cta_split_m != 1) {
        parts.push_back(absl::StrCat("CTASplitM = ", t.cta_split_m));
      }
      if (t.cta_split_n != 1) {
        parts.push_back(absl::StrCat("CTASplitN = ", t.cta_split_n));
      }
    } else {
      if (!t.cga.empty()) parts.push_back("CGALayout = " + BasesText(t.cga));
      if (t.k_then_mn) parts.push_back("blockRepOrder = kThenMn");
    }
    return absl::StrCat("#ttng.tensor_memory_scales_encoding<",
                        absl::StrJoin(parts, ", "), ">");
  }
};

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
  return std::visit(LayoutPrinter{}, layout.value());
}

}  // namespace hlolayout::triton
