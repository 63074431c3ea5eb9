#include "hlolayout/cli/ttnn_input.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/names.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kFlags[] = {
    "spec",           "shape",         "dtype",        "layout",
    "tile",           "memory-layout", "buffer-type",  "grid",
    "shard-shape",    "orientation",   "distribution", "l1-alignment",
    "dram-alignment", "l1-banks",      "dram-banks",   "device",
};

// The flags that describe the spec itself (not the device).
constexpr absl::string_view kSpecFields[] = {
    "shape",       "dtype", "layout",      "tile",        "memory-layout",
    "buffer-type", "grid",  "shard-shape", "orientation", "distribution",
};

absl::StatusOr<int64_t> PositiveFlag(const Args& args, absl::string_view name,
                                     int64_t fallback) {
  if (!args.values.contains(name)) return fallback;
  int64_t v;
  if (!absl::SimpleAtoi(args.values.at(name), &v) || v <= 0 ||
      v > (int64_t{1} << 31)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad --", name, " '", args.values.at(name), "' (a positive integer)"));
  }
  return v;
}

template <typename T>
absl::Status Enum(const Args& args, absl::string_view name,
                  absl::optional<T> (*from)(absl::string_view),
                  ttnn::NameKind kind, T* out) {
  if (!args.values.contains(name)) return absl::OkStatus();
  absl::optional<T> v = from(args.values.at(name));
  if (!v) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --", name, ": ",
                     ttnn::CheckName(kind, args.values.at(name)).message()));
  }
  *out = *v;
  return absl::OkStatus();
}

absl::StatusOr<ttnn::TensorSpecInput> InputFromFlags(const Args& args) {
  ttnn::TensorSpecInput in;
  absl::StatusOr<std::vector<int64_t>> shape =
      ParseDims(args.Value("shape", ""), "--shape");
  if (!shape.ok()) return shape.status();
  in.shape = *std::move(shape);
  absl::Status s = Enum(args, "dtype", &ttnn::DataTypeFromName,
                        ttnn::NameKind::kDataType, &in.dtype);
  if (s.ok())
    s = Enum(args, "layout", &ttnn::LayoutFromName, ttnn::NameKind::kLayout,
             &in.layout);
  ttnn::TensorMemoryLayout layout = ttnn::TensorMemoryLayout::kInterleaved;
  if (s.ok()) {
    s = Enum(args, "memory-layout", &ttnn::MemoryLayoutFromName,
             ttnn::NameKind::kMemoryLayout, &layout);
  }
  if (s.ok()) {
    s = Enum(args, "buffer-type", &ttnn::BufferTypeFromName,
             ttnn::NameKind::kBufferType, &in.memory.buffer_type);
  }
  ttnn::ShardOrientation orientation = ttnn::ShardOrientation::kRowMajor;
  if (s.ok()) {
    s = Enum(args, "orientation", &ttnn::OrientationFromName,
             ttnn::NameKind::kOrientation, &orientation);
  }
  ttnn::ShardDistributionStrategy strategy =
      ttnn::ShardDistributionStrategy::kRoundRobin1D;
  if (s.ok()) {
    s = Enum(args, "distribution", &ttnn::DistributionFromName,
             ttnn::NameKind::kDistribution, &strategy);
  }
  if (!s.ok()) return s;
  if (args.values.contains("tile")) {
    std::vector<absl::string_view> hw =
        absl::StrSplit(args.values.at("tile"), absl::ByAnyChar("x,"));
    int64_t h, w;
    if (hw.size() != 2 || !absl::SimpleAtoi(hw[0], &h) ||
        !absl::SimpleAtoi(hw[1], &w)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad --tile '", args.values.at("tile"), "' (HxW, e.g. 32x32)"));
    }
    absl::StatusOr<ttnn::Tile> t = ttnn::MakeTile(h, w);
    if (!t.ok()) return t.status();
    in.tile = *t;
  }
  const bool nd = layout == ttnn::TensorMemoryLayout::kNdSharded ||
                  args.values.contains("distribution");
  if (nd && layout != ttnn::TensorMemoryLayout::kNdSharded &&
      layout != ttnn::TensorMemoryLayout::kInterleaved) {
    return absl::InvalidArgumentError(
        "--distribution goes with --memory-layout ND_SHARDED");
  }
  if (nd) layout = ttnn::TensorMemoryLayout::kNdSharded;
  in.memory.layout = layout;
  const bool has_grid = args.values.contains("grid");
  const bool has_shard = args.values.contains("shard-shape");
  if (layout == ttnn::TensorMemoryLayout::kInterleaved) {
    if (has_grid || has_shard || args.values.contains("orientation")) {
      return absl::InvalidArgumentError(
          "--grid, --shard-shape and --orientation need a sharded "
          "--memory-layout");
    }
    return in;
  }
  if (!has_grid || (nd && !has_shard)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--memory-layout ", ttnn::MemoryLayoutName(layout), " needs --grid",
        nd ? " and --shard-shape"
           : " (and --shard-shape, unless derived from the shape and a WxH "
             "grid)"));
  }
  absl::StatusOr<ttnn::CoreRangeSet> grid =
      ParseCoreGrid(args.values.at("grid"));
  if (!grid.ok()) return grid.status();
  if (!has_shard) {  // derived by TensorSpec::Make
    in.memory.shard_spec =
        ttnn::ShardSpec{*std::move(grid), {0, 0}, orientation};
    in.derive_shard_shape = true;
    return in;
  }
  absl::StatusOr<std::vector<int64_t>> shard =
      ParseDims(args.values.at("shard-shape"), "--shard-shape");
  if (!shard.ok()) return shard.status();
  if (nd) {
    in.memory.nd_shard_spec = ttnn::NdShardSpec{
        *std::move(shard), *std::move(grid), orientation, strategy};
    in.memory.created_with_nd_shard_spec = true;
    return in;
  }
  if (shard->size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--shard-shape of ", ttnn::MemoryLayoutName(layout),
        " is HEIGHT,WIDTH (ND shards need --memory-layout ND_SHARDED)"));
  }
  in.memory.shard_spec = ttnn::ShardSpec{
      *std::move(grid), {(*shard)[0], (*shard)[1]}, orientation};
  return in;
}

