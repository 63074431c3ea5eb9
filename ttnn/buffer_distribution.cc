#include "hlolayout/ttnn/buffer_distribution.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

std::string Dims(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ", "), "]");
}

// The cores of a GRID_2D distribution (compute_core_list). The tensor is
// seen as a 2-D plane of pages: all dims but the last fold into the rows.
absl::StatusOr<std::vector<CoreCoord>> Grid2dCores(
    absl::Span<const int64_t> tensor_pages,
    absl::Span<const int64_t> shard_pages, const CoreRangeSet& grid,
    ShardOrientation orientation) {
  if (shard_pages.size() > 2) {
    return Refused(
        rule::kGrid2dShardRank,
        absl::StrCat("GRID_2D distribution needs a shard of rank 2 or less, "
                     "this shard is ",
                     Dims(shard_pages),
                     " pages (tt-metal: \"2D grid distribution is only "
                     "supported for 2D sharding!\")"));
  }
  if (grid.ranges().size() != 1) {
    return Refused(
        rule::kGrid2dOneRange,
        absl::StrCat("GRID_2D distribution needs one core rectangle, the grid "
                     "has ",
                     grid.ranges().size(),
                     " (tt-metal: \"2D grid distribution is only supported "
                     "for one contiguous core grid!\")"));
  }
  const CoreRange& rect = grid.ranges()[0];
  int64_t rows = 1;  // fits: the caller checked the tensor's page count
  for (size_t i = 0; i + 1 < tensor_pages.size(); ++i) rows *= tensor_pages[i];
  int64_t across = std::max<int64_t>(
      CeilDiv(DimFromEnd(tensor_pages, 1), DimFromEnd(shard_pages, 1)), 1);
  int64_t down =
      std::max<int64_t>(CeilDiv(rows, DimFromEnd(shard_pages, 2)), 1);
  if (orientation != ShardOrientation::kRowMajor) std::swap(across, down);
  if (across > rect.width()) {
    return Refused(rule::kGrid2dWidth,
                   absl::StrCat("GRID_2D: ", across,
                                " shards across do not fit the core grid's "
                                "width of ",
                                rect.width(),
                                " (tt-metal: \"Number of shards along width "
                                "must not exceed core grid width!\")"));
  }
  if (down > rect.height()) {
    return Refused(rule::kGrid2dHeight,
                   absl::StrCat("GRID_2D: ", down,
                                " shards down do not fit the core grid's "
                                "height of ",
                                rect.height(),
                                " (tt-metal: \"Number of shards along height "
                                "must not exceed core grid height!\")"));
  }
  absl::StatusOr<CoreRangeSet> block = CoreRangeSet::Make(
      {{rect.start, {rect.start.x + across - 1, rect.start.y + down - 1}}});
  HLOLAYOUT_CHECK(block.ok());
  return block->Cores(orientation == ShardOrientation::kRowMajor);
}

}  // namespace

std::vector<int64_t> ShapeInPages(absl::Span<const int64_t> shape,
                                  const std::array<int64_t, 2>& page_shape) {
  std::vector<int64_t> pages(shape.begin(), shape.end());
  if (!pages.empty()) pages.back() = CeilDiv(pages.back(), page_shape[1]);
  if (pages.size() >= 2) {
    pages[pages.size() - 2] = CeilDiv(pages[pages.size() - 2], page_shape[0]);
  }
  return pages;
}

namespace {

// a * b, or INT64_MAX past it: the walked volumes only tell when to stop.
int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t p;
  return __builtin_mul_overflow(a, b, &p) ? INT64_MAX : p;
}

int64_t SaturatingVolume(absl::Span<const int64_t> dims) {
  int64_t v = 1;
  for (int64_t d : dims) v = SaturatingMul(v, d);
  return v;
}

// One dim of the squeezed shapes: the tensor's and the shard's extents of
// the dims merged into it, and whether the shard spans each of them whole.
struct MergedDim {
  int64_t tensor = 1;
  int64_t shard = 1;
  bool whole = true;
};

}  // namespace

