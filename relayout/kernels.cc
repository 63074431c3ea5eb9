#include "hlolayout/relayout/kernels.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
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

// Sub-byte element IO for conversions (packed <-> one byte per element,
// packed <-> packed): the value as its low value_bits bits.
struct BitIO {
  int src_bits, dst_bits, value_bits;
  bool sign_extend;
  PackingOrder order;
  uint8_t mask;

  explicit BitIO(const Plan& p)
      : src_bits(p.src_bits),
        dst_bits(p.dst_bits),
        value_bits(p.value_bits),
        sign_extend(p.sign_extend),
        order(p.order),
        mask(static_cast<uint8_t>((1u << p.value_bits) - 1)) {}

  inline uint8_t Read(const uint8_t* src, int64_t off) const {
    if (src_bits == 8) return src[off] & mask;
    const int64_t bit = off * src_bits;
    const int sh = PackedShift(static_cast<int>(bit & 7), src_bits, order);
    return (src[bit >> 3] >> sh) & mask;
  }
  inline void Write(uint8_t* dst, int64_t off, uint8_t v) const {
    if (dst_bits == 8) {
      if (sign_extend && ((v >> (value_bits - 1)) & 1)) {
        v = static_cast<uint8_t>(v | ~mask);
      }
      dst[off] = v;
      return;
    }
    const int64_t bit = off * dst_bits;
    const int sh = PackedShift(static_cast<int>(bit & 7), dst_bits, order);
    uint8_t& byte = dst[bit >> 3];
    byte = static_cast<uint8_t>((byte & ~(mask << sh)) | (v << sh));
  }
};

// ---------------------------------------------------------------------------
template <int ES>
void GeneralRows(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  const Group& a = c.p.a;
  const Group& b = c.p.b;
  const int64_t* bs = b.s.data();
  const int64_t* bd = b.d.data();
  const int64_t n = b.size;
  for (int64_t i = a0; i < a1; ++i) {
    const uint8_t* s = c.src + (s0 + a.s[i]) * ES;
    uint8_t* d = c.dst + (d0 + a.d[i]) * ES;
    for (int64_t j = 0; j < n; ++j)
      CopyElem<ES>(d + bd[j] * ES, s + bs[j] * ES);
  }
}

void GeneralRowsBits(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                     int64_t d0) {
  const BitIO io(c.p);
  const Group& a = c.p.a;
  const Group& b = c.p.b;
  for (int64_t i = a0; i < a1; ++i) {
    const int64_t s = s0 + a.s[i];
    const int64_t d = d0 + a.d[i];
    for (int64_t j = 0; j < b.size; ++j) {
      io.Write(c.dst, d + b.d[j], io.Read(c.src, s + b.s[j]));
    }
  }
}

// Calls f(std::integral_constant<int, ES>()) for the element size in
// bytes, or other() for sizes without an instance (sub-byte conversions).
template <typename F, typename G>
void ByElementSize(int esize, const F& f, const G& other) {
  switch (esize) {
    case 1:
      return f(std::integral_constant<int, 1>());
    case 2:
      return f(std::integral_constant<int, 2>());
    case 4:
      return f(std::integral_constant<int, 4>());
    case 8:
      return f(std::integral_constant<int, 8>());
    case 16:
      return f(std::integral_constant<int, 16>());
    default:
      return other();
  }
}

void GeneralRowsAny(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                    int64_t d0) {
  ByElementSize(
      c.p.esize,
      [&](auto es) { GeneralRows<decltype(es)::value>(c, a0, a1, s0, d0); },
      [&] { GeneralRowsBits(c, a0, a1, s0, d0); });
}

// ---------------------------------------------------------------------------
// Runs contiguous in both layouts.

template <int L>
inline void CopyFixed(uint8_t* d, const uint8_t* s, bool streaming) {
#if defined(__SSE2__)
  static_assert(L % 16 == 0, "16-byte multiples");
  if (streaming) {
    for (int i = 0; i < L; i += 16) {
      _mm_stream_si128(
          reinterpret_cast<__m128i*>(d + i),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    }
    return;
  }
#endif
  (void)streaming;
  std::memcpy(d, s, L);
}

// Calls copy(s, d, run) for every run of rows [a0, a1) (s, d: element
// offsets of the run's first element). Rows outermost, and
// prefetch(s, d, run) for the same run `dist` rows ahead (0: none); or,
// with p.rows_inner, blocks of a_block rows run by run, prefetching the
// run `dist` runs ahead in the same row.
template <typename Copy, typename Prefetch>
inline void WalkRuns(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                     int64_t d0, int64_t dist, const Copy& copy,
                     const Prefetch& prefetch) {
  const int64_t* as = c.p.a.s.data();
  const int64_t* ad = c.p.a.d.data();
  const Run* runs = c.p.runs.data();
  const size_t nr = c.p.runs.size();
  if (c.p.rows_inner) {
    const int64_t blk = c.p.a_block;
    for (int64_t i0 = a0; i0 < a1; i0 += blk) {
      const int64_t i1 = std::min(a1, i0 + blk);
      for (size_t r = 0; r < nr; ++r) {
        const bool pf = dist > 0 && r + dist < nr;
        const Run& next = runs[pf ? r + dist : r];
        for (int64_t i = i0; i < i1; ++i) {
          if (pf) prefetch(s0 + as[i] + next.s, d0 + ad[i] + next.d, next);
          copy(s0 + as[i] + runs[r].s, d0 + ad[i] + runs[r].d, runs[r]);
        }
      }
    }
    return;
  }
  for (int64_t i = a0; i < a1; ++i) {
    const int64_t s = s0 + as[i];
    const int64_t d = d0 + ad[i];
    const bool pf = dist > 0 && i + dist < a1;
    const int64_t ns = pf ? s0 + as[i + dist] : 0;
    const int64_t nd = pf ? d0 + ad[i + dist] : 0;
    for (size_t r = 0; r < nr; ++r) {
      if (pf) prefetch(ns + runs[r].s, nd + runs[r].d, runs[r]);
      copy(s + runs[r].s, d + runs[r].d, runs[r]);
    }
  }
}

template <int L>
void RunsFixed(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  const int64_t es = c.p.esize;
  // Runs shorter than 256 bytes are scattered enough that the hardware
  // prefetchers lose track of them: fetch the same runs 4 rows ahead.
  WalkRuns(
      c, a0, a1, s0, d0, L < 256 ? 4 : 0,
      [&](int64_t s, int64_t d, const Run&) {
        CopyFixed<L>(c.dst + d * es, c.src + s * es, c.streaming);
      },
      [&](int64_t s, int64_t d, const Run&) {
        for (int l = 0; l < L; l += 64) {
          __builtin_prefetch(c.src + s * es + l);
          if (!c.streaming) __builtin_prefetch(c.dst + d * es + l, 1);
        }
      });
}

void RunsAny(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  const int64_t es = c.p.esize;
  WalkRuns(
      c, a0, a1, s0, d0, 0,
      [&](int64_t s, int64_t d, const Run& r) {
        std::memcpy(c.dst + d * es, c.src + s * es, r.len * es);
      },
      [](int64_t, int64_t, const Run&) {});
}

// Destinations from this size on are written with streaming stores where
// a kernel can (they would not stay in the caches anyway).
constexpr int64_t kStreamingBytes = int64_t{8} << 20;

// Uniform run length in bytes when every run has it, else 0.
int64_t UniformRunBytes(const Plan& p) {
  if (p.runs.empty()) return 0;
  const int64_t len = p.runs[0].len;
  for (const Run& r : p.runs) {
    if (r.len != len) return 0;
  }
  return len * p.esize;
}

// ---------------------------------------------------------------------------
// Interleave: k rows of src (contiguous along b) into dst, element i of row
// r at dst[k * i + r]; de-interleave is the reverse.

template <int ES, int K>
inline void InterleaveScalar(uint8_t* out, const uint8_t* const* in,
                             int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    for (int r = 0; r < K; ++r) {
      CopyElem<ES>(out + (i * K + r) * ES, in[r] + i * ES);
    }
  }
}

