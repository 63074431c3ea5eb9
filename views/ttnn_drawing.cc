#include "hlolayout/views/ttnn_drawing.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/views/ttnn_picture.h"

namespace hlolayout::draw {
namespace {

// The device's warnings, or the one saying the spec does not fit.
std::vector<std::string> FitProblems(const ttnn::TensorSpec& spec,
                                     const ttnn::DeviceChoice& device) {
  if (!device.check_fit) return {};
  absl::StatusOr<ttnn::FitReport> fit = ttnn::CheckFit(spec, *device.device);
  if (fit.ok()) return std::move(fit->warnings);
  return {absl::StrCat("does not fit ", device.device->name, ": ",
                       fit.status().message())};
}

}  // namespace

absl::StatusOr<int64_t> TtnnCoreIndex(const ttnn::TensorSpec& spec,
                                      ttnn::CoreCoord core) {
  if (spec.distribution()) {
    const auto& cores = spec.distribution()->cores();
    for (size_t i = 0; i < cores.size(); ++i) {
      if (cores[i] == core) return static_cast<int64_t>(i);
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "core ", ttnn::CoreName(core),
      spec.distribution()
          ? " holds no shard of this tensor"
          : ": an interleaved tensor lies in banks, not on cores"));
}

absl::StatusOr<TtnnDrawing> DrawTtnnSpec(const ttnn::TensorSpecInput& in,
                                         const ttnn::TensorSpec& spec,
                                         const ttnn::DeviceChoice& device,
                                         absl::optional<ttnn::CoreCoord> core) {
  TtnnDrawing out;
  out.warnings = FitProblems(spec, device);
  absl::optional<int64_t> core_index;
  if (core) {
    absl::StatusOr<int64_t> i = TtnnCoreIndex(spec, *core);
    if (!i.ok()) return i.status();
    core_index = *i;
  }
  absl::StatusOr<std::vector<CellGrid>> grids = TtnnPicture(spec, core_index);
  if (!grids.ok()) return grids.status();
  out.grids = *std::move(grids);
  out.title = absl::StrCat(ttnn::SpecSummary(in), " on ", device.device->name);
  if (spec.shard_shape_derived()) {
    absl::StrAppend(&out.title, "; shard shape derived: ",
                    spec.memory_config().shard_spec->shape[0], "x",
                    spec.memory_config().shard_spec->shape[1]);
  }
  for (const std::string& w : out.warnings) {
    out.grids[0].notes.push_back(absl::StrCat("warning: ", w));
  }
  return out;
}

}  // namespace hlolayout::draw
