// The relayout plan: see relayout.h and docs/relayout.md.
//
// Without `*`, a tiled offset is a sum of one function per logical
// dimension: offset(i) = sum_d f_d(i_d) (every split and every final digit
// depends on one coordinate). A `*` makes the dims it merges one group whose
// function depends on all of them. Create groups the logical dims (the union
// of both layouts' groupings), tabulates each group's function for both
// layouts (f(0) = 0), and Run walks the groups with an odometer: the two
// innermost groups, A (outer) and B (inner), are handed to a kernel chosen
// from the shape of their tables (runs contiguous in both layouts,
// interleaves, a transpose, packing), the others only move base offsets.
// No division happens per element.
#include "hlolayout/relayout/relayout.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "absl/strings/str_cat.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/relayout/kernels.h"

namespace hlolayout {

const char* RelayoutKernelName(RelayoutKernel kernel) {
  switch (kernel) {
    case RelayoutKernel::kMemcpy:
      return "memcpy";
    case RelayoutKernel::kRuns:
      return "runs";
    case RelayoutKernel::kInterleave:
      return "interleave";
    case RelayoutKernel::kDeinterleave:
      return "deinterleave";
    case RelayoutKernel::kTranspose:
      return "transpose";
    case RelayoutKernel::kPack:
      return "pack";
    case RelayoutKernel::kGeneral:
      return "general";
  }
  return "?";
}

namespace {

using relayout_internal::Group;
using relayout_internal::OffsetTable;
using relayout_internal::Run;

// Group tables larger than this make the plan use the indexers per element.
constexpr int64_t kMaxGroupTable = int64_t{1} << 21;
// Copies smaller than this run on the calling thread only.
constexpr int64_t kMinParallelBytes = int64_t{1} << 20;

int Find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Unions the logical dims that a `*` of `model` merges.
void UnionCombinedDims(const TilingModel& model, std::vector<int>& parent) {
  // For each dim of the current shape: the logical dims it derives from
  // (empty for a leading 1), represented by one member (or -1).
  std::vector<int> current;
  for (const TilingDim& d : model.physical) {
    current.push_back(static_cast<int>(d.logical_dimension));
  }
  for (const TileLevel& level : model.levels) {
    std::vector<int> work(level.leading_ones, -1);
    work.insert(work.end(), current.begin(), current.end());
    std::vector<int> combined;
    for (const auto& range : level.combined_from) {
      int rep = -1;
      for (int64_t i = range.first; i <= range.second; ++i) {
        if (work[i] < 0) continue;
        if (rep < 0) {
          rep = work[i];
        } else {
          parent[Find(parent, work[i])] = Find(parent, rep);
        }
      }
      combined.push_back(rep);
    }
    const int64_t p = level.prefix_rank();
    const int64_t tiled = static_cast<int64_t>(level.tile_sizes.size());
    std::vector<int> next(combined.begin(), combined.begin() + p);
    for (int64_t i = 0; i < tiled; ++i) next.push_back(combined[p + i]);
    for (int64_t i = 0; i < tiled; ++i) next.push_back(combined[p + i]);
    current = std::move(next);
  }
}

// Position of logical dim d in `model`'s physical order, 0 = most minor.
int64_t MinorPosition(const TilingModel& model, int64_t d) {
  for (size_t i = 0; i < model.minor_to_major.size(); ++i) {
    if (model.minor_to_major[i] == d) return static_cast<int64_t>(i);
  }
  return 0;
}

absl::Status CheckArray(const Shape& s, const char* which) {
  if (!s.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat(which, " shape ", s.ToString(true), " is not an array"));
  }
  if (!s.is_static()) {
    return absl::InvalidArgumentError(absl::StrCat(
        which, " shape ", s.ToString(true), " has dynamic dimensions"));
  }
  if (s.has_layout()) {
    for (const DimLevel& level : s.layout().dim_levels()) {
      if (level.type != DIM_DENSE) {
        return absl::InvalidArgumentError(absl::StrCat(
            which, " shape ", s.ToString(true), " has a sparse layout"));
      }
    }
  }
  return absl::OkStatus();
}

// Storage width of one element: E(n) packs sub-byte types; E(n) equal to
// the unpacked width is the same as no E.
absl::StatusOr<int> StorageBits(const Shape& s, const TilingModel& model,
                                const char* which) {
  const int natural = 8 * ByteWidth(s.element_type());
  if (!model.packed || model.element_bits == natural) return natural;
  if (IsSubByteType(s.element_type()) &&
      model.element_bits == BitWidth(s.element_type())) {
    return static_cast<int>(model.element_bits);
  }
  return absl::UnimplementedError(absl::StrCat(
      which, " shape ", s.ToString(true), ": E(", model.element_bits,
      ") is only supported as the packed width of a sub-byte type (E(",
      BitWidth(s.element_type()), ")) or the unpacked width (E(", natural,
      "))"));
}

// Checks that `from` and `to` are dense static arrays of one element type
// and the same dimensions, and that `options` asks for >= 0 threads.
absl::Status CheckPlanArguments(const Shape& from, const Shape& to,
                                const RelayoutOptions& options) {
  if (absl::Status s = CheckArray(from, "from"); !s.ok()) return s;
  if (absl::Status s = CheckArray(to, "to"); !s.ok()) return s;
  if (from.element_type() != to.element_type()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "element types differ: ", PrimitiveTypeName(from.element_type()),
        " vs ", PrimitiveTypeName(to.element_type())));
  }
  if (from.rank() != to.rank() ||
      !std::equal(from.dimensions().begin(), from.dimensions().end(),
                  to.dimensions().begin())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dimensions differ: ", from.ToString(), " vs ", to.ToString()));
  }
  if (options.threads < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be >= 0, got ", options.threads));
  }
  return absl::OkStatus();
}

