// answers/cute.h: the answers of `hlolayout cute atom`, `atoms`,
// `tiled-mma`, `tiled-copy` and `conflicts`, as values with one field list
// each (util/fields.h). CuTe's print() of atoms, tiled MMAs and tiled
// copies is those field lists as text (FieldListText), written by the views
// of views/cute_atom_text.h: print(), the CLI's text and its --json cannot
// disagree.
//
//   MmaAtom a = *FindMmaAtom("SM80_16x8x16_F16F16F16F16_TN");
//   AnswerJson(AnswerAtom(a))  // {"ThrID": "_32:_1", "Shape_MNK": ...}
//   AnswerTiledMma(tm).layouts.tile_shape_mnk;  // "(_32,_16,_16)"
//   AnyAtom x = *FindAnyAtom("SM75_U32x4_LDSM_N");  // a copy operation
#ifndef HLOLAYOUT_ANSWERS_CUTE_H_
#define HLOLAYOUT_ANSWERS_CUTE_H_

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/atom_catalog.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cute {

// An MMA atom as CuTe prints it, every integer static (_N).
struct MmaAtomAnswer {
  std::string thr_id, shape_mnk, layout_a_tv, layout_b_tv, layout_c_tv;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MmaAtomAnswer& a) {
    f.Type("MmaAtomAnswer", "An MMA atom as CuTe prints it.");
    f("ThrID", a.thr_id, "The threads.");
    f("Shape_MNK", a.shape_mnk, "The M x N x K the atom computes.");
    f("LayoutA_TV", a.layout_a_tv, "A's (thread, value) -> (m, k).");
    f("LayoutB_TV", a.layout_b_tv, "B's (thread, value) -> (n, k).");
    f("LayoutC_TV", a.layout_c_tv, "C's (thread, value) -> (m, n).");
  }
};

// A Copy_Atom's own fields, as CuTe's print(Copy_Atom) shows them.
struct CopyAtomPrint {
  std::string thr_id, val_layout_src, val_layout_dst, val_layout_ref;
  std::string value_type;  // "16b"

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CopyAtomPrint& a) {
    f.Type("CopyAtomPrint", "A copy atom as CuTe prints it.");
    ListFields(f, a);
  }
  // Shared with CopyAtomAnswer.
  template <typename Fields>
  static void ListFields(Fields& f, const CopyAtomPrint& a) {
    f("ThrID", a.thr_id, "The threads.");
    f("ValLayoutSrc", a.val_layout_src, "Source (thread, value) -> value.");
    f("ValLayoutDst", a.val_layout_dst, "Destination.");
    f("ValLayoutRef", a.val_layout_ref, "Reference.");
    f("ValueType", a.value_type, "The value's bits ('16b'); text only.",
      FieldOptions().Json(FieldJson::kLeftOut));
  }
};

// The bit layouts of a copy operation's Copy_Traits.
struct CopyBits {
  std::string src_layout, dst_layout, ref_layout;

  template <typename Fields>
  static void ListFields(Fields& f, const CopyBits& b) {
    f("SrcLayout", b.src_layout, "Source (thread, value) -> bit.");
    f("DstLayout", b.dst_layout, "Destination (thread, value) -> bit.");
    f("RefLayout", b.ref_layout, "Reference (thread, value) -> bit.");
  }
};

// `cute atom`'s answer for a copy atom: its print() and the bit layouts.
struct CopyAtomAnswer {
  CopyAtomPrint print;
  CopyBits bits;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CopyAtomAnswer& a) {
    f.Type("CopyAtomAnswer", "A copy atom and its operation's bit layouts.");
    CopyAtomPrint::ListFields(f, a.print);
    CopyBits::ListFields(f, a.bits);
  }
};

// `cute atom`'s answer for a copy operation alone (its Copy_Traits).
struct CopyOpAnswer {
  std::string thr_id;
  CopyBits bits;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CopyOpAnswer& a) {
    f.Type("CopyOpAnswer", "A copy operation's Copy_Traits.");
    f("ThrID", a.thr_id, "The threads.");
    CopyBits::ListFields(f, a.bits);
  }
};

MmaAtomAnswer AnswerAtom(const MmaAtom& a);
CopyAtomAnswer AnswerAtom(const CopyAtom& a);
CopyOpAnswer AnswerAtom(const CopyOp& op);

// A name `hlolayout cute atom` takes: an MMA atom, a copy atom
// ("Copy_Atom<OP, T>") or a copy operation alone (its Copy_Traits).
using AnyAtom = std::variant<MmaAtom, CopyAtom, CopyOp>;
using AtomAnswer = std::variant<MmaAtomAnswer, CopyAtomAnswer, CopyOpAnswer>;