template <int ES, int K>
inline void DeinterleaveScalar(uint8_t* const* out, const uint8_t* in,
                               int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    for (int r = 0; r < K; ++r) {
      CopyElem<ES>(out[r] + i * ES, in + (i * K + r) * ES);
    }
  }
}

template <int ES, int K>
inline void Interleave(uint8_t* out, const uint8_t* const* in, int64_t n) {
  int64_t i = 0;
#if defined(__SSE2__)
  if (ES == 2 && K == 2) {
    for (; i + 8 <= n; i += 8) {
      const __m128i x = _mm_loadu_si128((const __m128i*)(in[0] + i * 2));
      const __m128i y = _mm_loadu_si128((const __m128i*)(in[1] + i * 2));
      _mm_storeu_si128((__m128i*)(out + i * 4), _mm_unpacklo_epi16(x, y));
      _mm_storeu_si128((__m128i*)(out + i * 4 + 16), _mm_unpackhi_epi16(x, y));
    }
  } else if (ES == 1 && K == 4) {
    for (; i + 16 <= n; i += 16) {
      const __m128i r0 = _mm_loadu_si128((const __m128i*)(in[0] + i));
      const __m128i r1 = _mm_loadu_si128((const __m128i*)(in[1] + i));
      const __m128i r2 = _mm_loadu_si128((const __m128i*)(in[2] + i));
      const __m128i r3 = _mm_loadu_si128((const __m128i*)(in[3] + i));
      const __m128i t0 = _mm_unpacklo_epi8(r0, r1);
      const __m128i t1 = _mm_unpackhi_epi8(r0, r1);
      const __m128i t2 = _mm_unpacklo_epi8(r2, r3);
      const __m128i t3 = _mm_unpackhi_epi8(r2, r3);
      uint8_t* o = out + i * 4;
      _mm_storeu_si128((__m128i*)(o), _mm_unpacklo_epi16(t0, t2));
      _mm_storeu_si128((__m128i*)(o + 16), _mm_unpackhi_epi16(t0, t2));
      _mm_storeu_si128((__m128i*)(o + 32), _mm_unpacklo_epi16(t1, t3));
      _mm_storeu_si128((__m128i*)(o + 48), _mm_unpackhi_epi16(t1, t3));
    }
  } else if (ES == 1 && K == 2) {
    for (; i + 16 <= n; i += 16) {
      const __m128i x = _mm_loadu_si128((const __m128i*)(in[0] + i));
      const __m128i y = _mm_loadu_si128((const __m128i*)(in[1] + i));
      _mm_storeu_si128((__m128i*)(out + i * 2), _mm_unpacklo_epi8(x, y));
      _mm_storeu_si128((__m128i*)(out + i * 2 + 16), _mm_unpackhi_epi8(x, y));
    }
  } else if (ES == 4 && K == 2) {
    for (; i + 4 <= n; i += 4) {
      const __m128i x = _mm_loadu_si128((const __m128i*)(in[0] + i * 4));
      const __m128i y = _mm_loadu_si128((const __m128i*)(in[1] + i * 4));
      _mm_storeu_si128((__m128i*)(out + i * 8), _mm_unpacklo_epi32(x, y));
      _mm_storeu_si128((__m128i*)(out + i * 8 + 16), _mm_unpackhi_epi32(x, y));
    }
  }
#endif
  if (i < n) {
    const uint8_t* rest[K];
    for (int r = 0; r < K; ++r) rest[r] = in[r] + i * ES;
    InterleaveScalar<ES, K>(out + i * K * ES, rest, n - i);
  }
}

template <int ES, int K>
inline void Deinterleave(uint8_t* const* out, const uint8_t* in, int64_t n) {
  int64_t i = 0;
#if defined(__SSE2__)
  if (ES == 2 && K == 2) {
    for (; i + 8 <= n; i += 8) {
      const __m128i x = _mm_loadu_si128((const __m128i*)(in + i * 4));
      const __m128i y = _mm_loadu_si128((const __m128i*)(in + i * 4 + 16));
      // Even 16-bit lanes sign-extended, then packed with signed
      // saturation: exact.
      const __m128i xe = _mm_srai_epi32(_mm_slli_epi32(x, 16), 16);
      const __m128i ye = _mm_srai_epi32(_mm_slli_epi32(y, 16), 16);
      const __m128i xo = _mm_srai_epi32(x, 16);
      const __m128i yo = _mm_srai_epi32(y, 16);
      _mm_storeu_si128((__m128i*)(out[0] + i * 2), _mm_packs_epi32(xe, ye));
      _mm_storeu_si128((__m128i*)(out[1] + i * 2), _mm_packs_epi32(xo, yo));
    }
  } else if (ES == 1 && K == 4) {
    const __m128i ff = _mm_set1_epi32(0xFF);
    for (; i + 16 <= n; i += 16) {
      const __m128i x0 = _mm_loadu_si128((const __m128i*)(in + i * 4));
      const __m128i x1 = _mm_loadu_si128((const __m128i*)(in + i * 4 + 16));
      const __m128i x2 = _mm_loadu_si128((const __m128i*)(in + i * 4 + 32));
      const __m128i x3 = _mm_loadu_si128((const __m128i*)(in + i * 4 + 48));
#define HLOLAYOUT_LANE(j)                                            \
  _mm_packus_epi16(                                                  \
      _mm_packs_epi32(_mm_and_si128(_mm_srli_epi32(x0, 8 * j), ff),  \
                      _mm_and_si128(_mm_srli_epi32(x1, 8 * j), ff)), \
      _mm_packs_epi32(_mm_and_si128(_mm_srli_epi32(x2, 8 * j), ff),  \
                      _mm_and_si128(_mm_srli_epi32(x3, 8 * j), ff)))
      _mm_storeu_si128((__m128i*)(out[0] + i), HLOLAYOUT_LANE(0));
      _mm_storeu_si128((__m128i*)(out[1] + i), HLOLAYOUT_LANE(1));
      _mm_storeu_si128((__m128i*)(out[2] + i), HLOLAYOUT_LANE(2));
      _mm_storeu_si128((__m128i*)(out[3] + i), HLOLAYOUT_LANE(3));
#undef HLOLAYOUT_LANE
    }
  }
#endif
  if (i < n) {
    uint8_t* rest[K];
    for (int r = 0; r < K; ++r) rest[r] = out[r] + i * ES;
    DeinterleaveScalar<ES, K>(rest, in + i * K * ES, n - i);
  }
}

