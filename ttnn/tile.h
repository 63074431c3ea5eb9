// ttnn/tile.h: a TTNN tile (ttnn.Tile): its shape, its faces and its bytes.
//
// tt-metal accepts twelve tile shapes (tile.cpp, TILE_FACE_HW_CHOICES):
// 32x32, 16x32, 32x16 and 16x16 with 16x16 faces, and the tiny tiles
// {8,4,2,1}x32 and {8,4,2,1}x16 whose faces are {8,4,2,1}x16. A tile holds
// height*width/face_area faces, stored one after the other, each face row
// by row. Its bytes:
//   plain types     height * width * element bytes (1 for uint8, int8 and
//                   fp8_e4m3);
//   bfloat8_b       height * width mantissa bytes, bfloat4_b half of that,
//                   after an exponent section of one byte per face row
//                   (face_height * num_faces) rounded up to the L1
//                   alignment (16 bytes on Wormhole and Blackhole).
//
//   TileBytes(*MakeTile(32, 32), DataType::kBfloat8B) == 1088  // 1024 + 64
//   TileBytes(*MakeTile(16, 16), DataType::kBfloat8B) == 272   // 256 + 16
//   TileBytes(*MakeTile(1, 16), DataType::kBfloat4B) == 24     // 8 + 16
#ifndef HLOLAYOUT_TTNN_TILE_H_
#define HLOLAYOUT_TTNN_TILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/tenstorrent/tile.h"
#include "hlolayout/ttnn/data_type.h"

namespace hlolayout::ttnn {

// The L1 alignment of Wormhole and Blackhole, in bytes (hal).
inline constexpr int64_t kDefaultL1Alignment = 16;

struct Tile {
  // tt-metal's default tile (tenstorrent/tile.h).
  int64_t height = tenstorrent::kTileHeight;
  int64_t width = tenstorrent::kTileWidth;
  int64_t face_height = tenstorrent::kFaceHeight;
  int64_t face_width = tenstorrent::kFaceWidth;

  int64_t num_faces() const {
    return height * width / (face_height * face_width);
  }
  friend bool operator==(const Tile& a, const Tile& b) {
    return a.height == b.height && a.width == b.width;
  }
  friend bool operator!=(const Tile& a, const Tile& b) { return !(a == b); }
};

// MakeTile
//
// One of the twelve shapes above, with its face shape. Anything else is
// refused as tt-metal refuses it ("tile 8x8 is not a tile shape tt-metal
// accepts: 32x32, 16x32, ...").
absl::StatusOr<Tile> MakeTile(int64_t height, int64_t width);

// Bytes of one tile of `type` (see above). `l1_alignment` > 0.
int64_t TileBytes(const Tile& tile, DataType type,
                  int64_t l1_alignment = kDefaultL1Alignment);

// "32x32".
std::string TileName(const Tile& tile);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_TILE_H_
