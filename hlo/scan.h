// hlo/scan.h: byte scanning for the HLO module reader (internal).
//
// Character classes and the skippers behind the HLO reader's fast
// paths: brackets, strings and attribute values found 16 or 64 bytes at a
// time (SSE2, part of x86-64; plain loops elsewhere), names, trivia, and
// the extent of a shape text. Each returns npos for anything unusual, and
// the reader's careful path then takes over and reports errors with
// positions. Not a public API: only the reader (hlo/reader_*.cc) includes it.
#ifndef HLOLAYOUT_HLO_SCAN_H_
#define HLOLAYOUT_HLO_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "absl/base/optimization.h"
#include "absl/strings/string_view.h"

namespace hlolayout::hlo_internal {

// Character classes, one table lookup per byte in the hot loops.
enum : uint8_t {
  kNameChar = 1,   // [A-Za-z0-9_.-]
  kNameStart = 2,  // [A-Za-z_]
  kValueStop = 4,  // ends a scan at depth 0 of an attribute value
  kHorizontalSpace = 16,
  kSpace = 32,  // ' ' '\t' '\n' '\r'
};

struct CharTable {
  uint8_t bits[256] = {};
  constexpr CharTable() {
    for (int c = 'a'; c <= 'z'; ++c) bits[c] |= kNameChar | kNameStart;
    for (int c = 'A'; c <= 'Z'; ++c) bits[c] |= kNameChar | kNameStart;
    for (int c = '0'; c <= '9'; ++c) bits[c] |= kNameChar;
    bits[static_cast<int>('_')] |= kNameChar | kNameStart;
    bits[static_cast<int>('.')] |= kNameChar;
    bits[static_cast<int>('-')] |= kNameChar;
    for (char c :
         {',', '\n', '\r', ' ', '\t', '{', '}', '(', ')', '[', ']', '"', '/'}) {
      bits[static_cast<unsigned char>(c)] |= kValueStop;
    }
    bits[static_cast<int>(' ')] |= kHorizontalSpace;
    for (char c : {' ', '\t', '\n', '\r'}) {
      bits[static_cast<unsigned char>(c)] |= kSpace;
    }
    bits[static_cast<int>('\t')] |= kHorizontalSpace;
  }
};

inline constexpr CharTable kChars;

inline bool Is(char c, uint8_t bit) {
  return (kChars.bits[static_cast<unsigned char>(c)] & bit) != 0;
}

inline char CloserOf(char opener) {
  return opener == '{' ? '}' : opener == '(' ? ')' : ']';
}

// Byte scanning 16 bytes at a time (SSE2, part of x86-64; a plain loop
// elsewhere). Each finder returns the first position in [p, n) of a byte of
// its set, or n.
#if defined(__SSE2__)
inline uint32_t EqMask(__m128i chunk, char c) {
  return static_cast<uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(c))));
}
#endif

// The set {'{', '}', '(', ')', '[', ']', '"', '/'}: what matters inside a
// bracketed attribute value.
inline size_t FindBalancedStop(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    // '[' '{' and ']' '}' differ by 0x20; '(' ')' by the low bit.
    const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
    const __m128i paren =
        _mm_and_si128(c, _mm_set1_epi8(static_cast<char>(0xfe)));
    const uint32_t mask = EqMask(lower, '{') | EqMask(lower, '}') |
                          EqMask(paren, '(') | EqMask(c, '"') | EqMask(c, '/');
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < n; ++p) {
    switch (data[p]) {
      case '{':
      case '}':
      case '(':
      case ')':
      case '[':
      case ']':
      case '"':
      case '/':
        return p;
      default:
        break;
    }
  }
  return n;
}

// The first `c`.
inline size_t FindByte(const char* data, size_t p, size_t n, char c) {
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const uint32_t mask =
        EqMask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p)), c);
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < n; ++p) {
    if (data[p] == c) return p;
  }
  return n;
}

