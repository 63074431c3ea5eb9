// bench/index_vs_closed_form.cc: TiledIndexer against a closed form written
// by hand for each shape, forward (index -> offset in elements) and inverse
// (offset -> index or padding), scalar and batched, in one run (issue 88).
//
//   ./bazelw build -c opt //bench:index_vs_closed_form
//   taskset -c 1 .build/bin/bench/index_vs_closed_form        # a table
//   bench/index_instructions.sh       # the same loops counted by callgrind
//
// Each closed form below is the formula of its shape with the shape's
// constants in the code (shifts, masks, strides, divisions by constants),
// as a compiler engineer would write it for that one layout. The indexer
// knows the layout only at run time (TiledIndexer::Create). Both answer the
// same 4096 seeded random indices (or offsets, padding included) and are
// checked equal on all of them before anything is timed.
//
// Timing: ns per element, median of kRounds rounds; each round times the
// closed form, the indexer one call at a time (inline, as a pass would call
// it) and the indexer's batched call, in turn, so that the machine's load
// swings affect all three alike. Every answer of the one-at-a-time loops is
// consumed as it comes (a running sum the compiler must keep in a register),
// so neither loop becomes vector code. The ratios are indexer / closed form.
//
// --callgrind: runs each loop once per variant between callgrind client
// requests (when valgrind/callgrind.h is installed), one dump per loop,
// for bench/index_instructions.sh.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HLOLAYOUT_HAVE_CALLGRIND 1
#endif

#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {
namespace {

using u64 = uint64_t;

// The closed forms. Forward(x) is the offset of index x; Inverse(u, x)
// writes the index at offset u and says whether it is an element (false:
// padding, tail included).

// bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}: physical [1,8,1280,16384],
// final [1,8,160,128,4,128,2,1].
struct DesignCard {
  static constexpr const char* kShape =
      "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
  static int64_t Forward(const int64_t* x) {
    return x[0] * 20971520 + (x[2] >> 3) * 131072 + (x[3] >> 7) * 1024 +
           ((x[2] >> 1) & 3) * 256 + (x[3] & 127) * 2 + (x[2] & 1);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 167772160) return false;
    const u64 t = u >> 17;
    x[3] = static_cast<int64_t>(((u >> 3) & (127 << 7)) | ((u >> 1) & 127));
    x[2] = static_cast<int64_t>(((t % 160) << 3) | ((u >> 7) & 6) | (u & 1));
    x[1] = 0;
    x[0] = static_cast<int64_t>(t / 160);
    return true;
  }
};

// f32[1024,1024]{1,0:T(8,128)}: final [128,8,8,128].
struct F32Square {
  static constexpr const char* kShape = "f32[1024,1024]{1,0:T(8,128)}";
  static int64_t Forward(const int64_t* x) {
    return (x[0] >> 3) * 8192 + (x[1] >> 7) * 1024 + (x[0] & 7) * 128 +
           (x[1] & 127);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 1048576) return false;
    x[0] = static_cast<int64_t>(((u >> 10) & ~u64{7}) | ((u >> 7) & 7));
    x[1] = static_cast<int64_t>(((u >> 3) & (7 << 7)) | (u & 127));
    return true;
  }
};

// bf16[64,2048]{1,0:T(8,128)(2,1)}: final [8,16,4,128,2,1].
struct Bf16Wide {
  static constexpr const char* kShape = "bf16[64,2048]{1,0:T(8,128)(2,1)}";
  static int64_t Forward(const int64_t* x) {
    return (x[0] >> 3) * 16384 + (x[1] >> 7) * 1024 + ((x[0] >> 1) & 3) * 256 +
           (x[1] & 127) * 2 + (x[0] & 1);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 131072) return false;
    x[0] =
        static_cast<int64_t>(((u >> 11) & ~u64{7}) | ((u >> 7) & 6) | (u & 1));
    x[1] = static_cast<int64_t>(((u >> 3) & (15 << 7)) | ((u >> 1) & 127));
    return true;
  }
};

