// relayout/kernels_internal.h: what the relayout kernels' source files
// share. kernels.cc chooses and runs a plan's kernel; transpose_kernels.cc
// holds the transposing kernels (RelayoutKernel::kTranspose), which
// kernels.cc calls for one band of rows at a time. Internal to
// //relayout:relayout.
#ifndef HLOLAYOUT_RELAYOUT_KERNELS_INTERNAL_H_
#define HLOLAYOUT_RELAYOUT_KERNELS_INTERNAL_H_

#include <cstdint>
#include <cstring>

#include "hlolayout/relayout/kernels.h"

// AVX2 kernels are compiled with a target attribute (the rest of the build
// stays baseline x86-64) and chosen at run time (Plan::avx2).
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HLOLAYOUT_X86_TARGETS 1
#else
#define HLOLAYOUT_X86_TARGETS 0
#endif

namespace hlolayout {
namespace relayout_internal {

template <int ES>
inline void CopyElem(uint8_t* d, const uint8_t* s) {
  std::memcpy(d, s, ES);
}

// Kernel context: one call covers rows [a0, a1) of group a at the bases
// s0, d0 (element offsets of the outer groups).

struct Ctx {
  const Plan& p;
  const uint8_t* src;
  uint8_t* dst;
  bool streaming;
  // Element offset of dst[0] in the whole destination (RunPiece: dst is a
  // piece of it).
  int64_t d_shift = 0;
};

// The rows of group a that TransposeRows takes in one band (the plan cuts
// work units of this many rows).
constexpr int64_t kTRows = 128;

// TransposeRows<ES>: the kTranspose kernel on rows [a0, a1) of group a at
// the bases s0, d0, for ES-byte elements; instantiated for ES = 1, 2, 4, 8
// and 16 in transpose_kernels.cc.
template <int ES>
void TransposeRows(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                   int64_t d0);
extern template void TransposeRows<1>(const Ctx&, int64_t, int64_t, int64_t,
                                      int64_t);
extern template void TransposeRows<2>(const Ctx&, int64_t, int64_t, int64_t,
                                      int64_t);
extern template void TransposeRows<4>(const Ctx&, int64_t, int64_t, int64_t,
                                      int64_t);
extern template void TransposeRows<8>(const Ctx&, int64_t, int64_t, int64_t,
                                      int64_t);
extern template void TransposeRows<16>(const Ctx&, int64_t, int64_t, int64_t,
                                       int64_t);

}  // namespace relayout_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_RELAYOUT_KERNELS_INTERNAL_H_
