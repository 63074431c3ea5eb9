#include "hlolayout/memory/phi_graph.h"

#include <algorithm>

namespace hlolayout {

void PhiGraph::Replace(int64_t node, int64_t with) {
  if (nodes[node].dead) return;
  with = Find(with);
  for (int64_t user : nodes[node].users) {
    for (int64_t& op : nodes[user].operands) {
      if (op == node) op = with;
    }
  }
  for (int64_t op : nodes[node].operands) {
    for (int64_t& u : nodes[op].users) {
      if (u == node) u = with;
    }
  }
  nodes[node].dead = true;
  nodes[node].replaced_by = with;
}

void PhiGraph::Optimize() {
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (int64_t op : nodes[i].operands) nodes[op].users.push_back(i);
  }
  // Visit marks by pass and by closure, so that no set is allocated per
  // phi.
  std::vector<int64_t> checked_pass(nodes.size(), -1);
  std::vector<int64_t> in_workset(nodes.size(), -1);
  int64_t pass = 0, closure = 0;
  std::vector<int64_t> worklist, workset;
  std::vector<int64_t> phis;  // passes visit only the phis, in id order
  for (size_t id = 0; id < nodes.size(); ++id) {
    if (nodes[id].is_phi) phis.push_back(static_cast<int64_t>(id));
  }
  for (bool changed = true; changed; ++pass) {
    changed = false;
    for (const int64_t id : phis) {
      PNode& node = nodes[id];
      if (node.dead) continue;
      const int64_t self = id;
      node.operands.erase(
          std::remove(node.operands.begin(), node.operands.end(), self),
          node.operands.end());
      node.users.erase(std::remove(node.users.begin(), node.users.end(), self),
                       node.users.end());
      if (node.operands.empty()) continue;
      const int64_t first = node.operands[0];
      if (std::all_of(node.operands.begin(), node.operands.end(),
                      [&](int64_t o) { return o == first; })) {
        Replace(self, first);
        changed = true;
        continue;
      }
      if (checked_pass[self] == pass) continue;
      ++closure;
      worklist.assign(1, self);
      workset.clear();
      size_t head = 0;
      int64_t non_phi = kNone;
      bool several = false;
      while (head < worklist.size()) {
        const int64_t todo = worklist[head++];
        if (in_workset[todo] == closure) continue;
        checked_pass[todo] = pass;
        in_workset[todo] = closure;
        workset.push_back(todo);
        for (int64_t op : nodes[todo].operands) worklist.push_back(op);
        if (!nodes[todo].is_phi) {
          if (non_phi != kNone && non_phi != todo) {
            several = true;
            break;
          }
          non_phi = todo;
        }
      }
      if (!several && non_phi != kNone) {
        for (int64_t n : workset) {
          if (nodes[n].is_phi) Replace(n, non_phi);
        }
        changed = true;
      }
    }
  }
}

}  // namespace hlolayout