// bf16[8,3,1280,1000]{3,2,1,0:T(8,128)(2,1)}: final [8,3,160,8,4,128,2,1];
// columns 1000..1023 of each tile row are padding.
struct Bf16Padded {
  static constexpr const char* kShape =
      "bf16[8,3,1280,1000]{3,2,1,0:T(8,128)(2,1)}";
  static int64_t Forward(const int64_t* x) {
    return x[0] * 3932160 + x[1] * 1310720 + (x[2] >> 3) * 8192 +
           (x[3] >> 7) * 1024 + ((x[2] >> 1) & 3) * 256 + (x[3] & 127) * 2 +
           (x[2] & 1);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 31457280) return false;
    const u64 t = u >> 13;
    x[3] = static_cast<int64_t>(((u >> 3) & (7 << 7)) | ((u >> 1) & 127));
    x[2] = static_cast<int64_t>(((t % 160) << 3) | ((u >> 7) & 6) | (u & 1));
    const u64 t2 = t / 160;
    x[1] = static_cast<int64_t>(t2 % 3);
    x[0] = static_cast<int64_t>(t2 / 3);
    return x[3] < 1000;
  }
};

// s4[2048,1024]{1,0:T(8,128)(4,1)E(4)}: final [256,8,2,128,4,1]; two
// elements per byte (the byte is offset / 2, the nibble offset % 2).
struct S4Packed {
  static constexpr const char* kShape = "s4[2048,1024]{1,0:T(8,128)(4,1)E(4)}";
  static int64_t Forward(const int64_t* x) {
    return (x[0] >> 3) * 8192 + (x[1] >> 7) * 1024 + ((x[0] >> 2) & 1) * 512 +
           (x[1] & 127) * 4 + (x[0] & 3);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 2097152) return false;
    x[0] =
        static_cast<int64_t>(((u >> 10) & ~u64{7}) | ((u >> 7) & 4) | (u & 3));
    x[1] = static_cast<int64_t>(((u >> 3) & (7 << 7)) | ((u >> 2) & 127));
    return true;
  }
};

// f32[384,512]{0,1:T(8,128)}: dim 0 minor; physical [512,384], final
// [64,3,8,128].
struct F32Transposed {
  static constexpr const char* kShape = "f32[384,512]{0,1:T(8,128)}";
  static int64_t Forward(const int64_t* x) {
    return (x[1] >> 3) * 3072 + (x[0] >> 7) * 1024 + (x[1] & 7) * 128 +
           (x[0] & 127);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 196608) return false;
    const u64 t = u >> 10;
    x[0] = static_cast<int64_t>(((t % 3) << 7) | (u & 127));
    x[1] = static_cast<int64_t>(((t / 3) << 3) | ((u >> 7) & 7));
    return true;
  }
};

// Beyond the six: tiles that are not powers of two,
// f32[7,5,300,200]{3,2,1,0:T(3,10)(3,1)}: final [7,5,100,20,1,10,3,1].
struct F32OddTiles {
  static constexpr const char* kShape =
      "f32[7,5,300,200]{3,2,1,0:T(3,10)(3,1)}";
  static int64_t Forward(const int64_t* x) {
    return x[0] * 300000 + x[1] * 60000 + (x[2] / 3) * 600 + (x[3] / 10) * 30 +
           (x[3] % 10) * 3 + (x[2] % 3);
  }
  static bool Inverse(int64_t o, int64_t* x) {
    const u64 u = static_cast<u64>(o);
    if (u >= 2100000) return false;
    const u64 r_lo = u % 3, t = u / 3;
    const u64 c_lo = t % 10, t2 = t / 10;
    const u64 c_hi = t2 % 20, t3 = t2 / 20;
    x[2] = static_cast<int64_t>((t3 % 100) * 3 + r_lo);
    x[3] = static_cast<int64_t>(c_hi * 10 + c_lo);
    const u64 t4 = t3 / 100;
    x[1] = static_cast<int64_t>(t4 % 5);
    x[0] = static_cast<int64_t>(t4 / 5);
    return true;
  }
};

constexpr int kBatch = 4096;
constexpr int kRounds = 15;

// Keeps `v` in a register the compiler cannot see through: the answers are
// consumed one by one.
inline void Keep(int64_t& v) { asm volatile("" : "+r"(v)); }

struct Data {
  Shape shape;
  TiledIndexer ix;
  int rank;
  std::vector<int64_t> indices;  // kBatch indices, rank each
  std::vector<int64_t> offsets;  // kBatch offsets in [0, padded)
};

