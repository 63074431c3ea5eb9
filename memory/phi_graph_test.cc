// PhiGraph against a plain copy of XLA's HloPhiGraph::Optimize (lists as
// vectors, every replacement a std::replace over whole lists): the same dead
// nodes, the same replacements and the same operand lists, on random graphs
// with and without values that feed hundreds of phis (the case the index of
// long user lists is for).
#include "hlolayout/memory/phi_graph.h"

#include <algorithm>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// XLA's algorithm, written plainly (docs/memory.md, "Values").
class ReferencePhiGraph {
 public:
  int64_t AddNode(bool is_phi) {
    nodes_.push_back({is_phi, false, -1, {}, {}});
    return static_cast<int64_t>(nodes_.size()) - 1;
  }
  void SetOperands(int64_t node, const std::vector<int64_t>& operands) {
    nodes_[node].operands = operands;
  }
  // Random graphs can make the algorithm replace a node by itself through
  // a dead operand, after which Find would not end; such graphs are not
  // compared (HasReplacementCycle).
  int64_t Find(int64_t n) const {
    for (size_t steps = 0; nodes_[n].replaced_by != -1; ++steps) {
      if (steps > nodes_.size()) {
        cycle_ = true;
        return n;
      }
      n = nodes_[n].replaced_by;
    }
    return n;
  }
  bool HasReplacementCycle() const {
    for (size_t i = 0; i < nodes_.size(); ++i) Find(static_cast<int64_t>(i));
    return cycle_;
  }
  bool dead(int64_t n) const { return nodes_[n].dead; }
  const std::vector<int64_t>& operands(int64_t n) const {
    return nodes_[n].operands;
  }

  void Replace(int64_t node, int64_t with) {
    if (nodes_[node].dead) return;
    with = Find(with);
    for (int64_t user : nodes_[node].users) {
      auto& ops = nodes_[user].operands;
      std::replace(ops.begin(), ops.end(), node, with);
    }
    for (int64_t op : nodes_[node].operands) {
      auto& us = nodes_[op].users;
      std::replace(us.begin(), us.end(), node, with);
    }
    nodes_[node].dead = true;
    nodes_[node].replaced_by = with;
  }

  void Optimize() {
    const int64_t n = static_cast<int64_t>(nodes_.size());
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t op : nodes_[i].operands) nodes_[op].users.push_back(i);
    }
    std::vector<int64_t> checked_pass(n, -1), in_workset(n, -1);
    int64_t pass = 0, closure = 0;
    auto erase = [](std::vector<int64_t>* list, int64_t self) {
      list->erase(std::remove(list->begin(), list->end(), self), list->end());
    };
    for (bool changed = true; changed && !cycle_; ++pass) {
      changed = false;
      for (int64_t id = 0; id < n && !cycle_; ++id) {
        if (!nodes_[id].is_phi || nodes_[id].dead) continue;
        erase(&nodes_[id].operands, id);
        erase(&nodes_[id].users, id);
        const std::vector<int64_t> ops = nodes_[id].operands;
        if (ops.empty()) continue;
        if (std::all_of(ops.begin(), ops.end(),
                        [&](int64_t o) { return o == ops[0]; })) {
          Replace(id, ops[0]);
          changed = true;
          continue;
        }
        if (checked_pass[id] == pass) continue;
        ++closure;
        std::vector<int64_t> worklist = {id}, workset;
        size_t head = 0;
        int64_t non_phi = -1;
        bool several = false;
        while (head < worklist.size()) {
          const int64_t todo = worklist[head++];
          if (in_workset[todo] == closure) continue;
          checked_pass[todo] = pass;
          in_workset[todo] = closure;
          workset.push_back(todo);
          for (int64_t op : nodes_[todo].operands) worklist.push_back(op);
          if (!nodes_[todo].is_phi) {
            if (non_phi != -1 && non_phi != todo) {
              several = true;
              break;
            }
            non_phi = todo;
          }
        }
        if (!several && non_phi != -1) {
          for (int64_t w : workset) {
            if (nodes_[w].is_phi) Replace(w, non_phi);
          }
          changed = true;
        }
      }
    }
  }

 private:
  struct Node {
    bool is_phi;
    bool dead;
    int64_t replaced_by;
    std::vector<int64_t> operands, users;
  };
  std::vector<Node> nodes_;
  mutable bool cycle_ = false;
};

