// memory/phi_graph.h: which phis are one value, the rule docs/memory.md
// states in "Buffer sharing rules" ("Which phis are one value"; its origin
// is XLA's HloPhiGraph::Optimize, as HloDataflowAnalysis runs it).
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
//
// Storage: every node's operand and user lists are slices of two flat
// arrays of 32-bit ids (lists only shrink or have entries replaced, never
// grow), so a graph of any size makes a handful of allocations.
//
// Speed: a closure walk that meets a phi whose own walk failed earlier in
// the same pass, with nothing else left to take before that phi's inputs
// and no phi replaced since that a walk of the pass took, stops there: it
// fails too, and every phi it would still take was marked by that earlier
// walk (a chain of loops made each walk go down the whole chain;
// phi_graph.cc, WalkClosure). Long user lists, and long operand lists that
// Replace rewrites again and again, find a node's entries through an index
// rather than a scan.
#ifndef HLOLAYOUT_MEMORY_PHI_GRAPH_H_
#define HLOLAYOUT_MEMORY_PHI_GRAPH_H_

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "hlolayout/memory/scratch_pool.h"
#include "hlolayout/util/pages.h"

namespace hlolayout {

class PhiGraph {
 public:
  static constexpr int64_t kNone = -1;

  // Room for `nodes` nodes.
  void Reserve(int64_t nodes) { nodes_.reserve(nodes); }
  // Gives back the pages of the room the nodes and operands did not use
  // (util/pages.h), once they are all added.
  void DropSpareRoom() {
    hlolayout::DropSpareRoom(&nodes_);
    hlolayout::DropSpareRoom(&operands_);
  }
  // Adds a node (ids count from 0; fewer than 2^31 of them).
  int64_t AddNode(bool is_phi) {
    nodes_.emplace_back();
    nodes_.back().is_phi = is_phi;
    return static_cast<int64_t>(nodes_.size()) - 1;
  }
  // Sets the operands of `node`. Called at most once per node, for nodes in
  // increasing order; nodes it is not called for have none. Fewer than
  // 2^31 operands in all.
  void SetOperands(int64_t node, absl::Span<const int64_t> operands);

  int64_t size() const { return static_cast<int64_t>(nodes_.size()); }
  bool is_phi(int64_t n) const { return nodes_[n].is_phi; }
  bool dead(int64_t n) const { return nodes_[n].dead; }
  absl::Span<const int32_t> operands(int64_t n) const {
    return absl::MakeConstSpan(operands_.data() + nodes_[n].operands_begin,
                               nodes_[n].operands_size);
  }

  // The node that replaced `n` (itself if none did).
  int64_t Find(int64_t n) const {
    while (nodes_[n].replaced_by != kNone) n = nodes_[n].replaced_by;
    return n;
  }
  // Replaces `node` by `with` in every user and operand list.
  void Replace(int64_t node, int64_t with);
  // Fills the users from the operands, then replaces every phi whose
  // inputs reach one value, until nothing changes. With `side_by_side`,
  // the user lists' tables are written while the lists are filled, and the
  // index of the long lists is built in two halves, on two threads
  // (util/side_by_side.h); the answer is the same.
  void Optimize(bool side_by_side = false);
  // How many closure walks of the last Optimize stopped early at a phi
  // whose walk had failed (see "Speed" above; for tests and benchmarks).
  int64_t walks_cut_short() const { return walks_cut_short_; }

 private:
  // 32-bit ids and list offsets: the memory analysis numbers fewer than
  // 2^31 positions and phi inputs (live_range_sources.cc refuses larger
  // modules).
  struct Node {
    int32_t replaced_by = kNone;
    int32_t operands_begin = 0, operands_size = 0;
    int32_t users_begin = 0, users_size = 0;
    bool is_phi = false;
    bool dead = false;
    // A long operand list: how often Replace scanned it, and whether its
    // entries are indexed by operand (operand_head_) instead.
    uint8_t scans = 0;
    bool operands_indexed = false;
  };
  int32_t* operands_of(int64_t n) {
    return operands_.data() + nodes_[n].operands_begin;
  }
  int32_t* users_of(int64_t n) { return users_.data() + nodes_[n].users_begin; }