Data MakeData(const char* text) {
  absl::StatusOr<Shape> s = ParseShape(text);
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(*s);
  if (!s.ok() || !ix.ok()) {
    std::fprintf(stderr, "cannot build %s\n", text);
    std::exit(1);
  }
  Data d{*s, *ix, static_cast<int>(s->rank()), {}, {}};
  std::mt19937_64 rng(88);
  for (int i = 0; i < kBatch; ++i) {
    for (int k = 0; k < d.rank; ++k) {
      d.indices.push_back(
          static_cast<int64_t>(rng() % static_cast<u64>(s->dimension(k))));
    }
    d.offsets.push_back(
        static_cast<int64_t>(rng() % static_cast<u64>(ix->padded_elements())));
  }
  return d;
}

// The loops that are timed (and counted). Each returns a checksum.
template <typename C>
__attribute__((noinline)) int64_t ClosedForward(const Data& d) {
  int64_t sum = 0;
  const int64_t* x = d.indices.data();
  for (int i = 0; i < kBatch; ++i) {
    sum += C::Forward(x + i * d.rank);
    Keep(sum);
  }
  return sum;
}

__attribute__((noinline)) int64_t IndexerForward(const Data& d) {
  int64_t sum = 0;
  const int64_t* x = d.indices.data();
  const size_t rank = d.rank;
  for (int i = 0; i < kBatch; ++i) {
    sum += d.ix.OffsetInElements(absl::MakeConstSpan(x + i * rank, rank));
    Keep(sum);
  }
  return sum;
}

__attribute__((noinline)) int64_t IndexerForwardBatched(const Data& d,
                                                        int64_t* out) {
  d.ix.OffsetsInElements(d.indices, absl::MakeSpan(out, kBatch));
  return out[kBatch - 1];
}

template <typename C>
__attribute__((noinline)) int64_t ClosedInverse(const Data& d) {
  int64_t sum = 0;
  int64_t x[8] = {};
  for (int i = 0; i < kBatch; ++i) {
    if (C::Inverse(d.offsets[i], x)) {
      for (int k = 0; k < d.rank; ++k) sum += x[k];
    }
    Keep(sum);
  }
  return sum;
}

__attribute__((noinline)) int64_t IndexerInverse(const Data& d) {
  int64_t sum = 0;
  int64_t x[8] = {};
  const size_t rank = d.rank;
  for (int i = 0; i < kBatch; ++i) {
    if (d.ix.ElementAtOffsetInElements(d.offsets[i], absl::MakeSpan(x, rank)) ==
        OffsetKind::kElement) {
      for (size_t k = 0; k < rank; ++k) sum += x[k];
    }
    Keep(sum);
  }
  return sum;
}

__attribute__((noinline)) int64_t IndexerInverseBatched(const Data& d,
                                                        int64_t* out,
                                                        OffsetKind* kinds) {
  d.ix.ElementsAtOffsetsInElements(d.offsets,
                                   absl::MakeSpan(out, kBatch * d.rank),
                                   absl::MakeSpan(kinds, kBatch));
  return out[0];
}

// Sub-byte: index -> (byte, bit shift) of a packed s4 element.
__attribute__((noinline)) int64_t ClosedByte(const Data& d) {
  int64_t sum = 0;
  const int64_t* x = d.indices.data();
  for (int i = 0; i < kBatch; ++i) {
    const int64_t off = S4Packed::Forward(x + i * 2);
    sum += (off >> 1) + (off & 1) * 4;
    Keep(sum);
  }
  return sum;
}

__attribute__((noinline)) int64_t IndexerByte(const Data& d) {
  int64_t sum = 0;
  const int64_t* x = d.indices.data();
  for (int i = 0; i < kBatch; ++i) {
    const BitPosition p = d.ix.BitPositionOf(
        d.ix.OffsetInElements(absl::MakeConstSpan(x + i * 2, 2)));
    sum += p.byte + p.shift;
    Keep(sum);
  }
  return sum;
}

// The closed form and the indexer agree on every sample, scalar and
// batched.
template <typename C>
bool Agree(const Data& d) {
  std::vector<int64_t> batch(kBatch), back(kBatch * d.rank);
  std::vector<OffsetKind> kinds(kBatch);
  d.ix.OffsetsInElements(d.indices, absl::MakeSpan(batch));
  d.ix.ElementsAtOffsetsInElements(d.offsets, absl::MakeSpan(back),
                                   absl::MakeSpan(kinds));
  for (int i = 0; i < kBatch; ++i) {
    const int64_t* x = &d.indices[i * d.rank];
    const int64_t off = C::Forward(x);
    if (off != d.ix.OffsetInElements(absl::MakeConstSpan(x, d.rank)) ||
        off != batch[i]) {
      std::fprintf(stderr, "%s: forward differs at sample %d\n", C::kShape, i);
      return false;
    }
    int64_t a[8], b[8];
    const bool element = C::Inverse(d.offsets[i], a);
    const OffsetKind k =
        d.ix.ElementAtOffsetInElements(d.offsets[i], absl::MakeSpan(b, d.rank));
    if (element != (k == OffsetKind::kElement) || kinds[i] != k ||
        (element && (std::memcmp(a, b, d.rank * 8) != 0 ||
                     std::memcmp(a, &back[i * d.rank], d.rank * 8) != 0))) {
      std::fprintf(stderr, "%s: inverse differs at offset %lld\n", C::kShape,
                   static_cast<long long>(d.offsets[i]));
      return false;
    }
  }
  return true;
}

