#include "hlolayout/cute/atom/atom_text.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/util/edit_distance.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::cute {
namespace {

std::string TileShapeText(const TiledMma& tm) {
  return absl::StrCat("(_", tm.tile_mnk[0], ",_", tm.tile_mnk[1], ",_",
                      tm.tile_mnk[2], ")");
}

std::string CopyOpText(const CopyOp& op) {
  return absl::StrCat("Copy_Traits<", op.name, ">\n",
                      "  ThrID:     ", StaticText(op.thr_id), "\n",
                      "  SrcLayout: ", StaticText(op.src_bits), "\n",
                      "  DstLayout: ", StaticText(op.dst_bits), "\n",
                      "  RefLayout: ", StaticText(op.ref_bits), "\n");
}

void BitLayoutsJson(const CopyOp& op, JsonWriter& w) {
  w.Key("SrcLayout")
      .String(StaticText(op.src_bits))
      .Key("DstLayout")
      .String(StaticText(op.dst_bits))
      .Key("RefLayout")
      .String(StaticText(op.ref_bits));
}

std::string CoordsText(const std::vector<std::array<int64_t, 2>>& coords) {
  std::string out;
  for (size_t v = 0; v < coords.size(); ++v) {
    absl::StrAppend(&out, v == 0 ? "" : " ", "(", coords[v][0], ",",
                    coords[v][1], ")");
  }
  return out;
}

}  // namespace

std::string PrintMmaAtom(const MmaAtom& a) {
  return absl::StrCat("MMA_Atom\n",                                       //
                      "  ThrID:      ", StaticText(a.thr_id), "\n",       //
                      "  Shape_MNK:  ", StaticText(a.shape_mnk), "\n",    //
                      "  LayoutA_TV: ", StaticText(a.layout_a_tv), "\n",  //
                      "  LayoutB_TV: ", StaticText(a.layout_b_tv), "\n",  //
                      "  LayoutC_TV: ", StaticText(a.layout_c_tv), "\n");
}

std::string PrintCopyAtom(const CopyAtom& a) {
  return absl::StrCat("Copy_Atom\n",                                      //
                      "  ThrID:        ", StaticText(a.op.thr_id), "\n",  //
                      "  ValLayoutSrc: ", StaticText(a.val_src), "\n",    //
                      "  ValLayoutDst: ", StaticText(a.val_dst), "\n",    //
                      "  ValLayoutRef: ", StaticText(a.val_ref), "\n",    //
                      "  ValueType:    ", a.value_bits, "b\n");
}

std::string PrintTiledMma(const TiledMma& tm) {
  return absl::StrCat("TiledMMA\n",
                      "  ThrLayoutVMNK:  ", StaticText(tm.thr_layout_vmnk),
                      "\n", "  PermutationMNK: ", TileText(tm.permutation),
                      "\n", PrintMmaAtom(tm.atom));
}

std::string PrintTiledCopy(const TiledCopy& tc) {
  return absl::StrCat("TiledCopy\n",
                      "  Tiler_MN:       ", TileText(tc.tiler_mn), "\n",
                      "  TiledLayout_TV: ", StaticText(tc.tiled_layout_tv),
                      "\n", PrintCopyAtom(tc.atom));
}

absl::StatusOr<AnyAtom> FindAnyAtom(absl::string_view name) {
  if (IsCopyAtomName(name)) {
    absl::StatusOr<CopyAtom> a = FindCopyAtom(name);
    if (!a.ok()) return a.status();
    return AnyAtom(*std::move(a));
  }
  absl::StatusOr<MmaAtom> a = FindMmaAtom(name);
  if (a.ok()) return AnyAtom(*std::move(a));
  if (a.status().code() != absl::StatusCode::kNotFound) return a.status();
  absl::StatusOr<CopyOp> op = FindCopyOp(name);
  if (op.ok()) return AnyAtom(*std::move(op));
  if (FitsAnAtomFamily(op.status())) return op.status();
  if (FitsAnAtomFamily(a.status()) ||
      op.status().code() != absl::StatusCode::kNotFound) {
    return a.status();
  }
  // Neither kind knows the name: the nearest of both.
  std::vector<std::string> near = NearestMmaAtomNames(name, 5);
  for (std::string& n : NearestCopyOpNames(name, 5))
    near.push_back(std::move(n));
  return absl::NotFoundError(absl::StrCat(
      "unknown MMA atom or copy operation '", name,
      "'; nearest: ", absl::StrJoin(NearestNames(name, near, 5), ", ")));
}

std::string AnyAtomText(const AnyAtom& atom) {
  if (const auto* a = std::get_if<CopyAtom>(&atom)) {
    return absl::StrCat(PrintCopyAtom(*a),
                        "  SrcLayout:    ", StaticText(a->op.src_bits),
                        "\n  DstLayout:    ", StaticText(a->op.dst_bits),
                        "\n  RefLayout:    ", StaticText(a->op.ref_bits), "\n");
  }
  if (const auto* op = std::get_if<CopyOp>(&atom)) return CopyOpText(*op);
  return PrintMmaAtom(std::get<MmaAtom>(atom));
}

