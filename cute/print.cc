// cute/print.cc: text output of cute values.
#include "hlolayout/cute/print.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace hlolayout::cute {

namespace {

void AppendUnknown(std::string* out, Int v) {
  out->push_back('?');
  if (!v.wide && v.div == 1) return;
  out->push_back('{');
  if (v.wide) out->append(v.div == 1 ? "i64" : "i64 ");
  if (v.div != 1) absl::StrAppend(out, "div=", v.div);
  out->push_back('}');
}

// `dsl`: the CuTe DSL's notation (a static integer bare), else CuTe's.
void AppendIntTuple(std::string* out, const IntTuple& t, bool dsl) {
  if (t.is_int()) {
    const Int v = t.integer();
    if (v.unknown) {
      AppendUnknown(out, v);
      return;
    }
    if (v.is_static && !dsl) out->push_back('_');
    absl::StrAppend(out, v.value);
    return;
  }
  out->push_back('(');
  for (size_t i = 0; i < t.elements().size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendIntTuple(out, t.elements()[i], dsl);
  }
  out->push_back(')');
}

}  // namespace

std::string ToString(const IntTuple& t) {
  std::string out;
  AppendIntTuple(&out, t, false);
  return out;
}

std::string ToString(const Layout& layout) {
  return absl::StrCat(ToString(layout.shape()), ":", ToString(layout.stride()));
}

std::string DslText(Int v) { return DslText(IntTuple(v)); }

std::string DslText(const IntTuple& t) {
  std::string out;
  AppendIntTuple(&out, t, true);
  return out;
}

std::string DslText(const Layout& layout) {
  return absl::StrCat(DslText(layout.shape()), ":", DslText(layout.stride()));
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

namespace {

// The grid of print_layout for values cell(m, n), header `title`.
std::string Grid(const std::string& title, int64_t m_size, int64_t n_size,
                 int64_t cosize,
                 const std::function<int64_t(int64_t, int64_t)>& cell) {
  std::vector<int64_t> values(m_size * n_size);
  int64_t lo = 0, hi = 0;
  for (int64_t m = 0; m < m_size; ++m) {
    for (int64_t n = 0; n < n_size; ++n) {
      const int64_t v = cell(m, n);
      values[m * n_size + n] = v;
      if (m == 0 && n == 0) lo = hi = v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  const int value_width =
      std::max({Width(cosize), Width(lo), Width(hi), Width(n_size - 1)});
  const int row_width = std::max(2, Width(m_size - 1));
  const std::string indent(row_width + 2, ' ');
  std::string separator = indent;
  for (int64_t n = 0; n < n_size; ++n) {
    separator += '+';
    separator.append(value_width + 2, '-');
  }
  separator += "+\n";

  std::string out = absl::StrCat(title, "\n", indent);
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
      AppendPadded(&out, values[m * n_size + n], value_width);
      out += ' ';
    }
    out += "|\n";
  }
  out += separator;
  return out;
}

absl::Status CheckTableShape(int rank, int64_t m_size, int64_t n_size) {
  if (rank < 1 || rank > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("table needs a layout of rank 1 or 2, found rank ", rank));
  }
  if (m_size > kMaxTableCells / n_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("table of ", m_size, "x", n_size,
                     " is too large (more than ", kMaxTableCells, " cells)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> PrintTable(const Layout& layout) {
  if (layout.rank() < 1 || layout.rank() > 2) {
    return CheckTableShape(layout.rank(), 1, 1);
  }
  const Layout rows = layout.mode(0);
  const bool has_cols = layout.rank() == 2;
  const int64_t m_size = rows.size();
  const int64_t n_size = has_cols ? layout.mode(1).size() : 1;
  absl::Status ok = CheckTableShape(layout.rank(), m_size, n_size);
  if (!ok.ok()) return ok;
  // Each mode is evaluated once per coordinate (not once per cell: a
  // 2233x223 table took seconds), and a cell is layout(m) + layout(n).
  std::vector<int64_t> row_offsets(m_size);
  for (int64_t m = 0; m < m_size; ++m) row_offsets[m] = rows(m);
  std::vector<int64_t> col_offsets(n_size, 0);
  if (has_cols) {
    const Layout cols = layout.mode(1);
    for (int64_t n = 0; n < n_size; ++n) col_offsets[n] = cols(n);
  }
  return Grid(
      ToString(layout), m_size, n_size, layout.cosize(),
      [&](int64_t m, int64_t n) { return row_offsets[m] + col_offsets[n]; });
}

absl::StatusOr<std::string> PrintTable(const AnyLayout& layout) {
  if (layout.is_layout()) return PrintTable(layout.layout());
  const IntTuple shape = layout.shape();
  const int rank = Rank(shape);
  if (rank < 1 || rank > 2) return CheckTableShape(rank, 1, 1);
  absl::StatusOr<int64_t> m_size = Size(shape[0]);
  absl::StatusOr<int64_t> n_size = rank == 2 ? Size(shape[1]) : 1;
  if (!m_size.ok() || !n_size.ok()) {
    return absl::InvalidArgumentError("table: the layout's size overflows");
  }
  absl::Status ok = CheckTableShape(rank, *m_size, *n_size);
  if (!ok.ok()) return ok;
  absl::Status failed;
  const std::string text =
      Grid(ToString(layout), *m_size, *n_size, layout.cosize(),
           [&](int64_t m, int64_t n) -> int64_t {
             absl::StatusOr<int64_t> v =
                 rank == 2 ? layout.Evaluate(IntTuple::Tuple({m, n}))
                           : layout.TryEvaluate(m);
             if (!v.ok()) {
               if (failed.ok()) failed = v.status();
               return 0;
             }
             return *v;
           });
  if (!failed.ok()) return failed;
  return text;
}

}  // namespace hlolayout::cute
