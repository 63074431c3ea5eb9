// fuzz/relayout_fuzzer.cc: the relayout engine (relayout/relayout.h) on
// random small arrays. The input's bytes pick, in order: the options (fill
// byte; threads 1 or 2, packing order, AVX2 on or off), the element type,
// rank 1-4 and dims 1-6 (some up to 40), then two layouts: a minor_to_major
// permutation, 0 to 2 tile levels (tile dims 1, 2, 3, 4, 8 or `*`), sometimes
// L(n), and E(n) for sub-byte types. The rest of the input is the source data.
// Then:
//   - the plan's output equals the general path's (allow_fast_paths false)
//     byte for byte, and no byte past dst_bytes() is written;
//   - RunInPieces (pieces of 1 to 128 bytes) gives the same bytes;
//   - every element is where ReferenceOffset puts it in both layouts
//     (sub-byte values compared in their value bits);
//   - every padding element of a whole-byte destination holds the fill;
//   - invalid combinations (a tile XLA rejects, ...) are errors with a
//     message, never crashes.
//
//   fuzz/run.sh 60 relayout
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/relayout/relayout.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::fuzz {
namespace {

// Reads the input a byte at a time; zeros once it runs out.
struct Bytes {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  uint8_t Next() { return at < size ? data[at++] : 0; }
};

constexpr const char* kTypes[] = {"f32",  "bf16", "s8",  "u8",  "s4",
                                  "u4",   "s2",   "u2",  "u1",  "f64",
                                  "pred", "c64",  "s16", "c128"};
constexpr const char* kTileDims[] = {"1", "2", "3", "4", "8", "*"};
// Inputs past this many elements are skipped (the per-element reference
// check divides for every element and tile level).
constexpr int64_t kMaxElements = 4096;

// A layout for `rank` dims: "{1,0:T(2,4)(2,1)L(8)E(4)}" and the like.
std::string RandomLayout(Bytes& in, int rank, int bits) {
  std::vector<int> perm(rank);
  for (int i = 0; i < rank; ++i) perm[i] = i;
  for (int i = rank - 1; i > 0; --i)
    std::swap(perm[i], perm[in.Next() % (i + 1)]);
  std::string text = absl::StrCat("{", absl::StrJoin(perm, ","));
  const uint8_t shape = in.Next();
  const int levels = shape % 3;
  std::string extra;
  for (int l = 0; l < levels; ++l) {
    const int n = 1 + in.Next() % rank;
    std::vector<std::string> dims;
    for (int k = 0; k < n; ++k) {
      // `*` anywhere: where a layout may not have one, an error.
      dims.push_back(kTileDims[in.Next() % 6]);
    }
    absl::StrAppend(&extra, "T(", absl::StrJoin(dims, ","), ")");
  }
  if ((shape >> 2) % 4 == 0)
    absl::StrAppend(&extra, "L(", 1 + in.Next() % 8, ")");
  if (bits < 8 && (shape >> 4) % 2 == 0)
    absl::StrAppend(&extra, "E(", bits, ")");
  if (!extra.empty()) absl::StrAppend(&text, ":", extra);
  return text + "}";
}

// The value bits of element offset `off` in a buffer of `shape`.
uint64_t ValueAt(const std::vector<uint8_t>& buf, int64_t off,
                 const ArraySizes& sizes, int value_bits, int byte_width,
                 PackingOrder order) {
  if (sizes.packed) {
    const int n = static_cast<int>(sizes.element_bits);
    const int64_t bit = off * n;
    const int sh = PackedShift(static_cast<int>(bit % 8), n, order);
    return (buf[bit / 8] >> sh) & ((1u << value_bits) - 1);
  }
  if (value_bits < 8) return buf[off] & ((1u << value_bits) - 1);
  uint64_t v = 0;
  // Whole-byte elements: a hash of all their bytes (up to 16).
  for (int b = 0; b < byte_width; ++b) {
    v = v * 1000003u + buf[off * byte_width + b];
  }
  return v;
}

void Check(const uint8_t* data, size_t size) {
  Bytes in{data, size};
  RelayoutOptions opts;
  opts.fill = in.Next();
  const uint8_t flags = in.Next();
  opts.threads = 1 + (flags & 1);
  opts.packing =
      (flags & 2) ? PackingOrder::kHighFirst : PackingOrder::kLowFirst;
  opts.allow_avx2 = (flags & 4) == 0;
  const char* type = kTypes[in.Next() % (sizeof(kTypes) / sizeof(kTypes[0]))];
  const int rank = 1 + in.Next() % 4;
  std::vector<int64_t> dims(rank);
  // Mostly 1 to 6; up to 40 when the byte's high bit is set, for the SIMD
  // blocks (8x8, 16x16) and the strips, at most kMaxElements in all.
  int64_t elements = 1;
  for (int64_t& d : dims) {
    const uint8_t b = in.Next();
    d = 1 + ((b & 0x80) ? b % 40 : b % 6);
    elements *= d;
  }
  if (elements > kMaxElements) return;
  const std::string prefix =
      absl::StrCat(type, "[", absl::StrJoin(dims, ","), "]");
  absl::StatusOr<Shape> probe = ParseShape(prefix);
  if (!probe.ok()) Fail("array shape does not parse", prefix);  // all known
  const int value_bits = BitWidth(probe->element_type());
  const int byte_width = ByteWidth(probe->element_type());
  const std::string from_text = prefix + RandomLayout(in, rank, value_bits);
  const std::string to_text = prefix + RandomLayout(in, rank, value_bits);
  const std::string both = from_text + " -> " + to_text;
  absl::StatusOr<Shape> from = ParseShape(from_text);
  absl::StatusOr<Shape> to = ParseShape(to_text);
  CheckError(from.status(), from_text);
  CheckError(to.status(), to_text);
  if (!from.ok() || !to.ok()) return;
  absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(*from, *to, opts);
  CheckError(plan.status(), both);
  if (!plan.ok()) return;
  absl::StatusOr<ArraySizes> from_sizes = ComputeArraySizes(*from);
  absl::StatusOr<ArraySizes> to_sizes = ComputeArraySizes(*to);
  if (!from_sizes.ok() || !to_sizes.ok()) {
    Fail("a planned shape has no sizes", both);
  }
  // Tiles can pad small arrays a lot; the checks below visit every padded
  // element.
  if (from_sizes->padded_elements > 4 * kMaxElements ||
      to_sizes->padded_elements > 4 * kMaxElements) {
    return;
  }
  if (plan->src_bytes() != from_sizes->padded_bytes ||
      plan->dst_bytes() != to_sizes->padded_bytes) {
    Fail("plan sizes differ from ComputeArraySizes", both);
  }
  // Source: the rest of the input, repeated (a counter when there is none).
  std::vector<uint8_t> src(plan->src_bytes());
  const size_t rest = size - std::min(size, in.at);
  for (size_t i = 0; i < src.size(); ++i) {
    src[i] = rest > 0 ? data[in.at + i % rest] : static_cast<uint8_t>(i * 37);
  }
  constexpr size_t kGuard = 64;
  std::vector<uint8_t> fast(plan->dst_bytes() + kGuard, 0xA5);
  std::vector<uint8_t> general(plan->dst_bytes() + kGuard, 0xA5);
  if (!plan->Run(src, absl::MakeSpan(fast)).ok()) Fail("run failed", both);
  RelayoutOptions slow = opts;
  slow.allow_fast_paths = false;
  if (!Relayout(*from, src, *to, absl::MakeSpan(general), slow).ok()) {
    Fail("general run failed", both);
  }
  for (size_t i = plan->dst_bytes(); i < fast.size(); ++i) {
    if (fast[i] != 0xA5) Fail("wrote past dst_bytes", both);
  }
  if (fast != general) {
    Fail("fast path differs from the general path", both, plan->Describe());
  }
  // The same bytes made in pieces (of 1 to 128 bytes, from the flags).
  const int64_t piece_bytes = int64_t{1} << ((flags >> 3) & 7);
  std::vector<uint8_t> pieces;
  const int64_t largest = plan->LargestPiece(piece_bytes);
  absl::Status s =
      plan->RunInPieces(src, piece_bytes, [&](absl::Span<const uint8_t> piece) {
        if (static_cast<int64_t>(piece.size()) > largest) {
          Fail("a piece is longer than LargestPiece", both);
        }
        pieces.insert(pieces.end(), piece.begin(), piece.end());
        return absl::OkStatus();
      });
  if (!s.ok()) Fail("run in pieces failed", both);
  if (!std::equal(pieces.begin(), pieces.end(), fast.begin()) ||
      static_cast<int64_t>(pieces.size()) != plan->dst_bytes()) {
    Fail("pieces differ from Run", both, plan->Describe());
  }
  // Every element against the reference offsets, in logical order (the
  // tiling models built once: ReferenceOffset(shape, ...) builds one per
  // call).
  absl::StatusOr<TilingModel> from_model = BuildTilingModel(*from);
  absl::StatusOr<TilingModel> to_model = BuildTilingModel(*to);
  if (!from_model.ok() || !to_model.ok())
    Fail("a planned shape has no model", both);
  std::vector<int64_t> index(rank, 0);
  for (bool more = true; more;) {
    absl::StatusOr<int64_t> so = ReferenceOffset(*from_model, index);
    absl::StatusOr<int64_t> dof = ReferenceOffset(*to_model, index);
    if (!so.ok() || !dof.ok()) Fail("no reference offset", both);
    if (ValueAt(src, *so, *from_sizes, value_bits, byte_width, opts.packing) !=
        ValueAt(fast, *dof, *to_sizes, value_bits, byte_width, opts.packing)) {
      Fail("element not at its reference offset", both, plan->Describe());
    }
    more = false;
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < dims[d]) {
        more = true;
        break;
      }
      index[d] = 0;
    }
  }
  // Padding of whole-byte destinations: the fill.
  if (!to_sizes->packed) {
    for (int64_t off = 0; off < to_sizes->padded_elements; ++off) {
      absl::StatusOr<ElementAtOffset> at = ReferenceElementAt(*to_model, off);
      if (!at.ok()) Fail("no reference element", both);
      if (at->kind == OffsetKind::kElement) continue;
      for (int b = 0; b < byte_width; ++b) {
        if (fast[off * byte_width + b] != opts.fill) {
          Fail("padding byte without the fill", both, plan->Describe());
        }
      }
    }
  }
}

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > hlolayout::fuzz::kMaxInputSize) return 0;
  hlolayout::fuzz::Check(data, size);
  return 0;
}