// Interleave (kInter) or de-interleave K rows of [i, i + K): K rows of one
// side against one row of the other, for runs [r0, r1); prefetches the
// same runs at `next` when not null.
template <int ES, int K, bool kInter>
inline void InterleaveBlock(const Ctx& c, int64_t i, int64_t s0, int64_t d0,
                            size_t r0, size_t r1, const uint8_t* next) {
  const Group& a = c.p.a;
  const uint8_t* in[K];  // src rows (interleave)
  uint8_t* out[K];       // dst rows (de-interleave)
  for (int r = 0; r < K; ++r) {
    in[r] = c.src + (s0 + a.s[i + r]) * ES;
    out[r] = c.dst + (d0 + a.d[i + r]) * ES;
  }
  for (size_t q = r0; q < r1; ++q) {
    const Run& run = c.p.runs[q];
    if (next != nullptr) {
      const int64_t bytes = run.len * K * ES;
      for (int64_t l = 0; l < bytes; l += 64) {
        __builtin_prefetch(next + run.s * ES + l);
      }
    }
    const uint8_t* rin[K];
    uint8_t* rout[K];
    for (int r = 0; r < K; ++r) {
      rin[r] = in[r] + run.s * ES;
      rout[r] = out[r] + run.d * ES;
    }
    if (kInter) {
      Interleave<ES, K>(rout[0], rin, run.len);
    } else {
      Deinterleave<ES, K>(rout, rin[0], run.len);
    }
  }
}

// Blocks of K rows of [a0, a1); the rows left over element by element.
// With p.rows_inner, the blocks of K rows of each a_block are walked run by
// run (they are adjacent in dst, or in src: the halves of a tile).
template <int ES, int K, bool kInter>
void InterleaveRows(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                    int64_t d0) {
  const Group& a = c.p.a;
  const size_t nr = c.p.runs.size();
  int64_t i = a0;
  if (c.p.rows_inner) {
    const int64_t blk = c.p.a_block;
    while (i + K <= a1) {
      const int64_t n = std::min(a1 - i, blk) / K * K;  // whole blocks
      for (size_t q = 0; q < nr; ++q) {
        for (int64_t b = i; b < i + n; b += K) {
          InterleaveBlock<ES, K, kInter>(c, b, s0, d0, q, q + 1, nullptr);
        }
      }
      i += n;
    }
  } else {
    for (; i + K <= a1; i += K) {
      // De-interleave: the same runs of the next block of rows, fetched
      // ahead (the runs are pieces of many tiles; hardware prefetchers lose
      // track of them). Interleave reads plain rows.
      const uint8_t* next =
          !kInter && i + 2 * K <= a1 ? c.src + (s0 + a.s[i + K]) * ES : nullptr;
      InterleaveBlock<ES, K, kInter>(c, i, s0, d0, 0, nr, next);
    }
  }
  if (i < a1) GeneralRows<ES>(c, i, a1, s0, d0);
}

template <int ES, bool kInter>
void InterleaveAnyK(const Ctx& c, int64_t a0, int64_t a1, int64_t s0,
                    int64_t d0) {
  switch (c.p.k) {
    case 2:
      return InterleaveRows<ES, 2, kInter>(c, a0, a1, s0, d0);
    case 4:
      return InterleaveRows<ES, 4, kInter>(c, a0, a1, s0, d0);
    case 8:
      return InterleaveRows<ES, 8, kInter>(c, a0, a1, s0, d0);
    default:
      return GeneralRows<ES>(c, a0, a1, s0, d0);
  }
}

// ---------------------------------------------------------------------------
// Pack / unpack: one byte per element <-> E(bits), runs contiguous in both.

// Packs n whole output bytes from n * (8 / bits) input bytes.
template <int bits>
inline void PackBytes(uint8_t* out, const uint8_t* in, int64_t n,
                      PackingOrder order) {
  int64_t i = 0;
#if defined(__SSE2__)
  if (bits == 4) {
    const __m128i lo_mask = _mm_set1_epi16(0x000F);
    const __m128i hi_mask = _mm_set1_epi16(0x0F00);
    // Each 16-bit lane (even element low, odd high) to its byte in the
    // low half: low-first even | odd << 4, high-first even << 4 | odd.
    const bool low_first = order == PackingOrder::kLowFirst;
    auto pack = [&](__m128i v) {
      const __m128i even = _mm_and_si128(v, lo_mask);
      const __m128i odd = _mm_and_si128(v, hi_mask);
      return low_first ? _mm_or_si128(even, _mm_srli_epi16(odd, 4))
                       : _mm_or_si128(_mm_slli_epi16(even, 4),
                                      _mm_srli_epi16(odd, 8));
    };
    for (; i + 16 <= n; i += 16) {
      const __m128i px = pack(_mm_loadu_si128((const __m128i*)(in + 2 * i)));
      const __m128i py =
          pack(_mm_loadu_si128((const __m128i*)(in + 2 * i + 16)));
      _mm_storeu_si128((__m128i*)(out + i), _mm_packus_epi16(px, py));
    }
  }
#endif
  const int per = 8 / bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  for (; i < n; ++i) {
    uint8_t byte = 0;
    for (int e = 0; e < per; ++e) {
      const int sh = PackedShift(e * bits, bits, order);
      byte = static_cast<uint8_t>(byte | ((in[i * per + e] & mask) << sh));
    }
    out[i] = byte;
  }
}

// Unpacks n input bytes into n * (8 / bits) bytes, sign extended when
// `sign`.
template <int bits>
inline void UnpackBytes(uint8_t* out, const uint8_t* in, int64_t n,
                        PackingOrder order, bool sign) {
  int64_t i = 0;
#if defined(__SSE2__)
  if (bits == 4) {
    const __m128i m = _mm_set1_epi8(0x0F);
    const __m128i eight = _mm_set1_epi8(8);
    for (; i + 16 <= n; i += 16) {
      const __m128i x = _mm_loadu_si128((const __m128i*)(in + i));
      __m128i lo = _mm_and_si128(x, m);
      __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), m);
      if (sign) {  // (v ^ 8) - 8
        lo = _mm_sub_epi8(_mm_xor_si128(lo, eight), eight);
        hi = _mm_sub_epi8(_mm_xor_si128(hi, eight), eight);
      }
      const __m128i first = order == PackingOrder::kLowFirst ? lo : hi;
      const __m128i second = order == PackingOrder::kLowFirst ? hi : lo;
      _mm_storeu_si128((__m128i*)(out + 2 * i),
                       _mm_unpacklo_epi8(first, second));
      _mm_storeu_si128((__m128i*)(out + 2 * i + 16),
                       _mm_unpackhi_epi8(first, second));
    }
  }
#endif
  const int per = 8 / bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  const uint8_t sign_bit = static_cast<uint8_t>(1u << (bits - 1));
  for (; i < n; ++i) {
    for (int e = 0; e < per; ++e) {
      const int sh = PackedShift(e * bits, bits, order);
      uint8_t v = (in[i] >> sh) & mask;
      if (sign && (v & sign_bit)) v = static_cast<uint8_t>(v | ~mask);
      out[i * per + e] = v;
    }
  }
}