// Sets the plan's sizes, element widths, packing and fill options, and its
// thread count (one thread below kMinParallelBytes).
void SetSizesAndThreads(PrimitiveType type, const ArraySizes& from_sizes,
                        const ArraySizes& to_sizes, int src_bits, int dst_bits,
                        const RelayoutOptions& options,
                        relayout_internal::Plan& p) {
  p.type = type;
  p.src_bytes = from_sizes.padded_bytes;
  p.dst_bytes = to_sizes.padded_bytes;
  p.elements = from_sizes.logical_elements;
  p.src_bits = src_bits;
  p.dst_bits = dst_bits;
  p.value_bits = BitWidth(p.type);
  p.sign_extend = IsSignedIntegralType(p.type);
  p.order = options.packing;
  p.fill = options.fill;
  p.avx2 = options.allow_avx2 && relayout_internal::CpuHasAvx2();
  p.esize =
      p.src_bits == p.dst_bits && p.src_bits % 8 == 0 ? p.src_bits / 8 : 0;
  // Any bit of dst that no element covers is padding.
  p.prefill = static_cast<unsigned __int128>(p.dst_bytes) * 8 !=
              static_cast<unsigned __int128>(p.elements) * p.dst_bits;
  // hardware_concurrency reads /sys on every call (a third of a small
  // plan's creation): asked once.
  static const int kCores =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.threads = options.threads == 0 ? kCores : options.threads;
  if (std::max(p.src_bytes, p.dst_bytes) < kMinParallelBytes) {
    p.threads = 1;  // ChooseKernel also keeps packed rows sharing bytes on 1
  }
}

