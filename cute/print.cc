// cute/print.cc: text output of cute values.
#include "hlolayout/cute/print.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace hlolayout::cute {

std::string ToString(const IntTuple& t) {
  if (t.is_int()) return absl::StrCat(t.value());
  std::string out = "(";
  for (size_t i = 0; i < t.elements().size(); ++i) {
    if (i > 0) out += ",";
    out += ToString(t.elements()[i]);
  }
  out += ")";
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

namespace {

int Width(int64_t v) { return static_cast<int>(absl::StrCat(v).size()); }

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
  if (m_size > 1000000 / n_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("table of ", m_size, "x", n_size, " is too large"));
  }
  // Each mode is evaluated once per coordinate (not once per cell: a
  // 2233x223 table took seconds).
  std::vector<int64_t> row_offsets(m_size);
  for (int64_t m = 0; m < m_size; ++m) row_offsets[m] = rows(m);
  std::vector<int64_t> col_offsets(n_size, 0);
  if (has_cols) {
    const Layout cols = layout.mode(1);
    for (int64_t n = 0; n < n_size; ++n) col_offsets[n] = cols(n);
  }
  std::vector<int64_t> values(m_size * n_size);
  int value_width = Width(layout.cosize());
  for (int64_t m = 0; m < m_size; ++m) {
    for (int64_t n = 0; n < n_size; ++n) {
      const int64_t v = row_offsets[m] + col_offsets[n];
      values[m * n_size + n] = v;
      value_width = std::max(value_width, Width(v));
    }
  }
  value_width = std::max(value_width, Width(n_size - 1));
  const int row_width = std::max(2, Width(m_size - 1));
  const std::string indent(row_width + 2, ' ');
  std::string separator = indent;
  for (int64_t n = 0; n < n_size; ++n) {
    absl::StrAppend(&separator, "+", std::string(value_width + 2, '-'));
  }
  separator += "+\n";

  std::string out = absl::StrCat(ToString(layout), "\n", indent);
  for (int64_t n = 0; n < n_size; ++n) {
    absl::StrAppendFormat(&out, "  %*d ", value_width, n);
  }
  out += "\n";
  for (int64_t m = 0; m < m_size; ++m) {
    out += separator;
    absl::StrAppendFormat(&out, "%*d  ", row_width, m);
    for (int64_t n = 0; n < n_size; ++n) {
      absl::StrAppendFormat(&out, "| %*d ", value_width,
                            values[m * n_size + n]);
    }
    out += "|\n";
  }
  out += separator;
  return out;
}

}  // namespace hlolayout::cute
