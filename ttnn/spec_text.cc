#include "hlolayout/ttnn/spec_text.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/names.h"

namespace hlolayout::ttnn {
namespace {

std::string Dims(absl::Span<const int64_t> d) {
  return absl::StrCat("[", absl::StrJoin(d, ", "), "]");
}
std::string Dims2(const std::array<int64_t, 2>& d) { return Dims(d); }

std::string ShardLine(const ShardSpec& s) {
  return absl::StrCat(Dims2(s.shape), " on ", s.grid.ToString(), " ",
                      OrientationName(s.orientation));
}

void DistributionText(const BufferDistribution& d, bool full,
                      std::string* out) {
  absl::StrAppend(out, "distribution      ", d.num_shards(), " shards of ",
                  Dims(d.shard_shape_in_pages()), " pages over ",
                  Dims(d.tensor_shape_in_pages()), ", on ", d.num_cores(),
                  " cores (", d.num_cores_with_data(), " with data), at most ",
                  d.max_shards_per_core(), " per core (",
                  d.max_dev_pages_per_core(), " pages)\n");
  const int64_t cores =
      full ? d.num_cores() : std::min<int64_t>(16, d.num_cores());
  const int64_t pages = d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  for (int64_t i = 0; i < cores; ++i) {
    std::string line = absl::StrCat("  core ", CoreName(d.cores()[i]));
    line.resize(std::max<size_t>(line.size() + 1, 18), ' ');
    absl::StrAppend(&line, d.ShardsOnCore(i), " shard",
                    d.ShardsOnCore(i) == 1 ? "" : "s", ": host pages");
    const int64_t shown = full ? pages : std::min<int64_t>(pages, 12);
    for (int64_t p = 0; p < shown; ++p) {
      const int64_t h = d.HostPage(i, p);
      absl::StrAppend(&line, " ", h < 0 ? std::string(".") : absl::StrCat(h));
    }
    if (shown < pages)
      absl::StrAppend(&line, " ... (", pages, " device pages)");
    absl::StrAppend(out, line, "\n");
  }
  if (cores < d.num_cores()) {
    absl::StrAppend(out, "  ... ", d.num_cores() - cores,
                    " more cores (--full lists them)\n");
  }
}

}  // namespace

absl::StatusOr<CheckedSpec> CheckSpec(TensorSpecInput in,
                                      const DeviceChoice& device) {
  absl::StatusOr<TensorSpec> spec =
      TensorSpec::Make(std::move(in), device.params);
  if (!spec.ok()) return spec.status();
  if (!device.check_fit) return CheckedSpec{*std::move(spec), {}};
  absl::StatusOr<FitReport> fit = CheckFit(*spec, *device.device);
  if (!fit.ok()) return fit.status();
  return CheckedSpec{*std::move(spec), std::move(fit->warnings)};
}

std::string DeviceLine(const DeviceChoice& device) {
  if (!device.check_fit) {
    return absl::StrCat(
        "none (--device none: no device check; the numbers "
        "of a ",
        device.device->name, ")");
  }
  return absl::StrCat(device.device->Summary(),
                      device.named ? "" : "; the default (--device)");
}

std::string SpecSummary(const TensorSpecInput& in) {
  std::string s =
      absl::StrCat(DataTypeName(in.dtype), "[", absl::StrJoin(in.shape, ", "),
                   "] ", LayoutName(in.layout));
  if (in.layout == Layout::kTile) absl::StrAppend(&s, " ", TileName(in.tile));
  absl::StrAppend(&s, ", ", BufferTypeName(in.memory.buffer_type), " ",
                  MemoryLayoutName(in.memory.layout));
  return s;
}

std::string SpecText(const TensorSpecInput& in, const CheckedSpec& c,
                     const DeviceChoice& device, bool full) {
  const TensorSpec& s = c.spec;
  const MemoryConfig& m = s.memory_config();
  std::string out = absl::StrCat(SpecSummary(in), "\n");
  absl::StrAppend(&out, "device            ", DeviceLine(device), "\n");
  for (const std::string& w : c.warnings) {
    absl::StrAppend(&out, "warning           ", w, "\n");
  }
  absl::StrAppend(&out, "memory layout     ", MemoryLayoutName(m.layout),
                  m.layout != in.memory.layout ? " (resolved)" : "", "\n");
  absl::StrAppend(&out, "alignment         ", Dims(s.alignment()), "\n");
  absl::StrAppend(&out, "padded shape      ", Dims(s.padded_shape()), "\n");
  absl::StrAppend(&out, "logical 2-D       ", Dims2(s.logical_2d_shape()),
                  "\n");
  absl::StrAppend(&out, "physical shape    ", Dims2(s.physical_shape()), "\n");
  absl::StrAppend(&out, "page              ", s.page_shape()[0], "x",
                  s.page_shape()[1], ", ", s.page_size_bytes(), " bytes; ",
                  s.num_pages(), " pages, ", s.packed_buffer_size_bytes(),
                  " bytes packed\n");
  absl::StrAppend(&out, "strides           ", Dims(s.strides()), "\n");
  absl::StrAppend(&out, "per bank          ", s.ConsumedBytesPerBank(),
                  " bytes at most (", s.num_banks(), " ",
                  BufferTypeName(s.buffer_type()), " banks, pages aligned to ",
                  s.page_alignment(), " bytes)\n");
  if (!m.sharded()) {
    absl::StrAppend(&out, "banks             page p in bank p mod ",
                    s.num_banks(), ", at (p div ", s.num_banks(), ") * ",
                    s.AlignedPageSize(s.page_alignment()), " bytes\n");
    return out;
  }
  if (m.shard_spec) {
    absl::StrAppend(&out, "shard spec        ", ShardLine(*m.shard_spec),
                    s.shard_shape_derived()
                        ? " (shard shape derived: ttnn.create_sharded_memory_"
                          "config's rule)"
                        : "",
                    "\n");
    const ShardSpecBuffer& b = *s.shard_spec_buffer();
    absl::StrAppend(&out, "  in pages        ", Dims2(b.shard_shape_in_pages),
                    " of ", Dims2(b.tensor2d_shape_in_pages), ", ",
                    b.num_pages_per_shard, " per shard\n");
  }
  if (m.nd_shard_spec) {
    const NdShardSpec& nd = *m.nd_shard_spec;
    absl::StrAppend(&out, "nd shard spec     ", Dims(nd.shard_shape), " on ",
                    nd.grid.ToString(), " ", OrientationName(nd.orientation),
                    " ", DistributionName(nd.distribution), "\n");
  }
  DistributionText(*s.distribution(), full, &out);
  return out;
}

}  // namespace hlolayout::ttnn
