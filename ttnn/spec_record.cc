#include "hlolayout/ttnn/spec_record.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hlolayout::ttnn {
namespace {

constexpr FieldJson kOmit = FieldJson::kOmitIfNone;

const RecordSpec kBankBytes{
    "BankBytes",
    "The bytes one bank (or core) holds at most, with the page alignment "
    "and bank count of the spec's buffer type.",
    {
        {"bytes", "compute_consumed_memory_bytes_per_bank.", "int"},
        {"num_banks", "The banks (DRAM) or cores (L1).", "int"},
        {"page_alignment", "The page alignment in bytes.", "int"},
    }};

const RecordSpec kCorePages{
    "CorePages",
    "One core of a sharded spec: its device pages and their host pages.",
    {
        {"core", "The core (x, y).", "Tuple[int, int]"},
        {"first_host_pages",
         "The host page of its first device pages (-1: padding).",
         "Tuple[int, ...]"},
        {"num_dev_pages", "Device pages per core.", "int"},
        {"num_shards", "The shards it holds.", "int"},
    }};

const RecordSpec kSpecDistribution{
    "SpecDistribution",
    "How a sharded spec's buffer is spread over its cores.",
    {
        {"cores", "The cores shards are dealt to, in order.",
         "Tuple[Tuple[int, int], ...]"},
        {"max_num_dev_pages_per_core", "Device pages of the fullest core.",
         "int"},
        {"max_num_shards_per_core", "Shards of the fullest core.", "int"},
        {"num_cores", "The cores of the grid.", "int"},
        {"num_cores_with_data", "The cores holding a shard.", "int"},
        {"num_shards", "The shards.", "int"},
        {"page_mapping", "The first cores' pages.", "Tuple[CorePages, ...]"},
        {"shard_shape_in_pages", "A shard's shape in pages.",
         "Tuple[int, ...]"},
        {"tensor_shape_in_pages", "The padded shape in pages.",
         "Tuple[int, ...]"},
    }};

using GridType = const char*;
constexpr GridType kGridType =
    "Tuple[Tuple[Tuple[int, int], Tuple[int, int]], ...]";

const RecordSpec kResolvedNdShardSpec{
    "ResolvedNdShardSpec",
    "The ND shard spec after TensorSpec resolved the memory config.",
    {
        {"distribution", "ROUND_ROBIN_1D or GRID_2D.", "str"},
        {"grid", "The core ranges ((x0, y0), (x1, y1)).", kGridType},
        {"orientation", "ROW_MAJOR or COL_MAJOR.", "str"},
        {"shard_shape", "The shard.", "Tuple[int, ...]"},
    }};

const RecordSpec kResolvedShardSpec{
    "ResolvedShardSpec",
    "The 2-D shard spec after TensorSpec resolved the memory config.",
    {
        {"grid", "The core ranges ((x0, y0), (x1, y1)).", kGridType},
        {"orientation", "ROW_MAJOR or COL_MAJOR.", "str"},
        {"shape", "The shard (height, width).", "Tuple[int, int]"},
    }};

const RecordSpec kShardSpecBuffer{
    "ShardSpecBuffer",
    "tt-metal's ShardSpecBuffer: a 2-D shard spec in pages.",
    {
        {"num_pages_per_shard", "Pages per shard.", "int"},
        {"page_shape", "The page.", "Tuple[int, int]"},
        {"shard_shape_in_pages", "The shard in pages.", "Tuple[int, int]"},
        {"tensor2d_shape_in_pages", "The 2-D tensor in pages.",
         "Tuple[int, int]"},
    }};

const RecordSpec kSpecAnswer{
    "SpecAnswer",
    "A TTNN tensor spec as `hlolayout ttnn spec --json` prints it: "
    "tt-metal's fields with its names (TensorSpec.answer()).",
    {
        {"alignment", "The alignment of each dim.", "Tuple[int, ...]"},
        {"consumed_bytes_per_bank", "The bytes one bank holds at most.",
         "BankBytes"},
        {"device",
         "The device checked against ('none': no check); None "
         "without notes.",
         "Optional[str]", kOmit},
        {"distribution", "The buffer distribution (sharded specs).",
         "Optional[SpecDistribution]", kOmit},
        {"logical_2d_shape", "The logical shape folded to 2-D.",
         "Tuple[int, int]"},
        {"memory_layout",
         "The memory layout after resolution.",
         "str",
         {},
         nullptr,
         true},
        {"num_pages", "The pages.", "int", {}, nullptr, true},
        {"packed_buffer_size_bytes", "The buffer's bytes, pages packed.",
         "int"},
        {"padded_shape",
         "The padded shape.",
         "Tuple[int, ...]",
         {},
         nullptr,
         true},
        {"page_shape", "A page (a tile or a row segment).", "Tuple[int, int]"},
        {"page_size_bytes", "A page's bytes.", "int", {}, nullptr, true},
        {"physical_shape", "The padded shape folded to 2-D.",
         "Tuple[int, int]"},
        {"resolved_nd_shard_spec", "The ND shard spec (sharded specs).",
         "Optional[ResolvedNdShardSpec]", kOmit},
        {"resolved_shard_spec", "The 2-D shard spec (2-D sharded specs).",
         "Optional[ResolvedShardSpec]", kOmit},
        {"shard_shape_derived",
         "True when the shard shape was derived, "
         "else None.",
         "Optional[bool]", kOmit},
        {"shard_spec_buffer", "The shard spec in pages (2-D sharded specs).",
         "Optional[ShardSpecBuffer]", kOmit},
        {"strides", "The strides of the padded shape.", "Tuple[int, ...]"},
        {"warnings", "The device check's warnings; None when there are none.",
         "Optional[Tuple[str, ...]]", kOmit},
    }};

void Core(RecordSink& sink, CoreCoord c) {
  sink.BeginList();
  sink.Int(c.x);
  sink.Int(c.y);
  sink.EndList();
}

void Pair(RecordSink& sink, const std::array<int64_t, 2>& p) {
  sink.BeginList();
  sink.Int(p[0]);
  sink.Int(p[1]);
  sink.EndList();
}

void Grid(RecordSink& sink, const CoreRangeSet& grid) {
  sink.BeginList();
  for (const CoreRange& r : grid.ranges()) {
    sink.BeginList();
    Core(sink, r.start);
    Core(sink, r.end);
    sink.EndList();
  }
  sink.EndList();
}

int64_t Limit(int64_t limit, int64_t n) {
  return limit < 0 ? n : std::min(limit, n);
}

void EmitDistribution(const BufferDistribution& d, const JsonLimits& limits,
                      RecordSink& sink) {
  sink.BeginRecord(kSpecDistribution);
  sink.BeginList();
  for (int64_t i = 0; i < Limit(limits.cores, d.num_cores()); ++i) {
    Core(sink, d.cores()[i]);
  }
  sink.EndList();
  sink.Int(d.max_dev_pages_per_core());
  sink.Int(d.max_shards_per_core());
  sink.Int(d.num_cores());
  sink.Int(d.num_cores_with_data());
  sink.Int(d.num_shards());
  sink.BeginList();
  const int64_t dev_pages =
      d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  for (int64_t i = 0; i < Limit(limits.mapped_cores, d.num_cores()); ++i) {
    sink.BeginRecord(kCorePages);
    Core(sink, d.cores()[i]);
    sink.BeginList();
    for (int64_t p = 0; p < Limit(limits.pages, dev_pages); ++p) {
      sink.Int(d.HostPage(i, p));
    }
    sink.EndList();
    sink.Int(dev_pages);
    sink.Int(d.ShardsOnCore(i));
    sink.EndRecord();
  }
  sink.EndList();
  sink.IntList(d.shard_shape_in_pages());
  sink.IntList(d.tensor_shape_in_pages());
  sink.EndRecord();
}

// The resolved memory config's shard specs and the shard spec buffer.
void EmitShardFields(const TensorSpec& spec, RecordSink& sink) {
  const MemoryConfig& m = spec.memory_config();
  if (m.sharded() && m.nd_shard_spec) {
    const NdShardSpec& nd = *m.nd_shard_spec;
    sink.BeginRecord(kResolvedNdShardSpec);
    sink.String(DistributionName(nd.distribution));
    Grid(sink, nd.grid);
    sink.String(OrientationName(nd.orientation));
    sink.IntList(nd.shard_shape);
    sink.EndRecord();
  } else {
    sink.None();
  }
  if (m.sharded() && m.shard_spec) {
    sink.BeginRecord(kResolvedShardSpec);
    Grid(sink, m.shard_spec->grid);
    sink.String(OrientationName(m.shard_spec->orientation));
    Pair(sink, m.shard_spec->shape);
    sink.EndRecord();
  } else {
    sink.None();
  }
  if (spec.shard_shape_derived()) {
    sink.Bool(true);
  } else {
    sink.None();
  }
  if (spec.shard_spec_buffer()) {
    const ShardSpecBuffer& b = *spec.shard_spec_buffer();
    sink.BeginRecord(kShardSpecBuffer);
    sink.Int(b.num_pages_per_shard);
    Pair(sink, b.page_shape);
    Pair(sink, b.shard_shape_in_pages);
    Pair(sink, b.tensor2d_shape_in_pages);
    sink.EndRecord();
  } else {
    sink.None();
  }
}

}  // namespace