// The first '"' or '\\'.
inline size_t FindQuoteOrBackslash(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    const uint32_t mask = EqMask(c, '"') | EqMask(c, '\\');
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < n; ++p) {
    if (data[p] == '"' || data[p] == '\\') return p;
  }
  return n;
}

// From an `open` at `p`, the position just past its matching `close` (only
// these two bytes are counted), or npos.
inline size_t MatchBracket(const char* data, size_t p, size_t n, char open,
                           char close) {
  int depth = 0;
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    const uint32_t opens = EqMask(c, open);
    uint32_t both = opens | EqMask(c, close);
    while (both != 0) {
      const int bit = __builtin_ctz(both);
      if (opens & (1u << bit)) {
        ++depth;
      } else if (--depth == 0) {
        return p + bit + 1;
      }
      both &= both - 1;
    }
    p += 16;
  }
#endif
  for (; p < n; ++p) {
    if (data[p] == open) {
      ++depth;
    } else if (data[p] == close && --depth == 0) {
      return p + 1;
    }
  }
  return absl::string_view::npos;
}

// Skips from the opening bracket at `p` past its closing one, for the usual
// case: brackets nested less than `max_depth` (at most 64) deep, strings with
// escapes, no comments. Returns npos for anything else (a comment, a
// mismatch, the end of the text): the careful path then takes over and says
// what is wrong.
inline size_t SkipBalancedByStops(const char* data, size_t p, size_t n,
                                  int max_depth) {
  char closers[64];
  const int limit = max_depth < 64 ? max_depth : 64;
  int depth = 0;
  closers[depth++] = CloserOf(data[p]);
  ++p;
  while (true) {
    p = FindBalancedStop(data, p, n);
    if (p >= n) return absl::string_view::npos;
    const char c = data[p];
    switch (c) {
      case '{':
      case '(':
      case '[':
        if (depth >= limit) return absl::string_view::npos;
        closers[depth++] = CloserOf(c);
        ++p;
        break;
      case '}':
      case ')':
      case ']':
        if (c != closers[depth - 1]) return absl::string_view::npos;
        ++p;
        if (--depth == 0) return p;
        break;
      case '"':
        ++p;
        while (true) {
          p = FindQuoteOrBackslash(data, p, n);
          if (p >= n) return absl::string_view::npos;
          if (data[p] == '"') break;
          p += 2;
        }
        ++p;
        break;
      default:  // '/'
        if (p + 1 < n && data[p + 1] == '*') return absl::string_view::npos;
        ++p;
        break;
    }
  }
}

// Bit i set where byte i of a 64-byte block is in the class.
struct ByteClasses {
  uint64_t quote = 0, backslash = 0, slash = 0, open = 0, close = 0;
};

// The classes of a 64-byte block byte by byte: the path of processors
// without SSE2, and the reference the SIMD classifiers are tested against.
inline ByteClasses Classify64Portable(const char* data) {
  ByteClasses b;
  for (int i = 0; i < 64; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    switch (data[i]) {
      case '"':
        b.quote |= bit;
        break;
      case '\\':
        b.backslash |= bit;
        break;
      case '/':
        b.slash |= bit;
        break;
      case '{':
      case '(':
      case '[':
        b.open |= bit;
        break;
      case '}':
      case ')':
      case ']':
        b.close |= bit;
        break;
      default:
        break;
    }
  }
  return b;
}

#if defined(__SSE2__)
inline ByteClasses Classify64(const char* data) {
  ByteClasses b;
  for (int k = 0; k < 4; ++k) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * k));
    // '[' '{' and ']' '}' differ by 0x20 only.
    const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
    const int shift = 16 * k;
    b.quote |= static_cast<uint64_t>(EqMask(c, '"')) << shift;
    b.backslash |= static_cast<uint64_t>(EqMask(c, '\\')) << shift;
    b.slash |= static_cast<uint64_t>(EqMask(c, '/')) << shift;
    b.open |= static_cast<uint64_t>(EqMask(lower, '{') | EqMask(c, '('))
              << shift;
    b.close |= static_cast<uint64_t>(EqMask(lower, '}') | EqMask(c, ')'))
               << shift;
  }
  return b;
}
#endif

