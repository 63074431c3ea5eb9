// relayout/transpose_kernels.cc: the transposing kernels of
// relayout/kernels_internal.h (TransposeRows), split from kernels.cc.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "hlolayout/relayout/kernels_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if HLOLAYOUT_X86_TARGETS
#include <immintrin.h>
#endif

namespace hlolayout {
namespace relayout_internal {
namespace {

// ---------------------------------------------------------------------------
// Transpose: dst(i, j) at i + j * T (contiguous along a), src(i, j) at
// i * S + j (contiguous along b). Through a buffer, so that every source
// line is read once and every destination line written once, whatever the
// strides (powers of two alias in the caches): for streamed (large)
// destinations, blocks of rows x 1024 columns in a 256 KiB L2 buffer
// (TransposeBlocksF32Avx2, TransposeBlocksAny); otherwise a band of kTRows
// rows of a cut into strips of one source cache line of columns, each
// transposed into an L1 buffer while the previous one is written out
// (StripF32Avx2, TransposeRows). Kernels: 8x8 AVX2 for 4-byte elements,
// SSE2 blocks of 16 bytes square.

#if HLOLAYOUT_X86_TARGETS
// d[i + j * dstride] = s[i * sstride + j] for i, j < 8, strides in 4-byte
// elements. Rows k and k + 4 are loaded into the two 128-bit lanes of one
// register (columns 0-3 in r0-r3, 4-7 in r4-r7), so that two rounds of
// in-lane shuffles leave whole output rows: 16 shuffles and 8 inserts
// instead of 24 shuffles with the cross-lane vperm2f128 (measured a few
// percent faster).
// The 4 floats at `lo` in the low lane, those at `hi` in the high one.
__attribute__((target("avx2"), always_inline)) inline __m256 LoadLanes(
    const float* lo, const float* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)),
                              _mm_loadu_ps(hi), 1);
}

__attribute__((target("avx2"), always_inline)) inline void Transpose8x8F32(
    float* d, int64_t ds, const float* s, int64_t ss) {
  const float* s4 = s + 4 * ss;
  const __m256 r0 = LoadLanes(s, s4), r1 = LoadLanes(s + ss, s4 + ss),
               r2 = LoadLanes(s + 2 * ss, s4 + 2 * ss),
               r3 = LoadLanes(s + 3 * ss, s4 + 3 * ss),
               r4 = LoadLanes(s + 4, s4 + 4),
               r5 = LoadLanes(s + ss + 4, s4 + ss + 4),
               r6 = LoadLanes(s + 2 * ss + 4, s4 + 2 * ss + 4),
               r7 = LoadLanes(s + 3 * ss + 4, s4 + 3 * ss + 4);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1),
               t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3),
               t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
               t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  _mm256_storeu_ps(d, _mm256_shuffle_ps(t0, t2, 0x44));
  _mm256_storeu_ps(d + ds, _mm256_shuffle_ps(t0, t2, 0xEE));
  _mm256_storeu_ps(d + 2 * ds, _mm256_shuffle_ps(t1, t3, 0x44));
  _mm256_storeu_ps(d + 3 * ds, _mm256_shuffle_ps(t1, t3, 0xEE));
  _mm256_storeu_ps(d + 4 * ds, _mm256_shuffle_ps(t4, t6, 0x44));
  _mm256_storeu_ps(d + 5 * ds, _mm256_shuffle_ps(t4, t6, 0xEE));
  _mm256_storeu_ps(d + 6 * ds, _mm256_shuffle_ps(t5, t7, 0x44));
  _mm256_storeu_ps(d + 7 * ds, _mm256_shuffle_ps(t5, t7, 0xEE));
}

