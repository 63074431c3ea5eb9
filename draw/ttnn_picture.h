// draw/ttnn_picture.h: pictures of a TTNN tensor spec (ttnn/tensor_spec.h):
//
//   "pages"      the padded tensor in pages as a 2-D plane (the last dim
//                across, the others folded down), each page labelled and
//                coloured by the core (sharded) or bank (interleaved)
//                holding it; partly filled pages show how much holds data;
//   "cores"      the core grid's bounding box, each core labelled with its
//                shards (cores outside the grid left empty, cores without a
//                shard hatched); interleaved tensors: the banks, each with
//                its page count;
//   "core (x,y)" the device pages on one core, shard slot by shard slot,
//                each labelled with the host page it holds (padding
//                hatched).
//
// Cells are <g class="ttnn-page" data-page="p" data-core="x,y"> (or
// data-bank), <g class="ttnn-core" data-core="x,y" data-shards="...">,
// <g class="ttnn-device-page" data-device-page="d" data-host-page="p">.
// Each grid holds at most 16,384 cells; larger ones are refused with the
// count.
#ifndef HLOLAYOUT_DRAW_TTNN_PICTURE_H_
#define HLOLAYOUT_DRAW_TTNN_PICTURE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::draw {

absl::StatusOr<CellGrid> TtnnPagesGrid(const ttnn::TensorSpec& spec);
absl::StatusOr<CellGrid> TtnnCoresGrid(const ttnn::TensorSpec& spec);
// Precondition: spec is sharded, 0 <= core_index < its number of cores.
absl::StatusOr<CellGrid> TtnnCorePagesGrid(const ttnn::TensorSpec& spec,
                                           int64_t core_index);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_TTNN_PICTURE_H_