#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define HLOLAYOUT_HLO_SCAN_AVX2 1
// Classify64 with two 32-byte compares per class (AVX2, chosen at run time
// by FastSkipBalanced). Code for AVX2 cannot be inlined into code for any
// x86-64: SkipBalancedBlocksAvx2 below is the one function that runs the
// whole block loop with it inlined.
__attribute__((target("avx2"), always_inline)) inline uint64_t EqMask32(
    __m256i chunk, char c) {
  return static_cast<uint32_t>(
      _mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, _mm256_set1_epi8(c))));
}
// Written out for both 32-byte halves (as a loop, GCC kept the loop and
// its shifts: a sixth of the skipper's instructions).
__attribute__((target("avx2"), always_inline)) inline uint64_t EqMask64(
    __m256i lo, __m256i hi, char c) {
  return EqMask32(lo, c) | (EqMask32(hi, c) << 32);
}
__attribute__((target("avx2"))) inline ByteClasses Classify64Avx2(
    const char* data) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data));
  const __m256i hi =
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + 32));
  // '[' '{' and ']' '}' differ by 0x20 only.
  const __m256i case_bit = _mm256_set1_epi8(0x20);
  const __m256i lo_lower = _mm256_or_si256(lo, case_bit);
  const __m256i hi_lower = _mm256_or_si256(hi, case_bit);
  ByteClasses b;
  b.quote = EqMask64(lo, hi, '"');
  b.backslash = EqMask64(lo, hi, '\\');
  b.slash = EqMask64(lo, hi, '/');
  b.open = EqMask64(lo_lower, hi_lower, '{') | EqMask64(lo, hi, '(');
  b.close = EqMask64(lo_lower, hi_lower, '}') | EqMask64(lo, hi, ')');
  return b;
}

// Bit i of the result is the XOR of bits 0..i of `quotes`: set from each
// opening quote up to (not including) its closing one. One carry-less
// multiply by all ones (PCLMULQDQ, which every AVX2 processor has).
__attribute__((target("pclmul"))) inline uint64_t PrefixXorClmul(
    uint64_t quotes) {
  const __m128i product = _mm_clmulepi64_si128(
      _mm_set_epi64x(0, static_cast<int64_t>(quotes)), _mm_set1_epi8(-1), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
}

// True when the processor has AVX2 and PCLMULQDQ (asked once).
inline bool HasAvx2() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0 &&
           __builtin_cpu_supports("pclmul") != 0;
  }();
  return has;
}
#endif

