// memory/phi_graph.h: XLA's phi graph optimization, as its
// HloDataflowAnalysis runs it (docs/memory.md, "Values").
//
// Where a `while` merges its initial value and its body's result, or a
// `conditional` merges its branches' results, SSA form makes a phi value:
//
//   %w = (s32[], f32[8]{0}) while(%init), condition=%c, body=%b
//     w{1} = phi(init{1}, body root{1})
//
// Nodes are values (not phis) and phis; a phi whose inputs, followed
// through other phis, reach a single value is replaced by that value.
// Preconditions: operands name nodes of the graph.
#ifndef HLOLAYOUT_MEMORY_PHI_GRAPH_H_
#define HLOLAYOUT_MEMORY_PHI_GRAPH_H_

#include <cstdint>
#include <vector>

namespace hlolayout {

struct PhiGraph {
  static constexpr int64_t kNone = -1;
  struct PNode {
    bool is_phi = false;
    bool dead = false;
    std::vector<int64_t> operands, users;
    int64_t replaced_by = kNone;
  };
  std::vector<PNode> nodes;

  // The node that replaced `n` (itself if none did).
  int64_t Find(int64_t n) const {
    while (nodes[n].replaced_by != kNone) n = nodes[n].replaced_by;
    return n;
  }
  // Replaces `node` by `with` in every user and operand list.
  void Replace(int64_t node, int64_t with);
  // Fills the users from the operands, then replaces every phi whose
  // inputs reach one value, until nothing changes.
  void Optimize();
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_PHI_GRAPH_H_
