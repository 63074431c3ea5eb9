#include "hlolayout/triton/views.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::triton {
namespace {

int Digits(int64_t v) { return static_cast<int>(std::to_string(v).size()); }

// Spaces that make `value` as wide as `max` (none when it is wider).
void Pad(std::string& s, int64_t value, int64_t max) {
  const int n = Digits(max) - Digits(value);
  if (n > 0) s.append(n, ' ');
}

std::string Padded(int64_t value, int64_t max) {
  std::string s;
  Pad(s, value, max);
  absl::StrAppend(&s, value);
  return s;
}

// Lays `cells` (one per element, row-major over `shape`) out as nested
// bracketed rows, as Triton's layout printers do.
std::string TensorShaped(const std::vector<std::string>& cells,
                         const std::vector<int64_t>& shape,
                         absl::string_view separator) {
  const int rank = static_cast<int>(shape.size());
  std::string out;
  std::vector<int64_t> index(rank, 0);  // the index of element i
  bool new_line = true;
  for (size_t i = 0; i < cells.size(); ++i) {
    int open = 0;
    for (int j = rank - 1; j >= 0 && index[j] == 0; --j) {
      out += "[";
      ++open;
    }
    if (new_line) {
      out.append(rank - open, ' ');
      new_line = false;
    }
    out += cells[i];
    // Advance to element i + 1 (wrapping to all zeros after the last).
    int carry = rank - 1;
    while (carry >= 0) {
      if (++index[carry] < shape[carry]) break;
      index[carry] = 0;
      --carry;
    }
    for (int j = rank - 1; j >= 0 && index[j] == 0; --j) out += "]";
    if (index[rank - 1] == 0) {
      out += "\n";
      new_line = true;
    } else {
      absl::StrAppend(&out, separator);
    }
  }
  return out;
}

absl::Status TooLarge() {
  return absl::InvalidArgumentError(absl::StrCat(
      "layout too large to print: more than 2^", kMaxViewBits, " elements"));
}

}  // namespace

absl::StatusOr<std::string> DistributedView(const LinearLayout& l,
                                            bool hardware) {
  const int reg = l.InDimIndex("register"), lane = l.InDimIndex("lane"),
            warp = l.InDimIndex("warp"), block = l.InDimIndex("block");
  if (reg < 0 || lane < 0 || warp < 0 || block < 0 || l.num_in_dims() != 4) {
    return absl::InvalidArgumentError(
        "a distributed view needs exactly the in-dims register, lane, warp "
        "and block");
  }
  if (l.num_out_dims() == 0) {
    return absl::InvalidArgumentError("a view needs at least one out-dim");
  }
  if (l.TotalInDimSizeLog2() > kMaxViewBits ||
      l.TotalOutDimSizeLog2() > kMaxViewBits) {
    return TooLarge();
  }
  const int64_t tensor_size = l.TotalOutDimSize();
  std::vector<int64_t> shape;
  for (const auto& od : l.out_dims()) shape.push_back(od.second);
  const int64_t threads = l.InDimSize(lane), warps = l.InDimSize(warp),
                blocks = l.InDimSize(block), regs = l.InDimSize(reg);
  const int num_out = l.num_out_dims();
  std::vector<std::string> elements(tensor_size);
  std::vector<std::string> threads_view;
  if (hardware) threads_view.reserve(blocks * warps * threads * regs);
  std::vector<int32_t> ins(4), outs(num_out);
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t w = 0; w < warps; ++w) {
      for (int64_t t = 0; t < threads; ++t) {
        for (int64_t r = 0; r < regs; ++r) {
          ins[block] = static_cast<int32_t>(b);
          ins[warp] = static_cast<int32_t>(w);
          ins[lane] = static_cast<int32_t>(t);
          ins[reg] = static_cast<int32_t>(r);
          l.ApplyIndexed(ins, absl::MakeSpan(outs));
          int64_t linear = 0, stride = 1;
          for (int i = num_out - 1; i >= 0; --i) {
            linear += outs[i] * stride;
            stride *= shape[i];
          }
          if (hardware) {
            std::string info = "(";
            for (int i = 0; i < num_out; ++i) {
              if (i > 0) info += ",";
              info += Padded(outs[i], shape[i]);
            }
            info += ")";
            threads_view.push_back(std::move(info));
            continue;
          }
          std::string& value = elements[linear];
          if (!value.empty()) value += "|";
          const int64_t thread = t + w * threads;
          const int padding = (Digits(blocks) - Digits(b)) +
                              (Digits(warps * threads) - Digits(thread)) +
                              (Digits(regs) - Digits(r));
          if (padding > 0) value.append(padding, ' ');
          if (blocks > 1) absl::StrAppend(&value, "B", b, ":");
          absl::StrAppend(&value, "T", thread, ":", r);
        }
      }
    }
  }
  if (!hardware) return TensorShaped(elements, shape, ", ");
  std::string out;
  for (int64_t b = 0; b < blocks; ++b) {
    if (blocks > 1) absl::StrAppend(&out, "Block", b, ":\n");
    for (int64_t w = 0; w < warps; ++w) {
      absl::StrAppend(&out, "Warp", w, ":\n");
      for (int64_t r = 0; r < regs; ++r) {
        for (int64_t t = 0; t < threads; ++t) {
          out += threads_view[((b * warps + w) * threads + t) * regs + r];
          if (t < threads - 1) out += ", ";
        }
        out += "\n";
      }
    }
  }
  return out;
}

