// tenstorrent/tile.h: tt-metal's default tile, 32x32 scalars in four 16x16
// faces: the tile TTNN's TILE layout takes unless told otherwise
// (ttnn/tile.h's Tile) and the one tt-mlir pads tensors to (its TILE_HEIGHT
// and TILE_WIDTH; ttmlir/ttnn_attr.h). Both Tenstorrent models share it.
//
//   ttnn::Tile{}.height == kTileHeight   // 32
#ifndef HLOLAYOUT_TENSTORRENT_TILE_H_
#define HLOLAYOUT_TENSTORRENT_TILE_H_

#include <cstdint>

namespace hlolayout::tenstorrent {

inline constexpr int64_t kTileHeight = 32;
inline constexpr int64_t kTileWidth = 32;
inline constexpr int64_t kFaceHeight = 16;
inline constexpr int64_t kFaceWidth = 16;

}  // namespace hlolayout::tenstorrent

#endif  // HLOLAYOUT_TENSTORRENT_TILE_H_