// The 8x8 blocks of rows [0, ni8) and columns [0, nj8) (multiples of 8).
__attribute__((target("avx2"))) void TransposeF32Avx2(
    uint8_t* d, int64_t dstride, const uint8_t* s, int64_t sstride, int64_t ni8,
    int64_t nj8) {
  float* out = reinterpret_cast<float*>(d);
  const float* in = reinterpret_cast<const float*>(s);
  for (int64_t i = 0; i < ni8; i += 8) {
    // The rows' next lines (the next strip), which many rows read at once
    // hide from the hardware prefetchers.
    for (int64_t r = 0; r < 8; ++r) {
      __builtin_prefetch(in + (i + r) * sstride + nj8);
    }
    for (int64_t j = 0; j < nj8; j += 8) {
      Transpose8x8F32(out + i + j * dstride, dstride, in + i * sstride + j,
                      sstride);
    }
  }
}
#endif

// Copies the columns [j0, nj) of rows [i0, i1) element by element.
template <int ES>
inline void TransposeScalar(uint8_t* d, int64_t dstride, const uint8_t* s,
                            int64_t sstride, int64_t i0, int64_t i1, int64_t j0,
                            int64_t nj) {
  for (int64_t i = i0; i < i1; ++i) {
    for (int64_t j = j0; j < nj; ++j) {
      CopyElem<ES>(d + (i + j * dstride) * ES, s + (i * sstride + j) * ES);
    }
  }
}

#if defined(__SSE2__)
// Interleaves the low (kHi false) or high halves of x and y in units of W
// bytes (punpckl/h of that width).
template <int W, bool kHi>
inline __m128i Unpack(__m128i x, __m128i y) {
  switch (W) {
    case 1:
      return kHi ? _mm_unpackhi_epi8(x, y) : _mm_unpacklo_epi8(x, y);
    case 2:
      return kHi ? _mm_unpackhi_epi16(x, y) : _mm_unpacklo_epi16(x, y);
    case 4:
      return kHi ? _mm_unpackhi_epi32(x, y) : _mm_unpacklo_epi32(x, y);
    default:
      return kHi ? _mm_unpackhi_epi64(x, y) : _mm_unpacklo_epi64(x, y);
  }
}

// Transposes the N x N block of ES-byte elements, N = 16 / ES (16x16
// bytes, 8x8 halves, 4x4 words, 2x2 doubles): log2(N) rounds of pairing
// row k with row k + N/2, each a perfect shuffle of the rows' elements.
// d[i + j * ds] = s[i * ss + j], strides in elements.
template <int ES>
inline void TransposeSse2(uint8_t* d, int64_t ds, const uint8_t* s,
                          int64_t ss) {
  constexpr int N = 16 / ES;
  __m128i r[N], t[N];
#pragma GCC unroll 16
  for (int k = 0; k < N; ++k) {
    r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * ss * ES));
  }
#pragma GCC unroll 4
  for (int round = 1; round < N; round *= 2) {
#pragma GCC unroll 8
    for (int k = 0; k < N / 2; ++k) {
      t[2 * k] = Unpack<ES, false>(r[k], r[k + N / 2]);
      t[2 * k + 1] = Unpack<ES, true>(r[k], r[k + N / 2]);
    }
#pragma GCC unroll 16
    for (int k = 0; k < N; ++k) r[k] = t[k];
  }
#pragma GCC unroll 16
  for (int k = 0; k < N; ++k) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k * ds * ES), r[k]);
  }
}
#endif