// Packs or unpacks the run of n elements at element offsets rs (src) and
// rd (dst): the ends that do not fill a byte of the packed side element by
// element, the whole bytes between with PackBytes / UnpackBytes.
template <int bits>
inline void PackRun(const Plan& p, const BitIO& io, const uint8_t* src,
                    uint8_t* dst, int64_t rs, int64_t rd, int64_t n) {
  constexpr int64_t per = 8 / bits;
  const bool packing = p.dst_bits < 8;
  const int64_t packed_off = packing ? rd : rs;
  const int64_t head = std::min(n, (per - packed_off % per) % per);
  for (int64_t e = 0; e < head; ++e) {
    io.Write(dst, rd + e, io.Read(src, rs + e));
  }
  rs += head;
  rd += head;
  n -= head;
  const int64_t whole = n / per;
  if (whole > 0) {
    if (packing) {
      PackBytes<bits>(dst + rd / per, src + rs, whole, p.order);
    } else {
      UnpackBytes<bits>(dst + rd, src + rs / per, whole, p.order,
                        p.sign_extend);
    }
  }
  rs += whole * per;
  rd += whole * per;
  n -= whole * per;
  for (int64_t e = 0; e < n; ++e) {
    io.Write(dst, rd + e, io.Read(src, rs + e));
  }
}

template <int bits>
void PackRows(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  const Plan& p = c.p;
  const BitIO io(p);
  const bool packing = p.dst_bits < 8;
  constexpr int64_t per = 8 / bits;
  // Source lines of the next row's runs, fetched ahead; only for several
  // runs per row (pieces of tiles): one run is a plain sequential stream.
  WalkRuns(
      c, a0, a1, s0, d0, p.runs.size() > 1 ? 1 : 0,
      [&](int64_t s, int64_t d, const Run& r) {
        PackRun<bits>(p, io, c.src, c.dst, s, d, r.len);
      },
      [&](int64_t s, int64_t, const Run& r) {
        const int64_t first = packing ? s : s / per;
        const int64_t bytes = packing ? r.len : r.len / per + 1;
        for (int64_t l = 0; l < bytes; l += 64) {
          __builtin_prefetch(c.src + first + l);
        }
      });
}

void PackRowsAny(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  switch (std::min(c.p.src_bits, c.p.dst_bits)) {
    case 4:
      return PackRows<4>(c, a0, a1, s0, d0);
    case 2:
      return PackRows<2>(c, a0, a1, s0, d0);
    default:
      return PackRows<1>(c, a0, a1, s0, d0);
  }
}

// ---------------------------------------------------------------------------

void CallKernel(const Ctx& c, int64_t a0, int64_t a1, int64_t s0, int64_t d0) {
  const Plan& p = c.p;
  switch (p.kernel) {
    case RelayoutKernel::kRuns: {
      // Fixed-length copies: for every length with streaming stores, for
      // short runs without, and for small destinations (a memcpy call per
      // run of 256 bytes was a third of a 16 KiB tiling from Python; from
      // 256 KiB on, glibc's memcpy, with wider registers than these SSE2
      // copies, is faster: measured 9.7 against 12 us at 256 KiB).
      const int64_t u = UniformRunBytes(p);
      const bool fixed = c.streaming || u <= 64 || p.dst_bytes < (64 << 10);
      switch (fixed ? u : 0) {
        case 16:
          return RunsFixed<16>(c, a0, a1, s0, d0);
        case 32:
          return RunsFixed<32>(c, a0, a1, s0, d0);
        case 64:
          return RunsFixed<64>(c, a0, a1, s0, d0);
        case 128:
          return RunsFixed<128>(c, a0, a1, s0, d0);
        case 256:
          return RunsFixed<256>(c, a0, a1, s0, d0);
        case 512:
          return RunsFixed<512>(c, a0, a1, s0, d0);
        default:
          return RunsAny(c, a0, a1, s0, d0);
      }
    }
    case RelayoutKernel::kInterleave:
    case RelayoutKernel::kDeinterleave:
    case RelayoutKernel::kTranspose:
      return ByElementSize(
          p.esize,
          [&](auto es) {
            constexpr int ES = decltype(es)::value;
            if (p.kernel == RelayoutKernel::kTranspose) {
              TransposeRows<ES>(c, a0, a1, s0, d0);
            } else if (p.kernel == RelayoutKernel::kInterleave) {
              InterleaveAnyK<ES, true>(c, a0, a1, s0, d0);
            } else {
              InterleaveAnyK<ES, false>(c, a0, a1, s0, d0);
            }
          },
          [&] { GeneralRowsAny(c, a0, a1, s0, d0); });
    case RelayoutKernel::kPack:
      return PackRowsAny(c, a0, a1, s0, d0);
    default:
      return GeneralRowsAny(c, a0, a1, s0, d0);
  }
}

// Work units [u0, u1): unit u is block (u % blocks) of group a at outer
// index u / blocks.
void Work(const Ctx& c, int64_t u0, int64_t u1) {
  const Plan& p = c.p;
  const int64_t blocks = (p.a.size + p.a_block - 1) / p.a_block;
  int64_t u = u0;
  while (u < u1) {
    int64_t o = u / blocks;
    const int64_t blk0 = u % blocks;
    const int64_t blk1 = std::min(blocks, blk0 + (u1 - u));
    int64_t s0 = 0, d0 = 0;
    for (int64_t g = static_cast<int64_t>(p.outer.size()) - 1; g >= 0; --g) {
      const Group& grp = p.outer[g];
      const int64_t idx = o % grp.size;
      o /= grp.size;
      s0 += grp.s[idx];
      d0 += grp.d[idx];
    }
    CallKernel(c, blk0 * p.a_block, std::min(p.a.size, blk1 * p.a_block), s0,
               d0 - c.d_shift);
    u += blk1 - blk0;
  }
#if defined(__SSE2__)
  if (c.streaming) _mm_sfence();
#endif
}

template <typename F>
void Parallel(int threads, int64_t units, const F& f) {
  threads = static_cast<int>(std::min<int64_t>(threads, units));
  if (threads <= 1) {
    f(0, units);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(f, units * t / threads, units * (t + 1) / threads);
  }
  f(0, units / threads);
  for (std::thread& t : pool) t.join();
}

void RunIndexers(const Plan& p, const uint8_t* src, uint8_t* dst) {
  const int rank = static_cast<int>(p.dims.size());
  std::vector<int64_t> index(rank, 0);
  const BitIO io(p);
  for (int64_t e = 0; e < p.elements; ++e) {
    const int64_t so = p.src_indexer->OffsetInElements(index);
    const int64_t dof = p.dst_indexer->OffsetInElements(index);
    if (p.esize > 0) {
      std::memcpy(dst + dof * p.esize, src + so * p.esize, p.esize);
    } else {
      io.Write(dst, dof, io.Read(src, so));
    }
    for (int k = rank - 1; k >= 0; --k) {
      const int d = p.dim_order[k];
      if (++index[d] < p.dims[d]) break;
      index[d] = 0;
    }
  }
}

