#include "hlolayout/shape/printer.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout {
namespace {

// Collects printed text in a stack buffer and appends it to the string in
// large pieces. Printing a shape is dozens of one-character and small-integer
// pieces; a std::string append (or absl::StrAppend) per piece was most of
// the printer's time.
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() { Flush(); }

  void Put(char c) {
    if (used_ == kSize) Flush();
    buffer_[used_++] = c;
  }
  void Put(absl::string_view s) {
    if (s.size() > kSize - used_) {
      Flush();
      if (s.size() > kSize) {
        out_->append(s.data(), s.size());
        return;
      }
    }
    std::memcpy(buffer_ + used_, s.data(), s.size());
    used_ += s.size();
  }
  // Decimal, with '-' when negative (INT64_MIN included).
  void PutInt(int64_t value) {
    if (kSize - used_ < 20) Flush();
    char* p = buffer_ + used_;
    uint64_t magnitude = static_cast<uint64_t>(value);
    if (value < 0) {
      *p++ = '-';
      magnitude = 0 - magnitude;
    }
    int digits = 1;
    while (digits < 20 && magnitude >= kPowersOfTen[digits]) ++digits;
    for (int i = digits - 1; i > 0; --i) {
      p[i] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    }
    p[0] = static_cast<char>('0' + magnitude);
    used_ = static_cast<size_t>(p + digits - buffer_);
  }
  void PutInts(absl::Span<const int64_t> values) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) Put(',');
      PutInt(values[i]);
    }
  }

  // Characters written so far, including those already in the string.
  size_t size() const { return out_->size() + used_; }
  // Drops what was written after the first `size` characters.
  void Truncate(size_t size) {
    if (size >= out_->size()) {
      used_ = size - out_->size();
    } else {
      out_->resize(size);
      used_ = 0;
    }
  }

 private:
  static constexpr size_t kSize = 256;
  static constexpr uint64_t kPowersOfTen[20] = {
      1ULL,
      10ULL,
      100ULL,
      1000ULL,
      10000ULL,
      100000ULL,
      1000000ULL,
      10000000ULL,
      100000000ULL,
      1000000000ULL,
      10000000000ULL,
      100000000000ULL,
      1000000000000ULL,
      10000000000000ULL,
      100000000000000ULL,
      1000000000000000ULL,
      10000000000000000ULL,
      100000000000000000ULL,
      1000000000000000000ULL,
      10000000000000000000ULL,
  };

  void Flush() {
    out_->append(buffer_, used_);
    used_ = 0;
  }

  std::string* out_;
  size_t used_ = 0;
  char buffer_[kSize];
};

char DimLevelLetter(DimLevelType type) {
  switch (type) {
    case DIM_DENSE:
      return 'D';
    case DIM_COMPRESSED:
      return 'C';
    case DIM_SINGLETON:
      return 'S';
    case DIM_LOOSE_COMPRESSED:
      return 'H';
  }
  return '?';
}

bool HasNonDefaultDimLevel(const Layout& layout) {
  for (const DimLevel& level : layout.dim_levels()) {
    if (level != DimLevel()) return true;
  }
  return false;
}

absl::string_view IndexTypeName(PrimitiveType type) {
  return IsIntegralType(type) ? PrimitiveTypeName(type) : "invalid";
}

void WriteShape(Writer& w, const Shape& shape, bool print_layout);

void WriteTile(Writer& w, const Tile& tile) {
  w.Put('(');
  for (int64_t i = 0; i < tile.rank(); ++i) {
    if (i > 0) w.Put(',');
    if (tile.dimension(i) == Tile::kCombineDimension) {
      w.Put('*');
    } else {
      w.PutInt(tile.dimension(i));
    }
  }
  w.Put(')');
}

// `letter(value)`, as in "S(1)".
void WriteIntAttribute(Writer& w, absl::string_view letter, int64_t value) {
  w.Put(letter);
  w.Put('(');
  w.PutInt(value);
  w.Put(')');
}

