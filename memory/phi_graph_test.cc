// PhiGraph against a reference written from the statement of the rule in
// docs/memory.md ("Buffer sharing rules", "Which phis are one value"; the
// rule's origin is XLA's HloPhiGraph::Optimize), not from XLA's code nor
// from PhiGraph's: the same dead nodes, the same replacements and the same
// operand lists, on random graphs with and without values that feed
// hundreds of phis (the case the index of long user lists is for), and on
// chains of loops and random graphs where walks stop early at a phi whose
// walk failed (the shortcut of phi_graph.h, "Speed").
#include "hlolayout/memory/phi_graph.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/sanitizer_scale.h"

namespace hlolayout {
namespace {

// The reference: docs/memory.md's statement of the phi graph rule taken
// literally and simply. Each node keeps its inputs (a vector) and the nodes
// it knows as users (a std::set); a walk lists the nodes reachable from
// the phi breadth-first, level by level, up to its second value. Nothing
// is indexed, and no walk stops early at a phi whose walk failed.
class ReferencePhiGraph {
 public:
  int64_t AddNode(bool is_phi) {
    nodes_.push_back(Node{});
    nodes_.back().is_phi = is_phi;
    return static_cast<int64_t>(nodes_.size()) - 1;
  }
  void SetOperands(int64_t node, const std::vector<int64_t>& operands) {
    nodes_[node].inputs = operands;
  }
  // What `n` is now: itself, or what it became, followed to the end. Random
  // graphs can make a phi become itself through a dead input, after which
  // there is no end; such graphs are not compared (HasReplacementCycle).
  int64_t Find(int64_t n) const {
    for (size_t steps = 0; nodes_[n].became >= 0; ++steps) {
      if (steps > nodes_.size()) {
        cycle_ = true;
        return n;
      }
      n = nodes_[n].became;
    }
    return n;
  }
  bool HasReplacementCycle() const {
    for (size_t i = 0; i < nodes_.size(); ++i) Find(static_cast<int64_t>(i));
    return cycle_;
  }
  bool dead(int64_t n) const { return nodes_[n].became >= 0; }
  const std::vector<int64_t>& operands(int64_t n) const {
    return nodes_[n].inputs;
  }

  // Passes until one changes nothing (or a cycle of replacements shows).
  void Optimize() {
    for (size_t n = 0; n < nodes_.size(); ++n) {
      for (int64_t input : nodes_[n].inputs) {
        nodes_[input].known_users.insert(static_cast<int64_t>(n));
      }
    }
    while (!cycle_ && Pass()) {
    }
  }

 private:
  struct Node {
    bool is_phi = false;
    int64_t became = -1;  // -1: alive
    std::vector<int64_t> inputs;
    std::set<int64_t> known_users;
  };

  // "p becomes x".
  void Become(int64_t p, int64_t x) {
    if (nodes_[p].became >= 0) return;  // already dead
    x = Find(x);
    for (int64_t user : nodes_[p].known_users) {
      for (int64_t& input : nodes_[user].inputs) {
        if (input == p) input = x;
      }
    }
    for (int64_t input : nodes_[p].inputs) {
      std::set<int64_t>& users = nodes_[input].known_users;
      if (users.erase(p) > 0) users.insert(x);
    }
    nodes_[p].became = x;
  }

  // Step 5's list: the nodes reachable from `phi`, breadth-first (level by
  // level), each at its first appearance, up to its second value.
  std::vector<int64_t> CutList(int64_t phi) {
    listed_.resize(nodes_.size(), 0);
    const int64_t walk = ++walks_;
    std::vector<int64_t> list = {phi};
    listed_[phi] = walk;
    int values = 0;
    // Level by level: the nodes list[begin, end) list the next level.
    for (size_t begin = 0, end = 1; begin < end;
         begin = end, end = list.size()) {
      for (size_t k = begin; k < end; ++k) {
        for (int64_t input : nodes_[list[k]].inputs) {
          if (listed_[input] == walk) continue;
          listed_[input] = walk;
          list.push_back(input);
          if (!nodes_[input].is_phi && ++values == 2) return list;
        }
      }
    }
    return list;
  }