#if HLOLAYOUT_X86_TARGETS
// RunBreaks64's "continues" bits for entries j + i, i < n rounded down to
// 4, four at a time (AVX2 has the 64-bit compare SSE2 lacks); *done gets
// how many were done.
__attribute__((target("avx2"))) uint64_t RunContinuesAvx2(
    const int64_t* s, const int64_t* d, int64_t j, int n, int64_t s_step,
    int64_t d_step, int* done) {
  // (No lambda: it would not inherit the avx2 target.)
#define HLOLAYOUT_LOAD4(p) \
  _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
  const __m256i ss = _mm256_set1_epi64x(s_step);
  const __m256i ds = _mm256_set1_epi64x(d_step);
  uint64_t same = 0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const int64_t k = j + i;
    const __m256i es = _mm256_cmpeq_epi64(
        _mm256_sub_epi64(HLOLAYOUT_LOAD4(s + k), HLOLAYOUT_LOAD4(s + k - 1)),
        ss);
    const __m256i ed = _mm256_cmpeq_epi64(
        _mm256_sub_epi64(HLOLAYOUT_LOAD4(d + k), HLOLAYOUT_LOAD4(d + k - 1)),
        ds);
    same |= static_cast<uint64_t>(_mm256_movemask_pd(
                _mm256_castsi256_pd(_mm256_and_si256(es, ed))))
            << i;
  }
#undef HLOLAYOUT_LOAD4
  *done = i;
  return same;
}
#endif

// Where b's runs break for steps (s_step, d_step): bit i of the result is
// set when element j + i (i < 64, j + i < b.size) does not continue the
// run of element j + i - 1. @pre j >= 1. Plan creation scans tables of
// thousands of entries several times, so this is AVX2 (when `avx2`) or
// SSE2 (two entries per compare, each entry loaded once; GCC at -O2 does
// not vectorize the loop).
inline uint64_t RunBreaks64(const Group& b, int64_t j, int64_t s_step,
                            int64_t d_step, bool avx2) {
  const int n = static_cast<int>(std::min<int64_t>(64, b.size - j));
  const int64_t* s = b.s.data();
  const int64_t* d = b.d.data();
  uint64_t same = 0;
  int i = 0;
#if HLOLAYOUT_X86_TARGETS
  if (avx2) same = RunContinuesAvx2(s, d, j, n, s_step, d_step, &i);
#else
  (void)avx2;
#endif
#if defined(__SSE2__)
  if (i == 0 && n >= 2) {
    auto load = [](const int64_t* p) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    };
    // The pair after (x[k-1], x[k]) is (x[k+1], x[k+2]): its "previous"
    // pair (x[k], x[k+1]) is the high half of one and the low of the next.
    auto between = [](__m128i lo, __m128i hi) {
      return _mm_castpd_si128(
          _mm_shuffle_pd(_mm_castsi128_pd(lo), _mm_castsi128_pd(hi), 1));
    };
    const __m128i ss = _mm_set1_epi64x(s_step);
    const __m128i ds = _mm_set1_epi64x(d_step);
    const __m128i zero = _mm_setzero_si128();
    __m128i prev_s = load(s + j - 1), prev_d = load(d + j - 1);
    __m128i cur_s = load(s + j), cur_d = load(d + j);
    while (true) {
      const __m128i diff =
          _mm_or_si128(_mm_sub_epi64(_mm_sub_epi64(cur_s, prev_s), ss),
                       _mm_sub_epi64(_mm_sub_epi64(cur_d, prev_d), ds));
      __m128i z = _mm_cmpeq_epi32(diff, zero);
      // A 64-bit lane is zero when both of its 32-bit halves are.
      z = _mm_and_si128(z, _mm_shuffle_epi32(z, _MM_SHUFFLE(2, 3, 0, 1)));
      same |= static_cast<uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(z))) << i;
      i += 2;
      if (i + 2 > n) break;
      const __m128i next_s = load(s + j + i), next_d = load(d + j + i);
      prev_s = between(cur_s, next_s);
      prev_d = between(cur_d, next_d);
      cur_s = next_s;
      cur_d = next_d;
    }
  }
#endif
  for (; i < n; ++i) {
    const int64_t k = j + i;
    same |= static_cast<uint64_t>(s[k] - s[k - 1] == s_step &&
                                  d[k] - d[k - 1] == d_step)
            << i;
  }
  return ~same & (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1);
}

// Set bits of a 64-bit mask (no POPCNT instruction in baseline x86-64:
// __builtin_popcountll is a library call there).
inline int Popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<int>((x * 0x0101010101010101u) >> 56);
}

std::vector<Run> MakeRuns(const Group& b, int64_t s_step, int64_t d_step,
                          bool avx2) {
  std::vector<Run> runs;
  if (b.size == 0) return runs;
  runs.push_back(Run{0, b.s[0], b.d[0], 1});
  int64_t last = 1;  // runs.back() covers up to here (exclusive)
  for (int64_t j0 = 1; j0 < b.size; j0 += 64) {
    for (uint64_t m = RunBreaks64(b, j0, s_step, d_step, avx2); m != 0;
         m &= m - 1) {
      const int64_t j = j0 + __builtin_ctzll(m);
      runs.back().len += j - last;
      runs.push_back(Run{j, b.s[j], b.d[j], 1});
      last = j + 1;
    }
  }
  runs.back().len += b.size - last;
  return runs;
}

int64_t CountRuns(const Group& b, int64_t s_step, int64_t d_step, int64_t limit,
                  bool avx2);

// MakeRuns, unless there are more than `limit` runs: then false (and
// *runs holds some of them). One pass over b, stopping early.
bool MakeRunsUpTo(const Group& b, int64_t s_step, int64_t d_step, int64_t limit,
                  bool avx2, std::vector<Run>* runs) {
  runs->clear();
  if (b.size == 0) return limit >= 0;
  // When the first entries break far more often than `limit` allows (a
  // transpose tried as an interleave), count first without storing runs:
  // that fails as soon and allocates nothing. Speed only: the answer is
  // the same either way.
  if (b.size > 1) {
    const int64_t head = std::min<int64_t>(64, b.size - 1);
    const int64_t head_breaks =
        Popcount64(RunBreaks64(b, 1, s_step, d_step, avx2));
    if (head_breaks * b.size > 2 * limit * head &&
        CountRuns(b, s_step, d_step, limit, avx2) > limit) {
      return false;
    }
  }
  runs->push_back(Run{0, b.s[0], b.d[0], 1});
  int64_t last = 1;  // runs->back() covers up to here (exclusive)
  for (int64_t j0 = 1; j0 < b.size; j0 += 64) {
    for (uint64_t m = RunBreaks64(b, j0, s_step, d_step, avx2); m != 0;
         m &= m - 1) {
      if (static_cast<int64_t>(runs->size()) >= limit) return false;
      const int64_t j = j0 + __builtin_ctzll(m);
      runs->back().len += j - last;
      runs->push_back(Run{j, b.s[j], b.d[j], 1});
      last = j + 1;
    }
  }
  runs->back().len += b.size - last;
  return static_cast<int64_t>(runs->size()) <= limit;
}

