// triton/smem_access.h: what the shared-memory stores and loads of a TTGIR
// module cost -- `ttg.local_alloc` of a tensor, `ttg.local_store`,
// `ttg.local_load` and `ttg.async_copy_global_to_local` -- on a GPU: the
// instructions each thread issues and the bank conflicts of their
// addresses (docs/triton-smem.md).
//
//   TtgirModule m = *ParseTtgirModule(text);
//   std::vector<SmemOp> ops = FindSmemOps(m, text);
//   // ops[0].op == "local_load", ops[0].tensor: tensor<64x32xf16, #mma>,
//   // ops[0].memdesc: !ttg.memdesc<64x32xf16, #shared, #smem>
//   SmemAccessCost c = *CostSmemOp(ops[0], *CvtTargetNamed("hip:gfx942"));
//   c.instr == "ds_read";  c.bits == 64;  c.count == 4;  c.ways == 1
//
// The rule: the tensor's register layout composed with the inverse of the
// memdesc's shared layout gives each (register, lane, warp) its element's
// offset; one instruction moves the most consecutive offsets a register
// permutation lines up (at most 128 bits; no other basis touching them;
// within a padded layout's interval). Each instruction's byte address per
// lane is then counted against the target's banks and access phases
// (triton/lds_banks.h, docs/triton-smem.md "Banks and phases"): a phase
// takes as many wavefronts as the most distinct 4-byte words one bank
// holds, its "ways".
//
// AMD's async copies write LDS directly from the global load in lane
// order (no per-lane LDS address): counted conflict-free, said in `note`.
// Not modelled: ldmatrix/stmatrix, ds_read_tr and other instructions
// Triton may pick for a dot operand (the figures are for plain vector
// ld/st, and a dot operand's load on a GPU with ldmatrix, or on gfx950,
// says so in `note`), TMA copies, and shared layouts over several CTAs.
#ifndef HLOLAYOUT_TRITON_SMEM_ACCESS_H_
#define HLOLAYOUT_TRITON_SMEM_ACCESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/lds_banks.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {

// One shared-memory store or load of a module.
struct SmemOp {
  // "local_alloc" (of a tensor), "local_store", "local_load",
  // "async_copy_global_to_local".
  std::string op;
  std::string result;  // "%12", or "" when the op has none
  size_t offset = 0;   // where the op name starts in the text
  bool store = true;   // into shared memory (false: local_load)
  TtgirType tensor;    // the registers' side (a pointer tensor for copies)
  TtgirType memdesc;
};

// FindSmemOps
//
// The ops above in `m` (parsed from `text`), in text order, each with the
// tensor and memdesc types written on its line. A local_alloc with no
// source moves nothing and is left out.
std::vector<SmemOp> FindSmemOps(const TtgirModule& m, absl::string_view text);

struct SmemAccessCost {
  std::string target;  // "hip:gfx942"
  // ds_write, ds_read (AMD); st.shared, ld.shared (NVIDIA); cp.async
  // (NVIDIA async copy); global_load_lds (AMD async copy).
  std::string instr;
  int element_bits = 0;  // as stored: at least 8
  int bits = 0;          // per instruction and thread
  int64_t count = 0;     // instructions per thread
  // The worst phase of any instruction of any warp: 1 is conflict-free.
  int ways = 1;
  // One warp's wavefronts over all its instructions (the warp with the
  // most), and what they would be without conflicts.
  int64_t wavefronts = 0;
  int64_t ideal_wavefronts = 0;
  std::string note;  // what the figures assume, when not the rule above
};

// CostSmemOp
//
// The cost of `op` on `target`. Errors: a layout not converted (its
// reason), shapes that are not powers of two, a tensor and memdesc of
// different shapes, a shared layout over several CTAs.
absl::StatusOr<SmemAccessCost> CostSmemOp(const SmemOp& op,
                                          const CvtTarget& target);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_SMEM_ACCESS_H_
