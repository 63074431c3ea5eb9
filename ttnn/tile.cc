#include "hlolayout/ttnn/tile.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/check.h"

namespace hlolayout::ttnn {
namespace {

struct TileChoice {
  int64_t height, width, face_height, face_width;
};

// tile.cpp's choices, in its order.
constexpr TileChoice kChoices[] = {
    {32, 32, 16, 16}, {16, 32, 16, 16}, {32, 16, 16, 16}, {16, 16, 16, 16},
    {8, 32, 8, 16},   {4, 32, 4, 16},   {2, 32, 2, 16},   {1, 32, 1, 16},
    {8, 16, 8, 16},   {4, 16, 4, 16},   {2, 16, 2, 16},   {1, 16, 1, 16},
};

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

}  // namespace

absl::StatusOr<Tile> MakeTile(int64_t height, int64_t width) {
  for (const TileChoice& c : kChoices) {
    if (c.height == height && c.width == width) {
      return Tile{c.height, c.width, c.face_height, c.face_width};
    }
  }
  return Refused(
      rule::kTileShape,
      absl::StrCat(
          "tile ", height, "x", width,
          " is not a tile shape tt-metal accepts: 32x32, 16x32, 32x16, 16x16, "
          "{8,4,2,1}x32 or {8,4,2,1}x16 (tile.cpp: \"Tile size is not valid "
          "for "
          "our hardware\")"));
}

int64_t TileBytes(const Tile& tile, DataType type, int64_t l1_alignment) {
  HLOLAYOUT_CHECK(l1_alignment > 0) << l1_alignment;
  const int64_t hw = tile.height * tile.width;
  const int64_t exponents =
      RoundUp(tile.face_height * tile.num_faces(), l1_alignment);
  switch (type) {
    case DataType::kBfloat8B:
      return hw + exponents;
    case DataType::kBfloat4B:
      return hw / 2 + exponents;
    case DataType::kBfloat16:
    case DataType::kUint16:
      return hw * 2;
    case DataType::kFloat32:
    case DataType::kInt32:
    case DataType::kUint32:
      return hw * 4;
    case DataType::kUint8:
    case DataType::kInt8:
    case DataType::kFp8E4m3:
      return hw;
  }
  return hw;
}

std::string TileName(const Tile& tile) {
  return absl::StrCat(tile.height, "x", tile.width);
}

}  // namespace hlolayout::ttnn