#if HLOLAYOUT_X86_TARGETS && defined(__SSE2__)
// Bytes: d[i + j * dstride] = s[i * sstride + j] for the 16x32 blocks of
// rows [0, ni16) and columns [0, nj32): TransposeSse2<1>'s four rounds of
// unpacks on 32-byte rows, whose two lanes transpose columns 0-15 and 16-31
// at once (half the shuffles per byte of the 16x16 SSE2 block).
__attribute__((target("avx2"))) void TransposeU8Avx2(
    uint8_t* d, int64_t dstride, const uint8_t* s, int64_t sstride,
    int64_t ni16, int64_t nj32) {
  for (int64_t i = 0; i < ni16; i += 16) {
    // The rows' next lines, as in TransposeF32Avx2.
    for (int64_t r = 0; r < 16; ++r) {
      __builtin_prefetch(s + (i + r) * sstride + nj32);
    }
    for (int64_t j = 0; j < nj32; j += 32) {
      const uint8_t* in = s + i * sstride + j;
      uint8_t* out = d + i + j * dstride;
      __m256i r[16], t[16];
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) {
        r[k] = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(in + k * sstride));
      }
#pragma GCC unroll 4
      for (int round = 0; round < 4; ++round) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; ++k) {
          t[2 * k] = _mm256_unpacklo_epi8(r[k], r[k + 8]);
          t[2 * k + 1] = _mm256_unpackhi_epi8(r[k], r[k + 8]);
        }
#pragma GCC unroll 16
        for (int k = 0; k < 16; ++k) r[k] = t[k];
      }
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k * dstride),
                         _mm256_castsi256_si128(r[k]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (k + 16) * dstride),
                         _mm256_extracti128_si256(r[k], 1));
      }
    }
  }
}
#endif

// d[i + j * dstride] = s[i * sstride + j] for i < ni, j < nj, strides in
// elements. Rows outermost: each source line is used up before the next.
template <int ES>
void TransposeBlock(uint8_t* d, int64_t dstride, const uint8_t* s,
                    int64_t sstride, int64_t ni, int64_t nj, bool avx2) {
  int64_t i = 0;
#if HLOLAYOUT_X86_TARGETS
  if (ES == 4 && avx2) {
    const int64_t ni8 = ni / 8 * 8, nj8 = nj / 8 * 8;
    TransposeF32Avx2(d, dstride, s, sstride, ni8, nj8);
    TransposeScalar<ES>(d, dstride, s, sstride, 0, ni8, nj8, nj);
    i = ni8;
  }
#if defined(__SSE2__)
  if constexpr (ES == 1) {
    if (avx2) {
      const int64_t ni16 = ni / 16 * 16, nj32 = nj / 32 * 32;
      TransposeU8Avx2(d, dstride, s, sstride, ni16, nj32);
      // Columns left over: a 16x16 SSE2 block, then element by element.
      for (; i < ni16; i += 16) {
        int64_t j = nj32;
        for (; j + 16 <= nj; j += 16) {
          TransposeSse2<1>(d + i + j * dstride, dstride, s + i * sstride + j,
                           sstride);
        }
        TransposeScalar<ES>(d, dstride, s, sstride, i, i + 16, j, nj);
      }
    }
  }
#endif
#endif
#if defined(__SSE2__)
  if constexpr (ES <= 8) {
    constexpr int64_t N = 16 / ES;
    for (; i + N <= ni; i += N) {
      // The rows' next lines (the next strip), as in TransposeF32Avx2.
      for (int64_t r = 0; r < N; ++r) {
        __builtin_prefetch(s + ((i + r) * sstride + nj) * ES);
      }
      int64_t j = 0;
      for (; j + N <= nj; j += N) {
        TransposeSse2<ES>(d + (i + j * dstride) * ES, dstride,
                          s + (i * sstride + j) * ES, sstride);
      }
      TransposeScalar<ES>(d, dstride, s, sstride, i, i + N, j, nj);
    }
  }
#endif
  (void)avx2;
  TransposeScalar<ES>(d, dstride, s, sstride, i, ni, 0, nj);
}

#if HLOLAYOUT_X86_TARGETS
// The whole 64-byte lines of d[0, n) streamed 32 bytes at a time (16-byte
// streaming stores made the transpose about 40% slower on the AMD EPYC
// this was measured on). @pre d is 64-byte aligned.
__attribute__((target("avx2"), always_inline)) inline void StreamLinesAvx2(
    uint8_t* d, const uint8_t* s, int64_t n) {
  for (int64_t k = 0; k + 64 <= n; k += 64) {
    _mm256_stream_si256(
        reinterpret_cast<__m256i*>(d + k),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k)));
    _mm256_stream_si256(
        reinterpret_cast<__m256i*>(d + k + 32),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k + 32)));
  }
}