std::string AnyAtomJson(const AnyAtom& atom) {
  JsonWriter w;
  w.BeginObject();
  if (const auto* a = std::get_if<CopyAtom>(&atom)) {
    w.Key("ThrID")
        .String(StaticText(a->op.thr_id))
        .Key("ValLayoutSrc")
        .String(StaticText(a->val_src))
        .Key("ValLayoutDst")
        .String(StaticText(a->val_dst))
        .Key("ValLayoutRef")
        .String(StaticText(a->val_ref));
    BitLayoutsJson(a->op, w);
  } else if (const auto* op = std::get_if<CopyOp>(&atom)) {
    w.Key("ThrID").String(StaticText(op->thr_id));
    BitLayoutsJson(*op, w);
  } else {
    const MmaAtom& m = std::get<MmaAtom>(atom);
    w.Key("ThrID")
        .String(StaticText(m.thr_id))
        .Key("Shape_MNK")
        .String(StaticText(m.shape_mnk))
        .Key("LayoutA_TV")
        .String(StaticText(m.layout_a_tv))
        .Key("LayoutB_TV")
        .String(StaticText(m.layout_b_tv))
        .Key("LayoutC_TV")
        .String(StaticText(m.layout_c_tv));
  }
  w.EndObject();
  return w.str();
}

std::string TiledMmaText(const TiledMma& tm) {
  return absl::StrCat(PrintTiledMma(tm), "TileShape_MNK: ", TileShapeText(tm),
                      "\n", "LayoutA_TV:    ", StaticText(tm.layout_a_tv), "\n",
                      "LayoutB_TV:    ", StaticText(tm.layout_b_tv), "\n",
                      "LayoutC_TV:    ", StaticText(tm.layout_c_tv), "\n");
}

std::string TiledMmaJson(const TiledMma& tm) {
  JsonWriter w;
  w.BeginObject()
      .Key("ThrLayoutVMNK")
      .String(StaticText(tm.thr_layout_vmnk))
      .Key("PermutationMNK")
      .String(TileText(tm.permutation))
      .Key("TileShape_MNK")
      .String(TileShapeText(tm))
      .Key("LayoutA_TV")
      .String(StaticText(tm.layout_a_tv))
      .Key("LayoutB_TV")
      .String(StaticText(tm.layout_b_tv))
      .Key("LayoutC_TV")
      .String(StaticText(tm.layout_c_tv))
      .EndObject();
  return w.str();
}

std::string TiledCopyText(const TiledCopy& tc) {
  return absl::StrCat(PrintTiledCopy(tc),
                      "LayoutS_TV: ", StaticText(tc.layout_s_tv), "\n",
                      "LayoutD_TV: ", StaticText(tc.layout_d_tv), "\n");
}

std::string TiledCopyJson(const TiledCopy& tc) {
  JsonWriter w;
  w.BeginObject()
      .Key("Tiler_MN")
      .String(TileText(tc.tiler_mn))
      .Key("TiledLayout_TV")
      .String(StaticText(tc.tiled_layout_tv))
      .Key("LayoutS_TV")
      .String(StaticText(tc.layout_s_tv))
      .Key("LayoutD_TV")
      .String(StaticText(tc.layout_d_tv))
      .EndObject();
  return w.str();
}

absl::StatusOr<ThreadCoords> ThreadCoordsOfMma(const TiledMma& tm,
                                               int64_t thread) {
  ThreadCoords c;
  c.thread = thread;
  c.num_threads = tm.num_threads();
  const std::pair<Operand, std::array<std::string, 2>> ops[3] = {
      {Operand::kA, {"A", "m,k"}},
      {Operand::kB, {"B", "n,k"}},
      {Operand::kC, {"C", "m,n"}}};
  for (const auto& [op, names] : ops) {
    absl::StatusOr<std::vector<std::array<int64_t, 2>>> s =
        ThreadSlice(tm, op, thread);
    if (!s.ok()) return s.status();
    c.operands.push_back({names, *std::move(s)});
  }
  return c;
}

absl::StatusOr<ThreadCoords> ThreadCoordsOfCopy(const TiledCopy& tc,
                                                int64_t thread) {
  ThreadCoords c;
  c.thread = thread;
  c.num_threads = tc.num_threads();
  for (const bool dst : {false, true}) {
    absl::StatusOr<std::vector<std::array<int64_t, 2>>> s =
        CopySlice(tc, dst, thread);
    if (!s.ok()) return s.status();
    c.operands.push_back(
        {{std::string(dst ? "D" : "S"), "m,n"}, *std::move(s)});
  }
  return c;
}

std::string ThreadCoordsText(const ThreadCoords& c) {
  std::string out =
      absl::StrCat("thread ", c.thread, " of ", c.num_threads, "\n");
  for (const auto& [names, coords] : c.operands) {
    absl::StrAppend(&out, names[0], " (", names[1], "): ", CoordsText(coords),
                    "\n");
  }
  return out;
}

std::string ThreadCoordsJson(const ThreadCoords& c) {
  JsonWriter w;
  w.BeginObject().Key("thread").Int(c.thread);
  for (const auto& [names, coords] : c.operands) {
    w.Key(names[0]).BeginArray();
    for (const auto& xy : coords) {
      w.BeginArray().Int(xy[0]).Int(xy[1]).EndArray();
    }
    w.EndArray();
  }
  w.EndObject();
  return w.str();
}

}  // namespace hlolayout::cute