// The groups of logical dims that must be tabulated together (the dims a
// `*` of either layout merges), each with its src-minor dim last, ordered by
// src physical order (major first), then the group holding dst's most minor
// dim second to last and src's most minor dim last.
std::vector<std::vector<int>> OrderedDimGroups(const TilingModel& fm,
                                               const TilingModel& tm,
                                               int rank) {
  std::vector<int> parent(rank);
  std::iota(parent.begin(), parent.end(), 0);
  UnionCombinedDims(fm, parent);
  UnionCombinedDims(tm, parent);
  std::vector<std::vector<int>> members(rank);
  for (int d = 0; d < rank; ++d) members[Find(parent, d)].push_back(d);
  std::vector<std::vector<int>> groups;
  for (auto& m : members) {
    if (m.empty()) continue;
    // Within a group, the src-minor dim varies fastest.
    std::sort(m.begin(), m.end(), [&](int a, int b) {
      return MinorPosition(fm, a) > MinorPosition(fm, b);
    });
    groups.push_back(m);
  }
  auto src_pos = [&](const std::vector<int>& g) {
    int64_t best = rank;
    for (int d : g) best = std::min(best, MinorPosition(fm, d));
    return best;
  };
  std::sort(groups.begin(), groups.end(),
            [&](const std::vector<int>& a, const std::vector<int>& b) {
              return src_pos(a) > src_pos(b);
            });
  if (rank > 0) {
    const int dst_minor = static_cast<int>(tm.minor_to_major[0]);
    auto it = std::find_if(
        groups.begin(), groups.end(), [&](const std::vector<int>& g) {
          return std::find(g.begin(), g.end(), dst_minor) != g.end();
        });
    if (it != groups.end() && it + 1 != groups.end()) {
      std::vector<int> g = *it;
      groups.erase(it);
      groups.insert(groups.end() - 1, g);
    }
  }
  return groups;
}

// True when some group's table would have more than kMaxGroupTable entries.
bool AnyGroupTooBig(const Shape& from,
                    const std::vector<std::vector<int>>& groups) {
  bool too_big = false;
  for (const auto& g : groups) {
    int64_t n = 1;
    for (int d : g) n *= from.dimension(d);  // <= element count: no overflow
    if (n > kMaxGroupTable) too_big = true;
  }
  return too_big;
}

// Makes `p` the general kernel that asks both indexers per element, with an
// odometer in src physical order.
void UseIndexers(const Shape& from, const TilingModel& fm, TiledIndexer fix,
                 TiledIndexer tix, relayout_internal::Plan& p) {
  p.kernel = RelayoutKernel::kGeneral;
  p.use_indexers = true;
  p.src_indexer = std::make_shared<TiledIndexer>(std::move(fix));
  p.dst_indexer = std::make_shared<TiledIndexer>(std::move(tix));
  p.dims.assign(from.dimensions().begin(), from.dimensions().end());
  for (int64_t i = static_cast<int64_t>(from.rank()) - 1; i >= 0; --i) {
    p.dim_order.push_back(static_cast<int>(fm.minor_to_major[i]));
  }
}

// Tabulates each group for both layouts (index_util/tiled_indexer.h: tables
// built from the tile splits, no per-element Offset) into one block,
// pads to at least two groups with size-1 ones, and sets `p.a`, `p.b` (the
// two innermost) and `p.outer`.
void TabulateGroups(const Shape& from,
                    const std::vector<std::vector<int>>& groups,
                    const TiledIndexer& fix, const TiledIndexer& tix,
                    relayout_internal::Plan& p) {
  // One block for every table (kernels.h, OffsetTable), two entries for
  // each of the size-1 groups added below when there are fewer than two.
  int64_t entries = 4;
  for (const auto& g : groups) {
    int64_t n = 1;
    for (int d : g) n *= from.dimension(d);
    entries += 2 * n;
  }
  p.tables.reset(new int64_t[entries]);
  int64_t* next = p.tables.get();
  auto table = [&next](int64_t n) {
    OffsetTable t(next, n);
    next += n;
    return t;
  };
  std::vector<Group> tables;
  for (const auto& g : groups) {
    Group t;
    t.size = 1;
    for (int d : g) t.size *= from.dimension(d);
    t.s = table(t.size);
    t.d = table(t.size);
    t.dims = g;
    if (g.size() == 1) {
      fix.DimOffsets(g[0], absl::MakeSpan(t.s.data(), t.size));
      tix.DimOffsets(g[0], absl::MakeSpan(t.d.data(), t.size));
    } else {  // the last member varies fastest
      fix.GroupOffsets(g, absl::MakeSpan(t.s.data(), t.size));
      tix.GroupOffsets(g, absl::MakeSpan(t.d.data(), t.size));
    }
    tables.push_back(std::move(t));
  }
  while (tables.size() < 2) {
    Group one;
    one.size = 1;
    one.s = table(1);
    one.d = table(1);
    one.s[0] = 0;
    one.d[0] = 0;
    tables.insert(tables.begin(), std::move(one));
  }
  p.b = std::move(tables.back());
  tables.pop_back();
  p.a = std::move(tables.back());
  tables.pop_back();
  p.outer = std::move(tables);
}

}  // namespace

