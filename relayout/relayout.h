// relayout/relayout.h: move an array's bytes from one layout to another
// (tile, untile, retile, transpose, pack, unpack) at memory speed.
//
//   f32[4096,4096]{1,0}  ->  f32[4096,4096]{1,0:T(8,128)}   tile for a TPU
//   bf16[512,256]{1,0:T(8,128)(2,1)} -> bf16[512,256]{1,0}  untile
//   f32[64,64]{1,0}  ->  f32[64,64]{1,0:T(32,32)(16,16)}    Tenstorrent tilize
//   s4[8]{0}  (one byte per element) ->  s4[8]{0:E(4)}       pack
//
//   absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(from, to, {});
//   if (!plan.ok()) return plan.status();
//   for (auto& [in, out] : buffers) {            // same shapes, many buffers
//     absl::Status s = plan->Run(in, out);       // never writes past `out`
//   }
//   // or, once: Relayout(from, src, to, dst, RelayoutOptions());
//   // or to a file, 1 MiB at a time (RunInPieces):
//   plan->RunInPieces(src, 1 << 20, [&](absl::Span<const uint8_t> piece) {
//     return WriteAll(fd, piece);
//   });
//
// What is accepted: `from` and `to` are static arrays (no tuples, no
// dynamic dimensions, no sparse dim levels) with the same element type and
// the same dimensions; their layouts may differ in anything else:
// minor_to_major, tiles (several levels, `*`, tiles larger than the shape),
// E(n) packing, L(n) tail alignment. The memory space S(n), split configs
// and M(n) do not change where elements are and are ignored. A shape
// without a layout is the default row-major one. Errors name the
// difference ("element types differ: f32 vs bf16").
//
// Bytes: a buffer holds the exact byte size of its shape
// (ComputeArraySizes().padded_bytes, layout/sizes.h). Every padding byte of
// `dst` (tile padding, L(n) tail padding, the unused bits of a packed byte)
// gets options.fill; padding in `src` is never read as data.
//
// Sub-byte types (s1, s2, s4, u1, u2, u4, f4e2m1fn): without E(n) an element
// takes a whole byte, its value in the low bits. Unpacking (E(n) -> one
// byte each) sign-extends signed integer types and zero-extends the others;
// packing takes the low bits of each byte; a copy between two unpacked
// layouts copies whole bytes. With E(n) elements are packed in linear
// (tiled) offset order, options.packing choosing which end of the byte comes
// first (layout/packing.h: low-first, today's XLA, by default).
//
// Speed: Create compiles the copy once (no division per element at run
// time): one memcpy when both layouts place every element at the same
// offset, copies of the runs contiguous in both layouts, SIMD interleave and
// de-interleave for (2,1)/(4,1) sub-tiles, cache-blocked transposes, and a
// general table-driven odometer for everything else. Large copies are split
// across options.threads threads; the output does not depend on the thread
// count. docs/relayout.md explains the plan and the measured speed.
#ifndef HLOLAYOUT_RELAYOUT_RELAYOUT_H_
#define HLOLAYOUT_RELAYOUT_RELAYOUT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct RelayoutOptions {
  // The byte written to every padding byte of the destination (for packed
  // layouts, the unused bits of a byte take the matching bits of `fill`).
  uint8_t fill = 0;
  // Threads that Run may use: 0 means the machine's cores
  // (std::thread::hardware_concurrency), 1 the calling thread only. Copies
  // under 1 MiB, and packed (E(n)) destinations whose bytes the threads'
  // shares of rows could split, use one. The output is the same for every
  // value.
  int threads = 0;
  // Bit order inside packed (E(n)) bytes, for both `from` and `to`.
  PackingOrder packing = PackingOrder::kLowFirst;
  // false: always take the general path (for tests and benchmarks that
  // compare the fast paths against it).
  bool allow_fast_paths = true;
  // false: SSE2 and portable kernels only, even on a CPU with AVX2 (for
  // tests and benchmarks; AVX2 kernels are otherwise chosen at run time).
  bool allow_avx2 = true;
};