__attribute__((target("avx2"))) void StreamLinesAvx2Call(uint8_t* d,
                                                         const uint8_t* s,
                                                         int64_t n) {
  StreamLinesAvx2(d, s, n);
}
#endif

// The whole 64-byte lines of d: [head, head + lines) for n bytes at d.
inline void WholeLines(const uint8_t* d, int64_t n, int64_t& head,
                       int64_t& lines) {
  head = std::min<int64_t>(
      n, (64 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(d) % 64)) % 64);
  lines = (n - head) / 64 * 64;
}

// memcpy of n bytes; when `streaming`, the whole cache lines of dst are
// written with streaming stores (a partly written line is stored normally:
// streaming it would cost a read-modify-write in memory).
inline void CopyOut(uint8_t* d, const uint8_t* s, int64_t n, bool streaming,
                    bool avx2) {
#if defined(__SSE2__)
  if (streaming && n >= 128) {
    int64_t head, lines;
    WholeLines(d, n, head, lines);
    if (head > 0) std::memcpy(d, s, head);
#if HLOLAYOUT_X86_TARGETS
    if (avx2) {
      StreamLinesAvx2Call(d + head, s + head, lines);
    } else
#endif
    {
      for (int64_t k = head; k < head + lines; k += 16) {
        _mm_stream_si128(
            reinterpret_cast<__m128i*>(d + k),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k)));
      }
    }
    const int64_t done = head + lines;
    if (done < n) std::memcpy(d + done, s + done, n - done);
    return;
  }
#endif
  (void)streaming;
  (void)avx2;
  std::memcpy(d, s, n);
}

// A transposed strip waiting in its buffer to be written: runs [next, n)
// of `len` bytes, run j from buf + j * len to d + j * stride.
struct PendingRuns {
  uint8_t* d = nullptr;
  const uint8_t* buf = nullptr;
  int64_t stride = 0, len = 0, n = 0, next = 0;
};

// Writes the runs of `w` up to `upto`.
inline void WriteRuns(PendingRuns& w, int64_t upto, bool streaming, bool avx2) {
  for (; w.next < upto; ++w.next) {
    CopyOut(w.d + w.next * w.stride, w.buf + w.next * w.len, w.len, streaming,
            avx2);
  }
}

#if HLOLAYOUT_X86_TARGETS
// Streams n runs of len bytes, run j from buf + j * len to d + j * stride
// (CopyOut with AVX2, inlined into the AVX2 strip loop).
__attribute__((target("avx2"), always_inline)) inline void WriteRunsAvx2(
    uint8_t* d, const uint8_t* buf, int64_t stride, int64_t len, int64_t n,
    bool streaming) {
  for (int64_t j = 0; j < n; ++j, d += stride, buf += len) {
    if (streaming && len >= 128) {
      int64_t head, lines;
      WholeLines(d, len, head, lines);
      if (head > 0) std::memcpy(d, buf, head);
      StreamLinesAvx2(d + head, buf + head, lines);
      const int64_t done = head + lines;
      if (done < len) std::memcpy(d + done, buf + done, len - done);
    } else {
      std::memcpy(d, buf, len);
    }
  }
}