// Bit i: the XOR of bits 0..i (six shifts).
inline uint64_t PrefixXorShifts(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The bytes of a block that a backslash escapes: bit i set when byte i
// follows a backslash that is not itself escaped (`\\` escapes the second
// backslash, which then escapes nothing). `*carry` is 1 when byte 0 is
// escaped (the previous block ended in an escaping backslash) and is set
// likewise for the next block. Backslashes are rare: one step per run.
inline uint64_t EscapedBytes(uint64_t backslash, uint64_t* carry) {
  uint64_t escaped = *carry;
  uint64_t starts = backslash & ~escaped;
  *carry = 0;
  while (starts != 0) {
    const uint64_t bit = starts & (0 - starts);
    const uint64_t next = bit << 1;
    if (next == 0) *carry = 1;
    escaped |= next;
    starts &= ~(bit | next);
  }
  return escaped;
}

// FastSkipBalanced's loop over 64-byte blocks classified by `classify`
// (`classify(block)` gives the ByteClasses, `classify.PrefixXor(bits)` the
// prefix XOR). Strings are exact: a quote a backslash escapes neither opens
// nor closes one. The text's last bytes are read from a copy padded with
// spaces. Returns the end, npos where SkipBalancedByStops gives npos (a
// mismatched bracket, nesting past `max_depth`, the end of the text), or
// `begin` when a block holds a backslash or a `/*` outside a string
// (SkipBalancedByStops then reads the value).
template <typename Classify>
inline size_t SkipBalancedBlocks(const char* data, size_t p, size_t n,
                                 int max_depth, Classify classify) {
  constexpr size_t npos = absl::string_view::npos;
  const size_t begin = p;
  char closers[64];
  const int limit = max_depth < 64 ? max_depth : 64;
  int depth = 0;
  uint64_t in_string = 0;  // all ones while a string runs into the block
  uint64_t escape_carry = 0;
  char tail[64];
  while (p < n) {
    const char* block = data + p;
    if (n - p < 64) {
      std::memset(tail, ' ', sizeof(tail));
      std::memcpy(tail, data + p, n - p);
      block = tail;
    }
    const ByteClasses b = classify(block);
    uint64_t quotes = b.quote;
    if ((b.backslash | escape_carry) != 0) {
      quotes &= ~EscapedBytes(b.backslash, &escape_carry);
    }
    // 1 from a quote up to the next.
    const uint64_t strings = classify.PrefixXor(quotes) ^ in_string;
    const uint64_t outside = ~strings;
    const uint64_t brackets = (b.open | b.close) & outside;
    // A backslash outside a string (a plain byte for SkipBalancedByStops)
    // or a `/*` there (npos when it comes before the end): rare, both left
    // to SkipBalancedByStops.
    const uint64_t odd = (b.slash | b.backslash) & outside;
    for (uint64_t o = odd; ABSL_PREDICT_FALSE(o != 0); o &= o - 1) {
      const int i = __builtin_ctzll(o);
      const size_t at = p + static_cast<size_t>(i);
      if (block[i] == '\\' || (at + 1 < n && data[at + 1] == '*')) {
        return begin;
      }
    }
    for (uint64_t events = brackets; events != 0; events &= events - 1) {
      const int i = __builtin_ctzll(events);
      const char c = block[i];
      if (((b.open >> i) & 1) != 0) {
        if (depth >= limit) return npos;
        // '(' ')' are 1 apart, '[' ']' and '{' '}' 2.
        closers[depth++] = static_cast<char>(c + (c == '(' ? 1 : 2));
      } else {
        if (depth == 0 || c != closers[depth - 1]) return npos;
        if (--depth == 0) return p + static_cast<size_t>(i) + 1;
      }
    }
    in_string = (strings >> 63) != 0 ? ~uint64_t{0} : 0;
    p += 64;
  }
  return npos;
}

// The classifiers of SkipBalancedBlocks, one a path.
struct PortableClassifier {
  ByteClasses operator()(const char* block) const {
    return Classify64Portable(block);
  }
  uint64_t PrefixXor(uint64_t bits) const { return PrefixXorShifts(bits); }
};

#if defined(__SSE2__)
struct Sse2Classifier {
  ByteClasses operator()(const char* block) const { return Classify64(block); }
  uint64_t PrefixXor(uint64_t bits) const { return PrefixXorShifts(bits); }
};
#endif

#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
// SkipBalancedBlocks with Classify64Avx2, everything inlined into one AVX2
// function (`flatten`): one call per attribute value, not one per block.
struct Avx2Classifier {
  __attribute__((target("avx2"))) ByteClasses operator()(
      const char* block) const {
    return Classify64Avx2(block);
  }
  __attribute__((target("pclmul"))) uint64_t PrefixXor(uint64_t bits) const {
    return PrefixXorClmul(bits);
  }
};
__attribute__((target("avx2,pclmul"), noinline, flatten)) inline size_t
SkipBalancedBlocksAvx2(const char* data, size_t p, size_t n, int max_depth) {
  return SkipBalancedBlocks(data, p, n, max_depth, Avx2Classifier());
}
#endif

// The ways to classify blocks: byte by byte (any processor), SSE2 (every
// x86-64), AVX2 (chosen at run time when the processor has it).
enum class ScanPath { kPortable, kSse2, kAvx2 };

// True when this build and this processor can run `path`.
inline bool ScanPathRuns(ScanPath path) {
  switch (path) {
    case ScanPath::kPortable:
      return true;
    case ScanPath::kSse2:
#if defined(__SSE2__)
      return true;
#else
      return false;
#endif
    case ScanPath::kAvx2:
#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
      return HasAvx2();
#else
      return false;
#endif
  }
  return false;
}

// The fastest path that runs here (asked once).
inline ScanPath BestScanPath() {
  static const ScanPath best = ScanPathRuns(ScanPath::kAvx2) ? ScanPath::kAvx2
                               : ScanPathRuns(ScanPath::kSse2)
                                   ? ScanPath::kSse2
                                   : ScanPath::kPortable;
  return best;
}

// Classify64 by `path`, which must run here (ScanPathRuns); for tests.
inline ByteClasses ClassifyOn(ScanPath path, const char* block) {
#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
  if (path == ScanPath::kAvx2) return Classify64Avx2(block);
#endif
#if defined(__SSE2__)
  if (path == ScanPath::kSse2) return Classify64(block);
#endif
  (void)path;
  return Classify64Portable(block);
}

// SkipBalancedBlocks by `path`, which must run here (ScanPathRuns).
inline size_t SkipBalancedBlocksOn(ScanPath path, const char* data, size_t p,
                                   size_t n, int max_depth) {
#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
  if (path == ScanPath::kAvx2) {
    return SkipBalancedBlocksAvx2(data, p, n, max_depth);
  }
#endif
#if defined(__SSE2__)
  if (path == ScanPath::kSse2) {
    return SkipBalancedBlocks(data, p, n, max_depth, Sse2Classifier());
  }
#endif
  (void)path;
  return SkipBalancedBlocks(data, p, n, max_depth, PortableClassifier());
}

// SkipBalancedByStops, 64 bytes at a time on `path`: stopping at every
// quote of a JSON config cost a mispredicted branch each. Strings
// (escapes and all) are found for a whole block at once (prefix XOR of the
// unescaped quote bits); only brackets outside them are visited. Gives
// SkipBalancedByStops' answer on every text (a backslash outside a string
// is left to it).
inline size_t FastSkipBalancedOn(ScanPath path, const char* data, size_t p,
                                 size_t n, int max_depth) {
  const size_t end = SkipBalancedBlocksOn(path, data, p, n, max_depth);
  if (end != p) return end;
  return SkipBalancedByStops(data, p, n, max_depth);
}

// FastSkipBalanced on the fastest path of this processor.
inline size_t FastSkipBalanced(const char* data, size_t p, size_t n,
                               int max_depth) {
  return FastSkipBalancedOn(BestScanPath(), data, p, n, max_depth);
}

// Whitespace and `/*...*/` comments from `p`; npos at anything the careful
// SkipTrivia should see (`//` comments, an unterminated comment). Marked
// cold so that the compiler keeps it out of FastSkipTrivia's inlined body.
inline size_t FastSkipComments(const char* data, size_t p, size_t n)
    __attribute__((cold));
// Always inlined: as a call (the compiler's choice with a dozen callers) its
// entry and exit cost more than the usual single space it skips.
inline __attribute__((always_inline)) size_t FastSkipTrivia(const char* data,
                                                            size_t p,
                                                            size_t n) {
  while (p < n && Is(data[p], kSpace)) ++p;
  if (p >= n || data[p] != '/') return p;
  return FastSkipComments(data, p, n);
}
inline size_t FastSkipComments(const char* data, size_t p, size_t n) {
  while (true) {
    while (p < n && Is(data[p], kSpace)) ++p;
    if (p >= n || data[p] != '/') return p;
    if (p + 1 >= n || data[p + 1] != '*') return absl::string_view::npos;
    const void* close = memmem(data + p + 2, n - p - 2, "*/", 2);
    if (close == nullptr) return absl::string_view::npos;
    p = static_cast<const char*>(close) - data + 2;
  }
}

#if defined(__SSE2__)
// Bit i set where byte i of the 16 at `data` is not in [A-Za-z0-9_.-].
inline uint32_t NonNameMask16(const char* data) {
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
  // Letters: c | 0x20 in 'a'..'z' (bytes >= 0x80 are negative: never in).
  const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
  const __m128i alpha =
      _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                    _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
  // '-' '.' '/' and the digits are 0x2d..0x39; '/' is not a name byte.
  const __m128i punct_digit = _mm_andnot_si128(
      _mm_cmpeq_epi8(c, _mm_set1_epi8('/')),
      _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('-' - 1)),
                    _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1))));
  const __m128i name = _mm_or_si128(_mm_or_si128(alpha, punct_digit),
                                    _mm_cmpeq_epi8(c, _mm_set1_epi8('_')));
  return static_cast<uint32_t>(_mm_movemask_epi8(name)) ^ 0xffffu;
}
#endif