void SqueezeShapeRanks(absl::Span<const int64_t> tensor,
                       absl::Span<const int64_t> shard,
                       std::vector<int64_t>* squeezed_tensor,
                       std::vector<int64_t>* squeezed_shard) {
  HLOLAYOUT_CHECK(tensor.size() >= shard.size() && !shard.empty());
  // The shard lines up with the tensor's innermost dims.
  const size_t outer = tensor.size() - shard.size();
  const int64_t tensor_volume = SaturatingVolume(tensor);
  const int64_t shard_volume = SaturatingVolume(shard);
  std::vector<MergedDim> dims;  // innermost first
  int64_t tensor_walked = 1, shard_walked = 1;
  bool inner_divides = false;  // the shard divides the dim just inside
  for (size_t j = shard.size(); j-- > 0;) {
    const int64_t t = tensor[outer + j], s = shard[j];
    // A dim joins the merged dim inside it when the shard spans that one
    // whole so far, or when the shard is 1 here and divides the dim inside.
    const bool joins =
        !dims.empty() && (dims.back().whole || (s == 1 && inner_divides));
    if (!joins) dims.emplace_back();
    MergedDim& d = dims.back();
    d.tensor *= t;
    d.shard *= s;
    d.whole = d.whole && t == s;
    inner_divides = t % s == 0;
    tensor_walked = SaturatingMul(tensor_walked, t);
    shard_walked = SaturatingMul(shard_walked, s);
    // Only dims of 1 are left on both sides: they change nothing.
    if (tensor_walked == tensor_volume && shard_walked == shard_volume) break;
  }
  // The tensor's dims outside the shard's rank fold into the outermost.
  for (size_t i = 0; i < outer; ++i) dims.back().tensor *= tensor[i];
  squeezed_tensor->clear();
  squeezed_shard->clear();
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    squeezed_tensor->push_back(d->tensor);
    squeezed_shard->push_back(d->shard);
  }
}

absl::StatusOr<BufferDistribution> BufferDistribution::Make(
    absl::Span<const int64_t> tensor_shape,
    absl::Span<const int64_t> shard_shape,
    const std::array<int64_t, 2>& page_shape, const CoreRangeSet& grid,
    ShardOrientation orientation, ShardDistributionStrategy strategy) {
  HLOLAYOUT_CHECK(page_shape[0] > 0 && page_shape[1] > 0);
  const std::vector<int64_t> tensor_pages =
      ShapeInPages(tensor_shape, page_shape);
  const std::vector<int64_t> shard_pages =
      ShapeInPages(shard_shape, page_shape);
  if (tensor_pages.empty()) {
    return Refused(rule::kShardRank,
                   "a sharded buffer needs a tensor of rank 1 or more "
                   "(tt-metal: \"Tensor rank must be at least 1!\")");
  }
  if (shard_pages.empty()) {
    return Refused(rule::kShardRank,
                   "a shard needs rank 1 or more (tt-metal: \"Shard rank must "
                   "be at least 1!\")");
  }
  for (int64_t d : shard_pages) {
    if (d <= 0) {
      return Refused(rule::kShardVolume,
                     absl::StrCat("the shard ", Dims(shard_shape),
                                  " holds no page (tt-metal: \"Shard shape "
                                  "must have non zero volume!\")"));
    }
  }
  absl::StatusOr<int64_t> host = CheckedVolume(tensor_pages, "page count");
  if (!host.ok()) return host.status();
  BufferDistribution d;
  d.host_pages_ = *host;
  if (strategy == ShardDistributionStrategy::kRoundRobin1D) {
    d.cores_ = grid.Cores(orientation == ShardOrientation::kRowMajor);
  } else {
    absl::StatusOr<std::vector<CoreCoord>> cores =
        Grid2dCores(tensor_pages, shard_pages, grid, orientation);
    if (!cores.ok()) return cores.status();
    d.cores_ = *std::move(cores);
  }
  if (tensor_pages.size() < shard_pages.size()) {
    return Refused(
        rule::kShardRank,
        absl::StrCat("the shard has rank ", shard_pages.size(),
                     ", more than the tensor's ", tensor_pages.size(),
                     " (tt-metal: \"Tensor shape rank can't be less than "
                     "shard shape rank!\")"));
  }
  // Checked before the shard's dims are merged, which multiplies some of
  // them: squeezing keeps the volume, so every product fits.
  absl::StatusOr<int64_t> shard_volume =
      CheckedVolume(shard_pages, "shard size");
  if (!shard_volume.ok()) return shard_volume.status();
  SqueezeShapeRanks(tensor_pages, shard_pages, &d.tensor_pages_,
                    &d.shard_pages_);
  d.shard_volume_ = *shard_volume;
  if (d.host_pages_ != 0 && d.cores_.empty()) {
    return Refused(rule::kEmptyGrid,
                   "a tensor with pages cannot be spread over no cores "
                   "(tt-metal: \"Can't distribute non zero volume tensor over "
                   "an empty set of cores\")");
  }
  d.shard_grid_.resize(d.tensor_pages_.size());
  d.num_shards_ = d.host_pages_ == 0 ? 0 : 1;
  for (size_t i = 0; i < d.tensor_pages_.size(); ++i) {
    d.shard_grid_[i] = CeilDiv(d.tensor_pages_[i], d.shard_pages_[i]);
    if (d.host_pages_ != 0) d.num_shards_ *= d.shard_grid_[i];
  }
  return d;
}