// One strip of 16 f32 columns and ni rows: buf[i + j * ni] =
// s[i * sstride + j], by 8x8 blocks, the last ni % 8 rows element by
// element; after each block of 8 rows, a share of `prev`'s runs is
// written, and all of them by the end. One function with everything
// inlined (the generic path's calls per chunk cost about a tenth of the
// time of this case) and prev's fields in locals.
// kNi > 0: ni == kNi, the buffer's offsets constants (GCC otherwise runs
// out of registers for the 16 row offsets and reloads them from the stack).
template <int64_t kNi>
__attribute__((target("avx2"))) void StripF32Avx2(float* buf, int64_t ni_arg,
                                                  const float* s,
                                                  int64_t sstride,
                                                  PendingRuns& prev,
                                                  bool streaming) {
  const int64_t ni = kNi > 0 ? kNi : ni_arg;
  const int64_t groups = ni / 8;
  const int64_t left = prev.n - prev.next;
  const int64_t per = groups > 0 ? (left + groups - 1) / groups : 0;
  uint8_t* d = prev.d + prev.next * prev.stride;
  const uint8_t* from = prev.buf + prev.next * prev.len;
  const int64_t stride = prev.stride, len = prev.len;
  int64_t done = 0;
  for (int64_t i = 0; i < groups * 8; i += 8) {
    const float* row = s + i * sstride;
    // The rows' next lines (the next strip), which many rows read at once
    // hide from the hardware prefetchers.
    for (int64_t r = 0; r < 8; ++r) __builtin_prefetch(row + r * sstride + 16);
    Transpose8x8F32(buf + i, ni, row, sstride);
    Transpose8x8F32(buf + i + 8 * ni, ni, row + 8, sstride);
    const int64_t n = std::min(per, left - done);
    WriteRunsAvx2(d, from, stride, len, n, streaming);
    d += n * stride;
    from += n * len;
    done += n;
  }
  for (int64_t i = groups * 8; i < ni; ++i) {
    for (int64_t j = 0; j < 16; ++j) buf[i + j * ni] = s[i * sstride + j];
  }
  WriteRunsAvx2(d, from, stride, len, left - done, streaming);
  prev.next = prev.n;
}
#endif

// Large f32 transposes (streaming destinations): blocks of kBRows source
// rows x kBCols columns, transposed 8 rows at a time across the whole
// block width into an L2-sized buffer (big[j * ni + i]), which is then
// written out as kBCols runs of ni elements. The source is read as 8
// sequential streams of kBCols * 4 bytes, which the hardware prefetchers
// follow; the strips (one cache line of 128 rows at a time) depend on the
// L3 and lost about 20% to them when the other core was busy. Column
// blocks outermost: a block's destination pages (kBCols of them) are the
// next block's, and they fit in the TLB.
constexpr int64_t kBRows = 64;
constexpr int64_t kBCols = 1024;

#if HLOLAYOUT_X86_TARGETS
// Rows [0, ni) x columns [0, w) of one block: big[j * ni + i] =
// src[i * sstride + j]. kNi > 0: ni == kNi (constant buffer offsets).
template <int64_t kNi>
__attribute__((target("avx2"))) void BlockF32Avx2(float* big, int64_t ni_arg,
                                                  const float* src,
                                                  int64_t sstride, int64_t w) {
  const int64_t ni = kNi > 0 ? kNi : ni_arg;
  const int64_t ni8 = ni / 8 * 8, w8 = w / 8 * 8;
  for (int64_t i = 0; i < ni8; i += 8) {
    const float* row = src + i * sstride;
    for (int64_t j = 0; j < w8; j += 8) {
      Transpose8x8F32(big + j * ni + i, ni, row + j, sstride);
    }
    for (int64_t j = w8; j < w; ++j) {
      for (int64_t r = 0; r < 8; ++r)
        big[j * ni + i + r] = row[r * sstride + j];
    }
  }
  for (int64_t i = ni8; i < ni; ++i) {
    for (int64_t j = 0; j < w; ++j) big[j * ni + i] = src[i * sstride + j];
  }
}

