// XLA's HloLiveRange dump text of an analysis (memory/live_range.h):
// XlaLiveRangeText and XlaStackTraceText (views/live_range_text.h). The
// format is XLA's, described in docs/memory.md ("The peak").
#include "hlolayout/views/live_range_text.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {

namespace {

// 1594000 -> "1 594 000".
std::string GroupedNumber(int64_t n) {
  std::string digits = absl::StrCat(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

struct BreakdownNode {
  std::string label;
  int64_t current = 0, total = 0;
  std::vector<std::unique_ptr<BreakdownNode>> children;

  BreakdownNode* Child(const std::string& name) {
    for (auto& c : children) {
      if (c->label == name) return c.get();
    }
    children.push_back(std::make_unique<BreakdownNode>());
    children.back()->label = name;
    return children.back().get();
  }
  int64_t Sum() {
    total = current;
    for (auto& c : children) total += c->Sum();
    std::stable_sort(children.begin(), children.end(),
                     [](const std::unique_ptr<BreakdownNode>& x,
                        const std::unique_ptr<BreakdownNode>& y) {
                       if (x->total != y->total) return x->total > y->total;
                       return x->label < y->label;
                     });
    return total;
  }
};

void PrintBreakdown(const BreakdownNode& node, const std::string& prefix,
                    const std::string& branch, int64_t peak, int64_t* remaining,
                    std::string* out) {
  *remaining -= node.current;
  absl::StrAppend(
      out, prefix, branch, node.label, " (",
      absl::StrFormat("%.1f", peak == 0
                                  ? 0.0
                                  : 100.0 * static_cast<double>(node.total) /
                                        static_cast<double>(peak)),
      "%, total: ", GroupedNumber(node.total),
      " bytes, current: ", GroupedNumber(node.current),
      " bytes, remaining: ", GroupedNumber(*remaining), " bytes)\n");
  // The root's children start under it; deeper ones carry the bars of
  // their ancestors.
  const std::string next =
      branch.empty()
          ? prefix + "  "
          : prefix + (branch == "\u2514\u2500\u2500 " ? "    " : "\u2502   ");
  // XLA leaves out the nodes that hold no bytes (a 0-byte value such as
  // an empty tuple element); children are sorted by total, so they are
  // the last ones.
  size_t shown = node.children.size();
  while (shown > 0 && node.children[shown - 1]->total == 0) --shown;
  for (size_t i = 0; i < shown; ++i) {
    const bool last = i + 1 == shown;
    PrintBreakdown(*node.children[i], next,
                   last ? "\u2514\u2500\u2500 " : "\u251c\u2500\u2500 ", peak,
                   remaining, out);
  }
}

// The label of an instruction in the tree: its op_name as XLA holds it
// (the text writes it C-escaped: `opt[\'wd\']` is `opt['wd']`), else its
// name.
std::string TreeLabel(const ScheduledInstruction& in) {
  const absl::string_view op_name = in.op_name();
  if (op_name.empty()) return std::string(in.name());
  std::string label(op_name);
  if (label.find('\\') != std::string::npos) {
    std::string unescaped;
    if (absl::CUnescape(label, &unescaped)) label = std::move(unescaped);
  }
  return label;
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// XLA splits a label that reads as a path into parameters, `name['k1/k2']`
// followed by more `['key']` and `.attribute` parts, into one tree level
// per part: the name, each key's '/'-separated pieces, each attribute
// (`p['fc']` is p > fc, `opt['mu']['w'].x` is opt > mu > w > x). A label
// with anything else (`p[0]['w']`: an index that is not a quoted key),
// or without a quoted key, is one level as it is.
std::vector<std::string> SplitParamsPath(const std::string& label) {
  const std::vector<std::string> whole = {label};
  size_t i = 0;
  if (label.empty() || !IsWordChar(label[0]) ||
      (label[0] >= '0' && label[0] <= '9')) {
    return whole;
  }
  while (i < label.size() && IsWordChar(label[i])) ++i;
  std::vector<std::string> parts = {label.substr(0, i)};
  bool has_key = false;
  while (i < label.size()) {
    if (label.compare(i, 2, "['") == 0) {
      const size_t close = label.find('\'', i + 2);
      if (close == std::string::npos || close == i + 2 ||
          close + 1 >= label.size() || label[close + 1] != ']') {
        return whole;
      }
      for (absl::string_view piece : absl::StrSplit(
               absl::string_view(label).substr(i + 2, close - i - 2), '/')) {
        parts.emplace_back(piece);
      }
      has_key = true;
      i = close + 2;
    } else if (label[i] == '.' && i + 1 < label.size() &&
               IsWordChar(label[i + 1])) {
      size_t end = i + 1;
      while (end < label.size() && IsWordChar(label[end])) ++end;
      parts.push_back(label.substr(i + 1, end - i - 1));
      i = end;
    } else {
      return whole;
    }
  }
  return has_key ? parts : whole;
}

// The tree node of `label` under `node`: one level per part of the label
// (SplitParamsPath), `suffix` on the last.
BreakdownNode* PathChild(BreakdownNode* node, const std::string& label,
                         const std::string& suffix = "") {
  std::vector<std::string> parts = SplitParamsPath(label);
  parts.back() += suffix;
  for (const std::string& part : parts) node = node->Child(part);
  return node;
}

int64_t SizeOf(const LiveValue& v, LiveRangeSizes sizes) {
  return sizes == LiveRangeSizes::kLogical ? v.logical_bytes() : v.bytes();
}

std::string StackTraceText(const MemoryAnalysis& a, const MemoryPeak& peak,
                           LiveRangeSizes sizes) {
  BreakdownNode root;  // the entry computation
  for (const ScheduledInstruction& in : a.instructions) {
    if (in.caller < 0) {
      root.label = std::string(in.computation());
      break;
    }
  }
  for (int64_t id : peak.values) {
    const LiveValue& v = a.values[id];
    // The path of callers, outermost first.
    std::vector<int64_t> callers;
    for (int64_t t = a.instructions[v.instruction].caller;
         t >= 0 && callers.size() < a.instructions.size();
         t = a.instructions[t].caller) {
      callers.push_back(t);
    }
    BreakdownNode* node = &root;
    for (auto it = callers.rbegin(); it != callers.rend(); ++it) {
      const ScheduledInstruction& caller = a.instructions[*it];
      node = PathChild(node, TreeLabel(caller));
      const int64_t inner =
          it + 1 == callers.rend() ? v.instruction : *(it + 1);
      node = node->Child(std::string(a.instructions[inner].computation()));
    }
    const ScheduledInstruction& def = a.instructions[v.instruction];
    PathChild(node, TreeLabel(def),
              v.index().empty() ? "" : ShapeIndexString(v.index()))
        ->current += SizeOf(v, sizes);
  }
  root.Sum();
  std::string out = absl::StrCat("  Stack trace breakdown for peak usage: ",
                                 GroupedNumber(root.total), " bytes\n");
  int64_t remaining = root.total;
  PrintBreakdown(root, "    ", "", root.total, &remaining, &out);
  return out;
}

}  // namespace

std::string XlaStackTraceText(const MemoryAnalysis& a) {
  return StackTraceText(a, a.peak, LiveRangeSizes::kAllocated);
}

std::string XlaLiveRangeText(const MemoryAnalysis& a) {
  return XlaLiveRangeText(a, {});
}

std::string XlaLiveRangeText(const MemoryAnalysis& a,
                             absl::Span<const int64_t> value_order,
                             LiveRangeSizes sizes) {
  std::string out = absl::StrCat("HloLiveRange (max ", a.schedule_end, "):\n",
                                 "  InstructionSequence:\n");
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    absl::StrAppend(&out, "    ", i, ":", a.instructions[i].name(), "\n");
  }
  absl::StrAppend(&out, "  BufferLiveRange:\n");
  // The values in `value_order` first (each once, valid indices only),
  // then the rest in the analysis' order.
  std::vector<int64_t> order;
  order.reserve(a.values.size());
  std::vector<bool> listed(a.values.size(), false);
  for (int64_t v : value_order) {
    if (v < 0 || static_cast<size_t>(v) >= a.values.size() || listed[v]) {
      continue;
    }
    listed[v] = true;
    order.push_back(v);
  }
  for (size_t v = 0; v < a.values.size(); ++v) {
    if (!listed[v]) order.push_back(static_cast<int64_t>(v));
  }
  for (int64_t id : order) {
    const LiveValue& v = a.values[id];
    if (v.instruction < 0) continue;
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name(),
                    ShapeIndexString(v.index()), ":", v.start, "-", v.end,
                    "\n");
  }
  const MemoryPeak logical =
      sizes == LiveRangeSizes::kLogical ? LogicalPeak(a) : MemoryPeak();
  const MemoryPeak& peak = sizes == LiveRangeSizes::kLogical ? logical : a.peak;
  absl::StrAppend(&out, "  Live ranges at ", peak.time, " (peak):\n");
  int64_t cumulative = 0;
  for (int64_t id : peak.values) {
    const LiveValue& v = a.values[id];
    cumulative += SizeOf(v, sizes);
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name(),
                    ShapeIndexString(v.index()), ": ", SizeOf(v, sizes),
                    " bytes (cumulative: ", cumulative, " bytes)\n");
  }
  absl::StrAppend(&out, StackTraceText(a, peak, sizes));
  return out;
}

}  // namespace hlolayout