absl::StatusOr<std::string> SharedView(const LinearLayout& l, bool hardware) {
  const int offset = l.InDimIndex("offset"), block = l.InDimIndex("block");
  if (offset < 0 || block < 0 || l.num_in_dims() != 2) {
    return absl::InvalidArgumentError(
        "a shared view needs exactly the in-dims offset and block");
  }
  if (l.num_out_dims() == 0) {
    return absl::InvalidArgumentError("a view needs at least one out-dim");
  }
  if (l.TotalInDimSizeLog2() > kMaxViewBits ||
      l.TotalOutDimSizeLog2() > kMaxViewBits) {
    return TooLarge();
  }
  const int64_t tensor_size = l.TotalOutDimSize();
  std::vector<int64_t> shape;
  for (const auto& od : l.out_dims()) shape.push_back(od.second);
  const int64_t blocks = l.InDimSize(block);
  const int64_t block_size = tensor_size / blocks;
  const int num_out = l.num_out_dims();
  std::vector<std::string> elements(tensor_size);
  std::vector<std::string> offsets;
  std::vector<int32_t> ins(2), outs(num_out);
  int64_t idx = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t o = 0; o < block_size; ++o, ++idx) {
      ins[block] = static_cast<int32_t>(b);
      ins[offset] = static_cast<int32_t>(o);
      l.ApplyIndexed(ins, absl::MakeSpan(outs));
      std::string info = "(";
      std::string& value = elements[idx];
      if (!value.empty()) value += "|";
      value += "(";
      for (int i = 0; i < num_out; ++i) {
        if (i > 0) {
          info += ",";
          value += ":";
        }
        const std::string s = Padded(outs[i], shape[i]);
        info += s;
        value += s;
      }
      value += ")";
      info += ")";
      offsets.push_back(std::move(info));
    }
  }
  if (!hardware) return TensorShaped(elements, shape, ",");
  std::string out;
  idx = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    absl::StrAppend(&out, "Block: ", b, ":\n");
    for (int64_t o = 0; o < block_size; ++o, ++idx) {
      absl::StrAppend(&out, "Offset: ", o, " -> ", offsets[idx], "\n");
    }
  }
  return out;
}

std::vector<std::vector<int>> MatrixView(const LinearLayout& l) {
  const std::vector<uint64_t> m = l.Matrix();
  const int cols = l.TotalInDimSizeLog2();
  std::vector<std::vector<int>> rows;
  rows.reserve(m.size());
  for (uint64_t r : m) {
    std::vector<int> row(cols);
    for (int c = 0; c < cols; ++c) row[c] = static_cast<int>((r >> c) & 1);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace hlolayout::triton
