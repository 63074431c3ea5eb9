// The padding wasters of the full report: buffers (values that share one
// place, memory/dataflow.h) ranked by their padding, each once, with the
// other values they hold and their other names (BufferWasters); or, when
// the memory analysis refused the module, the values it defines each on
// its own (ValueWasters).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/dataflow.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/report/report_internal.h"

namespace hlolayout {

std::string PaddingWaster::BufferName() const {
  return index.empty() ? name : absl::StrCat(name, ShapeIndexString(index));
}

namespace report_internal {
namespace {

// Logical and padded bytes of an array shape (zero when it cannot be
// sized: such a value is not ranked).
ByteCounts ArrayBytes(const Shape& shape) {
  ByteCounts bytes;
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (sizes.ok()) {
    bytes.logical_bytes = sizes->logical_bytes;
    bytes.padded_bytes = sizes->padded_bytes;
  }
  return bytes;
}

// A candidate before it is kept: the key and where it comes from.
struct Candidate {
  int64_t wasted = 0;
  int64_t order = 0;  // row of the defining instruction
  int64_t key = 0;    // buffer root (BufferWasters), leaf (ValueWasters)
};

bool MoreWasteful(const Candidate& a, const Candidate& b) {
  if (a.wasted != b.wasted) return a.wasted > b.wasted;
  if (a.order != b.order) return a.order < b.order;
  return a.key < b.key;
}

// Keeps the `top` most wasteful of `candidates`, most first.
void KeepTop(int64_t top, std::vector<Candidate>* candidates) {
  const size_t keep =
      std::min<size_t>(candidates->size(), static_cast<size_t>(top));
  std::partial_sort(candidates->begin(), candidates->begin() + keep,
                    candidates->end(), MoreWasteful);
  candidates->resize(keep);
}

const HloInstruction* InstructionAt(const HloModule& module, int64_t order) {
  for (const HloComputation& c : module.computations) {
    if (order < static_cast<int64_t>(c.instructions.size())) {
      return &c.instructions[order];
    }
    order -= static_cast<int64_t>(c.instructions.size());
  }
  return nullptr;
}

// The waster's fields that do not depend on how it was found.
PaddingWaster MakeWaster(absl::string_view computation, absl::string_view name,
                         std::vector<int64_t> index, int64_t order,
                         const Shape& shape,
                         absl::string_view whole_shape_text) {
  PaddingWaster w;
  w.order = order;
  w.computation = std::string(computation);
  w.name = std::string(name);
  w.index = std::move(index);
  w.shape = shape;
  w.shape_text = w.index.empty() && !whole_shape_text.empty()
                     ? std::string(whole_shape_text)
                     : shape.ToString(/*print_layout=*/true);
  w.memory_space = shape.has_layout() ? shape.layout().memory_space() : 0;
  w.bytes = ArrayBytes(shape);
  AppendReasons(shape, "", false, &w.reasons);
  return w;
}

}  // namespace

std::vector<PaddingWaster> BufferWasters(const HloModule& module,
                                         const MemoryAnalysis& analysis,
                                         int64_t top) {
  std::vector<PaddingWaster> out;
  if (top <= 0 || analysis.dataflow == nullptr) return out;
  const MemoryDataflow& d = *analysis.dataflow;
  const int64_t n = static_cast<int64_t>(analysis.values.size());
  // Per buffer (its root): the value that names it, the array value (not a
  // phi) defined first in the flattened schedule (a loop's initial value,
  // not its body's result), and its padding. The values of one buffer have
  // one shape (a loop's state, a branch result, an in-place update and its
  // operand).
  struct Buffer {
    int64_t first = -1;
    int64_t wasted = 0;
  };
  absl::flat_hash_map<int64_t, Buffer> buffers;
  auto array_shape = [&](int64_t v) -> const Shape* {
    const LiveValue& value = analysis.values[v];
    if (value.is_phi || value.shape() == nullptr || !value.shape()->IsArray()) {
      return nullptr;
    }
    return value.shape();
  };
  for (int64_t v = 0; v < n; ++v) {
    const Shape* shape = array_shape(v);
    if (shape == nullptr) continue;
    Buffer& b = buffers[d.value_buffer[v]];
    if (b.first >= 0 &&
        analysis.values[b.first].start <= analysis.values[v].start) {
      continue;
    }
    b.first = v;
    b.wasted = ArrayBytes(*shape).wasted_bytes();
  }
  std::vector<Candidate> candidates;
  for (const auto& [root, b] : buffers) {
    if (b.wasted <= 0) continue;
    const DataflowNode& node = d.nodes[d.value_node[b.first]];
    candidates.push_back({b.wasted, node.instruction, root});
  }
  KeepTop(top, &candidates);
  // The kept buffers' names: every position of the text's instructions
  // whose value is in the buffer, in text order.
  absl::flat_hash_map<int64_t, size_t> kept;  // root -> index in out
  for (const Candidate& c : candidates) {
    const Buffer& b = buffers[c.key];
    const DataflowNode& node = d.nodes[d.value_node[b.first]];
    const absl::Span<const int64_t> index = d.Index(d.value_position[b.first]);
    const Shape* shape = array_shape(b.first);
    kept[c.key] = out.size();
    out.push_back(MakeWaster(
        module.computations[node.computation].header.name, node.name,
        std::vector<int64_t>(index.begin(), index.end()), node.instruction,
        *shape, node.source != nullptr ? node.source->shape_text() : ""));
  }
  std::vector<std::vector<std::pair<int64_t, int64_t>>> names(out.size());
  for (int64_t p = 0; p < static_cast<int64_t>(d.positions.size()); ++p) {
    const DataflowPosition& pos = d.positions[p];
    if (pos.value < 0 || pos.shape == nullptr || !pos.shape->IsArray()) {
      continue;
    }
    auto it = kept.find(d.value_buffer[pos.value]);
    if (it == kept.end()) continue;
    const DataflowNode& node = d.nodes[pos.node];
    if (node.source == nullptr) continue;  // a restored `%name#N`
    names[it->second].emplace_back(node.instruction, p);
  }
  for (size_t k = 0; k < out.size(); ++k) {
    PaddingWaster& w = out[k];
    std::sort(names[k].begin(), names[k].end());
    for (const auto& [order, p] : names[k]) {
      const DataflowPosition& pos = d.positions[p];
      const DataflowNode& node = d.nodes[pos.node];
      const absl::Span<const int64_t> index = d.Index(p);
      const std::vector<int64_t> at(index.begin(), index.end());
      if (order == w.order && at == w.index) continue;  // the waster itself
      const std::string name =
          at.empty() ? std::string(node.name)
                     : absl::StrCat(node.name, ShapeIndexString(at));
      const bool defines = pos.source == PositionSource::kDefined &&
                           d.value_position[pos.value] == p &&
                           !analysis.values[pos.value].is_phi;
      (defines ? w.also_defined_by : w.aliases).push_back(name);
    }
  }
  return out;
}

std::vector<PaddingWaster> ValueWasters(const HloModule& module,
                                        const ModuleReport& module_report,
                                        int64_t top) {
  // Every array leaf a row defines: (row, leaf index path).
  struct Leaf {
    int64_t row;
    std::vector<int64_t> index;
    const Shape* shape;
  };
  std::vector<Leaf> leaves;
  std::vector<Candidate> candidates;
  const std::vector<ReportRow>& rows = module_report.rows;
  int64_t order = 0;
  for (const HloComputation& c : module.computations) {
    for (const HloInstruction& in : c.instructions) {
      const int64_t row = order++;
      if (row >= static_cast<int64_t>(rows.size()) || in.shape == nullptr) {
        continue;
      }
      const BufferRole role = rows[row].buffer;
      if (role != BufferRole::kNew && role != BufferRole::kPartial) continue;
      const ValueRule rule = ValueRuleOf(in.opcode);
      std::vector<int64_t> index;
      // Depth-first over the leaves.
      std::function<void(const Shape&)> walk = [&](const Shape& s) {
        if (s.IsTuple()) {
          for (int64_t i = 0; i < s.tuple_size(); ++i) {
            index.push_back(i);
            walk(s.tuple_shape(i));
            index.pop_back();
          }
          return;
        }
        if (!s.IsArray()) return;
        if (role == BufferRole::kPartial &&
            !DefinesValueAt(rule, index, false, true)) {
          return;
        }
        const int64_t wasted = ArrayBytes(s).wasted_bytes();
        if (wasted <= 0) return;
        candidates.push_back(
            {wasted, row, static_cast<int64_t>(leaves.size())});
        leaves.push_back({row, index, &s});
      };
      walk(*in.shape);
    }
  }
  KeepTop(top, &candidates);
  std::vector<PaddingWaster> out;
  for (const Candidate& c : candidates) {
    const Leaf& leaf = leaves[c.key];
    const ReportRow& row = rows[leaf.row];
    const HloInstruction* in = InstructionAt(module, leaf.row);
    out.push_back(MakeWaster(row.computation, row.name, leaf.index, row.order,
                             *leaf.shape,
                             in != nullptr ? in->shape_text() : ""));
  }
  return out;
}

}  // namespace report_internal
}  // namespace hlolayout