absl::StatusOr<std::string> SpecText(absl::string_view source, IoContext& io) {
  if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(source), "{") ||
      absl::StartsWith(absl::StripLeadingAsciiWhitespace(source), "[")) {
    return std::string(source);
  }
  return ReadInput(source, io);
}

}  // namespace

const char kTtnnSpecFlagsHelp[] =
    R"(  --shape SHAPE            the logical shape D,D,... (needed unless --spec)
  --dtype DTYPE            bfloat16 (default), float32, uint32, bfloat8_b,
                           bfloat4_b, uint8, uint16, int32, fp8_e4m3 or int8
  --layout LAYOUT          TILE (default) or ROW_MAJOR
  --tile HxW               32x32 (default), 16x32, 32x16, 16x16, {8,4,2,1}x32
                           or {8,4,2,1}x16
  --memory-layout MEM      INTERLEAVED (default), HEIGHT_SHARDED, WIDTH_SHARDED,
                           BLOCK_SHARDED or ND_SHARDED
  --buffer-type BUF        DRAM (default) or L1
  --grid CORES             core ranges X0,Y0-X1,Y1[;...] in order, or WxH for
                           (0,0)-(W-1,H-1)
  --shard-shape SHARD      the shard: HEIGHT,WIDTH, or any rank for ND_SHARDED;
                           without it a HEIGHT/WIDTH/BLOCK_SHARDED shard is
                           derived from the shape and a WxH --grid as
                           ttnn.create_sharded_memory_config derives it
  --orientation ORIENT     ROW_MAJOR (default) or COL_MAJOR
  --distribution STRATEGY  ROUND_ROBIN_1D (default) or GRID_2D; implies
                           ND_SHARDED
  --spec FILE|-            the spec as JSON instead of flags: one object or
                           JSON lines with the TTNN test data's "input" fields
                           (docs/ttnn.md); '{...}' inline too
  --device NAME            the device the spec is for and checked against:
                           wormhole_n150 (default), wormhole_n300,
                           blackhole_p100 or blackhole_p150 (or n150, n300,
                           p100, p150); a spec it cannot hold (a grid past
                           its worker cores, more bytes per core than its
                           usable L1, per bank than a DRAM bank) is refused,
                           a borderline one warned about; 'none': no check
                           (tt-metal's TensorSpec alone, a wormhole_n150's
                           numbers)
  --l1-alignment N         L1 page alignment in bytes (default: the device's,
                           16)
  --dram-alignment N       DRAM page alignment in bytes (default: the
                           device's, 32 on Wormhole, 64 on Blackhole)
  --l1-banks N             L1 banks, one per worker core (default: the
                           device's, 64 on a wormhole_n150)
  --dram-banks N           DRAM banks (default: the device's, 12 on Wormhole)
)";

absl::Span<const absl::string_view> TtnnSpecFlags() { return kFlags; }

absl::StatusOr<std::vector<int64_t>> ParseDims(absl::string_view text,
                                               absl::string_view what) {
  std::vector<int64_t> dims;
  text = absl::StripAsciiWhitespace(text);
  absl::ConsumePrefix(&text, "[");
  absl::ConsumeSuffix(&text, "]");
  if (absl::StripAsciiWhitespace(text).empty()) return dims;
  for (absl::string_view part : absl::StrSplit(text, absl::ByAnyChar(",x"))) {
    int64_t d;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &d) || d < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad ", what, " '", text, "' (dims D,D,... of integers >= 0)"));
    }
    dims.push_back(d);
  }
  return dims;
}

