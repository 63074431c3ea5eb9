#include "hlolayout/memory/phi_graph.h"

#include <algorithm>
#include <utility>

#include "hlolayout/util/check.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {

void PhiGraph::SetOperands(int64_t node, absl::Span<const int64_t> operands) {
  nodes_[node].operands_begin = static_cast<int32_t>(operands_.size());
  nodes_[node].operands_size = static_cast<int32_t>(operands.size());
  operands_.insert(operands_.end(), operands.begin(), operands.end());
}

void PhiGraph::Replace(int64_t node, int64_t with) {
  if (nodes_[node].dead) return;
  with = Find(with);
  // Every user's operands: `node` becomes `with`. A user listed several
  // times (it has `node` as an operand several times: a loop's body
  // parameter fed by each of its thousands of call sites) is rewritten the
  // first time; scanning its operands again would change nothing.
  ++replace_stamp_;
  const int32_t* users = users_of(node);
  for (int32_t k = 0; k < nodes_[node].users_size; ++k) {
    const int32_t user = users[k];
    if (user == kRemoved || replaced_in_[user] == replace_stamp_) continue;
    replaced_in_[user] = replace_stamp_;
    ReplaceOperand(user, node, with);
  }
  // Every operand's users: `node` becomes `with`, once an operand (the
  // first time rewrites all of `node`'s entries there).
  const int32_t* ops = operands_of(node);
  for (int32_t k = 0; k < nodes_[node].operands_size; ++k) {
    if (left_in_[ops[k]] == replace_stamp_) continue;
    left_in_[ops[k]] = replace_stamp_;
    ReplaceUser(ops[k], node, with);
  }
  nodes_[node].dead = true;
  nodes_[node].replaced_by = static_cast<int32_t>(with);
}

void PhiGraph::ReplaceOperand(int64_t user, int64_t node, int64_t with) {
  Node& u = nodes_[user];
  // A long list rewritten again and again (a loop body's parameter, whose
  // inits are replaced one by one) gets an index: scanning it whole for
  // each replacement made chains of loops quadratic.
  if (u.operands_size > kScanLimit && !u.operands_indexed &&
      ++u.scans >= kScansBeforeIndex) {
    IndexOperands(user);
  }
  if (!u.operands_indexed) {
    int32_t* ops = operands_of(user);
    for (int32_t j = 0; j < u.operands_size; ++j) {
      if (ops[j] == node) ops[j] = static_cast<int32_t>(with);
    }
    return;
  }
  if (with == node) return;  // nothing changes
  MoveChain(&operand_head_, &operand_next_, &operands_, user, node, with);
}

void PhiGraph::MoveChain(absl::flat_hash_map<uint64_t, int32_t>* heads,
                         memory_internal::ScratchVector<int32_t>* next,
                         memory_internal::ScratchVector<int32_t>* entries,
                         int64_t list, int64_t from, int64_t with) {
  auto it = heads->find(UserKey(list, from));
  if (it == heads->end()) return;
  const int32_t head = it->second;
  heads->erase(it);
  int32_t last = head;
  for (int32_t e = head; e >= 0; e = (*next)[e]) {
    (*entries)[e] = static_cast<int32_t>(with);
    last = e;
  }
  if (with == kRemoved) return;
  // The moved entries join `with`'s (the order within a chain is free).
  auto [to, inserted] = heads->try_emplace(UserKey(list, with), head);
  if (!inserted) {
    (*next)[last] = to->second;
    to->second = head;
  }
}

void PhiGraph::IndexOperands(int64_t user) {
  if (operand_next_.empty()) operand_next_.assign(operands_.size(), -1);
  Node& u = nodes_[user];
  for (int32_t e = u.operands_begin; e < u.operands_begin + u.operands_size;
       ++e) {
    operand_next_[e] = -1;
    auto [it, inserted] =
        operand_head_.try_emplace(UserKey(user, operands_[e]), e);
    if (!inserted) {
      operand_next_[e] = it->second;
      it->second = e;
    }
  }
  u.operands_indexed = true;
}