// The end of the run of [A-Za-z0-9_.-] from `p`, 16 bytes at a time (one
// branch per name instead of one per byte).
inline size_t NameCharsEnd(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const uint32_t stop = NonNameMask16(data + p);
    if (stop != 0) return p + __builtin_ctz(stop);
    p += 16;
  }
#endif
  while (p < n && Is(data[p], kNameChar)) ++p;
  return p;
}

// The end of the name at `p` ([A-Za-z_][A-Za-z0-9_.-]*), `p` when none.
inline size_t NameEnd(const char* data, size_t p, size_t n) {
  if (p >= n || !Is(data[p], kNameStart)) return p;
  return NameCharsEnd(data, p + 1, n);
}

// MatchBracket(data, p, n, '(', ')') without a branch per bracket: the
// depth after every byte of a 16-byte chunk is a prefix sum of +1 per '('
// and -1 per ')', and the end is the first ')' where it reaches 0. Deeper
// than 64 (or the text's last bytes): the byte-by-byte MatchBracket.
inline size_t MatchParen(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  const size_t begin = p;
  __m128i depth = _mm_setzero_si128();
  while (p + 16 <= n) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    const __m128i closes = _mm_cmpeq_epi8(c, _mm_set1_epi8(')'));
    // cmpeq gives -1: closes - opens is +1 at '(' and -1 at ')'.
    __m128i d = _mm_sub_epi8(closes, _mm_cmpeq_epi8(c, _mm_set1_epi8('(')));
    d = _mm_add_epi8(d, _mm_slli_si128(d, 1));
    d = _mm_add_epi8(d, _mm_slli_si128(d, 2));
    d = _mm_add_epi8(d, _mm_slli_si128(d, 4));
    d = _mm_add_epi8(d, _mm_slli_si128(d, 8));
    d = _mm_add_epi8(d, depth);
    const uint32_t zero = static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_and_si128(closes, _mm_cmpeq_epi8(d, _mm_setzero_si128()))));
    if (zero != 0) return p + __builtin_ctz(zero) + 1;
    // Byte 15 of d into all 16 bytes.
    depth = _mm_unpackhi_epi8(d, d);
    depth = _mm_shuffle_epi32(_mm_unpackhi_epi16(depth, depth), 0xff);
    // Never below 1 here (it went down one step at a time and missed 0);
    // past 64 a later chunk could wrap, so hand over.
    if (_mm_movemask_epi8(_mm_cmpgt_epi8(depth, _mm_set1_epi8(64))) != 0) {
      break;
    }
    p += 16;
  }
  return MatchBracket(data, begin, n, '(', ')');