struct RelayoutPlan::Impl {
  Shape from, to;
  RelayoutOptions options;
  relayout_internal::Plan plan;
};

RelayoutPlan::RelayoutPlan(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
RelayoutPlan::RelayoutPlan(RelayoutPlan&&) noexcept = default;
RelayoutPlan& RelayoutPlan::operator=(RelayoutPlan&&) noexcept = default;
RelayoutPlan::~RelayoutPlan() = default;

int64_t RelayoutPlan::src_bytes() const { return impl_->plan.src_bytes; }
int64_t RelayoutPlan::dst_bytes() const { return impl_->plan.dst_bytes; }
const Shape& RelayoutPlan::from() const { return impl_->from; }
const Shape& RelayoutPlan::to() const { return impl_->to; }
const RelayoutOptions& RelayoutPlan::options() const { return impl_->options; }
RelayoutKernel RelayoutPlan::kernel() const { return impl_->plan.kernel; }

std::string RelayoutPlan::Describe() const {
  return relayout_internal::DescribePlan(impl_->plan);
}

absl::StatusOr<RelayoutPlan> RelayoutPlan::Create(
    const Shape& from, const Shape& to, const RelayoutOptions& options) {
  if (absl::Status s = CheckPlanArguments(from, to, options); !s.ok()) {
    return s;
  }
  absl::StatusOr<TilingModel> fm = BuildTilingModel(from);
  if (!fm.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("from: ", fm.status().message()));
  }
  absl::StatusOr<TilingModel> tm = BuildTilingModel(to);
  if (!tm.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("to: ", tm.status().message()));
  }
  absl::StatusOr<ArraySizes> fs = ComputeArraySizes(from);
  if (!fs.ok()) return fs.status();
  absl::StatusOr<ArraySizes> ts = ComputeArraySizes(to);
  if (!ts.ok()) return ts.status();
  absl::StatusOr<int> src_bits = StorageBits(from, *fm, "from");
  if (!src_bits.ok()) return src_bits.status();
  absl::StatusOr<int> dst_bits = StorageBits(to, *tm, "to");
  if (!dst_bits.ok()) return dst_bits.status();

  auto impl = std::make_unique<Impl>();
  impl->from = from;
  impl->to = to;
  impl->options = options;
  relayout_internal::Plan& p = impl->plan;
  SetSizesAndThreads(from.element_type(), *fs, *ts, *src_bits, *dst_bits,
                     options, p);

  absl::StatusOr<TiledIndexer> fix = TiledIndexer::Create(*fm);
  if (!fix.ok()) return fix.status();
  absl::StatusOr<TiledIndexer> tix = TiledIndexer::Create(*tm);
  if (!tix.ok()) return tix.status();

  const std::vector<std::vector<int>> groups =
      OrderedDimGroups(*fm, *tm, static_cast<int>(from.rank()));
  if (AnyGroupTooBig(from, groups)) {
    UseIndexers(from, *fm, *std::move(fix), *std::move(tix), p);
    return RelayoutPlan(std::move(impl));
  }
  TabulateGroups(from, groups, *fix, *tix, p);
  relayout_internal::ChooseKernel(p, options.allow_fast_paths);
  return RelayoutPlan(std::move(impl));
}

