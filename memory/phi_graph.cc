#include "hlolayout/memory/phi_graph.h"

#include <algorithm>
#include <utility>

#include "hlolayout/util/check.h"

namespace hlolayout {

void PhiGraph::Replace(int64_t node, int64_t with) {
  if (nodes_[node].dead) return;
  with = Find(with);
  // Every user's operands: `node` becomes `with`. A user listed several
  // times (it has `node` as an operand several times: a loop's body
  // parameter fed by each of its thousands of call sites) is rewritten the
  // first time; scanning its operands again would change nothing.
  ++replace_stamp_;
  const int64_t* users = users_of(node);
  for (int64_t k = 0; k < nodes_[node].users_size; ++k) {
    const int64_t user = users[k];
    if (user == kRemoved || replaced_in_[user] == replace_stamp_) continue;
    replaced_in_[user] = replace_stamp_;
    int64_t* ops = operands_of(user);
    for (int64_t j = 0; j < nodes_[user].operands_size; ++j) {
      if (ops[j] == node) ops[j] = with;
    }
  }
  // Every operand's users: `node` becomes `with`.
  const int64_t* ops = operands_of(node);
  for (int64_t k = 0; k < nodes_[node].operands_size; ++k) {
    ReplaceUser(ops[k], node, with);
  }
  nodes_[node].dead = true;
  nodes_[node].replaced_by = with;
}

uint64_t PhiGraph::UserKey(int64_t node, int64_t user) {
  return (static_cast<uint64_t>(node) << 32) | static_cast<uint32_t>(user);
}

void PhiGraph::ReplaceUser(int64_t node, int64_t user, int64_t with) {
  int64_t* us = users_of(node);
  if (nodes_[node].users_size <= kScanLimit) {
    for (int64_t j = 0; j < nodes_[node].users_size; ++j) {
      if (us[j] == user) us[j] = with;
    }
    return;
  }
  // A long list: the positions of `user` in it, from the index.
  auto it = user_positions_.find(UserKey(node, user));
  if (it == user_positions_.end()) return;
  Positions moved = std::move(it->second);
  user_positions_.erase(it);
  for (int32_t position : moved) us[position] = with;
  if (with != kRemoved) {
    Positions& to = user_positions_[UserKey(node, with)];
    to.insert(to.end(), moved.begin(), moved.end());
  }
}

int64_t PhiGraph::NextInQueue(absl::Span<const int64_t> expanded,
                              size_t* expanding, int64_t* next_operand) const {
  for (; *expanding < expanded.size(); ++*expanding, *next_operand = 0) {
    const Node& node = nodes_[expanded[*expanding]];
    if (*next_operand < node.operands_size) {
      return operands_[node.operands_begin + (*next_operand)++];
    }
  }
  return kNone;
}

void PhiGraph::Optimize() {
  // Users in node order (a node using another twice is listed twice), by a
  // counting sort of the operand lists.
  const size_t n = nodes_.size();
  memory_internal::ScratchVector<int64_t> count(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int64_t op : operands(static_cast<int64_t>(i))) ++count[op + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    nodes_[i].users_begin = count[i];
    count[i + 1] += count[i];
  }
  users_.assign(count[n], 0);
  user_positions_.clear();
  for (size_t i = 0; i < n; ++i) {
    for (int64_t op : operands(static_cast<int64_t>(i))) {
      const int64_t position = nodes_[op].users_size++;
      users_[nodes_[op].users_begin + position] = static_cast<int64_t>(i);
    }
  }
  // Long user lists get an index (user -> positions), so that replacing a
  // user there does not scan the list: a value that feeds thousands of
  // loops made this quadratic.
  for (size_t op = 0; op < n; ++op) {
    if (nodes_[op].users_size <= kScanLimit) continue;
    HLOLAYOUT_CHECK(n < (size_t{1} << 31));
    const int64_t* us = users_of(static_cast<int64_t>(op));
    for (int64_t j = 0; j < nodes_[op].users_size; ++j) {
      user_positions_[UserKey(static_cast<int64_t>(op), us[j])].push_back(
          static_cast<int32_t>(j));
    }
  }
  replaced_in_.assign(n, 0);
  replace_stamp_ = 0;
  // Visit marks by pass and by closure, so that no set is allocated per
  // phi.
  memory_internal::ScratchVector<int64_t> checked_pass(n, -1);
  memory_internal::ScratchVector<int64_t> in_workset(n, -1);
  int64_t pass = 0, closure = 0;
  memory_internal::ScratchVector<int64_t> workset;
  memory_internal::ScratchVector<int64_t>
      phis;  // passes visit only the phis, in id order
  for (size_t id = 0; id < n; ++id) {
    if (nodes_[id].is_phi) phis.push_back(static_cast<int64_t>(id));
  }
  // Removes every `self` from a list, keeping the order.
  auto erase = [](int64_t* list, int64_t* size, int64_t self) {
    *size = std::remove(list, list + *size, self) - list;
  };
  for (bool changed = true; changed; ++pass) {
    changed = false;
    for (const int64_t id : phis) {
      if (nodes_[id].dead) continue;
      const int64_t self = id;
      erase(operands_of(id), &nodes_[id].operands_size, self);
      // Users are removed in place (kRemoved), which keeps the positions of
      // long lists' index.
      ReplaceUser(id, self, kRemoved);
      const absl::Span<const int64_t> ops = operands(id);
      if (ops.empty()) continue;
      const int64_t first = ops[0];
      if (std::all_of(ops.begin(), ops.end(),
                      [&](int64_t o) { return o == first; })) {
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
      int64_t next_operand = 0;
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