template <typename F>
double NsPerElement(F f) {
  // About 2 ms per measurement.
  constexpr int kRepeats = 100;
  const auto start = std::chrono::steady_clock::now();
  int64_t sink = 0;
  for (int r = 0; r < kRepeats; ++r) sink += f();
  const auto end = std::chrono::steady_clock::now();
  Keep(sink);
  return std::chrono::duration<double, std::nano>(end - start).count() /
         (static_cast<double>(kRepeats) * kBatch);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Row {
  std::string shape, direction, path;
  double closed, scalar, batched;
};

// Times three loops in turn, kRounds times; medians.
template <typename A, typename B, typename C>
void Time3(A closed, B scalar, C batched, Row* row) {
  std::vector<double> a, b, c;
  for (int r = 0; r < kRounds; ++r) {
    a.push_back(NsPerElement(closed));
    b.push_back(NsPerElement(scalar));
    c.push_back(NsPerElement(batched));
  }
  row->closed = Median(a);
  row->scalar = Median(b);
  row->batched = Median(c);
}

#if HLOLAYOUT_HAVE_CALLGRIND
// One callgrind dump per loop, named "<shape>|<direction>|<variant>".
template <typename F>
void Count(const std::string& label, F f) {
  CALLGRIND_ZERO_STATS;
  int64_t sink = f();
  Keep(sink);
  CALLGRIND_DUMP_STATS_AT(label.c_str());
}
#endif

template <typename C>
bool RunCase(bool callgrind, std::vector<Row>* rows) {
  const Data d = MakeData(C::kShape);
  if (!Agree<C>(d)) return false;
  std::vector<int64_t> out(kBatch * 8);
  std::vector<OffsetKind> kinds(kBatch);
  auto closed_f = [&] { return ClosedForward<C>(d); };
  auto scalar_f = [&] { return IndexerForward(d); };
  auto batched_f = [&] { return IndexerForwardBatched(d, out.data()); };
  auto closed_i = [&] { return ClosedInverse<C>(d); };
  auto scalar_i = [&] { return IndexerInverse(d); };
  auto batched_i = [&] {
    return IndexerInverseBatched(d, out.data(), kinds.data());
  };
  if (callgrind) {
#if HLOLAYOUT_HAVE_CALLGRIND
    const std::string s = C::kShape;
    Count(s + "|forward|closed", closed_f);
    Count(s + "|forward|scalar", scalar_f);
    Count(s + "|forward|batched", batched_f);
    Count(s + "|inverse|closed", closed_i);
    Count(s + "|inverse|scalar", scalar_i);
    Count(s + "|inverse|batched", batched_i);
#endif
    return true;
  }
  Row f{C::kShape, "forward", d.ix.forward_path()};
  Time3(closed_f, scalar_f, batched_f, &f);
  Row i{C::kShape, "inverse", d.ix.inverse_path()};
  Time3(closed_i, scalar_i, batched_i, &i);
  rows->push_back(f);
  rows->push_back(i);
  return true;
}

// What the other calls of hlolayout.h's tour cost on the design card's
// shape, for the tour's notes: ns per call, median of kRounds.
void PrintOtherCalls() {
  const char* text = DesignCard::kShape;
  const Shape shape = *ParseShape(text);
  const TiledIndexer ix = *TiledIndexer::Create(shape);
  const int64_t index[4] = {1, 0, 5, 300};
  auto time = [](auto f) {
    std::vector<double> v;
    for (int r = 0; r < kRounds; ++r) {
      constexpr int kCalls = 2000;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kCalls; ++i) f();
      const auto end = std::chrono::steady_clock::now();
      v.push_back(
          std::chrono::duration<double, std::nano>(end - start).count() /
          kCalls);
    }
    return Median(v);
  };
  std::printf("\nother calls on %s, ns per call (median of %d):\n", text,
              kRounds);
  std::printf("  ParseShape                     %10.0f\n", time([&] {
                absl::StatusOr<Shape> s = ParseShape(text);
                int64_t r = s->rank();
                Keep(r);
              }));
  std::printf("  TiledIndexer::Create(shape)    %10.0f\n", time([&] {
                absl::StatusOr<TiledIndexer> i = TiledIndexer::Create(shape);
                int64_t r = i->rank();
                Keep(r);
              }));
  std::printf("  ReferenceOffset(shape, index)  %10.0f\n", time([&] {
                int64_t o = *ReferenceOffset(shape, index);
                Keep(o);
              }));
  std::printf("  ReferenceElementAt(shape, o)   %10.0f\n", time([&] {
                int64_t o = ReferenceElementAt(shape, 20974169)->index[3];
                Keep(o);
              }));
  std::printf("  TryOffsetInElements(index)     %10.1f\n", time([&] {
                int64_t o = *ix.TryOffsetInElements(index);
                Keep(o);
              }));
}

