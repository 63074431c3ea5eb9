// fuzz/ttnn_fuzzer.cc: TTNN tensor specs. The first byte picks a mode:
//   0: SpecInputsFromText (JSON or JSON lines), then for each spec (at most
//      8) TensorSpec::Make, locate of the elements named on the
//      last line, the pictures, and the distribution's invariants: every
//      device page holds a host page of the tensor or padding, and Place is
//      the inverse of HostPage;
//   1: DistributeOverMesh of "SHAPE;MESH;PLACEMENTS" (dims comma-separated,
//      placements as `ttnn mesh --placements`): every slice inside the
//      tensor and of the same shape.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/spec_json.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/views/ttnn_picture.h"

namespace hlolayout::fuzz {
namespace {

std::vector<int64_t> Ints(absl::string_view text) {
  std::vector<int64_t> out;
  for (absl::string_view p : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int64_t v;
    if (absl::SimpleAtoi(p, &v)) out.push_back(v);
  }
  return out;
}

void CheckDistribution(const ttnn::TensorSpec& spec, absl::string_view text) {
  const ttnn::BufferDistribution& d = *spec.distribution();
  const int64_t dev = d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  // A sample of (core, page) pairs: the first and last pages of up to 16
  // cores.
  for (int64_t c = 0; c < d.num_cores() && c < 16; ++c) {
    for (int64_t p : {int64_t{0}, dev / 2, dev - 1}) {
      if (p < 0 || p >= dev) continue;
      const int64_t h = d.HostPage(c, p);
      if (h < -1 || h >= d.host_pages()) Fail("host page out of range", text);
      if (h < 0) continue;
      const ttnn::DevicePlace back = d.Place(h);
      if (back.core_index != c || back.device_page != p) {
        Fail("Place is not the inverse of HostPage", text);
      }
    }
  }
}

void Spec(const ttnn::TensorSpecInput& in, absl::string_view index_line,
          absl::string_view text) {
  absl::StatusOr<ttnn::TensorSpec> spec = ttnn::TensorSpec::Make(in);
  CheckError(spec.status(), text);
  if (!spec.ok()) return;
  if (spec->ConsumedBytesPerBank() < 0 || spec->num_pages() < 0) {
    Fail("negative size", text);
  }
  if (spec->distribution()) CheckDistribution(*spec, text);
  absl::StatusOr<ttnn::ElementPlace> place =
      ttnn::Locate(*spec, Ints(index_line));
  CheckError(place.status(), text);
  if (place.ok() && (place->byte_in_page < 0 ||
                     place->byte_in_page >= spec->page_size_bytes())) {
    Fail("byte outside its page", text);
  }
  CheckError(draw::TtnnPagesGrid(*spec).status(), text);
  CheckError(draw::TtnnCoresGrid(*spec).status(), text);
  if (spec->distribution() && spec->distribution()->num_cores() > 0) {
    CheckError(draw::TtnnCorePagesGrid(*spec, 0).status(), text);
  }
}

void Mesh(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, ';');
  if (parts.size() < 3) return;
  absl::optional<std::vector<ttnn::MeshPlacement>> placements =
      ttnn::PlacementsFromString(parts[2]);
  if (!placements) return;
  const std::vector<int64_t> shape = Ints(parts[0]);
  absl::StatusOr<ttnn::MeshDistribution> d =
      ttnn::DistributeOverMesh(shape, Ints(parts[1]), {*placements, {}});
  CheckError(d.status(), text);
  if (!d.ok()) return;
  for (const ttnn::MeshSlice& s : d->slices) {
    if (!s.holds_data) continue;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (s.begin[i] < 0 || s.end[i] > shape[i] ||
          s.end[i] - s.begin[i] != d->slice_shape[i]) {
        Fail("mesh slice outside the tensor or of another shape", text);
      }
    }
  }
}

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  if (size < 1 || size > fuzz::kMaxInputSize) return 0;
  const absl::string_view text(reinterpret_cast<const char*>(data + 1),
                               size - 1);
  if (data[0] % 2 == 1) {
    fuzz::Mesh(text);
    return 0;
  }
  const size_t last = text.rfind('\n');
  const absl::string_view specs =
      last == absl::string_view::npos ? text : text.substr(0, last);
  const absl::string_view index =
      last == absl::string_view::npos ? "" : text.substr(last + 1);
  absl::StatusOr<std::vector<ttnn::TensorSpecInput>> in =
      ttnn::SpecInputsFromText(specs);
  fuzz::CheckError(in.status(), text);
  if (!in.ok()) return 0;
  for (size_t i = 0; i < in->size() && i < 8; ++i) {
    fuzz::Spec((*in)[i], index, text);
  }
  return 0;
}