// FindAnyAtom
//
// Errors: a name no kind knows (NotFound, with the nearest names of both
// kinds), or the error of the kind whose family the name fits.
absl::StatusOr<AnyAtom> FindAnyAtom(absl::string_view name);

AtomAnswer AnswerAtom(const AnyAtom& atom);

// A tiled MMA's own fields as print(tiled_mma) shows them before its atom.
struct TiledMmaPrint {
  std::string thr_layout_vmnk, permutation_mnk;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledMmaPrint& p) {
    f.Type("TiledMmaPrint", "A tiled MMA as CuTe prints it.");
    ListFields(f, p);
  }
  template <typename Fields>
  static void ListFields(Fields& f, const TiledMmaPrint& p) {
    f("ThrLayoutVMNK", p.thr_layout_vmnk, "The atoms' layout over VMNK.");
    f("PermutationMNK", p.permutation_mnk, "The permutation of M, N, K.");
  }
};

// The tile a tiled MMA computes and its operands' TV layouts.
struct TiledMmaLayouts {
  std::string tile_shape_mnk, layout_a_tv, layout_b_tv, layout_c_tv;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledMmaLayouts& l) {
    f.Type("TiledMmaLayouts", "A tiled MMA's tile and TV layouts.");
    ListFields(f, l);
  }
  template <typename Fields>
  static void ListFields(Fields& f, const TiledMmaLayouts& l) {
    f("TileShape_MNK", l.tile_shape_mnk, "The tile computed.");
    f("LayoutA_TV", l.layout_a_tv, "A's (thread, value) -> (m, k).");
    f("LayoutB_TV", l.layout_b_tv, "B's (thread, value) -> (n, k).");
    f("LayoutC_TV", l.layout_c_tv, "C's (thread, value) -> (m, n).");
  }
};

// `cute tiled-mma`'s answer.
struct TiledMmaAnswer {
  TiledMmaPrint print;
  TiledMmaLayouts layouts;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledMmaAnswer& a) {
    f.Type("TiledMmaAnswer", "A tiled MMA, its tile and TV layouts.");
    TiledMmaPrint::ListFields(f, a.print);
    TiledMmaLayouts::ListFields(f, a.layouts);
  }
};

struct TiledCopyPrint {
  std::string tiler_mn, tiled_layout_tv;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledCopyPrint& p) {
    f.Type("TiledCopyPrint", "A tiled copy as CuTe prints it.");
    ListFields(f, p);
  }
  template <typename Fields>
  static void ListFields(Fields& f, const TiledCopyPrint& p) {
    f("Tiler_MN", p.tiler_mn, "The tile copied.");
    f("TiledLayout_TV", p.tiled_layout_tv, "(thread, value) -> tile.");
  }
};

struct TiledCopyLayouts {
  std::string layout_s_tv, layout_d_tv;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledCopyLayouts& l) {
    f.Type("TiledCopyLayouts", "A tiled copy's source and destination.");
    ListFields(f, l);
  }
  template <typename Fields>
  static void ListFields(Fields& f, const TiledCopyLayouts& l) {
    f("LayoutS_TV", l.layout_s_tv, "Source (thread, value) -> (m, n).");
    f("LayoutD_TV", l.layout_d_tv, "Destination (thread, value) -> (m, n).");
  }
};

// `cute tiled-copy`'s answer.
struct TiledCopyAnswer {
  TiledCopyPrint print;
  TiledCopyLayouts layouts;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TiledCopyAnswer& a) {
    f.Type("TiledCopyAnswer", "A tiled copy and its TV layouts.");
    TiledCopyPrint::ListFields(f, a.print);
    TiledCopyLayouts::ListFields(f, a.layouts);
  }
};

TiledMmaAnswer AnswerTiledMma(const TiledMma& tm);
TiledCopyAnswer AnswerTiledCopy(const TiledCopy& tc);

// What one thread holds: per operand (names "A", "B", "C" or "S", "D"), the
// tile coordinates of its values in value order.
struct ThreadCoords {
  int64_t thread = 0;
  int64_t num_threads = 0;
  // (name, what the coordinates are, e.g. "m,k"), the coordinates.
  std::vector<std::pair<std::array<std::string, 2>,
                        std::vector<std::array<int64_t, 2>>>>
      operands;
};

// ThreadCoordsOfMma, ThreadCoordsOfCopy
//
// Errors: a thread outside 0..num_threads-1.
absl::StatusOr<ThreadCoords> ThreadCoordsOfMma(const TiledMma& tm,
                                               int64_t thread);