int64_t BufferDistribution::num_cores_with_data() const {
  return std::min(num_cores(), num_shards_);
}

int64_t BufferDistribution::max_shards_per_core() const {
  return cores_.empty() ? 0 : CeilDiv(num_shards_, num_cores());
}

int64_t BufferDistribution::ShardsOnCore(int64_t core_index) const {
  const int64_t n = num_cores();
  return num_shards_ / n + (core_index < num_shards_ % n ? 1 : 0);
}

int64_t BufferDistribution::HostPage(int64_t core_index,
                                     int64_t device_page) const {
  const int64_t slot = device_page / shard_volume_;
  int64_t within = device_page % shard_volume_;
  int64_t shard = slot * num_cores() + core_index;
  if (shard >= num_shards_) return -1;
  const int rank = static_cast<int>(tensor_pages_.size());
  // Decompose both row-major numbers from the innermost dim out; build the
  // host page from the outermost dim in.
  int64_t small[8];
  std::vector<int64_t> large(rank > 8 ? rank : 0);
  int64_t* c = rank > 8 ? large.data() : small;
  for (int i = rank - 1; i >= 0; --i) {
    const int64_t w = within % shard_pages_[i];
    within /= shard_pages_[i];
    const int64_t s = shard % shard_grid_[i];
    shard /= shard_grid_[i];
    c[i] = s * shard_pages_[i] + w;
    if (c[i] >= tensor_pages_[i]) return -1;
  }
  int64_t page = 0;
  for (int i = 0; i < rank; ++i) page = page * tensor_pages_[i] + c[i];
  return page;
}

int64_t BufferDistribution::ShardOf(int64_t host_page) const {
  const int rank = static_cast<int>(tensor_pages_.size());
  int64_t shard = 0, mul = 1;
  for (int i = rank - 1; i >= 0; --i) {
    const int64_t c = host_page % tensor_pages_[i];
    host_page /= tensor_pages_[i];
    shard += (c / shard_pages_[i]) * mul;
    mul *= shard_grid_[i];
  }
  return shard;
}

DevicePlace BufferDistribution::Place(int64_t host_page) const {
  const int rank = static_cast<int>(tensor_pages_.size());
  int64_t shard = 0, shard_mul = 1, within = 0, within_mul = 1;
  int64_t rest = host_page;
  for (int i = rank - 1; i >= 0; --i) {
    const int64_t c = rest % tensor_pages_[i];
    rest /= tensor_pages_[i];
    shard += (c / shard_pages_[i]) * shard_mul;
    shard_mul *= shard_grid_[i];
    within += (c % shard_pages_[i]) * within_mul;
    within_mul *= shard_pages_[i];
  }
  DevicePlace p;
  p.shard = shard;
  p.core_index = shard % num_cores();
  p.device_page = (shard / num_cores()) * shard_volume_ + within;
  return p;
}

}  // namespace hlolayout::ttnn
