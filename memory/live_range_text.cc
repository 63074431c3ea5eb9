// XLA's HloLiveRange dump text of an analysis (memory/live_range.h):
// XlaLiveRangeText, XlaStackTraceText and ShapeIndexString. The format is
// XLA's, described in docs/memory.md ("The peak").
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {

std::string ShapeIndexString(const std::vector<int64_t>& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}
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
  if (in.op_name.empty()) return in.name;
  std::string label(in.op_name);
  if (label.find('\\') != std::string::npos) {
    std::string unescaped;
    if (absl::CUnescape(label, &unescaped)) label = std::move(unescaped);
  }
  return label;
}

}  // namespace

std::string XlaStackTraceText(const MemoryAnalysis& a) {
  BreakdownNode root;  // the entry computation
  for (const ScheduledInstruction& in : a.instructions) {
    if (in.caller < 0) {
      root.label = std::string(in.computation);
      break;
    }
  }
  for (int64_t id : a.peak.values) {
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
      node = node->Child(TreeLabel(caller));
      const int64_t inner =
          it + 1 == callers.rend() ? v.instruction : *(it + 1);
      node = node->Child(std::string(a.instructions[inner].computation));
    }
    const ScheduledInstruction& def = a.instructions[v.instruction];
    std::string label = TreeLabel(def);
    if (!v.index.empty()) label += ShapeIndexString(v.index);
    node->Child(label)->current += v.bytes;
  }
  root.Sum();
  std::string out = absl::StrCat("  Stack trace breakdown for peak usage: ",
                                 GroupedNumber(root.total), " bytes\n");
  int64_t remaining = root.total;
  PrintBreakdown(root, "    ", "", root.total, &remaining, &out);
  return out;
}

std::string XlaLiveRangeText(const MemoryAnalysis& a) {
  std::string out = absl::StrCat("HloLiveRange (max ", a.schedule_end, "):\n",
                                 "  InstructionSequence:\n");
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    absl::StrAppend(&out, "    ", i, ":", a.instructions[i].name, "\n");
  }
  absl::StrAppend(&out, "  BufferLiveRange:\n");
  for (const LiveValue& v : a.values) {
    if (v.instruction < 0) continue;
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name,
                    ShapeIndexString(v.index), ":", v.start, "-", v.end, "\n");
  }
  absl::StrAppend(&out, "  Live ranges at ", a.peak.time, " (peak):\n");
  int64_t cumulative = 0;
  for (int64_t id : a.peak.values) {
    const LiveValue& v = a.values[id];
    cumulative += v.bytes;
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name,
                    ShapeIndexString(v.index), ": ", v.bytes,
                    " bytes (cumulative: ", cumulative, " bytes)\n");
  }
  absl::StrAppend(&out, XlaStackTraceText(a));
  return out;
}

}  // namespace hlolayout
