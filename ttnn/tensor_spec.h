// ttnn/tensor_spec.h: a TTNN tensor as tt-metal's TensorSpec computes it:
// its shapes, pages and sizes, the memory config after resolution, and how
// the buffer is spread over banks or cores.
//
//   TensorSpecInput in;
//   in.shape = {272, 58};  in.dtype = DataType::kBfloat16;
//   in.layout = Layout::kTile;
//   in.memory = MemoryConfig::Sharded(
//       TensorMemoryLayout::kHeightSharded, BufferType::kL1,
//       {*CoreRangeSet::Make({{{0, 0}, {2, 0}}}), {96, 64},
//        ShardOrientation::kColMajor});
//   TensorSpec s = *TensorSpec::Make(in);
//   s.padded_shape() == {288, 64};   s.page_size_bytes() == 2048
//   s.num_pages() == 18;             s.ConsumedBytesPerBank() == 12288
//   s.memory_config().nd_shard_spec->shard_shape == {96, 64}
//   s.distribution()->HostPage(1, 0) == 6      // core (1,0) starts at page 6
//
// What Make does, in tt-metal's order (tensor_spec.cpp, tensor_layout.cpp):
//   0. a ROW_MAJOR tensor takes only the default 32x32 tile (page_config.cpp);
//   1. the alignment (ttnn/tensor_layout.h) and, for TILE, the shard must be
//      whole tiles;
//   2. padded, logical 2-D and physical shapes;
//   3. a 2-D shard spec must fit its grid (height sharding: the shard is
//      the full width and there are no more shards than cores; width
//      sharding likewise; block sharding: one rectangle, shards across and
//      down within its columns and rows, swapped for COL_MAJOR);
//   4. block floats need TILE, fp8_e4m3 needs ROW_MAJOR;
//   5. resolution: a 2-D spec gains the ND spec of its shard (GRID_2D for
//      block sharding, else ROUND_ROBIN_1D; a rank-1 tensor gets a rank-1
//      shard); an ND spec whose shard folds to 2-D and whose distribution
//      a 2-D spec reproduces becomes HEIGHT_SHARDED (the shard is the full
//      width), WIDTH_SHARDED (the full height) or BLOCK_SHARDED;
//   6. pages, sizes and strides; for sharded tensors the buffer
//      distribution (ttnn/buffer_distribution.h) of the padded shape over
//      the ND spec, whose refusals are refusals of the spec.
// Every refusal carries its rule (ttnn/refusal.h).
#ifndef HLOLAYOUT_TTNN_TENSOR_SPEC_H_
#define HLOLAYOUT_TTNN_TENSOR_SPEC_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "hlolayout/tenstorrent/device.h"
#include "hlolayout/ttnn/buffer_distribution.h"
#include "hlolayout/ttnn/data_type.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/ttnn/tensor_layout.h"
#include "hlolayout/ttnn/tile.h"

namespace hlolayout::ttnn {

// The device numbers the model needs (tenstorrent/device.h).
using tenstorrent::DeviceParams;

struct TensorSpecInput {
  std::vector<int64_t> shape;
  DataType dtype = DataType::kBfloat16;
  Layout layout = Layout::kTile;
  Tile tile;  // for TILE
  MemoryConfig memory;
  // HEIGHT/WIDTH/BLOCK_SHARDED only: memory.shard_spec's shape is not given
  // (left {0, 0}); Make derives it from the shape and the grid as
  // ttnn.create_sharded_memory_config does (ttnn/sharded_config.h).
  bool derive_shard_shape = false;
};

// tt-metal's ShardSpecBuffer: a 2-D shard spec in pages.
struct ShardSpecBuffer {
  std::array<int64_t, 2> page_shape{};
  std::array<int64_t, 2> shard_shape_in_pages{};  // shard / page, floor
  std::array<int64_t, 2> tensor2d_shape_in_pages{};
  int64_t num_pages_per_shard = 0;
};

// Dims must stay below this (tt-metal keeps them as uint32_t).
inline constexpr int64_t kMaxDim = (int64_t{1} << 32) - 1;

class TensorSpec {
 public:
  // Make
  //
  // The spec, or tt-metal's refusal (see above). Also refused: a dim or
  // shard dim above kMaxDim or below 0, a shard dim of 0, an interleaved
  // config with a shard spec, a sharded one without, sizes over 64 bits; a
  // shard shape to derive that cannot be (rule kShardDerive).
  static absl::StatusOr<TensorSpec> Make(TensorSpecInput input,
                                         const DeviceParams& device = {});