// Rows [a0, a1): dst[i + j * dstride] = src[i * sstride + j] for all nb
// columns j; `lead` rows first (to align the destination runs), then blocks
// of kBRows. big holds kBRows * kBCols floats.
__attribute__((target("avx2"))) void TransposeBlocksF32Avx2(
    float* dst, int64_t dstride, const float* src, int64_t sstride, int64_t a0,
    int64_t a1, int64_t nb, int64_t lead, bool streaming, float* big) {
  for (int64_t j0 = 0; j0 < nb; j0 += kBCols) {
    const int64_t w = std::min(kBCols, nb - j0);
    for (int64_t i0 = a0; i0 < a1;) {
      const int64_t ni =
          std::min(i0 == a0 && lead > 0 ? lead : kBRows, a1 - i0);
      const float* s = src + i0 * sstride + j0;
      if (ni == kBRows) {
        BlockF32Avx2<kBRows>(big, ni, s, sstride, w);
      } else {
        BlockF32Avx2<0>(big, ni, s, sstride, w);
      }
      uint8_t* d = reinterpret_cast<uint8_t*>(dst + i0 + j0 * dstride);
      const uint8_t* b = reinterpret_cast<const uint8_t*>(big);
      if (streaming && ni * 4 % 64 == 0 && dstride * 4 % 64 == 0 &&
          reinterpret_cast<uintptr_t>(d) % 64 == 0) {
        // Whole lines only (the usual case): no head or tail to look for.
        for (int64_t j = 0; j < w; ++j) {
          StreamLinesAvx2(d + j * dstride * 4, b + j * ni * 4, ni * 4);
        }
      } else {
        WriteRunsAvx2(d, b, dstride * 4, ni * 4, w, streaming);
      }
      i0 += ni;
    }
  }
}
#endif

// The same blocks for any element size up to 8 bytes (SSE2 blocks of 16
// bytes square, TransposeBlock): 256 / ES rows (runs of 256 bytes) x
// kBCols columns, the buffer the same 256 KiB.
template <int ES>
void TransposeBlocksAny(uint8_t* dst, int64_t dstride, const uint8_t* src,
                        int64_t sstride, int64_t a0, int64_t a1, int64_t nb,
                        int64_t lead, bool streaming, bool avx2, uint8_t* big) {
  constexpr int64_t kRows = kBRows * 4 / ES;
  for (int64_t j0 = 0; j0 < nb; j0 += kBCols) {
    const int64_t w = std::min(kBCols, nb - j0);
    for (int64_t i0 = a0; i0 < a1;) {
      const int64_t ni = std::min(i0 == a0 && lead > 0 ? lead : kRows, a1 - i0);
      TransposeBlock<ES>(big, ni, src + (i0 * sstride + j0) * ES, sstride, ni,
                         w, avx2);
      PendingRuns runs{
          dst + (i0 + j0 * dstride) * ES, big, dstride * ES, ni * ES, w, 0};
      WriteRuns(runs, w, streaming, avx2);
      i0 += ni;
    }
  }
}

// Rows of a strip transposed between two pieces of the previous strip's
// write-out (the generic path).
constexpr int64_t kTChunk = 16;

}  // namespace

template <int ES>
void TransposeRows(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                   int64_t d0) {
  // Columns per strip: one source cache line.
  constexpr int64_t kCols = ES >= 64 ? 1 : 64 / ES;
  // Two buffers: while one strip is transposed into one, the previous
  // strip's runs are written out of the other, a few runs after each chunk
  // of rows, so that the reads of one and the (streaming) writes of the
  // other overlap instead of taking turns (measured: 10-15% faster than
  // writing each strip out in one burst).
  alignas(64) uint8_t bufs[2][kCols * kTRows * ES];
  const int64_t nb = c.p.b.size;
  const int64_t S = c.p.t_src_stride;
  const int64_t T = c.p.t_dst_stride;
  PendingRuns prev;
  int which = 0;
  // Bands start on a destination cache line when they can (a short first
  // band), so that streamed lines are whole.
  const int64_t mis = static_cast<int64_t>(
      reinterpret_cast<uintptr_t>(c.dst + (d0 + a0) * ES) % 64);
  const int64_t lead = mis % ES == 0 ? (64 - mis) % 64 / ES : 0;
  // Likewise strips start on a source cache line.
  const int64_t smis = static_cast<int64_t>(
      reinterpret_cast<uintptr_t>(c.src + (s0 + a0 * S) * ES) % 64);
  const int64_t jlead = smis % ES == 0 ? (64 - smis) % 64 / ES : 0;
  if (c.streaming && ES <= 8) {
    // The blocks' buffer, on a cache line: 16 bytes off (as new[] gives), a
    // quarter of the 32-byte stores into it straddle two lines (measured
    // ~10% slower).
    constexpr int64_t kBytes = kBRows * kBCols * 4;
    std::unique_ptr<uint8_t[]> raw(new uint8_t[kBytes + 64]);
    uint8_t* big = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(raw.get()) + 63) / 64 * 64);