inline void PhiGraph::RemoveSelf(int64_t self) {
  Node& node = nodes_[self];
  int32_t* list = operands_of(self);
  const int32_t size = static_cast<int32_t>(
      std::remove(list, list + node.operands_size, self) - list);
  const bool moved = size != node.operands_size;
  node.operands_size = size;
  if (moved && node.operands_indexed) {
    // Entries moved: the list is indexed again.
    operand_head_.erase(UserKey(self, self));
    for (int32_t k = 0; k < size; ++k) {
      operand_head_.erase(UserKey(self, list[k]));
    }
    node.operands_indexed = false;
    if (size > kScanLimit) IndexOperands(self);
  }
  // Users are removed in place (kRemoved), which keeps long lists' index.
  ReplaceUser(self, self, kRemoved);
}

uint64_t PhiGraph::UserKey(int64_t node, int64_t user) {
  return (static_cast<uint64_t>(node) << 32) | static_cast<uint32_t>(user);
}

void PhiGraph::ReplaceUser(int64_t node, int64_t user, int64_t with) {
  if (nodes_[node].users_size <= kScanLimit) {
    int32_t* us = users_of(node);
    for (int32_t j = 0; j < nodes_[node].users_size; ++j) {
      if (us[j] == user) us[j] = static_cast<int32_t>(with);
    }
    return;
  }
  // A long list: the entries of `user` in it, from the index.
  if (with == user) return;  // nothing changes
  MoveChain(UserHeads(node), &chain_next_, &users_, node, user, with);
}

int64_t PhiGraph::NextInQueue(absl::Span<const int64_t> expanded,
                              size_t* expanding, int32_t* next_operand) const {
  for (; *expanding < expanded.size(); ++*expanding, *next_operand = 0) {
    const Node& node = nodes_[expanded[*expanding]];
    if (*next_operand < node.operands_size) {
      return operands_[node.operands_begin + (*next_operand)++];
    }
  }
  return kNone;
}

void PhiGraph::IndexUsers(absl::Span<const int32_t> lists,
                          absl::flat_hash_map<uint64_t, int32_t>* heads) {
  // Sized once for its keys, (node, user) pairs: a list is in node order,
  // so a user's entries are next to each other. (Grown as it went, the
  // index rehashed itself a dozen times.)
  size_t keys = 0;
  for (const int32_t op : lists) {
    const Node& node = nodes_[op];
    const int32_t* us = users_.data() + node.users_begin;
    for (int32_t k = 0; k < node.users_size; ++k) {
      keys += k == 0 || us[k] != us[k - 1];
    }
  }
  heads->reserve(keys);
  for (const int32_t op : lists) {
    const Node& node = nodes_[op];
    // One key a run of equal entries, chained in list order (a key per
    // entry looked the index up 423,028 times for 99,550 keys on a 75 MB
    // dump).
    const int32_t end = node.users_begin + node.users_size;
    for (int32_t e = node.users_begin; e < end;) {
      int32_t run_end = e + 1;
      while (run_end < end && users_[run_end] == users_[e]) {
        chain_next_[run_end - 1] = run_end;
        ++run_end;
      }
      heads->emplace(UserKey(op, users_[e]), e);
      e = run_end;
    }
  }
}