void WriteLayout(Writer& w, const Layout& layout) {
  w.Put('{');
  w.PutInts(layout.minor_to_major());
  // The ':' is written at once and dropped again if no attribute follows.
  const size_t colon = w.size();
  w.Put(':');
  if (HasNonDefaultDimLevel(layout)) {
    w.Put("D(");
    for (size_t i = 0; i < layout.dim_levels().size(); ++i) {
      const DimLevel& level = layout.dim_levels()[i];
      if (i > 0) w.Put(',');
      w.Put(DimLevelLetter(level.type));
      if (!level.unique) w.Put('+');
      if (!level.ordered) w.Put('~');
    }
    w.Put(')');
  }
  if (!layout.tiles().empty()) {
    w.Put('T');
    for (const Tile& tile : layout.tiles()) WriteTile(w, tile);
  }
  if (layout.tail_padding_alignment_in_elements() != 1) {
    WriteIntAttribute(w, "L", layout.tail_padding_alignment_in_elements());
  }
  if (layout.index_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    w.Put("#(");
    w.Put(IndexTypeName(layout.index_primitive_type()));
    w.Put(')');
  }
  if (layout.pointer_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    w.Put("*(");
    w.Put(IndexTypeName(layout.pointer_primitive_type()));
    w.Put(')');
  }
  if (layout.element_size_in_bits() != 0) {
    WriteIntAttribute(w, "E", layout.element_size_in_bits());
  }
  if (layout.memory_space() != 0) {
    WriteIntAttribute(w, "S", layout.memory_space());
  }
  if (!layout.split_configs().empty()) {
    w.Put("SC");
    for (const SplitConfig& config : layout.split_configs()) {
      w.Put('(');
      w.PutInt(config.dimension);
      w.Put(':');
      w.PutInts(config.split_indices);
      w.Put(')');
    }
  }
  if (layout.has_physical_shape()) {
    w.Put("P(");
    WriteShape(w, layout.physical_shape(), /*print_layout=*/true);
    w.Put(')');
  }
  if (layout.dynamic_shape_metadata_prefix_bytes() > 0) {
    WriteIntAttribute(w, "M", layout.dynamic_shape_metadata_prefix_bytes());
  }
  if (w.size() == colon + 1) w.Truncate(colon);
  w.Put('}');
}

void WriteShape(Writer& w, const Shape& shape, bool print_layout) {
  if (shape.IsTuple()) {
    w.Put('(');
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      if (i > 0) w.Put(", ");
      if (i > 0 && i % 5 == 0) {
        w.Put("/*index=");
        w.PutInt(i);
        w.Put("*/");
      }
      WriteShape(w, shape.tuple_shape(i), print_layout);
    }
    w.Put(')');
    return;
  }
  if (shape.IsBuffer()) {
    w.Put("b(");
    if (shape.tuple_size() == 1) {
      WriteShape(w, shape.buffer_shape(), print_layout);
    }
    w.Put(')');
    return;
  }
  w.Put(PrimitiveTypeName(shape.element_type()));
  w.Put('[');
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i > 0) w.Put(',');
    if (shape.is_unbounded_dynamic_dimension(i)) {
      w.Put('?');
    } else {
      if (shape.is_dynamic_dimension(i)) w.Put("<=");
      w.PutInt(shape.dimension(i));
    }
  }
  w.Put(']');
  if (!print_layout || !shape.IsArray() || !shape.has_layout()) return;
  const size_t before = w.size();
  WriteLayout(w, shape.layout());
  if (shape.rank() == 0 && w.size() - before == 2) w.Truncate(before);
}

}  // namespace

void AppendTile(std::string* out, const Tile& tile) {
  Writer w(out);
  WriteTile(w, tile);
}

void AppendLayout(std::string* out, const Layout& layout) {
  Writer w(out);
  WriteLayout(w, layout);
}

void AppendShape(std::string* out, const Shape& shape, bool print_layout) {
  Writer w(out);
  WriteShape(w, shape, print_layout);
}

std::string HumanString(const Shape& shape) {
  std::string out;
  AppendShape(&out, shape, /*print_layout=*/false);
  return out;
}

std::string HumanStringWithLayout(const Shape& shape) {
  std::string out;
  AppendShape(&out, shape, /*print_layout=*/true);
  return out;
}

std::string Tile::ToString() const {
  std::string out;
  AppendTile(&out, *this);
  return out;
}

std::string Layout::ToString() const {
  std::string out;
  AppendLayout(&out, *this);
  return out;
}

std::string Shape::ToString(bool print_layout) const {
  std::string out;
  AppendShape(&out, *this, print_layout);
  return out;
}

}  // namespace hlolayout