#if HLOLAYOUT_X86_TARGETS
    if (ES == 4 && c.p.avx2) {
      TransposeBlocksF32Avx2(reinterpret_cast<float*>(c.dst) + d0, T,
                             reinterpret_cast<const float*>(c.src) + s0, S, a0,
                             a1, nb, lead, c.streaming,
                             reinterpret_cast<float*>(big));
      return;
    }
#endif
    TransposeBlocksAny<ES>(c.dst + d0 * ES, T, c.src + s0 * ES, S, a0, a1, nb,
                           lead, c.streaming, c.p.avx2, big);
    return;
  }
  for (int64_t i0 = a0; i0 < a1;) {
    const int64_t ni = std::min(i0 == a0 && lead > 0 ? lead : kTRows, a1 - i0);
    const int64_t chunks = (ni + kTChunk - 1) / kTChunk;
    for (int64_t j0 = 0; j0 < nb;) {
      const int64_t nj =
          std::min(j0 == 0 && jlead > 0 ? jlead : kCols, nb - j0);
      uint8_t* buf = bufs[which];
      const uint8_t* s = c.src + (s0 + i0 * S + j0) * ES;
#if HLOLAYOUT_X86_TARGETS
      if (ES == 4 && c.p.avx2 && nj == 16) {
        (ni == kTRows ? StripF32Avx2<kTRows>
                      : StripF32Avx2<0>)(reinterpret_cast<float*>(buf), ni,
                                         reinterpret_cast<const float*>(s), S,
                                         prev, c.streaming);
      } else
#endif
      {
        for (int64_t k = 0; k < chunks; ++k) {
          const int64_t r0 = k * kTChunk;
          const int64_t r1 = std::min(ni, r0 + kTChunk);
          TransposeBlock<ES>(buf + r0 * ES, ni, s + r0 * S * ES, S, r1 - r0, nj,
                             c.p.avx2);
          WriteRuns(prev, prev.n * (k + 1) / chunks, c.streaming, c.p.avx2);
        }
      }
      WriteRuns(prev, prev.n, c.streaming, c.p.avx2);
      prev = PendingRuns{
          c.dst + (d0 + i0 + j0 * T) * ES, buf, T * ES, ni * ES, nj, 0};
      which ^= 1;
      j0 += nj;
    }
    i0 += ni;
  }
  WriteRuns(prev, prev.n, c.streaming, c.p.avx2);
}

template void TransposeRows<1>(const Ctx&, int64_t, int64_t, int64_t, int64_t);
template void TransposeRows<2>(const Ctx&, int64_t, int64_t, int64_t, int64_t);
template void TransposeRows<4>(const Ctx&, int64_t, int64_t, int64_t, int64_t);
template void TransposeRows<8>(const Ctx&, int64_t, int64_t, int64_t, int64_t);
template void TransposeRows<16>(const Ctx&, int64_t, int64_t, int64_t, int64_t);

}  // namespace relayout_internal
}  // namespace hlolayout
