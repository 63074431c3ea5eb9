// views/ttnn_drawing.h: the picture of a TTNN tensor spec checked against a
// device, with its title and the device's warnings (what `hlolayout ttnn
// draw` prints and hl.ttnn.TensorSpec.draw returns as SVG).
//
//   ttnn::TensorSpecInput in;
//   in.shape = {64, 64};  // bfloat16, TILE, DRAM interleaved
//   ttnn::DeviceChoice device;
//   ttnn::TensorSpec spec = *ttnn::TensorSpec::Make(in, device.params);
//   TtnnDrawing d = *DrawTtnnSpec(in, spec, device, absl::nullopt);
//   d.title  // "bfloat16[64, 64] TILE 32x32, DRAM INTERLEAVED on
//   wormhole_n150" std::string svg = GridsToSvg(d.grids, d.title);
//
// A spec the device cannot hold is drawn too, saying so (a warning "does
// not fit ..."): the picture is how one finds a cut that fits.
#ifndef HLOLAYOUT_VIEWS_TTNN_DRAWING_H_
#define HLOLAYOUT_VIEWS_TTNN_DRAWING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::draw {

struct TtnnDrawing {
  // "SUMMARY on DEVICE", and "; shard shape derived: HxW" when it was.
  std::string title;
  // views/ttnn_picture.h's TtnnPicture; the first grid's notes end with
  // each warning ("warning: ...").
  std::vector<CellGrid> grids;
  // The device's warnings (borderline fits), or the one saying that the
  // spec does not fit; none with device.check_fit false.
  std::vector<std::string> warnings;
};

// TtnnCoreIndex
//
// The index of `core` in the spec's distribution's cores. NotFound: a core
// holding no shard ("core (9,9) holds no shard of this tensor"), or an
// interleaved tensor (it lies in banks).
absl::StatusOr<int64_t> TtnnCoreIndex(const ttnn::TensorSpec& spec,
                                      ttnn::CoreCoord core);

// DrawTtnnSpec
//
// The picture of `spec` (made from `in` with device.params), checked
// against device.device; with `core`, also the pages on that core.
// Errors: TtnnCoreIndex's, or a core grid too large to draw.
absl::StatusOr<TtnnDrawing> DrawTtnnSpec(const ttnn::TensorSpecInput& in,
                                         const ttnn::TensorSpec& spec,
                                         const ttnn::DeviceChoice& device,
                                         absl::optional<ttnn::CoreCoord> core);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_TTNN_DRAWING_H_