  // One pass; whether it changed anything.
  bool Pass() {
    bool changed = false;
    std::vector<bool> reached(nodes_.size(), false);
    for (size_t id = 0; id < nodes_.size() && !cycle_; ++id) {
      const int64_t p = static_cast<int64_t>(id);
      if (!nodes_[p].is_phi || nodes_[p].became >= 0) continue;
      std::vector<int64_t>& inputs = nodes_[p].inputs;  // 1.
      inputs.erase(std::remove(inputs.begin(), inputs.end(), p), inputs.end());
      nodes_[p].known_users.erase(p);
      if (inputs.empty()) continue;  // 2.
      if (std::count(inputs.begin(), inputs.end(), inputs[0]) ==
          static_cast<std::ptrdiff_t>(inputs.size())) {
        Become(p, inputs[0]);  // 3.
        changed = true;
        continue;
      }
      if (reached[p]) continue;                      // 4.
      const std::vector<int64_t> list = CutList(p);  // 5.
      std::vector<int64_t> values;
      for (int64_t n : list) {
        if (!nodes_[n].is_phi) values.push_back(n);
      }
      for (int64_t n : list) reached[n] = true;
      if (values.size() != 1) continue;
      for (int64_t n : list) {
        if (nodes_[n].is_phi) Become(n, values[0]);
      }
      changed = true;
    }
    return changed;
  }

  std::vector<Node> nodes_;
  // listed_[n] == walks_: CutList's walk under way listed n.
  std::vector<int64_t> listed_;
  int64_t walks_ = 0;
  mutable bool cycle_ = false;
};

// Optimizes the graph of `is_phi` and `operands` (by node; values have
// none) with PhiGraph and with the reference, and expects the same dead
// nodes, replacements and operand lists. Returns whether the graph was
// compared (false: the reference found a replacement cycle).
// Adds the walks PhiGraph cut short to *cut_short when given.
bool ExpectSameAsReference(const std::vector<bool>& is_phi,
                           const std::vector<std::vector<int64_t>>& operands,
                           const std::string& what,
                           int64_t* cut_short = nullptr,
                           bool side_by_side = false) {
  const int nodes = static_cast<int>(is_phi.size());
  PhiGraph graph;
  ReferencePhiGraph reference;
  for (int i = 0; i < nodes; ++i) {
    graph.AddNode(is_phi[i]);
    reference.AddNode(is_phi[i]);
  }
  for (int i = 0; i < nodes; ++i) {
    if (operands[i].empty()) continue;
    graph.SetOperands(i, operands[i]);
    reference.SetOperands(i, operands[i]);
  }
  reference.Optimize();
  if (reference.HasReplacementCycle()) return false;
  graph.Optimize(side_by_side);
  if (cut_short != nullptr) *cut_short += graph.walks_cut_short();
  for (int i = 0; i < nodes; ++i) {
    if (graph.dead(i) != reference.dead(i)) {
      ADD_FAILURE() << "dead differs, " << what << " node " << i;
      return true;
    }
    EXPECT_EQ(graph.Find(i), reference.Find(i)) << what << " node " << i;
    if (graph.dead(i) || !is_phi[i]) continue;
    const absl::Span<const int32_t> ops = graph.operands(i);
    EXPECT_EQ(std::vector<int64_t>(ops.begin(), ops.end()),
              reference.operands(i))
        << what << " node " << i;
  }
  return true;
}

// A random graph: values, and phis whose operands are values or phis
// (self-loops and repeats included). With `hubs`, a few values (the first
// `hub_nodes`) are operands of most phis. Returns whether the graph was
// compared. `side_by_side`: as PhiGraph::Optimize's.
bool ExpectSameAsReference(uint64_t seed, int nodes, bool hubs,
                           int hub_nodes = 3, bool side_by_side = false) {
  std::mt19937_64 random(seed);
  std::vector<bool> is_phi(nodes);
  std::vector<std::vector<int64_t>> operands(nodes);
  for (int i = 0; i < nodes; ++i) is_phi[i] = random() % 3 != 0;
  for (int i = 0; i < nodes; ++i) {
    if (!is_phi[i]) continue;
    const int count = 1 + static_cast<int>(random() % 4);
    for (int k = 0; k < count; ++k) {
      int64_t op;
      if (hubs && random() % 2 == 0) {
        op = static_cast<int64_t>(random() % hub_nodes);
      } else if (random() % 8 == 0) {
        op = i;  // itself
      } else {
        op = static_cast<int64_t>(random() % nodes);
      }
      operands[i].push_back(op);
    }
  }
  return ExpectSameAsReference(is_phi, operands, "seed " + std::to_string(seed),
                               nullptr, side_by_side);
}

TEST(PhiGraph, SameAsTheReferenceOnSmallRandomGraphs) {
  int compared = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    compared +=
        ExpectSameAsReference(seed, 2 + static_cast<int>(seed % 14), seed % 2);
  }
  EXPECT_GT(compared, 2500);
}

TEST(PhiGraph, SameAsTheReferenceWithLongUserLists) {
  // Nodes 0-2 have hundreds of users: their lists are indexed.
  int compared = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    compared += ExpectSameAsReference(100 + seed,
                                      300 + static_cast<int>(seed) * 20, true);
  }
  EXPECT_EQ(compared, 40);  // none has a replacement cycle
}