absl::StatusOr<ThreadCoords> ThreadCoordsOfCopy(const TiledCopy& tc,
                                                int64_t thread);

// `--thread`'s answer: each operand's coordinates (an MMA's A, B, C or a
// copy's S, D; the other kind's are absent).
struct ThreadCoordsAnswer {
  using Coords = std::vector<std::array<int64_t, 2>>;
  int64_t thread = 0;
  Omit<Coords> a, b, c, s, d;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ThreadCoordsAnswer& t) {
    f.Type("ThreadCoordsAnswer", "The tile coordinates one thread holds.");
    f("thread", t.thread, "The thread.");
    f("A", t.a, "MMA: A's (m, k) in value order.");
    f("B", t.b, "MMA: B's (n, k).");
    f("C", t.c, "MMA: C's (m, n).");
    f("S", t.s, "Copy: the source's (m, n).");
    f("D", t.d, "Copy: the destination's (m, n).");
  }
};

ThreadCoordsAnswer AnswerThreadCoords(const ThreadCoords& c);

// One name pattern of `cute atoms`.
struct AtomFamilyAnswer {
  struct Param {
    std::string name, domain;

    template <typename Fields>
    friend void HlolayoutFields(Fields& f, const Param& p) {
      f.Type("AtomParam", "A parameter of a name pattern.");
      f("name", p.name, "Its name.");
      f("domain", p.domain, "The values it takes.");
    }
  };
  std::string kind, family, name_pattern;
  std::vector<Param> params;
  int64_t count = 0;
  std::string pattern;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const AtomFamilyAnswer& a) {
    f.Type("AtomFamilyAnswer", "One name pattern of an atom family.");
    f("kind", a.kind, "'mma' or 'copy'.");
    f("family", a.family, "The family.");
    f("name_pattern", a.name_pattern, "The names, with parameters.");
    f("params", a.params, "Each parameter's domain.");
    f("count", a.count, "The names the pattern describes.");
    f("pattern", a.pattern, "The pattern as the tables write it.");
  }
};

std::vector<AtomFamilyAnswer> AnswerAtomCatalog(
    const std::vector<FamilyRow>& rows);

// `cute conflicts`' answer: a bank-conflict count, warp 0's instructions
// only unless `all`.
struct ConflictAnswer {
  struct Collision {
    int64_t bank = 0;
    std::vector<int64_t> words, threads;

    template <typename Fields>
    friend void HlolayoutFields(Fields& f, const Collision& c) {
      f.Type("BankCollision", "A bank more than one word of a phase uses.");
      f("bank", c.bank, "The bank.");
      f("words", c.words, "The distinct words, increasing.");
      f("threads", c.threads, "The threads touching it, increasing.");
    }
  };
  struct Phase {
    std::array<int64_t, 2> threads{};  // first and last
    int64_t wavefronts = 0, ideal = 0;
    std::vector<Collision> collisions;

    template <typename Fields>
    friend void HlolayoutFields(Fields& f, const Phase& p) {
      f.Type("ConflictPhase", "The threads one phase serves.");
      f("threads", p.threads, "The first and last thread.");
      f("wavefronts", p.wavefronts, "Its wavefronts.");
      f("ideal", p.ideal, "Without conflicts.");
      f("collisions", p.collisions, "The banks with more than one word.");
    }
  };
  struct Instruction {
    int64_t warp = 0, instruction = 0, wavefronts = 0, ideal = 0;
    std::vector<Phase> phases;

    template <typename Fields>
    friend void HlolayoutFields(Fields& f, const Instruction& i) {
      f.Type("ConflictInstruction", "One instruction of one warp.");
      f("warp", i.warp, "The warp.");
      f("instruction", i.instruction, "The instruction.");
      f("wavefronts", i.wavefronts, "Its wavefronts.");
      f("ideal", i.ideal, "Without conflicts.");
      f("phases", i.phases, "Its phases.");
    }
  };
  int64_t wavefronts = 0, ideal = 0, threads_per_phase = 0, value_bits = 0;
  std::vector<Instruction> instructions;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ConflictAnswer& a) {
    f.Type("ConflictAnswer", "Shared-memory bank conflicts of a copy.");
    f("wavefronts", a.wavefronts, "Over every instruction of every warp.");
    f("ideal", a.ideal, "Without conflicts.");
    f("threads_per_phase", a.threads_per_phase, "Threads a phase serves.");
    f("value_bits", a.value_bits, "A value's bits.");
    f("instructions", a.instructions, "The instructions (warp 0's or all).");
  }
};

ConflictAnswer AnswerConflicts(const ConflictReport& r, bool all);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_ANSWERS_CUTE_H_