absl::Status RelayoutPlan::Run(absl::Span<const uint8_t> src,
                               absl::Span<uint8_t> dst) const {
  const relayout_internal::Plan& p = impl_->plan;
  if (static_cast<int64_t>(src.size()) < p.src_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("source buffer has ", src.size(), " bytes, ",
                     impl_->from.ToString(true), " needs ", p.src_bytes));
  }
  if (static_cast<int64_t>(dst.size()) < p.dst_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("destination buffer has ", dst.size(), " bytes, ",
                     impl_->to.ToString(true), " needs ", p.dst_bytes));
  }
  relayout_internal::RunPlan(p, src.data(), dst.data());
  return absl::OkStatus();
}

namespace {

// A 64-byte aligned buffer for pieces. Large ones are mapped, and on Linux
// advised to use huge pages: a destination that cannot be cut is one piece
// as large as the array, and 4 KiB faults on it cost as much as the copy.
class PieceBuffer {
 public:
  explicit PieceBuffer(int64_t bytes) : size_(static_cast<size_t>(bytes)) {
#if defined(__linux__)
    if (bytes >= kMapBytes) {
      void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED) {
        madvise(p, size_, MADV_HUGEPAGE);  // a hint; fine if refused
        data_ = static_cast<uint8_t*>(p);
        mapped_ = true;
        return;
      }
    }
#endif
    owned_.reset(new uint8_t[size_ + 64]);
    data_ = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(owned_.get()) + 63) / 64 * 64);
  }
  ~PieceBuffer() {
#if defined(__linux__)
    if (mapped_) munmap(data_, size_);
#endif
  }
  PieceBuffer(const PieceBuffer&) = delete;
  PieceBuffer& operator=(const PieceBuffer&) = delete;
  uint8_t* data() { return data_; }

 private:
  static constexpr int64_t kMapBytes = int64_t{4} << 20;
  size_t size_;
  std::unique_ptr<uint8_t[]> owned_;
  uint8_t* data_ = nullptr;
  bool mapped_ = false;
};

}  // namespace

int64_t RelayoutPlan::LargestPiece(int64_t piece_bytes) const {
  std::vector<relayout_internal::Piece> pieces;
  if (!relayout_internal::CutInPieces(impl_->plan, piece_bytes, &pieces)) {
    return impl_->plan.dst_bytes;
  }
  int64_t largest = 0;
  for (const auto& piece : pieces) {
    largest = std::max(largest, piece.byte1 - piece.byte0);
  }
  return largest;
}

absl::Status RelayoutPlan::RunInPieces(
    absl::Span<const uint8_t> src, int64_t piece_bytes,
    const std::function<absl::Status(absl::Span<const uint8_t>)>& write) const {
  const relayout_internal::Plan& p = impl_->plan;
  if (static_cast<int64_t>(src.size()) < p.src_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("source buffer has ", src.size(), " bytes, ",
                     impl_->from.ToString(true), " needs ", p.src_bytes));
  }
  std::vector<relayout_internal::Piece> pieces;
  if (!relayout_internal::CutInPieces(p, piece_bytes, &pieces) ||
      pieces.size() == 1) {
    // One piece: the whole destination, made as Run makes it (streaming
    // stores, one split across the threads).
    PieceBuffer buffer(p.dst_bytes);
    relayout_internal::RunPlan(p, src.data(), buffer.data());
    return write(absl::MakeConstSpan(buffer.data(), p.dst_bytes));
  }
  int64_t largest = 0;
  for (const auto& piece : pieces) {
    largest = std::max(largest, piece.byte1 - piece.byte0);
  }
  PieceBuffer buffer(largest);
  for (const auto& piece : pieces) {
    relayout_internal::RunPiece(p, src.data(), piece, buffer.data());
    absl::Status s =
        write(absl::MakeConstSpan(buffer.data(), piece.byte1 - piece.byte0));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Relayout(const Shape& from, absl::Span<const uint8_t> src,
                      const Shape& to, absl::Span<uint8_t> dst,
                      const RelayoutOptions& options) {
  absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(from, to, options);
  if (!plan.ok()) return plan.status();
  return plan->Run(src, dst);
}

}  // namespace hlolayout