// The number of runs MakeRuns(b, s_step, d_step) would make, or a number
// above `limit` as soon as there are more than `limit` (plan creation
// tries several steps: nothing allocated, and it stops early).
int64_t CountRuns(const Group& b, int64_t s_step, int64_t d_step, int64_t limit,
                  bool avx2) {
  if (b.size == 0) return 0;
  int64_t count = 1;
  for (int64_t j0 = 1; j0 < b.size; j0 += 64) {
    count += Popcount64(RunBreaks64(b, j0, s_step, d_step, avx2));
    if (count > limit) return count;
  }
  return count;
}

// The OR of every entry of `t` (SSE2: two entries per instruction).
uint64_t OrOfAll(const OffsetTable& t) {
  const int64_t n = static_cast<int64_t>(t.size());
  int64_t i = 0;
  uint64_t bits = 0;
#if defined(__SSE2__)
  __m128i acc = _mm_setzero_si128();
  for (; i + 2 <= n; i += 2) {
    acc = _mm_or_si128(
        acc, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&t[i])));
  }
  alignas(16) uint64_t lanes[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), acc);
  bits = lanes[0] | lanes[1];
#endif
  for (; i < n; ++i) bits |= static_cast<uint64_t>(t[i]);
  return bits;
}

// True when rows i..i+k-1 of every full block of k are consecutive in
// `offsets` (offsets[i + r] == offsets[i] + r): every row but a block's
// first continues the run of the row before (RunBreaks64 on a group whose
// s is d too). k is 2, 4 or 8, which divides 64, so the rows that start a
// block are the same bits of every 64-row mask.
bool BlocksConsecutive(const OffsetTable& offsets, int64_t size, int k,
                       bool avx2) {
  if (size < k) return false;
  Group g;
  g.size = size / k * k;  // the rows of full blocks
  g.s = offsets;
  g.d = offsets;
  uint64_t starts = 0;  // bit i: row 1 + i starts a block
  for (int i = 0; i < 64; ++i) {
    if ((1 + i) % k == 0) starts |= uint64_t{1} << i;
  }
  for (int64_t j0 = 1; j0 < g.size; j0 += 64) {
    if ((RunBreaks64(g, j0, 1, 1, avx2) & ~starts) != 0) return false;
  }
  return true;
}

bool IsAffine(const OffsetTable& t, int64_t step) {
  // t[i] == i * step for all i: the OR of their differences is 0 (wrapping
  // unsigned arithmetic, as i * step may wrap when t is not affine).
  const int64_t n = static_cast<int64_t>(t.size());
  int64_t i = 0;
  uint64_t bad = 0;
#if defined(__SSE2__)
  __m128i acc = _mm_setzero_si128();
  __m128i want = _mm_set_epi64x(step, 0);  // (0, step), low lane first
  const __m128i two =
      _mm_set1_epi64x(static_cast<int64_t>(2 * static_cast<uint64_t>(step)));
  for (; i + 2 <= n; i += 2) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&t[i]));
    acc = _mm_or_si128(acc, _mm_xor_si128(v, want));
    want = _mm_add_epi64(want, two);
    if ((i & 511) == 510) {  // stop early on tables that are not affine
      if (_mm_movemask_epi8(_mm_cmpeq_epi32(acc, _mm_setzero_si128())) !=
          0xFFFF) {
        return false;
      }
    }
  }
  alignas(16) uint64_t lanes[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), acc);
  bad = lanes[0] | lanes[1];
#endif
  for (; i < n; ++i) {
    bad |= static_cast<uint64_t>(t[i]) ^
           (static_cast<uint64_t>(i) * static_cast<uint64_t>(step));
  }
  return bad == 0;
}

// With several runs per row, when consecutive rows of each run are
// adjacent in dst (a.d[i] == i * len for the first rows, as in a tile's
// rows), walking blocks of those rows run by run writes dst in order; or,
// adjacent in src, reads src in order.
void ChooseRowsInner(Plan& p) {
  p.rows_inner = false;
  if (p.runs.size() < 2 || p.a.size < 2) return;
  const int64_t len = p.runs[0].len;
  for (const Run& r : p.runs) {
    if (r.len != len) return;
  }
  int64_t chain = 1;
  while (chain < p.a.size && p.a.d[chain] == chain * len) ++chain;
  // Else, when the runs are long enough in dst to be written well where
  // they are, read src in order the same way (measured: better for runs of
  // 128 bytes and more, much worse for 64).
  const int64_t dst_run_bits = len * p.dst_bits;
  if (chain < 2 && dst_run_bits >= 128 * 8) {
    while (chain < p.a.size && p.a.s[chain] == chain * len) ++chain;
  }
  if (chain < 2) return;
  p.rows_inner = true;
  p.a_block = chain;
}

// True when no byte of dst holds elements of two work units (blocks of
// a_block rows of a at one outer index), so that threads never write the
// same byte of a packed destination; may enlarge a_block to get there.
// Either every run of b contiguous in dst starts and ends on a byte, and so
// does every row and outer offset (tiles of whole bytes, rows of whole
// bytes); or the rows follow one another in dst (a row-major packed layout
// whose rows end mid-byte), and blocks of 8 / gcd(row bits, 8) rows are
// whole bytes.
bool UnitsOwnTheirBytes(Plan& p) {
  if (p.dst_bits >= 8) return true;
  const int64_t per = 8 / p.dst_bits;  // 8 / (1..7): a power of two
  auto whole = [per](const OffsetTable& offsets) {
    // All offsets are multiples of per.
    return (OrOfAll(offsets) & (per - 1)) == 0;
  };
  for (const Group& g : p.outer) {
    if (!whole(g.d)) return false;
  }
  bool runs_whole = whole(p.a.d);
  // Runs of b contiguous in dst: where b.d does not step by 1 (RunBreaks64
  // on a group whose s is d too).
  Group dst_only;
  dst_only.size = p.b.size;
  dst_only.s = p.b.d;
  dst_only.d = p.b.d;
  int64_t start = 0;
  uint64_t bad = 0;  // OR of every run's start offset and length
  for (int64_t j0 = 1; runs_whole && j0 < p.b.size; j0 += 64) {
    for (uint64_t m = RunBreaks64(dst_only, j0, 1, 1, p.avx2); m != 0;
         m &= m - 1) {
      const int64_t j = j0 + __builtin_ctzll(m);
      bad |= static_cast<uint64_t>(p.b.d[start] | (j - start));
      start = j;
    }
    runs_whole = (bad & (per - 1)) == 0;
  }
  if (p.b.size > 0) {
    bad |= static_cast<uint64_t>(p.b.d[start] | (p.b.size - start));
  }
  runs_whole = runs_whole && (bad & (per - 1)) == 0;
  if (runs_whole) return true;
  const int64_t w = p.b.size;
  if (!IsAffine(p.b.d, 1) || !IsAffine(p.a.d, w)) return false;
  const int64_t rows = per / std::gcd(w, per);
  if (p.a_block % rows == 0) return true;
  if (p.a_block != 1) return false;
  p.a_block = rows;
  return true;
}

