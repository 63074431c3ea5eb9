#include "hlolayout/ttnn/answer_json.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/json_writer.h"
#include "hlolayout/util/record.h"

namespace hlolayout::ttnn {
namespace {

void Core(JsonWriter& json, CoreCoord c) {
  json.BeginArray().Int(c.x).Int(c.y).EndArray();
}

}  // namespace

std::string SpecJson(const TensorSpec& spec, const JsonLimits& limits,
                     const SpecNotes* notes) {
  std::string out;
  RecordJsonWriter writer(&out);
  EmitSpecAnswer(spec, limits, notes, writer);
  return out;
}

std::string RefusalJson(const absl::Status& status) {
  JsonWriter json;
  json.BeginObject();
  json.Key("error").String(status.message());
  if (absl::optional<std::string> rule = RefusalRule(status)) {
    json.Key("rule").String(*rule);
  }
  json.EndObject();
  return json.str();
}

std::string PlaceJson(const TensorSpec& spec, const ElementPlace& p) {
  JsonWriter json;
  json.BeginObject();
  json.Key("index").IntArray(p.index);
  json.Key("host_page").Int(p.host_page);
  json.Key("in_page")
      .BeginArray()
      .Int(p.in_page[0])
      .Int(p.in_page[1])
      .EndArray();
  json.Key("byte_in_page").Int(p.byte_in_page);
  if (p.exponent_byte_in_page) {
    json.Key("exponent_byte_in_page").Int(*p.exponent_byte_in_page);
  }
  if (spec.dtype() == DataType::kBfloat4B) {
    json.Key("low_nibble").Bool(p.low_nibble);
  }
  json.Key("buffer_type").String(BufferTypeName(spec.buffer_type()));
  if (p.bank) {
    json.Key("bank").Int(*p.bank);
    json.Key("page_in_bank").Int(*p.page_in_bank);
  }
  if (p.core) {
    json.Key("shard").Int(*p.shard);
    json.Key("core");
    Core(json, *p.core);
    json.Key("device_page").Int(*p.device_page);
  }
  json.Key("offset").Int(p.offset);
  json.Key("aligned_page_size")
      .Int(spec.AlignedPageSize(spec.page_alignment()));
  json.EndObject();
  return json.str();
}

std::string MeshJson(const MeshDistribution& mesh,
                     absl::Span<const MeshPlacement> placements,
                     const absl::StatusOr<TensorSpec>& slice_spec,
                     const JsonLimits& limits) {
  JsonWriter json;
  json.BeginObject();
  json.Key("mesh_shape").IntArray(mesh.mesh_shape);
  json.Key("distribution_shape").IntArray(mesh.distribution_shape);
  json.Key("placements").String(PlacementsToString(placements));
  json.Key("mode").String(mesh.submesh ? "SUBMESH" : "ROW_MAJOR");
  json.Key("slice_shape").IntArray(mesh.slice_shape);
  json.Key("devices").BeginArray();
  for (const MeshSlice& s : mesh.slices) {
    json.BeginObject();
    json.Key("device").IntArray(s.device);
    json.Key("holds_data").Bool(s.holds_data);
    if (s.holds_data) {
      json.Key("begin").IntArray(s.begin);
      json.Key("end").IntArray(s.end);
    }
    json.EndObject();
  }
  json.EndArray();
  // The writer's document so far, then the slice's spec (a record) or its
  // refusal, then the closing brace.
  return absl::StrCat(json.str(), ", \"slice_spec\": ",
                      slice_spec.ok() ? SpecJson(*slice_spec, limits)
                                      : RefusalJson(slice_spec.status()),
                      "}");
}

}  // namespace hlolayout::ttnn