// How a plan copies, for tests, benchmarks and `--verbose` output.
enum class RelayoutKernel {
  kMemcpy,        // identical placement: one memcpy (per thread)
  kRuns,          // copies of runs contiguous in both layouts
  kInterleave,    // k rows of the source interleaved into the destination
  kDeinterleave,  // the reverse
  kTranspose,     // cache-blocked 2-D transposes
  kPack,          // one byte per element <-> packed E(n), contiguous runs
  kGeneral,       // per-element odometer over precomputed offset tables
};

// "memcpy", "runs", "interleave", "deinterleave", "transpose", "pack",
// "general".
const char* RelayoutKernelName(RelayoutKernel kernel);

class RelayoutPlan {
 public:
  // Create
  //
  // Compiles the copy from `from`'s layout to `to`'s. Errors: a shape that
  // is not a static array or has a sparse layout, element types or
  // dimensions that differ, an invalid layout (BuildTilingModel's errors),
  // options.threads < 0.
  static absl::StatusOr<RelayoutPlan> Create(
      const Shape& from, const Shape& to,
      const RelayoutOptions& options = RelayoutOptions());

  RelayoutPlan(RelayoutPlan&&) noexcept;
  RelayoutPlan& operator=(RelayoutPlan&&) noexcept;
  ~RelayoutPlan();

  // Run
  //
  // Copies every element of `src` (laid out as `from`) to its place in
  // `dst` (laid out as `to`) and writes options.fill into every padding
  // byte of dst[0, dst_bytes()). Bytes of `dst` past dst_bytes() are not
  // touched. Errors, before anything is written: src.size() < src_bytes()
  // or dst.size() < dst_bytes(). `src` and `dst` must not overlap.
  // Thread-safe: one plan may run on several buffer pairs at once.
  absl::Status Run(absl::Span<const uint8_t> src,
                   absl::Span<uint8_t> dst) const;

  // RunInPieces
  //
  // Run, producing the destination in order a piece at a time: `write`
  // receives consecutive pieces that together are the destination's
  // dst_bytes() bytes (padding filled), each produced into one buffer of
  // about `piece_bytes` and passed before the next is made. For streaming
  // a large destination to a file or a pipe without holding it in memory
  // (`hlolayout relayout` writes pieces of 1 MiB per thread). A piece is
  // longer than piece_bytes only when one unit of the copy is (a block of
  // rows of the destination); a plan whose work does not write the
  // destination in order (a transpose, a `*` group too large to tabulate,
  // packed elements of 3, 5, 6 or 7 bits) makes one piece of dst_bytes().
  // The bytes are those of Run, for every piece size and thread count.
  // Errors: src shorter than src_bytes() (before anything is written), or
  // the first error `write` returns (nothing more is made or written).
  absl::Status RunInPieces(
      absl::Span<const uint8_t> src, int64_t piece_bytes,
      const std::function<absl::Status(absl::Span<const uint8_t>)>& write)
      const;

  // The size of the largest piece RunInPieces(src, piece_bytes, write)
  // passes: the memory it allocates. dst_bytes() when the plan cannot be
  // cut.
  int64_t LargestPiece(int64_t piece_bytes) const;

  // The exact byte sizes of `from` and `to`.
  int64_t src_bytes() const;
  int64_t dst_bytes() const;
  const Shape& from() const;
  const Shape& to() const;
  const RelayoutOptions& options() const;

  // The kernel Run uses.
  RelayoutKernel kernel() const;
  // One line about the plan, e.g. "runs: 4096 x 32 runs of 512 bytes".
  std::string Describe() const;

  struct Impl;

 private:
  explicit RelayoutPlan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Relayout
//
// RelayoutPlan::Create(from, to, options) then Run(src, dst): for one
// buffer. Errors as both.
absl::Status Relayout(const Shape& from, absl::Span<const uint8_t> src,
                      const Shape& to, absl::Span<uint8_t> dst,
                      const RelayoutOptions& options = RelayoutOptions());

}  // namespace hlolayout

#endif  // HLOLAYOUT_RELAYOUT_RELAYOUT_H_