TEST(PhiGraph, LongUserListsIndexedOnTwoThreadsAsTheReference) {
  // 1 to 12 hubs, each with dozens to hundreds of users: their lists are
  // indexed in two maps, built side by side, split by entries (all lists
  // in the first map when there is one).
  int compared = 0;
  for (uint64_t seed = 0; seed < 36; ++seed) {
    const int hubs = 1 + static_cast<int>(seed % 12);
    compared +=
        ExpectSameAsReference(500 + seed, 300 + static_cast<int>(seed) * 25,
                              true, hubs, /*side_by_side=*/true);
  }
  EXPECT_GT(compared, 30);
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

// Graphs as the memory analysis makes them for while loops (live_range.cc,
// ResolveValues), built node by node.
struct LoopGraph {
  std::vector<bool> is_phi;
  std::vector<std::vector<int64_t>> operands;
  int64_t Value() {
    is_phi.push_back(false);
    operands.emplace_back();
    return static_cast<int64_t>(is_phi.size()) - 1;
  }
  int64_t Phi() {
    is_phi.push_back(true);
    operands.emplace_back();
    return static_cast<int64_t>(is_phi.size()) - 1;
  }
  bool Compare(const std::string& what, int64_t* cut_short = nullptr) const {
    return ExpectSameAsReference(is_phi, operands, what, cut_short);
  }
  // PhiGraph of this graph, optimized.
  void Optimize(PhiGraph* graph) const {
    graph->Reserve(static_cast<int64_t>(is_phi.size()));
    for (size_t i = 0; i < is_phi.size(); ++i) graph->AddNode(is_phi[i]);
    for (size_t i = 0; i < is_phi.size(); ++i) {
      if (!operands[i].empty()) {
        graph->SetOperands(static_cast<int64_t>(i), operands[i]);
      }
    }
    graph->Optimize();
  }
};

// One body shared by `sites` while loops (as the classic benchmark dump's
// 12,442 loops share theirs): the condition's and the body's parameters
// are phis of every loop's init and the body's root, each loop's result a
// phi of the root and its init. `passes` (the body's root forwards its
// parameter) makes the body's parameter an input of itself once per loop.
// Loop k's init is init_of(k).
template <typename InitOf>
void AddSharedBody(LoopGraph* g, int sites, bool passes, InitOf init_of) {
  const int64_t cond = g->Phi();
  const int64_t body = g->Phi();
  const int64_t root = passes ? body : g->Value();
  for (int k = 0; k < sites; ++k) {
    const int64_t init = init_of(k);
    for (int64_t parameter : {cond, body}) {
      g->operands[parameter].push_back(init);
      g->operands[parameter].push_back(root);
    }
    const int64_t result = g->Phi();
    g->operands[result] = {root, init};
  }
}

TEST(PhiGraph, SharedBodiesAsTheReference) {
  // Every site with one init (all collapse to it), each with its own (none
  // does), and mixes; the root passing the state through or not.
  for (int sites : {1, 2, 3, 40, 300}) {
    for (bool passes : {false, true}) {
      for (int pattern = 0; pattern < 4; ++pattern) {
        LoopGraph g;
        const int64_t shared = g.Value();
        AddSharedBody(&g, sites, passes, [&](int k) -> int64_t {
          switch (pattern) {
            case 0:
              return shared;
            case 1:
              return g.Value();
            case 2:  // the last site differs: met at the end of the lists
              return k + 1 == sites ? g.Value() : shared;
            default:  // a phi of the shared value, or the value itself
              if (k % 2 == 0) return shared;
              const int64_t phi = g.Phi();
              g.operands[phi] = {shared, phi, shared};
              return phi;
          }
        });
        EXPECT_TRUE(g.Compare(absl::StrCat(sites, " sites, passes ", passes,
                                           ", pattern ", pattern)));
      }
    }
  }
}

TEST(PhiGraph, SharedBodyPassingItsStateResolvesToTheOneInit) {
  LoopGraph g;
  const int64_t init = g.Value();
  AddSharedBody(&g, 100, /*passes=*/true, [&](int) { return init; });
  PhiGraph graph;
  for (size_t i = 0; i < g.is_phi.size(); ++i) graph.AddNode(g.is_phi[i]);
  for (size_t i = 0; i < g.is_phi.size(); ++i) {
    graph.SetOperands(static_cast<int64_t>(i), g.operands[i]);
  }
  graph.Optimize();
  for (size_t i = 1; i < g.is_phi.size(); ++i) {
    EXPECT_TRUE(graph.dead(static_cast<int64_t>(i))) << i;
    EXPECT_EQ(graph.Find(static_cast<int64_t>(i)), init) << i;
  }
}

TEST(PhiGraph, NestedLoopsAsTheReference) {
  // Loop d's body holds loop d + 1, whose init is loop d's body parameter;
  // loop d's root is loop d + 1's result (a cycle through both parameters).
  // The innermost root passes its state or makes a value.
  for (int depth = 1; depth <= 6; ++depth) {
    for (bool innermost_passes : {false, true}) {
      for (int outer_sites = 1; outer_sites <= 3; ++outer_sites) {
        LoopGraph g;
        std::vector<int64_t> inits;
        for (int k = 0; k < outer_sites; ++k) inits.push_back(g.Value());
        std::vector<int64_t> body(depth), result(depth);
        for (int d = 0; d < depth; ++d) body[d] = g.Phi();
        for (int d = 0; d < depth; ++d) result[d] = g.Phi();
        for (int d = 0; d < depth; ++d) {
          const int64_t root = d + 1 < depth      ? result[d + 1]
                               : innermost_passes ? body[d]
                                                  : g.Value();
          const std::vector<int64_t> outer =
              d == 0 ? inits : std::vector<int64_t>{body[d - 1]};
          for (int64_t init : outer) {
            g.operands[body[d]].push_back(init);
            g.operands[body[d]].push_back(root);
          }
          g.operands[result[d]] = {root, outer[0]};
        }
        EXPECT_TRUE(g.Compare(absl::StrCat("depth ", depth, ", passes ",
                                           innermost_passes, ", ", outer_sites,
                                           " outer sites")));
      }
    }
  }
}

TEST(PhiGraph, PhisOfPhisAndCyclesAsTheReference) {
  for (int length = 1; length <= 8; ++length) {
    for (int values = 1; values <= 3; ++values) {
      // A ring of phis, each an input of the next; the values enter at
      // evenly spaced phis; a chain of phis of phis hangs off the ring.
      LoopGraph g;
      std::vector<int64_t> ring, chain;
      for (int i = 0; i < length; ++i) ring.push_back(g.Phi());
      for (int i = 0; i < length; ++i) {
        g.operands[ring[i]].push_back(ring[(i + length - 1) % length]);
      }
      for (int v = 0; v < values; ++v) {
        const int64_t value = g.Value();  // before operands[] may move
        g.operands[ring[v * length / values]].push_back(value);
      }
      int64_t previous = ring[length / 2];
      for (int i = 0; i < 4; ++i) {
        const int64_t phi = g.Phi();
        g.operands[phi] = {previous, previous, phi};
        previous = phi;
      }
      EXPECT_TRUE(
          g.Compare(absl::StrCat("ring of ", length, ", ", values, " values")));
      if (values == 1) {
        // One value reaches every phi.
        PhiGraph graph;
        for (size_t i = 0; i < g.is_phi.size(); ++i) graph.AddNode(g.is_phi[i]);
        for (size_t i = 0; i < g.is_phi.size(); ++i) {
          if (!g.operands[i].empty()) {
            graph.SetOperands(static_cast<int64_t>(i), g.operands[i]);
          }
        }
        graph.Optimize();
        const int64_t value = static_cast<int64_t>(g.is_phi.size()) - 5;
        ASSERT_FALSE(g.is_phi[value]);
        for (int64_t phi : ring) EXPECT_EQ(graph.Find(phi), value);
        EXPECT_EQ(graph.Find(previous), value);
      }
    }
  }
}

TEST(PhiGraph, ManySitesOfOneBodyStayLinear) {
  // Two bodies each shared by 60,000 loops and passing their state through
  // (as the classic benchmark dump's). The first's loops all start from
  // one value: its parameters collapse to it, and replacing the body's
  // parameter rewrote its own 120,000 inputs once per loop. The second's
  // loops each start from a value of their own: nothing collapses, and
  // each loop result's closure copied the body parameter's 120,000 inputs
  // before it met a second value.
  constexpr int kSites = 60000;
  LoopGraph g;
  const int64_t shared = g.Value();
  AddSharedBody(&g, kSites, /*passes=*/true, [&](int) { return shared; });
  const int64_t second = static_cast<int64_t>(g.is_phi.size());
  AddSharedBody(&g, kSites, /*passes=*/true, [&](int k) -> int64_t {
    return k % 2 == 0 ? shared : g.Value();
  });
  PhiGraph graph;
  for (size_t i = 0; i < g.is_phi.size(); ++i) graph.AddNode(g.is_phi[i]);
  for (size_t i = 0; i < g.is_phi.size(); ++i) {
    if (!g.operands[i].empty()) {
      graph.SetOperands(static_cast<int64_t>(i), g.operands[i]);
    }
  }
  graph.Optimize();
  for (int64_t i = 1; i < second; ++i) ASSERT_EQ(graph.Find(i), shared) << i;
  EXPECT_FALSE(graph.dead(second));      // the condition's parameter
  EXPECT_FALSE(graph.dead(second + 1));  // the body's
  // Loop 0's result: phi(body, shared).
  EXPECT_EQ(graph.Find(second + 2), second + 2);
}

// A chain of `loops` while loops sharing one condition and one body, over
// `elements` tuple elements: loop k starts from loop k - 1's result (loop
// 0, and loop k where fresh(k), from values of their own). The body makes
// a new value for element e unless passes(e) (then it passes its
// parameter's element on). As the memory analysis orders them: the
// condition's and the body's parameters are phis of every loop's init and
// the body's root; loop k's result is phi(root, init), or phi(init, root)
// with `init_first`. Where linked(k), loop k starts from phi(r, r) of loop
// k - 1's result r (as from a conditional whose branches pass it on),
// which the optimization replaces by r. Returns the result phis, by loop
// then element.
template <typename Fresh, typename Passes, typename Linked>
std::vector<int64_t> AddChain(LoopGraph* g, int loops, int elements,
                              bool init_first, Fresh fresh, Passes passes,
                              Linked linked) {
  std::vector<int64_t> cond(elements), body(elements), root(elements);
  for (int e = 0; e < elements; ++e) cond[e] = g->Phi();
  for (int e = 0; e < elements; ++e) body[e] = g->Phi();
  for (int e = 0; e < elements; ++e) {
    root[e] = passes(e) ? body[e] : g->Value();
  }
  std::vector<int64_t> results;
  for (int k = 0; k < loops; ++k) {
    for (int e = 0; e < elements; ++e) {
      int64_t init =
          k == 0 || fresh(k) ? g->Value() : results[(k - 1) * elements + e];
      if (k > 0 && !fresh(k) && linked(k)) {
        const int64_t link = g->Phi();
        g->operands[link] = {init, init};
        init = link;
      }
      for (int64_t parameter : {cond[e], body[e]}) {
        g->operands[parameter].push_back(init);
        g->operands[parameter].push_back(root[e]);
      }
      const int64_t result = g->Phi();
      g->operands[result] = init_first ? std::vector<int64_t>{init, root[e]}
                                       : std::vector<int64_t>{root[e], init};
      results.push_back(result);
    }
  }
  return results;
}

TEST(PhiGraph, ChainsOfLoopsAsTheReference) {
  int64_t cut_short = 0;
  for (int loops : {1, 2, 3, 5, 20, 100}) {
    for (int elements : {1, 3}) {
      for (bool init_first : {false, true}) {
        for (int fresh_every : {0, 3, 7}) {
          for (int passing = 0; passing < 3; ++passing) {
            for (int link_every : {0, 1, 2}) {
              LoopGraph g;
              AddChain(
                  &g, loops, elements, init_first,
                  [&](int k) {
                    return fresh_every != 0 && k % fresh_every == 0;
                  },
                  [&](int e) { return passing == 1 ? e == 0 : passing == 2; },
                  [&](int k) {
                    return link_every != 0 && k % link_every == 0;
                  });
              EXPECT_TRUE(g.Compare(
                  absl::StrCat(loops, " loops, ", elements, " elements, ",
                               init_first ? "init first" : "root first",
                               ", fresh every ", fresh_every, ", passing ",
                               passing, ", linked every ", link_every),
                  &cut_short));
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cut_short, 3000);  // the shortcut was taken
}

// A chain of `loops` loops (`linked`: each starting from phi(r, r) of the
// loop before's result r) optimized once: no loop result dies, and at least
// `cut_short` walks stop early.
void ExpectChainOptimized(int loops, bool linked, int64_t cut_short) {
  LoopGraph g;
  const std::vector<int64_t> results = AddChain(
      &g, loops, 1, false, [](int) { return false; }, [](int) { return false; },
      [linked](int) { return linked; });
  PhiGraph graph;
  g.Optimize(&graph);
  for (int64_t result : results) ASSERT_FALSE(graph.dead(result));
  EXPECT_GE(graph.walks_cut_short(), cut_short);
}

TEST(PhiGraph, ChainOfLoopsStaysLinear) {
  // 200,000 loops in a chain, the body making a new value: every loop
  // result's walk went down the whole chain to the first loop's init.
  constexpr int kLoops = 200000;
  ExpectChainOptimized(kLoops, /*linked=*/false, kLoops - 1);
}

TEST(PhiGraph, LinkedChainIsCutShortInBothPasses) {
  // A phi between each two loops, replaced in the first pass between one
  // loop's walk and the next's: no walk took it, so the next loop's walk
  // still stops at the loop before (in the second pass too, where nothing
  // is replaced).
  constexpr int kLoops = 1000;
  LoopGraph g;
  AddChain(
      &g, kLoops, 1, false, [](int) { return false; },
      [](int) { return false; }, [](int) { return true; });
  int64_t cut_short = 0;
  EXPECT_TRUE(g.Compare("linked chain", &cut_short));
  EXPECT_GE(cut_short, 2 * (kLoops - 1));
}

TEST(PhiGraph, LinkedChainOfLoopsStaysLinear) {
  // 200,000 loops, each starting from phi(r, r) of the loop before's
  // result r. Each of those is replaced by r in the first pass, and its
  // users include the body's and the condition's parameters (400,000
  // inputs each), which were scanned whole for each replacement.
  constexpr int kLoops = 200000;
  ExpectChainOptimized(kLoops, /*linked=*/true, 2 * (kLoops - 1));
}

// A random graph with a few phis of hundreds of inputs (themselves, each
// other, values, and phis that collapse into other nodes one by one:
// phi(x, x) and phi(x, itself)), whose lists Replace rewrites again and
// again.
bool ExpectSameAsReferenceWithLongOperandLists(uint64_t seed) {
  std::mt19937_64 random(seed);
  const int nodes = 200 + static_cast<int>(random() % 200);
  const int hubs = 1 + static_cast<int>(random() % 3);
  std::vector<bool> is_phi(nodes, true);
  std::vector<std::vector<int64_t>> operands(nodes);
  for (int i = hubs; i < nodes; ++i) is_phi[i] = random() % 8 != 0;
  for (int i = 0; i < nodes; ++i) {
    if (!is_phi[i]) continue;
    auto any = [&] { return static_cast<int64_t>(random() % nodes); };
    if (i < hubs) {
      const int count = 40 + static_cast<int>(random() % 300);
      for (int k = 0; k < count; ++k) {
        operands[i].push_back(random() % 6 == 0 ? random() % hubs : any());
      }
      continue;
    }
    const int64_t x = any();
    switch (random() % 4) {
      case 0:
        operands[i] = {x, x};
        break;
      case 1:
        operands[i] = {x, i, x};
        break;
      case 2:
        operands[i] = {x, static_cast<int64_t>(random() % hubs)};
        break;
      default:
        operands[i] = {x, any(), any()};
    }
  }
  return ExpectSameAsReference(
      is_phi, operands, "long operand lists, seed " + std::to_string(seed));
}

TEST(PhiGraph, SameAsTheReferenceWithLongOperandLists) {
  int compared = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    compared += ExpectSameAsReferenceWithLongOperandLists(seed);
  }
  EXPECT_GT(compared, 200);
}

TEST(PhiGraph, AWalkCutShortStillMarksWhatItsQueueHolds) {
  // X's walk meets Y, whose walk failed, while Z waits in its queue: the
  // walk must go on and mark Z (and P), which then start no walk of their
  // own in the pass. Nothing changes in it, so P and Z stay, though all
  // they reach is v1. Stopping at Y would leave Z unmarked: Z's walk
  // would then replace Z and P by v1.
  LoopGraph g;
  const int64_t v1 = g.Value(), v2 = g.Value(), v3 = g.Value();
  const int64_t y = g.Phi(), p = g.Phi(), x = g.Phi(), z = g.Phi();
  g.operands[y] = {p, v2, v3};
  g.operands[p] = {z, v1};
  g.operands[x] = {y, z};
  g.operands[z] = {p, v1};
  EXPECT_TRUE(g.Compare("x = phi(y, z)"));
  PhiGraph graph;
  g.Optimize(&graph);
  for (int64_t phi : {y, p, x, z}) EXPECT_FALSE(graph.dead(phi)) << phi;
  // A walk that meets a failed phi with nothing but taken nodes queued
  // does stop there: b's walk takes b and w1, then a; c's takes c and w1,
  // then b.
  LoopGraph h;
  const int64_t w1 = h.Value(), w2 = h.Value();
  const int64_t a = h.Phi(), b = h.Phi(), c = h.Phi();
  h.operands[a] = {w1, w2};
  h.operands[b] = {w1, a};
  h.operands[c] = {w1, b};
  EXPECT_TRUE(h.Compare("c = phi(w1, b)"));
  PhiGraph cut;
  h.Optimize(&cut);
  EXPECT_EQ(cut.walks_cut_short(), 2);  // b's walk at a, c's at b
  for (int64_t phi : {a, b, c}) EXPECT_FALSE(cut.dead(phi)) << phi;
}

TEST(PhiGraph, AWalkAfterAReplacementIsNotCutShort) {
  // Y's walk fails (it meets v1 and v2 through B before A's inputs); then
  // P = phi(A, A) is replaced by A, which brings A's inputs Z and Q nearer
  // to Y. X's walk meets Y with nothing else queued, but must go on: on the
  // changed graph it takes Z and Q before v2, so they start no walk in the
  // pass, and stay (in the next pass Y's walk marks them again), though
  // all they reach is v1.
  LoopGraph g;
  const int64_t v1 = g.Value(), v2 = g.Value();
  const int64_t y = g.Phi(), p = g.Phi(), b = g.Phi(), x = g.Phi();
  const int64_t a = g.Phi(), z = g.Phi(), q = g.Phi();
  g.operands[y] = {p, b};
  g.operands[p] = {a, a};
  g.operands[b] = {v1, v2};
  g.operands[x] = {v1, y};
  g.operands[a] = {z, q};
  g.operands[z] = {v1, q};
  g.operands[q] = {v1, z};
  EXPECT_TRUE(g.Compare("y = phi(p, b), p = phi(a, a)"));
  PhiGraph graph;
  g.Optimize(&graph);
  EXPECT_EQ(graph.Find(p), a);
  for (int64_t phi : {y, b, x, a, z, q}) EXPECT_FALSE(graph.dead(phi)) << phi;
}

// A random graph of few values and phis whose operands are mostly earlier
// phis: walks go back through phis whose walks failed, with other phis and
// values queued beside them, and with replacements between the walks.
bool ExpectSameAsReferenceOnRandomChain(uint64_t seed, int64_t* cut_short) {
  std::mt19937_64 random(seed);
  const int nodes = 8 + static_cast<int>(seed % 40);
  const int values = 1 + static_cast<int>(random() % 4);
  std::vector<bool> is_phi(nodes, true);
  std::vector<std::vector<int64_t>> operands(nodes);
  for (int i = 0; i < values; ++i) is_phi[random() % nodes] = false;
  for (int i = 0; i < nodes; ++i) {
    if (!is_phi[i]) continue;
    const int count = 1 + static_cast<int>(random() % 3);
    for (int k = 0; k < count; ++k) {
      const uint64_t kind = random() % 16;
      int64_t op;
      if (kind < 9 && i > 0) {
        op = i - 1 - static_cast<int64_t>(random() % std::min(i, 3));
      } else if (kind < 15) {
        op = static_cast<int64_t>(random() % nodes);
      } else {
        op = i;
      }
      operands[i].push_back(op);
    }
  }
  return ExpectSameAsReference(is_phi, operands,
                               "random chain, seed " + std::to_string(seed),
                               cut_short);
}

TEST(PhiGraph, SameAsTheReferenceOnRandomChains) {
  int compared = 0;
  int64_t cut_short = 0;
  const int seeds = static_cast<int>(SanitizerScaled(20000));
  for (int seed = 0; seed < seeds; ++seed) {
    compared += ExpectSameAsReferenceOnRandomChain(seed, &cut_short);
  }
  EXPECT_GT(compared, seeds * 3 / 4);
  EXPECT_GT(cut_short, seeds / 4);  // the shortcut was taken
}

}  // namespace
}  // namespace hlolayout