void PhiGraph::BuildUsers(bool side_by_side) {
  // Users in node order (a node using another twice is listed twice), by a
  // counting sort of the operand lists.
  const size_t n = nodes_.size();
  HLOLAYOUT_CHECK(n < (size_t{1} << 31));
  HLOLAYOUT_CHECK(operands_.size() < (size_t{1} << 31));
  memory_internal::ScratchVector<int32_t> count(n + 1, 0);
  for (int32_t op : operands_) ++count[op + 1];
  // The nodes whose user lists are long (indexed below), in id order, and
  // how many entries they have.
  memory_internal::ScratchVector<int32_t> long_lists;
  size_t long_entries = 0;
  for (size_t i = 0; i < n; ++i) {
    if (count[i + 1] > kScanLimit) {
      long_lists.push_back(static_cast<int32_t>(i));
      long_entries += count[i + 1];
    }
    nodes_[i].users_begin = count[i];
    nodes_[i].users_size = 0;
    nodes_[i].scans = 0;
    nodes_[i].operands_indexed = false;
    count[i + 1] += count[i];
  }
  // Long user lists get an index (user -> its entries), so that replacing
  // a user there does not scan the list: a value that feeds thousands of
  // loops made this quadratic.
  chain_heads_[0].clear();
  chain_heads_[1].clear();
  chain_next_.clear();
  operand_head_.clear();
  operand_next_.clear();
  // The tables that do not depend on the user lists are written (fresh
  // memory, mostly) while the lists are filled.
  const size_t entries = count[n];
  SideTask tables(side_by_side, [&] {
    if (!long_lists.empty()) chain_next_.assign(entries, -1);
    replaced_in_.assign(n, 0);
    left_in_.assign(n, 0);
  });
  users_.assign(entries, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t op : operands(static_cast<int64_t>(i))) {
      users_[nodes_[op].users_begin + nodes_[op].users_size++] =
          static_cast<int32_t>(i);
    }
  }
  tables.Join();
  // Two halves of the long lists' entries, one map each. (On one thread,
  // building the one map took 8-10 ms on a 75 MB dump, most of
  // BuildUsers.)
  size_t first = 0;  // long_lists[first] starts the second half
  for (size_t half = 0; first < long_lists.size() && half * 2 < long_entries;
       ++first) {
    half += nodes_[long_lists[first]].users_size;
  }
  chain_split_ =
      first < long_lists.size() ? long_lists[first] : static_cast<int64_t>(n);
  const absl::Span<const int32_t> lists(long_lists);
  RunSideBySide(
      side_by_side,
      [&] { IndexUsers(lists.subspan(0, first), &chain_heads_[0]); },
      [&] { IndexUsers(lists.subspan(first), &chain_heads_[1]); });
  replace_stamp_ = 0;
}

// Optimize's walks, their marks by node stamped with the pass, the walk
// or the epoch, so that nothing is allocated per walk.
struct PhiGraph::Walks {
  explicit Walks(size_t n) : marks(n) {}
  // 16 bytes a node, as main's two arrays of walk and pass stamps: the
  // walks of a chain whose loops share a conditional's branches take
  // every loop's result, and 24 made them 6% slower.
  struct Marks {
    // The walk that last took the node (XLA's workset).
    int64_t in_workset = -1;
    // The pass in which a walk last took the node (XLA's
    // checked_for_closure: a phi taken by a walk in a pass does not start
    // one in it). Every pass but the last replaces a node, so there are
    // fewer than 2^31.
    uint32_t checked_pass = UINT32_MAX;
    // `epoch` when the node's own walk met several values (0: never).
    uint32_t failed_in = 0;
  };
  memory_internal::ScratchVector<Marks> marks;  // by node, side by side
  // Counts the passes and the replacements of phis a walk took in the pass
  // (WalkClosure): marks[node].failed_in == epoch says the node's walk, on
  // the graph as it is now, would still fail and take no phi left
  // unmarked. At most twice the replacements, plus one: below 2^32.
  uint32_t epoch = 0;
  // The nodes the walk under way took, in order.
  memory_internal::ScratchVector<int64_t> workset;
  int64_t closure = 0;
  // The queue entries from the head up to here were found in the workset
  // or to be values without operands (QueueSettled).
  size_t cursor_expanding = 0;
  int32_t cursor_operand = 0;
};

bool PhiGraph::QueueSettled(Walks* walks, size_t expanding,
                            int32_t next_operand, size_t upto) const {
  size_t& e = walks->cursor_expanding;
  int32_t& o = walks->cursor_operand;
  if (e < expanding || (e == expanding && o < next_operand)) {
    e = expanding;
    o = next_operand;
  }
  // Entries only ever join the workset, so the cursor never goes back.
  for (; e < upto; ++e, o = 0) {
    const Node& node = nodes_[walks->workset[e]];
    for (; o < node.operands_size; ++o) {
      const int32_t entry = operands_[node.operands_begin + o];
      if (walks->marks[entry].in_workset == walks->closure) continue;
      if (nodes_[entry].is_phi || nodes_[entry].operands_size != 0) {
        return false;
      }
    }
  }
  return true;
}

