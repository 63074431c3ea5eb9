#include "hlolayout/memory/phi_graph.h"

#include <algorithm>
#include <utility>

#include "hlolayout/util/check.h"

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
    int32_t* ops = operands_of(user);
    for (int32_t j = 0; j < nodes_[user].operands_size; ++j) {
      if (ops[j] == node) ops[j] = static_cast<int32_t>(with);
    }
  }
  // Every operand's users: `node` becomes `with`.
  const int32_t* ops = operands_of(node);
  for (int32_t k = 0; k < nodes_[node].operands_size; ++k) {
    ReplaceUser(ops[k], node, with);
  }
  nodes_[node].dead = true;
  nodes_[node].replaced_by = static_cast<int32_t>(with);
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
  auto it = chain_head_.find(UserKey(node, user));
  if (it == chain_head_.end()) return;
  const int32_t head = it->second;
  chain_head_.erase(it);
  int32_t last = head;
  for (int32_t e = head; e >= 0; e = chain_next_[e]) {
    users_[e] = static_cast<int32_t>(with);
    last = e;
  }
  if (with == kRemoved) return;
  // The moved entries join `with`'s (the order within a chain is free).
  auto [to, inserted] = chain_head_.try_emplace(UserKey(node, with), head);
  if (!inserted) {
    chain_next_[last] = to->second;
    to->second = head;
  }
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

void PhiGraph::BuildUsers() {
  // Users in node order (a node using another twice is listed twice), by a
  // counting sort of the operand lists.
  const size_t n = nodes_.size();
  HLOLAYOUT_CHECK(n < (size_t{1} << 31));
  HLOLAYOUT_CHECK(operands_.size() < (size_t{1} << 31));
  memory_internal::ScratchVector<int32_t> count(n + 1, 0);
  for (int32_t op : operands_) ++count[op + 1];
  for (size_t i = 0; i < n; ++i) {
    nodes_[i].users_begin = count[i];
    nodes_[i].users_size = 0;
    count[i + 1] += count[i];
  }
  users_.assign(count[n], 0);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t op : operands(static_cast<int64_t>(i))) {
      users_[nodes_[op].users_begin + nodes_[op].users_size++] =
          static_cast<int32_t>(i);
    }
  }
  // Long user lists get an index (user -> its entries), so that replacing
  // a user there does not scan the list: a value that feeds thousands of
  // loops made this quadratic.
  chain_head_.clear();
  chain_next_.clear();
  for (size_t op = 0; op < n; ++op) {
    const Node& node = nodes_[op];
    if (node.users_size <= kScanLimit) continue;
    if (chain_next_.empty()) chain_next_.assign(users_.size(), -1);
    for (int32_t e = node.users_begin; e < node.users_begin + node.users_size;
         ++e) {
      auto [it, inserted] = chain_head_.try_emplace(
          UserKey(static_cast<int64_t>(op), users_[e]), e);
      if (!inserted) {
        chain_next_[e] = it->second;
        it->second = e;
      }
    }
  }
  replaced_in_.assign(n, 0);
  replace_stamp_ = 0;
}

void PhiGraph::Optimize() {
  BuildUsers();
  const size_t n = nodes_.size();
  // Visit marks by pass and by closure, so that no set is allocated per
  // phi.
  memory_internal::ScratchVector<int64_t> checked_pass(n, -1);
  memory_internal::ScratchVector<int64_t> in_workset(n, -1);
  int64_t pass = 0, closure = 0;
  memory_internal::ScratchVector<int64_t> workset;
  memory_internal::ScratchVector<int32_t>
      phis;  // passes visit only the phis, in id order
  for (size_t id = 0; id < n; ++id) {
    if (nodes_[id].is_phi) phis.push_back(static_cast<int32_t>(id));
  }
  for (bool changed = true; changed; ++pass) {
    changed = false;
    for (const int32_t self : phis) {
      if (nodes_[self].dead) continue;
      // Every `self` leaves its operands, keeping the order; users are
      // removed in place (kRemoved), which keeps long lists' index.
      int32_t* list = operands_of(self);
      nodes_[self].operands_size = static_cast<int32_t>(
          std::remove(list, list + nodes_[self].operands_size, self) - list);
      ReplaceUser(self, self, kRemoved);
      const absl::Span<const int32_t> ops = operands(self);
      if (ops.empty()) continue;
      const int32_t first = ops[0];
      if (std::all_of(ops.begin(), ops.end(),
                      [&](int32_t o) { return o == first; })) {
        Replace(self, first);
        changed = true;
        continue;
      }
      if (checked_pass[self] == pass) continue;
      ++closure;
      // A breadth-first walk whose queue is `self` followed by the operand
      // lists of the nodes taken from it (`workset`), in order: walked in
      // place rather than copied, since a walk that meets a second value
      // stops early, often at the start of a list thousands long.
      workset.clear();
      size_t expanding = 0;  // workset[expanding]'s operands come next
      int32_t next_operand = 0;
      int64_t non_phi = kNone;
      bool several = false;
      for (int64_t todo = self; todo != kNone;
           todo = NextInQueue(workset, &expanding, &next_operand)) {
        if (in_workset[todo] == closure) continue;
        checked_pass[todo] = pass;
        in_workset[todo] = closure;
        workset.push_back(todo);
        if (!nodes_[todo].is_phi) {
          if (non_phi != kNone && non_phi != todo) {
            several = true;
            break;
          }
          non_phi = todo;
        }
      }
      if (!several && non_phi != kNone) {
        for (int64_t w : workset) {
          if (nodes_[w].is_phi) Replace(w, non_phi);
        }
        changed = true;
      }
    }
  }
}

}  // namespace hlolayout