#else
  return MatchBracket(data, p, n, '(', ')');
#endif
}

// The set {'(', ')', '/', '"'}: what matters in an operand list that is
// skipped.
inline size_t FindParenStop(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  while (p + 16 <= n) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
    // '(' and ')' differ in the low bit only.
    const __m128i paren =
        _mm_and_si128(c, _mm_set1_epi8(static_cast<char>(0xfe)));
    const uint32_t mask = EqMask(paren, '(') | EqMask(c, '/') | EqMask(c, '"');
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < n; ++p) {
    const char c = data[p];
    if (c == '(' || c == ')' || c == '/' || c == '"') return p;
  }
  return n;
}

// From the '(' at `p` that opens an operand list, the position just past
// its matching ')', skipping `/*...*/` comments (`/*index=5*/` in tuple
// shapes); npos for a string, a `//` comment, nesting deeper than
// `max_depth` or no match (the careful path then reads the list).
inline size_t SkipOperandList(const char* data, size_t p, size_t n,
                              int max_depth) {
  int depth = 0;
  while (true) {
    p = FindParenStop(data, p, n);
    if (p >= n) return absl::string_view::npos;
    switch (data[p]) {
      case '(':
        if (++depth > max_depth) return absl::string_view::npos;
        ++p;
        break;
      case ')':
        ++p;
        if (--depth == 0) return p;
        break;
      case '/': {
        if (p + 1 >= n || data[p + 1] != '*') return absl::string_view::npos;
        const void* close = memmem(data + p + 2, n - p - 2, "*/", 2);
        if (close == nullptr) return absl::string_view::npos;
        p = static_cast<const char*>(close) - data + 2;
        break;
      }
      default:  // '"'
        return absl::string_view::npos;
    }
  }
}

