// relayout/kernels.h: the compiled form of a RelayoutPlan and the copy
// kernels that run it. Internal to //relayout (relayout.h is the API).
//
// The iteration space is the array's logical dims in groups (dims a `*`
// merges form one group). Each group has a table of element offsets in the
// source (s) and destination (d) layouts; an element's offset is the sum of
// its groups' entries. `outer` groups only move base offsets; the two
// innermost, `a` and `b`, are walked by the kernel:
//   for a: for b: dst[d0 + a.d[i] + b.d[j]] = src[s0 + a.s[i] + b.s[j]]
#ifndef HLOLAYOUT_RELAYOUT_KERNELS_H_
#define HLOLAYOUT_RELAYOUT_KERNELS_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/relayout/relayout.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace relayout_internal {

// A table of element offsets: a view of the plan's one block of tables
// (Plan::tables). One block per plan rather than a vector per table: fewer
// allocations, and a block that glibc serves the same way each time a plan
// is made and dropped (four separate 32 KiB tables freed together went
// back to the system and were faulted in again by the next plan, two
// thirds of a 4096x4096 plan's creation).
class OffsetTable {
 public:
  OffsetTable() = default;
  OffsetTable(int64_t* data, int64_t size) : data_(data), size_(size) {}
  int64_t* data() { return data_; }
  const int64_t* data() const { return data_; }
  size_t size() const { return static_cast<size_t>(size_); }
  int64_t& operator[](int64_t i) { return data_[i]; }
  const int64_t& operator[](int64_t i) const { return data_[i]; }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  friend bool operator==(const OffsetTable& x, const OffsetTable& y) {
    return x.size_ == y.size_ &&
           (x.size_ == 0 ||
            std::memcmp(x.data_, y.data_, x.size_ * sizeof(int64_t)) == 0);
  }

 private:
  int64_t* data_ = nullptr;
  int64_t size_ = 0;
};

struct Group {
  std::vector<int> dims;  // logical dims, the last varies fastest
  int64_t size = 1;
  OffsetTable s, d;  // element offsets in src / dst, [0] == 0
};

// A run of `len` elements of group b: element j + i is at s + i * s_step
// in src and d + i * d_step in dst.
struct Run {
  int64_t b = 0;  // first index in group b
  int64_t s = 0;
  int64_t d = 0;
  int64_t len = 0;
};

struct Plan {
  PrimitiveType type = PRIMITIVE_TYPE_INVALID;
  int64_t src_bytes = 0;
  int64_t dst_bytes = 0;
  int64_t elements = 0;
  int src_bits = 0;  // storage bits per element: 8*ByteWidth or E(n)
  int dst_bits = 0;
  int value_bits = 0;  // BitWidth of the type
  bool sign_extend = false;
  PackingOrder order = PackingOrder::kLowFirst;
  uint8_t fill = 0;
  int esize = 0;  // bytes per element when both sides are whole bytes
  bool prefill = false;
  int threads = 1;

  RelayoutKernel kernel = RelayoutKernel::kGeneral;
  // Every group's s and d tables, back to back.
  std::unique_ptr<int64_t[]> tables;
  std::vector<Group> outer;  // outermost first
  Group a, b;
  // Rows of group a that form one unit of work (threads split the work at
  // unit boundaries): interleave k rows, transpose a band of rows, a tile's
  // rows with rows_inner, rows owning whole packed bytes.
  int64_t a_block = 1;
  // kRuns / kPack: group b as runs contiguous in both layouts (s_step =
  // d_step = 1). kInterleave: runs with s_step 1, d_step k.
  // kDeinterleave: s_step k, d_step 1.
  std::vector<Run> runs;
  int k = 1;
  // kTranspose: dst(a, b) at a + b * t_dst_stride, src(a, b) at
  // a * t_src_stride + b.
  int64_t t_src_stride = 0;
  int64_t t_dst_stride = 0;
  bool streaming = false;  // non-temporal stores for large destinations
  bool avx2 = false;       // the CPU has AVX2 and the options allow it
  // kRuns / kPack / kInterleave / kDeinterleave: walk each block of a_block
  // rows run by run, the rows (interleave: the blocks of k rows) inside:
  // consecutive rows of a run are adjacent in dst (or src), so that side is
  // one sequential stream.
  bool rows_inner = false;

  // Per-element fallback for groups too big to tabulate.
  bool use_indexers = false;
  std::shared_ptr<const TiledIndexer> src_indexer, dst_indexer;
  std::vector<int64_t> dims;
  std::vector<int> dim_order;  // major first
};

// True when the CPU running this has AVX2 (x86 only).
bool CpuHasAvx2();

// Picks p.kernel and fills its fields from the tables.
void ChooseKernel(Plan& p, bool allow_fast_paths);

// Runs the plan. @pre src holds p.src_bytes, dst p.dst_bytes.
void RunPlan(const Plan& p, const uint8_t* src, uint8_t* dst);

// A piece of the destination that can be produced on its own: work units
// [u0, u1) (row blocks of group a at each outer index, in the order Work
// numbers them) write bytes [byte0, byte1) of dst and no other; the gaps
// between their elements are padding. Consecutive pieces cover dst in order.
struct Piece {
  int64_t u0 = 0, u1 = 0;
  int64_t byte0 = 0, byte1 = 0;
};

// Cuts the plan's work into pieces of at most `piece_bytes` bytes (a single
// unit may be longer), or returns false when the units do not write the
// destination in order (transposes, the per-element indexers, elements
// whose bit width does not divide 8 or a multiple of it).
bool CutInPieces(const Plan& p, int64_t piece_bytes,
                 std::vector<Piece>* pieces);

// Writes bytes [piece.byte0, piece.byte1) of the destination, padding
// filled, into dst[0, byte1 - byte0). @pre src holds p.src_bytes.
void RunPiece(const Plan& p, const uint8_t* src, const Piece& piece,
              uint8_t* dst);

std::string DescribePlan(const Plan& p);

}  // namespace relayout_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_RELAYOUT_KERNELS_H_