const RecordSpec& SpecAnswerSpec() { return kSpecAnswer; }

const std::vector<const RecordSpec*>& SpecRecordSpecs() {
  static const std::vector<const RecordSpec*> kAll = {
      &kBankBytes,           &kCorePages,         &kSpecDistribution,
      &kResolvedNdShardSpec, &kResolvedShardSpec, &kShardSpecBuffer,
      &kSpecAnswer};
  return kAll;
}

void EmitSpecAnswer(const TensorSpec& spec, const JsonLimits& limits,
                    const SpecNotes* notes, RecordSink& sink) {
  sink.BeginRecord(kSpecAnswer);
  sink.IntList(spec.alignment());
  sink.BeginRecord(kBankBytes);
  sink.Int(spec.ConsumedBytesPerBank());
  sink.Int(spec.num_banks());
  sink.Int(spec.page_alignment());
  sink.EndRecord();
  sink.OptionalString(notes != nullptr,
                      notes != nullptr ? notes->device : std::string());
  if (spec.distribution()) {
    EmitDistribution(*spec.distribution(), limits, sink);
  } else {
    sink.None();
  }
  Pair(sink, spec.logical_2d_shape());
  sink.String(MemoryLayoutName(spec.memory_config().layout));
  sink.Int(spec.num_pages());
  sink.Int(spec.packed_buffer_size_bytes());
  sink.IntList(spec.padded_shape());
  Pair(sink, spec.page_shape());
  sink.Int(spec.page_size_bytes());
  Pair(sink, spec.physical_shape());
  EmitShardFields(spec, sink);
  sink.IntList(spec.strides());
  if (notes != nullptr && !notes->warnings.empty()) {
    sink.BeginList();
    for (const std::string& w : notes->warnings) sink.String(w);
    sink.EndList();
  } else {
    sink.None();
  }
  sink.EndRecord();
}

}  // namespace hlolayout::ttnn