int Main(int argc, char** argv) {
  const bool callgrind = argc > 1 && std::strcmp(argv[1], "--callgrind") == 0;
#if !HLOLAYOUT_HAVE_CALLGRIND
  if (callgrind) {
    std::fprintf(stderr, "built without valgrind/callgrind.h\n");
    return 1;
  }
#endif
  std::vector<Row> rows;
  const bool ok = RunCase<DesignCard>(callgrind, &rows) &&
                  RunCase<F32Square>(callgrind, &rows) &&
                  RunCase<Bf16Wide>(callgrind, &rows) &&
                  RunCase<Bf16Padded>(callgrind, &rows) &&
                  RunCase<S4Packed>(callgrind, &rows) &&
                  RunCase<F32Transposed>(callgrind, &rows) &&
                  RunCase<F32OddTiles>(callgrind, &rows);
  if (!ok) return 1;
  // The packed s4 element's byte and bit: the element offset, then
  // BitPositionOf (another call), against offset / 2 and (offset % 2) * 4.
  const Data s4 = MakeData(S4Packed::kShape);
  if (callgrind) {
#if HLOLAYOUT_HAVE_CALLGRIND
    const std::string s = S4Packed::kShape;
    Count(s + "|byte+bit|closed", [&] { return ClosedByte(s4); });
    Count(s + "|byte+bit|scalar", [&] { return IndexerByte(s4); });
#endif
    return 0;
  }
  Row byte{S4Packed::kShape, "byte+bit", "masked terms + BitPositionOf"};
  {
    std::vector<double> a, b;
    for (int r = 0; r < kRounds; ++r) {
      a.push_back(NsPerElement([&] { return ClosedByte(s4); }));
      b.push_back(NsPerElement([&] { return IndexerByte(s4); }));
    }
    byte.closed = Median(a);
    byte.scalar = Median(b);
    byte.batched = 0;
  }
  rows.push_back(byte);
  std::printf(
      "ns per element, median of %d rounds of %d elements x 100 (ratio: "
      "indexer / closed form)\n\n",
      kRounds, kBatch);
  std::printf(
      "| shape | direction | indexer path | closed form | indexer | "
      "ratio | batched | ratio |\n|---|---|---|---|---|---|---|---|\n");
  double worst = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const bool odd = row.shape == F32OddTiles::kShape;
    const double rs = row.scalar / row.closed;
    const double rb = row.batched / row.closed;
    if (!odd) worst = std::max({worst, rs, row.batched > 0 ? rb : 0.0});
    if (row.batched > 0) {
      std::printf("| `%s` | %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2fx |\n",
                  row.shape.c_str(), row.direction.c_str(), row.path.c_str(),
                  row.closed, row.scalar, rs, row.batched, rb);
    } else {
      std::printf("| `%s` | %s | %s | %.2f | %.2f | %.2fx | | |\n",
                  row.shape.c_str(), row.direction.c_str(), row.path.c_str(),
                  row.closed, row.scalar, rs);
    }
  }
  std::printf("\nworst ratio over the six shapes (odd tiles excluded): %.2fx\n",
              worst);
  PrintOtherCalls();
  return 0;
}

}  // namespace
}  // namespace hlolayout

int main(int argc, char** argv) { return hlolayout::Main(argc, argv); }