// A random graph: values, and phis whose operands are values or phis
// (self-loops and repeats included). With `hubs`, a few values are operands
// of most phis. Returns whether the graph was compared.
bool ExpectSameAsReference(uint64_t seed, int nodes, bool hubs) {
  std::mt19937_64 random(seed);
  PhiGraph graph;
  ReferencePhiGraph reference;
  std::vector<bool> is_phi(nodes);
  for (int i = 0; i < nodes; ++i) {
    is_phi[i] = random() % 3 != 0;
    graph.AddNode(is_phi[i]);
    reference.AddNode(is_phi[i]);
  }
  for (int i = 0; i < nodes; ++i) {
    if (!is_phi[i]) continue;
    std::vector<int64_t> operands;
    const int count = 1 + static_cast<int>(random() % 4);
    for (int k = 0; k < count; ++k) {
      int64_t op;
      if (hubs && random() % 2 == 0) {
        op = static_cast<int64_t>(random() % 3);  // node 0-2
      } else if (random() % 8 == 0) {
        op = i;  // itself
      } else {
        op = static_cast<int64_t>(random() % nodes);
      }
      operands.push_back(op);
    }
    graph.SetOperands(i, operands);
    reference.SetOperands(i, operands);
  }
  reference.Optimize();
  if (reference.HasReplacementCycle()) return false;
  graph.Optimize();
  for (int i = 0; i < nodes; ++i) {
    if (graph.dead(i) != reference.dead(i)) {
      ADD_FAILURE() << "dead differs, seed " << seed << " node " << i;
      return true;
    }
    EXPECT_EQ(graph.Find(i), reference.Find(i)) << seed << " node " << i;
    if (graph.dead(i) || !is_phi[i]) continue;
    const absl::Span<const int64_t> ops = graph.operands(i);
    EXPECT_EQ(std::vector<int64_t>(ops.begin(), ops.end()),
              reference.operands(i))
        << seed << " node " << i;
  }
  return true;
}

TEST(PhiGraph, SameAsXlasAlgorithmOnSmallRandomGraphs) {
  int compared = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    compared +=
        ExpectSameAsReference(seed, 2 + static_cast<int>(seed % 14), seed % 2);
  }
  EXPECT_GT(compared, 2500);
}

TEST(PhiGraph, SameAsXlasAlgorithmWithLongUserLists) {
  // Nodes 0-2 have hundreds of users: their lists are indexed.
  int compared = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    compared += ExpectSameAsReference(100 + seed,
                                      300 + static_cast<int>(seed) * 20, true);
  }
  EXPECT_EQ(compared, 40);  // none has a replacement cycle
}

TEST(PhiGraph, WhileLoopPhisReachTheirOneValue) {
  // init -> phi(init, phi) as a loop that passes its state through.
  PhiGraph graph;
  const int64_t init = graph.AddNode(false);
  const int64_t phi = graph.AddNode(true);
  graph.SetOperands(phi, {init, phi});
  graph.Optimize();
  EXPECT_TRUE(graph.dead(phi));
  EXPECT_EQ(graph.Find(phi), init);
}

TEST(PhiGraph, ManyLoopsOfOneValueStayLinear) {
  // One value feeding 200,000 loop phis: replacing them one by one scanned
  // the value's whole user list each time.
  PhiGraph graph;
  const int64_t value = graph.AddNode(false);
  constexpr int kLoops = 200000;
  graph.Reserve(kLoops + 1);
  for (int i = 0; i < kLoops; ++i) graph.AddNode(true);
  for (int i = 1; i <= kLoops; ++i) graph.SetOperands(i, {value, i});
  graph.Optimize();
  for (int i = 1; i <= kLoops; ++i) ASSERT_EQ(graph.Find(i), value);
}

}  // namespace
}  // namespace hlolayout