// ScanValue without statuses: the end of the attribute value at `begin`, or
// npos for an empty value and anything the careful path must look at.
inline size_t FastValueEnd(const char* data, size_t begin, size_t n,
                           int max_depth) {
  size_t p = begin;
  while (p < n) {
    const char c = data[p];
    if (!Is(c, kValueStop)) {
      // Most values are names (`kLoop`, `%fused_computation.3`): skipped 16
      // bytes at a time.
      p = NameCharsEnd(data, p + 1, n);
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      p = FastSkipBalanced(data, p, n, max_depth);
      if (p == absl::string_view::npos) return p;
      continue;
    }
    if (c == '"') {
      ++p;
      while (true) {
        p = FindQuoteOrBackslash(data, p, n);
        if (p >= n) return absl::string_view::npos;
        if (data[p] == '"') break;
        p += 2;
      }
      ++p;
      continue;
    }
    if (c == ' ' || c == '\t') {
      size_t q = p;
      while (q < n && Is(data[q], kHorizontalSpace)) ++q;
      if (p > begin && q < n && (data[q] == '{' || data[q] == '[')) {
        p = q;
        continue;
      }
    }
    if (c == '/' &&
        !(p + 1 < n && (data[p + 1] == '*' || data[p + 1] == '/'))) {
      ++p;
      continue;
    }
    break;
  }
  return p == begin ? absl::string_view::npos : p;
}

// After an array shape without a layout ending at `p`, the shape parser
// looks at the next token: true when it is plain (a name, '%', ',' or ')'
// after horizontal space), which proves that the parser stops at `p`.
// Also true for the '{' that opens a computation after its signature's
// result shape (`-> f32[8] {` then a line break and an instruction or '}'):
// the parser takes '{' for a layout only when an integer or ':' follows.
inline bool PlainContinuationAt(const char* data, size_t p, size_t n) {
  while (p < n && Is(data[p], kHorizontalSpace)) ++p;
  if (p >= n) return false;
  const char c = data[p];
  if (c == '{') {
    ++p;
    while (p < n && Is(data[p], kSpace)) ++p;
    return p < n &&
           (Is(data[p], kNameStart) || data[p] == '%' || data[p] == '}');
  }
  return Is(c, kNameStart) || c == '%' || c == ',' || c == ')';
}