inline int64_t PhiGraph::WalkClosure(int64_t self, uint32_t pass,
                                     Walks* walks) {
  // A breadth-first walk whose queue is `self` followed by the operand
  // lists of the nodes taken from it (`workset`), in order: walked in
  // place rather than copied, since a walk that meets a second value
  // stops early, often at the start of a list thousands long.
  // The walk's marks through locals: stores of int64_t could otherwise
  // change walks->closure and walks->epoch, which would be read again at
  // every step.
  const int64_t closure = ++walks->closure;
  const uint32_t epoch = walks->epoch;
  Walks::Marks* const marks = walks->marks.data();
  memory_internal::ScratchVector<int64_t>& workset = walks->workset;
  workset.clear();
  walks->cursor_expanding = 0;
  walks->cursor_operand = 0;
  size_t expanding = 0;  // workset[expanding]'s operands come next
  int32_t next_operand = 0;
  int64_t non_phi = kNone;
  bool several = false;
  for (int64_t todo = self; todo != kNone;
       todo = NextInQueue(workset, &expanding, &next_operand)) {
    Walks::Marks& mark = marks[todo];
    if (mark.in_workset == closure) continue;
    mark.checked_pass = pass;
    mark.in_workset = closure;
    workset.push_back(todo);
    if (!nodes_[todo].is_phi) {
      if (non_phi != kNone && non_phi != todo) {
        several = true;
        break;
      }
      non_phi = todo;
      continue;
    }
    // `todo`'s own walk failed in this pass, and the queue holds nothing
    // but taken nodes and values before `todo`'s operands. The rest of
    // this walk is then `todo`'s walk without the nodes taken (which, but
    // for `todo`, only lead to taken nodes, values or `todo`): it meets a
    // second value no later than `todo`'s did, taking only phis that walk
    // took, all marked in this pass. So this walk fails, and marks nothing
    // more. This holds while `todo`'s walk, walked again, would take the
    // same nodes up to its second value: a replacement changes that only
    // if it replaces one of them (redirecting entries behind that value
    // changes nothing before it), and those are phis taken in the pass,
    // whose replacement moves the epoch on (Optimize).
    if (mark.failed_in == epoch &&
        QueueSettled(walks, expanding, next_operand, workset.size() - 1)) {
      ++walks_cut_short_;
      several = true;
      break;
    }
  }
  if (several) {
    marks[self].failed_in = epoch;
    return kNone;
  }
  return non_phi;
}

void PhiGraph::Optimize(bool side_by_side) {
  BuildUsers(side_by_side);
  Walks walks(nodes_.size());
  walks_cut_short_ = 0;
  memory_internal::ScratchVector<int32_t>
      phis;  // passes visit only the phis, in id order
  for (size_t id = 0; id < nodes_.size(); ++id) {
    if (nodes_[id].is_phi) phis.push_back(static_cast<int32_t>(id));
  }
  uint32_t pass = 0;
  for (bool changed = true; changed; ++pass) {
    changed = false;
    ++walks.epoch;
    for (const int32_t self : phis) {
      if (nodes_[self].dead) continue;
      // Every `self` leaves its operands and users. (No walk takes a
      // different path for it: a node's walk skips itself.)
      RemoveSelf(self);
      const absl::Span<const int32_t> ops = operands(self);
      if (ops.empty()) continue;
      const int32_t first = ops[0];
      if (std::all_of(ops.begin(), ops.end(),
                      [&](int32_t o) { return o == first; })) {
        if (walks.marks[self].checked_pass == pass) ++walks.epoch;
        Replace(self, first);
        changed = true;
        continue;
      }
      if (walks.marks[self].checked_pass == pass) continue;
      const int64_t value = WalkClosure(self, pass, &walks);
      if (value == kNone) continue;
      ++walks.epoch;  // the closure's phis were taken in this pass
      for (int64_t w : walks.workset) {
        if (nodes_[w].is_phi) Replace(w, value);
      }
      changed = true;
    }
  }
}

}  // namespace hlolayout