// Interleave / de-interleave: when consecutive blocks of k rows are
// adjacent in dst (interleave) or src (de-interleave) for every run (the
// two halves of a T(8,128)(4,1) tile), walks a_block = chain * k rows run
// by run, so that side is a sequential stream.
void ChooseBlocksInner(Plan& p, bool inter) {
  if (p.runs.size() < 2) return;
  const int64_t len = p.runs[0].len;
  for (const Run& r : p.runs) {
    if (r.len != len) return;
  }
  const OffsetTable& side = inter ? p.a.d : p.a.s;
  int64_t chain = 1;
  while ((chain + 1) * p.k <= p.a.size &&
         side[chain * p.k] == chain * p.k * len) {
    ++chain;
  }
  if (chain < 2) return;
  p.rows_inner = true;
  p.a_block = chain * p.k;
}

}  // namespace

bool CpuHasAvx2() {
#if HLOLAYOUT_X86_TARGETS
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

namespace {

// The kernel and its fields, threads aside.
void ChooseKernelOnly(Plan& p, bool allow_fast_paths) {
  p.kernel = RelayoutKernel::kGeneral;
  p.a_block = 1;
  p.rows_inner = false;
  p.streaming = false;
  p.runs.clear();
  if (!allow_fast_paths || p.elements == 0) return;
  const int64_t nb = p.b.size;
  if (p.esize == 0) {
    const bool convert = (p.src_bits == 8 && p.dst_bits < 8) ||
                         (p.src_bits < 8 && p.dst_bits == 8);
    if (!convert) return;
    std::vector<Run> runs;
    if (MakeRunsUpTo(p.b, 1, 1, nb / 8, p.avx2, &runs)) {
      p.kernel = RelayoutKernel::kPack;
      p.runs = std::move(runs);
      ChooseRowsInner(p);
    }
    return;
  }
  // Identical placement and no padding: one memcpy.
  bool same = !p.prefill && p.src_bytes == p.dst_bytes && p.a.s == p.a.d &&
              p.b.s == p.b.d;
  for (const Group& g : p.outer) same = same && g.s == g.d;
  if (same) {
    p.kernel = RelayoutKernel::kMemcpy;
    return;
  }
  auto use_runs = [&](std::vector<Run> runs) {
    p.kernel = RelayoutKernel::kRuns;
    p.runs = std::move(runs);
    // Streaming stores need every run to start 16-byte aligned (given an
    // aligned buffer) and to be whole 16-byte chunks.
    // OR of every run's, row's and outer element offset (branch-free:
    // vectorized): each offset * esize is a multiple of 16 when the OR is
    // a multiple of 16 / gcd(esize, 16), a power of two.
    uint64_t offsets = OrOfAll(p.a.d);
    for (const Run& r : p.runs) offsets |= static_cast<uint64_t>(r.d);
    for (const Group& g : p.outer) offsets |= OrOfAll(g.d);
    const uint64_t need = 16 / std::gcd<int64_t>(p.esize, 16);
    const bool aligned =
        UniformRunBytes(p) % 16 == 0 && (offsets & (need - 1)) == 0;
    p.streaming =
        aligned && UniformRunBytes(p) > 0 && p.dst_bytes >= kStreamingBytes;
  };
  // Runs when there are at most nb / 4 of them, or fewer than nb and long
  // enough in bytes (with more than nb / 4, nb / runs <= 3: only elements
  // of 6 bytes and more can reach 16 bytes).
  std::vector<Run> runs;
  if (MakeRunsUpTo(p.b, 1, 1, nb / 4, p.avx2, &runs)) {
    use_runs(std::move(runs));
    ChooseRowsInner(p);
    return;
  }
  int64_t nr = -1;  // counted when needed
  auto run_count = [&]() {
    if (nr < 0) nr = CountRuns(p.b, 1, 1, nb, p.avx2);
    return nr;
  };
  if (p.esize >= 6 && run_count() < nb && (nb / run_count()) * p.esize >= 16) {
    use_runs(MakeRuns(p.b, 1, 1, p.avx2));
    ChooseRowsInner(p);
    return;
  }
  for (int k : {2, 4, 8}) {
    // Interleave: b steps 1 in src and k in dst, blocks of k rows
    // consecutive in dst; de-interleave the other way round.
    for (const bool inter : {true, false}) {
      const int64_t s_step = inter ? 1 : k, d_step = inter ? k : 1;
      // Runs first: they fail fast on a transpose, whose rows are
      // consecutive in dst (BlocksConsecutive would walk all of them).
      if (MakeRunsUpTo(p.b, s_step, d_step, nb / 4, p.avx2, &runs) &&
          BlocksConsecutive(inter ? p.a.d : p.a.s, p.a.size, k, p.avx2)) {
        p.kernel =
            inter ? RelayoutKernel::kInterleave : RelayoutKernel::kDeinterleave;
        p.k = k;
        p.a_block = k;
        p.runs = std::move(runs);
        ChooseBlocksInner(p, inter);
        return;
      }
    }
  }
  if (p.a.size > 1 && nb > 1 && IsAffine(p.a.d, 1) && IsAffine(p.b.s, 1)) {
    const int64_t S = p.a.s[1];
    const int64_t T = p.b.d[1];
    if (IsAffine(p.a.s, S) && IsAffine(p.b.d, T)) {
      p.kernel = RelayoutKernel::kTranspose;
      p.t_src_stride = S;
      p.t_dst_stride = T;
      p.a_block = kTRows;
      p.streaming = p.dst_bytes >= kStreamingBytes;
      return;
    }
  }
  if (run_count() < nb) use_runs(MakeRuns(p.b, 1, 1, p.avx2));
}

}  // namespace

void ChooseKernel(Plan& p, bool allow_fast_paths) {
  ChooseKernelOnly(p, allow_fast_paths);
  // Packed bytes are read-modified-written.
  if (!p.use_indexers && !UnitsOwnTheirBytes(p)) p.threads = 1;
}

void RunPlan(const Plan& p, const uint8_t* src, uint8_t* dst) {
  if (p.prefill) std::memset(dst, p.fill, p.dst_bytes);
  if (p.elements == 0) return;
  if (p.use_indexers) return RunIndexers(p, src, dst);
  if (p.kernel == RelayoutKernel::kMemcpy) {
    const int64_t chunk = 1 << 16;
    const int64_t units = (p.dst_bytes + chunk - 1) / chunk;
    Parallel(p.threads, units, [&](int64_t u0, int64_t u1) {
      const int64_t b0 = u0 * chunk;
      const int64_t b1 = std::min(p.dst_bytes, u1 * chunk);
      if (b1 > b0) std::memcpy(dst + b0, src + b0, b1 - b0);
    });
    return;
  }
  int64_t outer = 1;
  for (const Group& g : p.outer) outer *= g.size;
  const int64_t blocks = (p.a.size + p.a_block - 1) / p.a_block;
  const Ctx c{p, src, dst,
              p.streaming && reinterpret_cast<uintptr_t>(dst) % 16 == 0};
  Parallel(p.threads, outer * blocks,
           [&](int64_t u0, int64_t u1) { Work(c, u0, u1); });
}

bool CutInPieces(const Plan& p, int64_t piece_bytes,
                 std::vector<Piece>* pieces) {
  pieces->clear();
  piece_bytes = std::max<int64_t>(piece_bytes, 1);
  if (p.dst_bytes == 0) return true;
  auto fill_only = [&] {  // no element: pieces of padding
    for (int64_t b = 0; b < p.dst_bytes; b += piece_bytes) {
      pieces->push_back(Piece{0, 0, b, std::min(p.dst_bytes, b + piece_bytes)});
    }
    return true;
  };
  if (p.elements == 0) return fill_only();
  if (p.kernel == RelayoutKernel::kMemcpy && !p.use_indexers) {
    return fill_only();  // RunPiece copies the same bytes of src
  }
  // A piece must start on a byte boundary that is an element boundary. The
  // bands of a transpose each write across the whole destination (checked
  // below too; this is quicker).
  if (p.use_indexers || p.kernel == RelayoutKernel::kTranspose ||
      (p.dst_bits % 8 != 0 && 8 % p.dst_bits != 0)) {
    return false;
  }
  // Bytes of element offsets: the first byte of element e and the last
  // byte of its bits.
  const int64_t whole = p.dst_bits % 8 == 0 ? p.dst_bits / 8 : 0;
  const int64_t per = whole > 0 ? 1 : 8 / p.dst_bits;
  auto first_byte = [&](int64_t e) { return whole > 0 ? e * whole : e / per; };
  auto last_byte = [&](int64_t e) {
    return whole > 0 ? e * whole + whole - 1 : e / per;
  };
  const int64_t blocks = (p.a.size + p.a_block - 1) / p.a_block;
  std::vector<int64_t> bmin(blocks), bmax(blocks);
  for (int64_t k = 0; k < blocks; ++k) {
    const int64_t i0 = k * p.a_block, i1 = std::min(p.a.size, i0 + p.a_block);
    const auto mm = std::minmax_element(p.a.d.begin() + i0, p.a.d.begin() + i1);
    bmin[k] = *mm.first;
    bmax[k] = *mm.second;
  }
  const auto bmm = std::minmax_element(p.b.d.begin(), p.b.d.end());
  const int64_t b_min = *bmm.first, b_max = *bmm.second;
  // Each unit's first and last destination byte, in the order Work numbers
  // the units (outer odometer, the last group fastest; blocks innermost).
  int64_t outer = 1;
  for (const Group& g : p.outer) outer *= g.size;
  const int64_t units = outer * blocks;
  std::vector<int64_t> first(units), last(units);
  std::vector<int64_t> idx(p.outer.size(), 0);
  int64_t d0 = 0;
  for (int64_t o = 0, u = 0; o < outer; ++o) {
    for (int64_t k = 0; k < blocks; ++k, ++u) {
      first[u] = first_byte(d0 + bmin[k] + b_min);
      last[u] = last_byte(d0 + bmax[k] + b_max);
    }
    for (int64_t g = static_cast<int64_t>(p.outer.size()) - 1; g >= 0; --g) {
      const Group& grp = p.outer[g];
      d0 -= grp.d[idx[g]];
      if (++idx[g] < grp.size) {
        d0 += grp.d[idx[g]];
        break;
      }
      idx[g] = 0;
      d0 += grp.d[0];
    }
  }
  // The destination can be cut before unit u, at byte sufmin[u], when every
  // unit before u ends before every unit from u on starts (units inside a
  // piece may interleave: the rows of a tile row).
  std::vector<int64_t> sufmin(units + 1, p.dst_bytes);
  for (int64_t u = units; u-- > 0;)
    sufmin[u] = std::min(sufmin[u + 1], first[u]);
  std::vector<std::pair<int64_t, int64_t>> cuts;  // (unit, byte), in order
  int64_t prefix_last = -1;
  for (int64_t u = 1; u < units; ++u) {
    prefix_last = std::max(prefix_last, last[u - 1]);
    if (prefix_last < sufmin[u]) cuts.emplace_back(u, sufmin[u]);
  }
  cuts.emplace_back(units, p.dst_bytes);
  // Greedy: the longest pieces of at most piece_bytes; a span between two
  // possible cuts that is longer makes one longer piece.
  int64_t start_u = 0, start_byte = 0;
  std::pair<int64_t, int64_t> candidate(-1, -1);  // last cut within budget
  for (const auto& cut : cuts) {
    if (cut.second - start_byte > piece_bytes && candidate.first > start_u) {
      pieces->push_back(
          Piece{start_u, candidate.first, start_byte, candidate.second});
      start_u = candidate.first;
      start_byte = candidate.second;
    }
    if (cut.second - start_byte > piece_bytes && cut.first < units) {
      pieces->push_back(Piece{start_u, cut.first, start_byte, cut.second});
      start_u = cut.first;
      start_byte = cut.second;
    }
    candidate = cut;
  }
  pieces->push_back(Piece{start_u, units, start_byte, p.dst_bytes});
  return true;
}

void RunPiece(const Plan& p, const uint8_t* src, const Piece& piece,
              uint8_t* dst) {
  const int64_t n = piece.byte1 - piece.byte0;
  if (p.elements > 0 && p.kernel == RelayoutKernel::kMemcpy &&
      !p.use_indexers) {
    std::memcpy(dst, src + piece.byte0, n);
    return;
  }
  if (p.prefill) std::memset(dst, p.fill, n);
  if (p.elements == 0 || piece.u1 <= piece.u0) return;
  // The piece starts on an element's first byte (CutInPieces).
  const int64_t shift = p.dst_bits % 8 == 0 ? piece.byte0 / (p.dst_bits / 8)
                                            : piece.byte0 * (8 / p.dst_bits);
  // No streaming stores: a piece is meant to stay in the cache until it is
  // written out.
  const Ctx c{p, src, dst, /*streaming=*/false, shift};
  Parallel(p.threads, piece.u1 - piece.u0,
           [&](int64_t a, int64_t b) { Work(c, piece.u0 + a, piece.u0 + b); });
}

std::string DescribePlan(const Plan& p) {
  std::string out = RelayoutKernelName(p.kernel);
  if (p.use_indexers) {
    absl::StrAppend(&out,
                    " (per element through the indexers: a `*` group "
                    "is too large to tabulate)");
    return out;
  }
  if (p.kernel == RelayoutKernel::kMemcpy) {
    absl::StrAppend(&out, ": ", p.dst_bytes, " bytes");
  } else {
    int64_t outer = 1;
    for (const Group& g : p.outer) outer *= g.size;
    absl::StrAppend(&out, ": ", outer, " x ", p.a.size, " x ", p.b.size,
                    " elements");
    if (!p.runs.empty()) {
      absl::StrAppend(&out, ", ", p.runs.size(), " runs per row");
      const int64_t u = UniformRunBytes(p);
      if (u > 0) absl::StrAppend(&out, " of ", u, " bytes");
    }
    if (p.kernel == RelayoutKernel::kInterleave ||
        p.kernel == RelayoutKernel::kDeinterleave) {
      absl::StrAppend(&out, ", k=", p.k);
    }
    if (p.rows_inner) {
      absl::StrAppend(&out, ", blocks of ", p.a_block, " rows run by run");
    }
    if (p.streaming) absl::StrAppend(&out, ", streaming stores");
  }
  absl::StrAppend(&out, p.prefill ? ", padding filled" : "", ", up to ",
                  p.threads, " thread", p.threads > 1 ? "s" : "");
  return out;
}

}  // namespace relayout_internal
}  // namespace hlolayout