  const std::vector<int64_t>& logical_shape() const { return in_.shape; }
  DataType dtype() const { return in_.dtype; }
  Layout layout() const { return in_.layout; }
  const Tile& tile() const { return in_.tile; }
  const PageConfig& page_config() const { return page_; }
  // As given, and after resolution.
  const MemoryConfig& input_memory_config() const { return in_.memory; }
  const MemoryConfig& memory_config() const { return memory_; }
  BufferType buffer_type() const { return memory_.buffer_type; }
  bool sharded() const { return memory_.sharded(); }
  const DeviceParams& device() const { return device_; }
  // The input asked for the shard shape to be derived (and Make did).
  bool shard_shape_derived() const { return in_.derive_shard_shape; }

  const std::vector<int64_t>& alignment() const { return alignment_; }
  const std::vector<int64_t>& padded_shape() const { return padded_; }
  const std::array<int64_t, 2>& logical_2d_shape() const { return logical_2d_; }
  const std::array<int64_t, 2>& physical_shape() const { return physical_; }
  const std::array<int64_t, 2>& page_shape() const { return page_shape_; }
  int64_t page_size_bytes() const { return page_bytes_; }
  int64_t num_pages() const { return num_pages_; }
  int64_t packed_buffer_size_bytes() const { return packed_bytes_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  // The padded shape in pages (last dim / page width, dim -2 / page
  // height): host page p is the p-th page of it in row-major order.
  const std::vector<int64_t>& padded_shape_in_pages() const {
    return padded_pages_;
  }

  // Sharded specs only.
  const absl::optional<ShardSpecBuffer>& shard_spec_buffer() const {
    return shard_buffer_;
  }
  const absl::optional<BufferDistribution>& distribution() const {
    return distribution_;
  }

  // The page size rounded up to `page_alignment`.
  int64_t AlignedPageSize(int64_t page_alignment) const;
  // compute_consumed_memory_bytes_per_bank: the pages one bank (or core)
  // holds at most, times the aligned page size. Interleaved: ceil(pages /
  // banks); 2-D sharded: the pages of one shard; ND: the pages per core.
  // Errors: a result over 64 bits. Preconditions: both arguments > 0.
  absl::StatusOr<int64_t> ConsumedBytesPerBank(int64_t page_alignment,
                                               int64_t num_banks) const;
  // With this spec's device numbers for its buffer type (Make checked it).
  int64_t ConsumedBytesPerBank() const { return consumed_bytes_; }
  int64_t page_alignment() const {
    return device_.page_alignment(buffer_type());
  }
  int64_t num_banks() const { return device_.num_banks(buffer_type()); }

 private:
  TensorSpec() = default;
  absl::Status ComputePages();
  absl::Status ComputeDistribution();

  TensorSpecInput in_;
  DeviceParams device_;
  PageConfig page_;
  MemoryConfig memory_;
  std::vector<int64_t> alignment_;
  std::vector<int64_t> padded_;
  std::vector<int64_t> padded_pages_;
  std::array<int64_t, 2> logical_2d_{};
  std::array<int64_t, 2> physical_{};
  std::array<int64_t, 2> page_shape_{};
  int64_t page_bytes_ = 0;
  int64_t num_pages_ = 0;
  int64_t packed_bytes_ = 0;
  int64_t consumed_bytes_ = 0;
  std::vector<int64_t> strides_;
  absl::optional<ShardSpecBuffer> shard_buffer_;
  absl::optional<BufferDistribution> distribution_;
};

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_TENSOR_SPEC_H_
