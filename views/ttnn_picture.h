// views/ttnn_picture.h: pictures of a TTNN tensor spec (ttnn/tensor_spec.h):
//
//   "pages"      the padded tensor in pages as a 2-D plane (the last dim
//                across, the others folded down), each page labelled and
//                coloured by the core (sharded) or bank (interleaved)
//                holding it; partly filled pages show how much holds data;
//   "cores"      the core grid's bounding box, each core labelled with its
//                shards and the bytes of data it holds (cores outside the
//                grid left empty, cores without a shard hatched);
//                interleaved tensors: the banks, each with its page count
//                and bytes;
//   "shards"     (sharded) the tensor in shards, each labelled and coloured
//                by its core: the pages picture of a tensor with too many
//                pages to draw one by one;
//   "core (x,y)" the device pages on one core, shard slot by shard slot,
//                each labelled with the host page it holds (padding
//                hatched); a core with more pages shows its first 16,384.
//
// TtnnPicture puts them together so that any tensor draws: the cores
// always, the pages if at most 16,384 (else the shards, else a note), one
// core's pages on request; as ttnn-visualizer lets one zoom from the grid
// into a core.
//
// Cells are <g class="ttnn-page" data-page="p" data-core="x,y"> (or
// data-bank), <g class="ttnn-core" data-core="x,y" data-shards="...">,
// <g class="ttnn-device-page" data-device-page="d" data-host-page="p">,
// <g class="ttnn-shard" data-shard="s" data-core="x,y">; cores and banks
// carry data-bytes. Each grid holds at most 16,384 cells; the single grids
// refuse larger ones with the count.
#ifndef HLOLAYOUT_VIEWS_TTNN_PICTURE_H_
#define HLOLAYOUT_VIEWS_TTNN_PICTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::draw {

absl::StatusOr<CellGrid> TtnnPagesGrid(const ttnn::TensorSpec& spec);
// Precondition: spec is sharded.
absl::StatusOr<CellGrid> TtnnShardsGrid(const ttnn::TensorSpec& spec);
absl::StatusOr<CellGrid> TtnnCoresGrid(const ttnn::TensorSpec& spec);
// Precondition: spec is sharded, 0 <= core_index < its number of cores.
absl::StatusOr<CellGrid> TtnnCorePagesGrid(const ttnn::TensorSpec& spec,
                                           int64_t core_index);

// The picture of any spec (see above); `core_index` (an index into the
// distribution's cores; precondition as TtnnCorePagesGrid) adds that core's
// pages. Errors: only a core grid past 16,384 cores.
absl::StatusOr<std::vector<CellGrid>> TtnnPicture(
    const ttnn::TensorSpec& spec, absl::optional<int64_t> core_index);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_TTNN_PICTURE_H_