  // A user list entry that was removed.
  static constexpr int32_t kRemoved = -2;
  // User lists longer than this are indexed by chain_heads_; operand lists
  // longer than this, once Replace has scanned them kScansBeforeIndex
  // times, by operand_head_.
  static constexpr int32_t kScanLimit = 32;
  static constexpr uint8_t kScansBeforeIndex = 8;
  static uint64_t UserKey(int64_t node, int64_t user);
  // Fills the user lists (and the index of the long ones) from the
  // operands.
  void BuildUsers(bool side_by_side);
  // Indexes the user lists of the nodes `lists` (long ones) in `heads`.
  void IndexUsers(absl::Span<const int32_t> lists,
                  absl::flat_hash_map<uint64_t, int32_t>* heads);
  // The index of `node`'s long user list (chain_heads_).
  absl::flat_hash_map<uint64_t, int32_t>* UserHeads(int64_t node) {
    return &chain_heads_[node >= chain_split_ ? 1 : 0];
  }
  // In `node`'s users, every `user` becomes `with` (kRemoved: removed).
  void ReplaceUser(int64_t node, int64_t user, int64_t with);
  // In `user`'s operands, every `node` becomes `with`.
  void ReplaceOperand(int64_t user, int64_t node, int64_t with);
  // In an indexed list (`heads`, `next`: UserHeads(list) and chain_next_, or
  // operand_head_ and operand_next_), the entries of list `list` that are
  // `from` become `with` and join `with`'s chain (dropped when `with` is
  // kRemoved).
  void MoveChain(absl::flat_hash_map<uint64_t, int32_t>* heads,
                 memory_internal::ScratchVector<int32_t>* next,
                 memory_internal::ScratchVector<int32_t>* entries, int64_t list,
                 int64_t from, int64_t with);
  // Indexes the entries of `user`'s operand list in operand_head_.
  void IndexOperands(int64_t user);
  // Removes `self` from its operands and its users, keeping the order.
  void RemoveSelf(int64_t self) __attribute__((always_inline));
  // The next node of a closure's queue: the operands of expanded[*expanding]
  // from *next_operand on, then those of the nodes after it; kNone at the
  // end.
  int64_t NextInQueue(absl::Span<const int64_t> expanded, size_t* expanding,
                      int32_t* next_operand) const;
  // The state of Optimize's closure walks (phi_graph.cc).
  struct Walks;
  // XLA's closure walk from the phi `self` in pass `pass`: the one value
  // its closure reaches (its phis in walks->workset), or kNone (none, or
  // several).
  // (Inlined, as RemoveSelf: Optimize calls both for every phi of every
  // pass and most walks are short; out of line they took 0.9% more
  // instructions in BM_AnalyzeMemory's analysis.)
  int64_t WalkClosure(int64_t self, uint32_t pass, Walks* walks)
      __attribute__((always_inline));
  // Whether every entry of a walk's queue from its head (expanding,
  // next_operand) to the start of workset[upto]'s operands is in the
  // workset or a value without operands; moves the walk's cursor past
  // those that are.
  bool QueueSettled(Walks* walks, size_t expanding, int32_t next_operand,
                    size_t upto) const;

  memory_internal::ScratchVector<Node> nodes_;
  memory_internal::ScratchVector<int32_t> operands_, users_;
  // The entries of `user` in a long list of `node`: a chain through
  // users_ (by offset in users_), its head at UserHeads(node)[UserKey(node,
  // user)], each entry's successor at chain_next_[entry] (-1: the last).
  // Two maps, one for the nodes below chain_split_ and one for the others,
  // so that two threads can build them (BuildUsers).
  absl::flat_hash_map<uint64_t, int32_t> chain_heads_[2];
  int64_t chain_split_ = 0;
  memory_internal::ScratchVector<int32_t> chain_next_;
  // The same for the entries of `operand` in an indexed operand list of
  // `user`: a chain through operands_, its head at
  // operand_head_[UserKey(user, operand)], each entry's successor at
  // operand_next_[entry].
  absl::flat_hash_map<uint64_t, int32_t> operand_head_;
  memory_internal::ScratchVector<int32_t> operand_next_;
  // replaced_in_[user] == replace_stamp_: `user`'s operands were rewritten
  // by the Replace under way; left_in_[operand] == replace_stamp_: the
  // replaced node left `operand`'s users (an operand listed many times, a
  // loop's body root once per call site, is rewritten the first time).
  memory_internal::ScratchVector<uint32_t> replaced_in_, left_in_;
  uint32_t replace_stamp_ = 0;
  int64_t walks_cut_short_ = 0;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_PHI_GRAPH_H_
