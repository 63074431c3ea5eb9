// cute/atom/bank_conflicts.h: shared-memory bank conflicts of a thread-value
// access pattern (a TiledCopy or any TV layout) against a shared-memory
// layout.
//
// The model (docs/cute.md, "Bank conflicts"), for one warp executing one
// instruction:
//   - shared memory has 32 banks of 4 bytes; bit address a is in 4-byte word
//     a / 32 and bank (a / 32) % 32;
//   - each participating thread touches W bits (the instruction's values);
//     threads are served in phases: 32 threads per phase for W <= 32, 16
//     for W = 64, 8 for W = 128 (in general 1024 / W, at least 1);
//   - ldmatrix/stmatrix: only the threads that give row addresses take part
//     (x1: threads 0-7, x2: 0-15, x4: all 32, read from the atom's
//     shared-memory layout: a thread whose coordinate is non-zero in a
//     stride-0 thread mode repeats another's address); each 8-thread phase
//     is one 8 x 16-byte matrix;
//   - a phase takes as many wavefronts as the largest number of distinct
//     words any one bank holds (equal words are a broadcast, not a
//     conflict); the ideal is ceil(distinct words / 32), at least 1.
//
//   TiledCopy tc = ...;   // LDSM x4 over a 16x16 half_t tile
//   SmemLayout smem = SmemLayout::Plain(*ParseLayout("(16,16):(16,1)"));
//   ConflictReport r = *SmemConflicts(tc, Side::kSource, smem);
//   r.wavefronts == 8, r.ideal == 4    (two rows of 8 share banks)
//
// Limits of the model: one warp at a time, no cross-warp or pipeline
// effects, stores and loads alike, every access aligned to its width.
#ifndef HLOLAYOUT_CUTE_ATOM_BANK_CONFLICTS_H_
#define HLOLAYOUT_CUTE_ATOM_BANK_CONFLICTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

inline constexpr int kBanks = 32;
inline constexpr int kBankBits = 32;

// SmemLayout
//
// Where each element of an M x N tile lives in shared memory: a function
// from the tile coordinate (m, n) to an element offset.
class SmemLayout {
 public:
  // Plain
  //
  // A cute Layout: evaluated at the coordinate (m, n) when it has rank >= 2
  // and its first two modes are at least M and N long, else at the
  // column-major index m + M*n.
  static SmemLayout Plain(Layout layout);
  // Any
  //
  // A Layout, a swizzled layout or any ComposedLayout (cute/composed_layout.h),
  // evaluated as Plain does. `Sw<B,M,S> o smem_ptr[Nb](unset) o L` is CuTe's
  // shared-memory form whose swizzle acts on byte addresses: the element at
  // L(m,n) = e sits at byte Sw(e * N / 8).
  static SmemLayout Any(AnyLayout layout);
  // Function
  //
  // Any offset function (swizzled layouts, tests).
  static SmemLayout Function(
      std::function<absl::StatusOr<int64_t>(int64_t m, int64_t n, int64_t rows,
                                            int64_t cols)>
          offset,
      std::string description);

  absl::StatusOr<int64_t> Offset(int64_t m, int64_t n, int64_t rows,
                                 int64_t cols) const {
    return offset_(m, n, rows, cols);
  }
  const std::string& description() const { return description_; }

 private:
  std::function<absl::StatusOr<int64_t>(int64_t, int64_t, int64_t, int64_t)>
      offset_;
  std::string description_;
};

// AccessPattern
//
// What one instruction of one warp touches: per participating thread (in
// thread order) the element offsets of its values, and the value width.
struct ThreadAccess {
  int64_t thread;
  std::vector<int64_t> offsets;  // element offsets, in value order
};
struct InstructionAccess {
  int64_t warp = 0;
  int64_t instruction = 0;
  std::vector<ThreadAccess> threads;
};

struct BankCollision {
  int bank;
  std::vector<int64_t> words;    // the distinct words, increasing
  std::vector<int64_t> threads;  // the threads touching the bank, increasing
};
struct PhaseReport {
  int64_t first_thread, last_thread;
  int64_t wavefronts, ideal;
  std::vector<BankCollision> collisions;  // banks with more than one word
};
struct InstructionReport {
  int64_t warp, instruction;
  int64_t wavefronts, ideal;
  std::vector<PhaseReport> phases;
};
struct ConflictReport {
  int value_bits = 0;
  int threads_per_phase = 0;
  int64_t wavefronts = 0, ideal = 0;  // over every instruction of every warp
  std::vector<InstructionReport> instructions;
};

// CountConflicts
//
// The model above over `accesses`, each value `value_bits` wide. Errors: a
// negative offset, value_bits outside 1..1024, a bit address overflow.
absl::StatusOr<ConflictReport> CountConflicts(
    const std::vector<InstructionAccess>& accesses, int value_bits);

enum class Side { kSource, kDestination };

// TiledCopyAccesses
//
// The accesses of a tiled copy's source or destination side to `smem`:
// warps are threads 32w..32w+31, instruction i moves values
// [i*NV, (i+1)*NV) of each thread (NV = NumValSrc or NumValDst). Errors as
// SmemLayout::Offset, and more than kMaxAccessValues values in all.
inline constexpr int64_t kMaxAccessValues = int64_t{1} << 22;
absl::StatusOr<std::vector<InstructionAccess>> TiledCopyAccesses(
    const TiledCopy& copy, Side side, const SmemLayout& smem);

// TvAccesses
//
// The same for a bare TV layout ((thread, value) -> column-major index of a
// rows x cols tile): every thread takes part, `vector` values per
// instruction.
absl::StatusOr<std::vector<InstructionAccess>> TvAccesses(
    const Layout& tv, int64_t rows, int64_t cols, int64_t vector,
    const SmemLayout& smem);

// SmemConflicts
//
// TiledCopyAccesses then CountConflicts with the atom's value width.
absl::StatusOr<ConflictReport> SmemConflicts(const TiledCopy& copy, Side side,
                                             const SmemLayout& smem);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_BANK_CONFLICTS_H_
