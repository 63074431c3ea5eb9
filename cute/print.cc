// cute/print.cc: text output of cute values.
#include "hlolayout/cute/print.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace hlolayout::cute {

namespace {

void AppendIntTuple(std::string* out, const IntTuple& t) {
  if (t.is_int()) {
    if (t.is_static()) out->push_back('_');
    absl::StrAppend(out, t.value());
    return;
  }
  out->push_back('(');
  for (size_t i = 0; i < t.elements().size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendIntTuple(out, t.elements()[i]);
  }
  out->push_back(')');
}

}  // namespace

std::string ToString(const IntTuple& t) {
  std::string out;
  AppendIntTuple(&out, t);
  return out;
}

std::string ToString(const Layout& layout) {
  return absl::StrCat(ToString(layout.shape()), ":", ToString(layout.stride()));
}

std::string ToString(const Tiler& tiler) {
  switch (tiler.kind()) {
    case Tiler::Kind::kUnderscore:
      return "_";
    case Tiler::Kind::kLayout:
      return ToString(tiler.layout());
    case Tiler::Kind::kTuple: {
      std::vector<std::string> parts;
      for (const Tiler& e : tiler.elements()) parts.push_back(ToString(e));
      return absl::StrCat("<", absl::StrJoin(parts, ", "), ">");
    }
  }
  return "";
}

std::string ToString(const Swizzle& swizzle) {
  return absl::StrCat("Sw<", swizzle.bits(), ",", swizzle.base(), ",",
                      swizzle.shift(), ">");
}

std::string ToString(const ComposedOffset& offset) {
  if (offset.is_smem_ptr()) {
    return absl::StrCat("smem_ptr[", offset.smem_bits(), "b](unset)");
  }
  return ToString(IntTuple(offset.value()));
}

std::string ToString(const ComposedLayout& layout) {
  return absl::StrCat(ToString(layout.outer()), " o ",
                      ToString(layout.offset()), " o ",
                      ToString(layout.inner()));
}

std::string ToString(const AnyLayout& layout) {
  switch (layout.kind()) {
    case AnyLayout::Kind::kLayout:
      return ToString(layout.layout());
    case AnyLayout::Kind::kSwizzle:
      return ToString(layout.swizzle());
    case AnyLayout::Kind::kComposed:
      return ToString(layout.composed());
  }
  return "";
}

namespace {

// The number of characters of v in decimal, with its sign.
int Width(int64_t v) {
  uint64_t mag =
      v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int width = v < 0 ? 2 : 1;
  while (mag >= 10) {
    mag /= 10;
    ++width;
  }
  return width;
}

// Appends v right-aligned in `width` characters (printf's "%*d"), without
// the per-call cost of a format string: a table has up to a million cells.
void AppendPadded(std::string* out, int64_t v, int width) {
  char digits[24];
  char* end = digits + sizeof(digits);
  char* p = end;
  uint64_t mag =
      v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + mag % 10);
    mag /= 10;
  } while (mag != 0);
  if (v < 0) *--p = '-';
  const int n = static_cast<int>(end - p);
  if (width > n) out->append(width - n, ' ');
  out->append(p, n);
}

}  // namespace

absl::StatusOr<std::string> PrintTable(const Layout& layout) {
  if (layout.rank() < 1 || layout.rank() > 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "table needs a layout of rank 1 or 2, found rank ", layout.rank()));
  }
  const Layout rows = layout.mode(0);
  const bool has_cols = layout.rank() == 2;
  const int64_t m_size = rows.size();
  const int64_t n_size = has_cols ? layout.mode(1).size() : 1;
  if (m_size > kMaxTableCells / n_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("table of ", m_size, "x", n_size,
                     " is too large (more than ", kMaxTableCells, " cells)"));
  }
  // Each mode is evaluated once per coordinate (not once per cell: a
  // 2233x223 table took seconds), and a cell is layout(m) + layout(n).
  std::vector<int64_t> row_offsets(m_size);
  for (int64_t m = 0; m < m_size; ++m) row_offsets[m] = rows(m);
  std::vector<int64_t> col_offsets(n_size, 0);
  if (has_cols) {
    const Layout cols = layout.mode(1);
    for (int64_t n = 0; n < n_size; ++n) col_offsets[n] = cols(n);
  }
  // The widest value is the smallest or the largest one.
  const auto [row_min, row_max] =
      std::minmax_element(row_offsets.begin(), row_offsets.end());
  const auto [col_min, col_max] =
      std::minmax_element(col_offsets.begin(), col_offsets.end());
  int value_width =
      std::max({Width(layout.cosize()), Width(*row_min + *col_min),
                Width(*row_max + *col_max), Width(n_size - 1)});
  const int row_width = std::max(2, Width(m_size - 1));
  const std::string indent(row_width + 2, ' ');
  std::string separator = indent;
  for (int64_t n = 0; n < n_size; ++n) {
    separator += '+';
    separator.append(value_width + 2, '-');
  }
  separator += "+\n";

  std::string out = absl::StrCat(ToString(layout), "\n", indent);
  out.reserve(out.size() + (m_size + 1) * separator.size() +
              m_size * (row_width + 4 + n_size * (value_width + 3)) +
              n_size * (value_width + 3));
  for (int64_t n = 0; n < n_size; ++n) {
    out += "  ";
    AppendPadded(&out, n, value_width);
    out += ' ';
  }
  out += "\n";
  for (int64_t m = 0; m < m_size; ++m) {
    out += separator;
    AppendPadded(&out, m, row_width);
    out += "  ";
    for (int64_t n = 0; n < n_size; ++n) {
      out += "| ";
      AppendPadded(&out, row_offsets[m] + col_offsets[n], value_width);
      out += ' ';
    }
    out += "|\n";
  }
  out += separator;
  return out;
}

}  // namespace hlolayout::cute
