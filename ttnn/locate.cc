#include "hlolayout/ttnn/locate.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

// The byte of position `pos` (face order) in a tile of `spec`.
void TileBytePosition(const TensorSpec& spec, int64_t row, int64_t col,
                      ElementPlace* place) {
  const Tile& t = spec.tile();
  const int64_t faces_across = t.width / t.face_width;
  const int64_t face =
      (row / t.face_height) * faces_across + col / t.face_width;
  const int64_t pos = face * t.face_height * t.face_width +
                      (row % t.face_height) * t.face_width + col % t.face_width;
  if (IsBlockFloat(spec.dtype())) {
    const int64_t exponents =
        RoundUp(t.face_height * t.num_faces(), spec.device().l1_alignment);
    place->exponent_byte_in_page = face * t.face_height + row % t.face_height;
    if (spec.dtype() == DataType::kBfloat8B) {
      place->byte_in_page = exponents + pos;
    } else {
      place->byte_in_page = exponents + pos / 2;
      place->low_nibble = pos % 2 == 0;
    }
    return;
  }
  const int64_t element = TileBytes(t, spec.dtype()) / (t.height * t.width);
  place->byte_in_page = pos * element;
}

}  // namespace

void PagePosition(const TensorSpec& spec, absl::Span<const int64_t> index,
                  ElementPlace* place) {
  const std::array<int64_t, 2>& page = spec.page_shape();
  const std::vector<int64_t>& pages = spec.padded_shape_in_pages();
  const int rank = static_cast<int>(pages.size());
  // `index` may be shorter than the padded shape (a tiled rank-1 tensor is
  // padded to rank 2): missing outer coordinates are 0.
  const int offset = rank - static_cast<int>(index.size());
  int64_t host = 0;
  for (int i = 0; i < rank; ++i) {
    int64_t c = i >= offset ? index[i - offset] : 0;
    if (i == rank - 1) c /= page[1];
    if (i == rank - 2) c /= page[0];
    host = host * pages[i] + c;
  }
  place->host_page = host;
  const int64_t row =
      rank >= 2 && offset <= rank - 2 ? index[rank - 2 - offset] % page[0] : 0;
  const int64_t col = index.empty() ? 0 : index.back() % page[1];
  place->in_page = {row, col};
  if (spec.layout() == Layout::kTile) {
    TileBytePosition(spec, row, col, place);
  } else {
    place->byte_in_page = col * *RowMajorElementBytes(spec.dtype());
  }
}

absl::StatusOr<ElementPlace> Locate(const TensorSpec& spec,
                                    absl::Span<const int64_t> index) {
  const std::vector<int64_t>& shape = spec.logical_shape();
  if (index.size() != shape.size()) {
    return absl::InvalidArgumentError(absl::StrCat("index has ", index.size(),
                                                   " coordinates, the tensor ",
                                                   shape.size(), " dims"));
  }
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("index ", index[i], " is out of bounds for dim ", i,
                       " of size ", shape[i]));
    }
  }
  ElementPlace place;
  place.index.assign(index.begin(), index.end());
  PagePosition(spec, index, &place);
  const int64_t aligned = spec.AlignedPageSize(spec.page_alignment());
  if (!spec.sharded()) {
    const BankPage b = InterleavedPage(place.host_page, spec.num_banks());
    place.bank = b.bank;
    place.page_in_bank = b.page_in_bank;
    place.offset = *place.page_in_bank * aligned + place.byte_in_page;
    return place;
  }
  const BufferDistribution& d = *spec.distribution();
  // The distribution numbers pages over its squeezed shape, which keeps the
  // row-major order of the padded shape's pages.
  const DevicePlace p = d.Place(place.host_page);
  place.shard = p.shard;
  place.core_index = p.core_index;
  place.core = d.cores()[p.core_index];
  place.device_page = p.device_page;
  place.offset = p.device_page * aligned + place.byte_in_page;
  return place;
}

}  // namespace hlolayout::ttnn