absl::StatusOr<ttnn::CoreRangeSet> ParseCoreGrid(absl::string_view text) {
  const std::string bad = absl::StrCat(
      "bad --grid '", text, "' (core ranges X0,Y0-X1,Y1[;...], or WxH)");
  std::vector<ttnn::CoreRange> ranges;
  std::string t(text);
  t.erase(
      std::remove_if(t.begin(), t.end(),
                     [](char c) { return c == '(' || c == ')' || c == ' '; }),
      t.end());
  if (!absl::StrContains(t, '-') && absl::StrContains(t, 'x')) {
    std::vector<absl::string_view> wh = absl::StrSplit(t, 'x');
    int64_t w, h;
    if (wh.size() != 2 || !absl::SimpleAtoi(wh[0], &w) ||
        !absl::SimpleAtoi(wh[1], &h) || w < 1 || h < 1) {
      return absl::InvalidArgumentError(bad);
    }
    return ttnn::CoreRangeSet::Make({{{0, 0}, {w - 1, h - 1}}});
  }
  for (absl::string_view part : absl::StrSplit(t, ';', absl::SkipEmpty())) {
    std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
    if (ends.size() > 2) return absl::InvalidArgumentError(bad);
    ttnn::CoreCoord c[2];
    for (size_t i = 0; i < ends.size(); ++i) {
      std::vector<absl::string_view> xy = absl::StrSplit(ends[i], ',');
      if (xy.size() != 2 || !absl::SimpleAtoi(xy[0], &c[i].x) ||
          !absl::SimpleAtoi(xy[1], &c[i].y)) {
        return absl::InvalidArgumentError(bad);
      }
    }
    if (ends.size() == 1) c[1] = c[0];
    ranges.push_back({c[0], c[1]});
  }
  if (ranges.empty()) return absl::InvalidArgumentError(bad);
  return ttnn::CoreRangeSet::Make(std::move(ranges));
}

absl::StatusOr<TtnnInputs> ReadTtnnInputs(const Args& args,
                                          const std::string* spec_arg,
                                          IoContext& io) {
  TtnnInputs out;
  if (absl::AsciiStrToLower(args.Value("device", "")) == "none") {
    out.device.check_fit = false;
  } else if (args.Has("device")) {
    absl::StatusOr<const ttnn::Device*> d =
        ttnn::FindDevice(args.values.at("device"));
    if (!d.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad --device: ", d.status().message()));
    }
    out.device.device = *d;
    out.device.named = true;
  }
  const ttnn::DeviceParams p = out.device.device->params();
  absl::StatusOr<int64_t> v =
      PositiveFlag(args, "l1-alignment", p.l1_alignment);
  if (v.ok()) out.device.params.l1_alignment = *v;
  if (v.ok()) v = PositiveFlag(args, "dram-alignment", p.dram_alignment);
  if (v.ok()) out.device.params.dram_alignment = *v;
  if (v.ok()) v = PositiveFlag(args, "l1-banks", p.l1_banks);
  if (v.ok()) out.device.params.l1_banks = *v;
  if (v.ok()) v = PositiveFlag(args, "dram-banks", p.dram_banks);
  if (v.ok()) out.device.params.dram_banks = *v;
  if (!v.ok()) return v.status();

  bool any_field = false;
  for (absl::string_view f : kSpecFields) any_field = any_field || args.Has(f);
  const bool has_spec = args.values.contains("spec");
  if (has_spec && spec_arg != nullptr) {
    return absl::InvalidArgumentError(
        "give the spec once: --spec or an argument");
  }
  if (has_spec || spec_arg != nullptr) {
    if (any_field) {
      return absl::InvalidArgumentError(
          "give the spec either as JSON (--spec) or as flags (--shape ...), "
          "not both");
    }
    const std::string source = has_spec ? args.values.at("spec") : *spec_arg;
    absl::StatusOr<std::string> text = SpecText(source, io);
    if (!text.ok()) return text.status();
    const std::string file = source == "-" || absl::StartsWith(source, "{") ||
                                     absl::StartsWith(source, "[")
                                 ? ""
                                 : source;
    absl::StatusOr<std::vector<ttnn::TensorSpecInput>> specs =
        ttnn::SpecRequestsFromText(*text, file);
    if (!specs.ok()) return specs.status();
    out.specs = *std::move(specs);
    return out;
  }
  if (!args.values.contains("shape")) {
    return absl::InvalidArgumentError(
        "expects a spec: --shape D,D,... with the other flags, or --spec "
        "FILE|-");
  }
  absl::StatusOr<ttnn::TensorSpecInput> in = InputFromFlags(args);
  if (!in.ok()) return in.status();
  out.specs.push_back(*std::move(in));
  return out;
}

}  // namespace hlolayout::cli
