#include "hlolayout/answers/ttnn.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/spec_json.h"

namespace hlolayout::ttnn {
namespace {

IntPair Core(CoreCoord c) { return {c.x, c.y}; }

std::vector<CoreCorners> Grid(const CoreRangeSet& grid) {
  std::vector<CoreCorners> out;
  for (const CoreRange& r : grid.ranges()) {
    out.push_back({Core(r.start), Core(r.end)});
  }
  return out;
}

int64_t Limit(int64_t limit, int64_t n) {
  return limit < 0 ? n : std::min(limit, n);
}

SpecDistribution Distribution(const BufferDistribution& d,
                              const JsonLimits& limits) {
  SpecDistribution out;
  for (int64_t i = 0; i < Limit(limits.cores, d.num_cores()); ++i) {
    out.cores.push_back(Core(d.cores()[i]));
  }
  out.max_num_dev_pages_per_core = d.max_dev_pages_per_core();
  out.max_num_shards_per_core = d.max_shards_per_core();
  out.num_cores = d.num_cores();
  out.num_cores_with_data = d.num_cores_with_data();
  out.num_shards = d.num_shards();
  const int64_t dev_pages =
      d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  for (int64_t i = 0; i < Limit(limits.mapped_cores, d.num_cores()); ++i) {
    CorePages c;
    c.core = Core(d.cores()[i]);
    for (int64_t p = 0; p < Limit(limits.pages, dev_pages); ++p) {
      c.first_host_pages.push_back(d.HostPage(i, p));
    }
    c.num_dev_pages = dev_pages;
    c.num_shards = d.ShardsOnCore(i);
    out.page_mapping.push_back(std::move(c));
  }
  out.shard_shape_in_pages = d.shard_shape_in_pages();
  out.tensor_shape_in_pages = d.tensor_shape_in_pages();
  return out;
}

// The resolved memory config's shard specs and the shard spec buffer.
void ShardFields(const TensorSpec& spec, SpecAnswer& a) {
  const MemoryConfig& m = spec.memory_config();
  if (m.sharded() && m.nd_shard_spec) {
    const NdShardSpec& nd = *m.nd_shard_spec;
    a.resolved_nd_shard_spec = ResolvedNdShardSpec{
        std::string(DistributionName(nd.distribution)), Grid(nd.grid),
        std::string(OrientationName(nd.orientation)), nd.shard_shape};
  }
  if (m.sharded() && m.shard_spec) {
    a.resolved_shard_spec = ResolvedShardSpec{
        Grid(m.shard_spec->grid),
        std::string(OrientationName(m.shard_spec->orientation)),
        m.shard_spec->shape};
  }
  if (spec.shard_shape_derived()) a.shard_shape_derived = true;
  if (spec.shard_spec_buffer()) {
    const ShardSpecBuffer& b = *spec.shard_spec_buffer();
    a.shard_spec_buffer = ShardSpecBufferAnswer{
        b.num_pages_per_shard, b.page_shape, b.shard_shape_in_pages,
        b.tensor2d_shape_in_pages};
  }
}

}  // namespace

SpecAnswer AnswerSpec(const TensorSpec& spec, const JsonLimits& limits,
                      const SpecNotes* notes) {
  SpecAnswer a;
  a.alignment = spec.alignment();
  a.consumed_bytes_per_bank = {spec.ConsumedBytesPerBank(), spec.num_banks(),
                               spec.page_alignment()};
  if (notes != nullptr) a.device = notes->device;
  if (spec.distribution()) {
    a.distribution = Distribution(*spec.distribution(), limits);
  }
  a.logical_2d_shape = spec.logical_2d_shape();
  a.memory_layout = std::string(MemoryLayoutName(spec.memory_config().layout));
  a.num_pages = spec.num_pages();
  a.packed_buffer_size_bytes = spec.packed_buffer_size_bytes();
  a.padded_shape = spec.padded_shape();
  a.page_shape = spec.page_shape();
  a.page_size_bytes = spec.page_size_bytes();
  a.physical_shape = spec.physical_shape();
  ShardFields(spec, a);
  a.strides = spec.strides();
  if (notes != nullptr && !notes->warnings.empty()) {
    a.warnings = notes->warnings;
  }
  return a;
}

Refusal AnswerRefusal(const absl::Status& status) {
  Refusal r;
  r.error = std::string(status.message());
  if (absl::optional<std::string> rule = RefusalRule(status)) r.rule = *rule;
  return r;
}

PlaceAnswer AnswerPlace(const TensorSpec& spec, const ElementPlace& p) {
  PlaceAnswer a;
  a.index = p.index;
  a.host_page = p.host_page;
  a.in_page = p.in_page;
  a.byte_in_page = p.byte_in_page;
  if (p.exponent_byte_in_page) {
    a.exponent_byte_in_page = *p.exponent_byte_in_page;
  }
  if (spec.dtype() == DataType::kBfloat4B) a.low_nibble = p.low_nibble;
  a.buffer_type = std::string(BufferTypeName(spec.buffer_type()));
  if (p.bank) {
    a.bank = *p.bank;
    a.page_in_bank = *p.page_in_bank;
  }
  if (p.core) {
    a.shard = *p.shard;
    a.core = Core(*p.core);
    a.device_page = *p.device_page;
  }
  a.offset = p.offset;
  a.aligned_page_size = spec.AlignedPageSize(spec.page_alignment());
  return a;
}

MeshAnswer AnswerMesh(const MeshDistribution& mesh,
                      absl::Span<const MeshPlacement> placements,
                      const absl::StatusOr<TensorSpec>& slice_spec,
                      const JsonLimits& limits) {
  MeshAnswer a;
  a.mesh_shape = mesh.mesh_shape;
  a.distribution_shape = mesh.distribution_shape;
  a.placements = PlacementsToString(placements);
  a.mode = mesh.submesh ? "SUBMESH" : "ROW_MAJOR";
  a.slice_shape = mesh.slice_shape;
  for (const MeshSlice& s : mesh.slices) {
    MeshDevice d;
    d.device = s.device;
    d.holds_data = s.holds_data;
    if (s.holds_data) {
      d.begin = s.begin;
      d.end = s.end;
    }
    a.devices.push_back(std::move(d));
  }
  if (slice_spec.ok()) {
    a.slice_spec = AnswerSpec(*slice_spec, limits);
  } else {
    a.slice_spec = AnswerRefusal(slice_spec.status());
  }
  return a;
}

absl::StatusOr<std::vector<TensorSpecInput>> SpecRequestsFromText(
    absl::string_view text, absl::string_view file) {
  return SpecInputsFromText(text, file);
}

}  // namespace hlolayout::ttnn
