// memory/dataflow.h: the dataflow behind a MemoryAnalysis
// (memory/live_range.h), kept when MemoryAnalysisOptions::keep_dataflow is
// set. It lists every instruction of the module's scheduled computations
// (the entry and the computations it runs through while, call, conditional
// and async ops; not fusion bodies or reducers), the value at each position
// of each result, where a position's value comes from, and which values
// share one buffer. memory/buffer_assignment.h builds XLA's buffer
// assignment on it.
//
//   MemoryAnalysisOptions options;
//   options.keep_dataflow = true;
//   absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory(module, options);
//   const MemoryDataflow& d = *a->dataflow;
//   for (const DataflowNode& n : d.nodes) ...  // n.time: schedule time
//
// Node ids, position ids and value ids index the vectors below; a value id
// is the index of MemoryAnalysis::values. All pointers and string views
// point into the module (and its text) the analysis was made from.
#ifndef HLOLAYOUT_MEMORY_DATAFLOW_H_
#define HLOLAYOUT_MEMORY_DATAFLOW_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// An instruction of a scheduled computation, or a get-tuple-element that
// the text folded into an operand `%name#N` and the analysis put back.
// Node, position, value and computation ids are 32-bit: the analysis
// numbers at most INT32_MAX positions (memory/live_range.h), and there are
// no more nodes, values or times than positions.
struct DataflowNode {
  // A restored get-tuple-element's name is its producer's; it prints as
  // "name#N" with N = gte_index.
  absl::string_view name;
  const HloInstruction* source = nullptr;  // null for a restored one
  const Shape* shape = nullptr;
  int32_t gte_index = -1;
  int32_t computation = 0;  // index into HloModule::computations
  int32_t time = -1;        // in the flattened schedule; -1: never runs
  // Positions first_position .. first_position + positions - 1: the
  // subshapes of the result in pre-order ({}, {0}, {0,0}, ..., {1}, ...).
  int32_t first_position = 0, positions = 0;
  // Operand node ids: MemoryDataflow::operands[operands_begin ...].
  int64_t operands_begin = 0;
  int32_t operands_size = 0;
  // A while's body and condition (computation indices), -1 otherwise.
  int32_t body = -1, condition = -1;
  // The instruction's index over the module (all computations' text
  // instructions in order; -1 for a restored get-tuple-element), which
  // MemoryDataflow::Callees takes.
  int32_t instruction = -1;
  HloOpcode opcode = HloOpcode::kUnknown;  // kGetTupleElement when restored
  bool control_predecessors = false;       // has a control-predecessors={...}
};

enum class PositionSource : uint8_t {
  kDefined,  // the node defines a value here
  kForward,  // the value of position `target` (an operand's, a callee's...)
  kPhi,      // merges `inputs` positions: phi_inputs[target ...]
};

struct DataflowPosition {
  const Shape* shape = nullptr;  // the subshape
  // Its shape index: MemoryDataflow::index_data[index_begin ...].
  int64_t index_begin = 0;
  int32_t index_size = 0;
  int32_t node = 0;
  int32_t value = -1;  // the value here after phi resolution
  int32_t target = -1;
  int32_t inputs = 0;
  PositionSource source = PositionSource::kDefined;
};

struct DataflowComputation {
  const HloComputation* source = nullptr;
  bool scheduled = false;     // has nodes (not a fusion body or reducer)
  bool control_flow = false;  // run by while/call/conditional/async ops
  // Its nodes are first_node .. first_node + nodes - 1: the text's
  // instructions in text order, then the restored get-tuple-elements.
  int64_t first_node = 0, nodes = 0, text_nodes = 0;
  int64_t root = -1;                       // node id
  std::vector<int64_t> parameters;         // node id by parameter number, or -1
  std::vector<int64_t> callsites;          // control-flow callers (node ids)
  int64_t span_start = -1, span_end = -1;  // in the flattened schedule
};

struct MemoryDataflow {
  std::vector<DataflowNode> nodes;
  std::vector<int64_t> operands;
  std::vector<DataflowPosition> positions;
  std::vector<int64_t> phi_inputs;  // position ids
  std::vector<int64_t> index_data;  // shape indices of the positions
  // One per module computation, by HloModule::computations index.
  std::vector<DataflowComputation> computations;
  // Per value (MemoryAnalysis::values index): the defining node and
  // position, and the buffer it shares with other values (the smallest
  // value id of the buffer; a value alone is its own buffer).
  std::vector<int64_t> value_node, value_position, value_buffer;
  // The computations every instruction of the module calls, in attribute
  // order (fusion bodies and reducers included): instruction i (counting
  // the text's instructions over all computations, computation_first[c]
  // being computation c's first) calls callees[callee_begin[i] ...
  // callee_begin[i + 1] - 1].
  std::vector<int64_t> computation_first, callee_begin, callees;

  absl::Span<const int64_t> Callees(int64_t instruction) const {
    return absl::MakeConstSpan(
        callees.data() + callee_begin[instruction],
        callee_begin[instruction + 1] - callee_begin[instruction]);
  }

  absl::Span<const int64_t> Index(int64_t position) const {
    const DataflowPosition& p = positions[position];
    return absl::MakeConstSpan(index_data.data() + p.index_begin, p.index_size);
  }
  absl::Span<const int64_t> Operands(const DataflowNode& node) const {
    return absl::MakeConstSpan(operands.data() + node.operands_begin,
                               node.operands_size);
  }
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_DATAFLOW_H_
