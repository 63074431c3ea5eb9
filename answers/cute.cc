#include "hlolayout/answers/cute.h"

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

namespace hlolayout::cute {
namespace {

std::string TileShapeText(const TiledMma& tm) {
  return absl::StrCat("(_", tm.tile_mnk[0], ",_", tm.tile_mnk[1], ",_",
                      tm.tile_mnk[2], ")");
}

CopyBits BitsOf(const CopyOp& op) {
  return {StaticText(op.src_bits), StaticText(op.dst_bits),
          StaticText(op.ref_bits)};
}

CopyAtomPrint PrintOf(const CopyAtom& a) {
  return {StaticText(a.op.thr_id), StaticText(a.val_src), StaticText(a.val_dst),
          StaticText(a.val_ref), absl::StrCat(a.value_bits, "b")};
}

TiledMmaPrint PrintOf(const TiledMma& tm) {
  return {StaticText(tm.thr_layout_vmnk), TileText(tm.permutation)};
}

TiledCopyPrint PrintOf(const TiledCopy& tc) {
  return {TileText(tc.tiler_mn), StaticText(tc.tiled_layout_tv)};
}

}  // namespace

MmaAtomAnswer AnswerAtom(const MmaAtom& a) {
  return {StaticText(a.thr_id), StaticText(a.shape_mnk),
          StaticText(a.layout_a_tv), StaticText(a.layout_b_tv),
          StaticText(a.layout_c_tv)};
}

CopyAtomAnswer AnswerAtom(const CopyAtom& a) {
  return {PrintOf(a), BitsOf(a.op)};
}

CopyOpAnswer AnswerAtom(const CopyOp& op) {
  return {StaticText(op.thr_id), BitsOf(op)};
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

AtomAnswer AnswerAtom(const AnyAtom& atom) {
  return std::visit([](const auto& a) { return AtomAnswer(AnswerAtom(a)); },
                    atom);
}

TiledMmaAnswer AnswerTiledMma(const TiledMma& tm) {
  return {PrintOf(tm),
          {TileShapeText(tm), StaticText(tm.layout_a_tv),
           StaticText(tm.layout_b_tv), StaticText(tm.layout_c_tv)}};
}

TiledCopyAnswer AnswerTiledCopy(const TiledCopy& tc) {
  return {PrintOf(tc),
          {StaticText(tc.layout_s_tv), StaticText(tc.layout_d_tv)}};
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

ThreadCoordsAnswer AnswerThreadCoords(const ThreadCoords& c) {
  ThreadCoordsAnswer a;
  a.thread = c.thread;
  for (const auto& [names, coords] : c.operands) {
    Omit<ThreadCoordsAnswer::Coords>* field = names[0] == "A"   ? &a.a
                                              : names[0] == "B" ? &a.b
                                              : names[0] == "C" ? &a.c
                                              : names[0] == "S" ? &a.s
                                                                : &a.d;
    *field = coords;
  }
  return a;
}

std::vector<AtomFamilyAnswer> AnswerAtomCatalog(
    const std::vector<FamilyRow>& rows) {
  std::vector<AtomFamilyAnswer> out;
  for (const FamilyRow& r : rows) {
    AtomFamilyAnswer a;
    a.kind = r.kind;
    a.family = r.family;
    a.name_pattern = r.name_pattern;
    for (const auto& [param, domain] : r.domains) {
      a.params.push_back({param, domain});
    }
    a.count = r.count;
    a.pattern = r.pattern;
    out.push_back(std::move(a));
  }
  return out;
}

ConflictAnswer AnswerConflicts(const ConflictReport& r, bool all) {
  ConflictAnswer a;
  a.wavefronts = r.wavefronts;
  a.ideal = r.ideal;
  a.threads_per_phase = r.threads_per_phase;
  a.value_bits = r.value_bits;
  for (const InstructionReport& ir : r.instructions) {
    if (!all && ir.warp != 0) continue;
    ConflictAnswer::Instruction i{
        ir.warp, ir.instruction, ir.wavefronts, ir.ideal, {}};
    for (const PhaseReport& p : ir.phases) {
      ConflictAnswer::Phase phase{
          {p.first_thread, p.last_thread}, p.wavefronts, p.ideal, {}};
      for (const BankCollision& c : p.collisions) {
        phase.collisions.push_back({c.bank, c.words, c.threads});
      }
      i.phases.push_back(std::move(phase));
    }
    a.instructions.push_back(std::move(i));
  }
  return a;
}

}  // namespace hlolayout::cute