// The end of the shape at `p` when a quick scan can tell that the shape
// parser would stop exactly there, else npos. Only texts that decoded to
// exactly this extent enter the cache, so equal bytes decode equally: a
// tuple ends at its ')' and a layout at its '}' whatever follows.
inline size_t ShapeKeyEnd(const char* data, size_t p, size_t n) {
  if (p >= n) return absl::string_view::npos;
  if (data[p] == '(') return MatchParen(data, p, n);
  if (!Is(data[p], kNameStart)) return absl::string_view::npos;
  p = NameCharsEnd(data, p + 1, n);
  if (p >= n || data[p] != '[') return absl::string_view::npos;
  p = FindByte(data, p, n, ']') + 1;
  if (p >= n) return absl::string_view::npos;
  if (p + 1 < n && data[p] == '{' &&
      ((data[p + 1] >= '0' && data[p + 1] <= '9') || data[p + 1] == ':')) {
    // Layouts hold no braces: the first '}' closes it (a text where it
    // does not fails to decode, or decodes to another extent, and is not
    // cached).
    const size_t close = FindByte(data, p, n, '}');
    return close < n ? close + 1 : absl::string_view::npos;
  }
  // Without a layout the parser looks at the next token: only a plain
  // continuation proves that it stops at the ']'.
  return PlainContinuationAt(data, p, n) ? p : absl::string_view::npos;
}

// A guess at the extent of the shape at `p`, from one 64-byte window: the
// length up to the first space that does not follow a comma (a shape is
// followed by ` %name` or ` opcode(`; inside a tuple the spaces follow
// commas). 0 when no guess: no '(' or `type[` at `p`, no such space in the
// window, or fewer than 64 bytes left. Only a guess: the reader takes it
// when the cache holds exactly these bytes and the parser would stop there
// (CachedTextStopsHere), else it checks it against ShapeKeyEnd.
inline size_t GuessShapeLength(const char* data, size_t p, size_t n) {
#if defined(__SSE2__)
  if (n < 64 || p > n - 64) return 0;
  const char first = data[p];
  if (first != '(' && !Is(first, kNameStart)) return 0;
  const __m128i c0 =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
  const __m128i c1 =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p + 16));
  const __m128i c2 =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p + 32));
  const __m128i c3 =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p + 48));
  const uint32_t space0 = EqMask(c0, ' ');
  const uint32_t comma0 = EqMask(c0, ',');
  if (first != '(') {
    // `type[`: the first of '[' ' ' ',' '(' in the first 16 bytes is '['
    // (names of types are shorter).
    const uint32_t bracket = EqMask(c0, '[');
    const uint32_t stops = bracket | space0 | comma0 | EqMask(c0, '(');
    if ((bracket & stops & (0u - stops)) == 0) return 0;
  }
  const uint64_t space = space0 | static_cast<uint64_t>(EqMask(c1, ' ')) << 16 |
                         static_cast<uint64_t>(EqMask(c2, ' ')) << 32 |
                         static_cast<uint64_t>(EqMask(c3, ' ')) << 48;
  const uint64_t comma = comma0 | static_cast<uint64_t>(EqMask(c1, ',')) << 16 |
                         static_cast<uint64_t>(EqMask(c2, ',')) << 32 |
                         static_cast<uint64_t>(EqMask(c3, ',')) << 48;
  const uint64_t ends = space & ~(comma << 1);
  return ends == 0 ? 0 : static_cast<size_t>(__builtin_ctzll(ends));
#else
  (void)data;
  (void)p;
  (void)n;
  return 0;
#endif
}

// For a text the cache holds (so ShapeKeyEnd vouched for its extent where
// it was first read) found again at [p, end): true when ShapeKeyEnd(p) is
// `end` here too. A tuple ends at its ')' and a layout at its '}' whatever
// follows: those depend on the bytes of the text only. An array without a
// layout (the text ends with ']') also needs a plain continuation after it.
inline bool CachedTextStopsHere(const char* data, size_t end, size_t n) {
  return data[end - 1] != ']' || PlainContinuationAt(data, end, n);
}

}  // namespace hlolayout::hlo_internal

#endif  // HLOLAYOUT_HLO_SCAN_H_
