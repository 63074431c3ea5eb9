#include "hlolayout/memory/xla_schedulers.h"

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <tuple>
#include <utility>

namespace hlolayout {

void SchedulingLists::SetTransposeOf(const SchedulingLists& from, size_t rows) {
  // Counting sort: sizes, offsets, then the rows of `from` in order. An
  // item repeated within a row of `from` counts once: short rows look back,
  // long ones (a tuple of many operands) mark what they hold.
  constexpr size_t kShortRow = 16;
  std::vector<int64_t> last;  // long rows: last[j] == i when row i holds j
  auto first_in_row = [&](size_t i, size_t k) {
    const absl::Span<const int64_t> row = from[i];
    if (row.size() <= kShortRow) {
      for (size_t m = 0; m < k; ++m) {
        if (row[m] == row[k]) return false;
      }
      return true;
    }
    if (last.empty()) last.assign(rows, -1);
    if (last[row[k]] == static_cast<int64_t>(i)) return false;
    last[row[k]] = static_cast<int64_t>(i);
    return true;
  };
  begin_.assign(rows + 2, 0);  // counts at j + 2, then row starts at j + 1
  for (size_t i = 0; i < from.rows(); ++i) {
    const absl::Span<const int64_t> row = from[i];
    for (size_t k = 0; k < row.size(); ++k) {
      if (first_in_row(i, k)) ++begin_[row[k] + 2];
    }
  }
  for (size_t j = 2; j < begin_.size(); ++j) begin_[j] += begin_[j - 1];
  items_.resize(begin_.back());
  std::fill(last.begin(), last.end(), -1);
  for (size_t i = 0; i < from.rows(); ++i) {
    const absl::Span<const int64_t> row = from[i];
    for (size_t k = 0; k < row.size(); ++k) {
      if (first_in_row(i, k)) {
        items_[begin_[row[k] + 1]++] = static_cast<int64_t>(i);
      }
    }
  }
  begin_.pop_back();
}

void SchedulingGraph::Clear() {
  instructions.clear();
  operands.Clear();
  control_predecessors.Clear();
  used_buffers.Clear();
  defined_buffers.Clear();
  users.Clear();
  control_successors.Clear();
  buffer_bytes.clear();
  live_out.clear();
  root = -1;
  text_order.clear();
}

void SchedulingGraph::SetUsers() {
  users.SetTransposeOf(operands, instructions.size());
  control_successors.SetTransposeOf(control_predecessors, instructions.size());
}

absl::string_view XlaSchedulerName(XlaScheduler scheduler) {
  switch (scheduler) {
    case XlaScheduler::kList:
      return "list";
    case XlaScheduler::kDfs:
      return "dfs";
    case XlaScheduler::kPostOrder:
      return "post-order";
    case XlaScheduler::kDfsParametersFirst:
      return "dfs, parameters first";
  }
  return "";
}

namespace {

using Graph = SchedulingGraph;

// Checks an order as it is produced against the text's order, so that a
// replay that cannot match stops at its first difference.
// With `skip_parameters`, parameters are left out on both sides (for an
// order whose parameters move to the front afterwards).
class TextCheck {
 public:
  TextCheck(const Graph& g, bool enabled, bool skip_parameters = false)
      : g_(g), enabled_(enabled), skip_parameters_(skip_parameters) {}
  // False when `id`, emitted next, breaks the text's order.
  bool Emit(int64_t id) {
    if (!enabled_ || g_.instructions[id].folded) return true;
    if (skip_parameters_) {
      if (g_.instructions[id].parameter) return true;
      while (next_ < g_.text_order.size() &&
             g_.instructions[g_.text_order[next_]].parameter) {
        ++next_;
      }
    }
    return next_ < g_.text_order.size() && g_.text_order[next_++] == id;
  }

 private:
  const Graph& g_;
  const bool enabled_;
  const bool skip_parameters_;
  size_t next_ = 0;
};

// XLA's HloComputation::MakeInstructionPostOrder: from every instruction
// without users, in instruction order, a depth-first walk that visits
// operands first to last.
// With `check`, an order that leaves the text's comes back empty.
std::vector<int64_t> PostOrder(const Graph& g, bool check) {
  const size_t n = g.instructions.size();
  TextCheck text(g, check);
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 visiting, 2 visited
  std::vector<int64_t> order, stack;
  order.reserve(n);
  for (size_t r = 0; r < n; ++r) {
    if (!g.users[r].empty()) continue;
    stack.assign(1, static_cast<int64_t>(r));
    while (!stack.empty()) {
      const int64_t current = stack.back();
      if (state[current] != 0) {
        stack.pop_back();
        if (state[current] != 2) {
          if (!text.Emit(current)) return {};
          order.push_back(current);
          state[current] = 2;
        }
        continue;
      }
      state[current] = 1;
      const absl::Span<const int64_t> ops = g.operands[current];
      stack.insert(stack.end(), ops.rbegin(), ops.rend());
      const absl::Span<const int64_t> preds = g.control_predecessors[current];
      stack.insert(stack.end(), preds.begin(), preds.end());
    }
  }
  return order;
}

// XLA's DFSMemoryScheduler: a post-order walk from the root that visits
// operands with more "extra users" first, then the larger cumulative
// size, then by name.
struct DfsStats {
  int64_t extra_users = 0;
  int64_t total_sizes = 0;
};

// The DFS scheduler's statistics, computed along XLA's post order.
std::vector<DfsStats> ComputeDfsStats(const Graph& g,
                                      const std::vector<int64_t>& post_order) {
  const size_t n = g.instructions.size();
  std::vector<DfsStats> stats(n);
  int64_t cumulative = 0;
  const int64_t total_hlos = static_cast<int64_t>(n);
  std::vector<int64_t> seen(n, -1);  // distinct operands: seen[op] == id
  for (int64_t id : post_order) {
    const Graph::Instruction& in = g.instructions[id];
    if (in.ignored) continue;
    DfsStats& s = stats[id];
    const size_t users = g.users[id].size();
    s.extra_users = users == 0 ? 0 : static_cast<int64_t>(users) - 1;
    int64_t bytes = 0;
    for (int64_t b : g.defined_buffers[id]) bytes += g.buffer_bytes[b];
    s.total_sizes = bytes;
    cumulative += bytes;
    for (int64_t op : g.operands[id]) {
      if (seen[op] == id) continue;
      seen[op] = id;
      s.extra_users += stats[op].extra_users;
      s.total_sizes += stats[op].total_sizes;
    }
    s.total_sizes = std::min(s.total_sizes, cumulative);
    s.extra_users = std::min(s.extra_users, total_hlos);
  }
  return stats;
}

// The DFS scheduler's order; with `check`, empty as soon as it leaves the
// text's order (parameters aside with `parameters_first`).
std::vector<int64_t> DfsOrder(const Graph& g,
                              const std::vector<DfsStats>& stats, bool check,
                              bool parameters_first) {
  const size_t n = g.instructions.size();
  TextCheck text(g, check, parameters_first);
  // Names: a folded get-tuple-element is named get-tuple-element[.K] by
  // XLA; K is unknown, so two of them compare by instruction order.
  auto name_less = [&](int64_t a, int64_t b) {
    const Graph::Instruction& x = g.instructions[a];
    const Graph::Instruction& y = g.instructions[b];
    if (x.folded && y.folded) return a < b;
    const absl::string_view xn = x.folded ? "get-tuple-element" : x.name;
    const absl::string_view yn = y.folded ? "get-tuple-element" : y.name;
    if (xn != yn) return xn < yn;
    return x.folded ? false : y.folded;  // "get-tuple-element" < ".K"
  };
  auto before = [&](int64_t a, int64_t b) {
    if (stats[a].extra_users != stats[b].extra_users) {
      return stats[a].extra_users > stats[b].extra_users;
    }
    if (stats[a].total_sizes != stats[b].total_sizes) {
      return stats[a].total_sizes > stats[b].total_sizes;
    }
    return name_less(a, b);
  };
  // HloComputation::AcceptWithOperandOrder: unreachable roots (no users,
  // not the root) in instruction order, then the root; each a PostOrderDFS
  // that sorts the operands it pushes and reverses them.
  std::vector<uint8_t> state(n, 0);
  std::vector<int64_t> order, stack;
  order.reserve(n);
  auto visit = [&](int64_t root) {
    if (state[root] == 2) return true;
    stack.assign(1, root);
    while (!stack.empty()) {
      const int64_t current = stack.back();
      if (state[current] == 2) {
        stack.pop_back();
        continue;
      }
      if (state[current] == 1) {
        stack.pop_back();
        if (!text.Emit(current)) return false;
        order.push_back(current);
        state[current] = 2;
        continue;
      }
      state[current] = 1;
      const size_t old_size = stack.size();
      for (int64_t op : g.operands[current]) {
        if (state[op] == 0) stack.push_back(op);
      }
      for (int64_t op : g.control_predecessors[current]) {
        if (state[op] == 0) stack.push_back(op);
      }
      std::sort(stack.begin() + old_size, stack.end(), before);
      std::reverse(stack.begin() + old_size, stack.end());
    }
    return true;
  };
  for (size_t r = 0; r < n; ++r) {
    if (static_cast<int64_t>(r) != g.root && g.users[r].empty() &&
        g.control_successors[r].empty()) {
      if (!visit(static_cast<int64_t>(r))) return {};
    }
  }
  if (g.root >= 0 && !visit(g.root)) return {};
  return order;
}

// XLA's ListScheduler, guided by the text: it schedules, among the ready
// instructions, the one of highest priority (bytes freed minus bytes
// defined, then users; scalars first), the latest made ready among equals.
// A printed instruction is taken when it is the text's next one and no
// ready one has a higher priority; folded get-tuple-elements are taken
// when the scheduler would take them.
class GuidedListScheduler {
 public:
  explicit GuidedListScheduler(const Graph& g)
      : g_(g),
        use_count_(g.buffer_bytes.size(), 0),
        pending_(g.instructions.size(), 0),
        entry_of_(g.instructions.size()),
        is_ready_(g.instructions.size(), false) {
    const size_t n = g.instructions.size();
    int64_t edges = 0;
    for (size_t i = 0; i < n; ++i) {
      for (int64_t b : g.used_buffers[i]) ++use_count_[b];
      for (int64_t user : g.users[i]) ++pending_[user];
      for (int64_t succ : g.control_successors[i]) ++pending_[succ];
      edges +=
          static_cast<int64_t>(g.used_buffers[i].size() + g.users[i].size() +
                               g.defined_buffers[i].size());
    }
    for (int64_t b : g.live_out) ++use_count_[b];
    // XLA recomputes priorities as buffers near their last use, which is
    // quadratic on wide tuples; past a budget linear in the graph the
    // replay gives up (the caller keeps its simpler placement).
    budget_ = 64 * (edges + static_cast<int64_t>(n)) + (1 << 20);
  }

  // Nullopt when a printed instruction other than the text's next would
  // come first, or past the budget.
  absl::optional<std::vector<int64_t>> Run() {
    const size_t n = g_.instructions.size();
    for (size_t i = 0; i < n; ++i) {
      if (pending_[i] == 0) Add(static_cast<int64_t>(i));
    }
    order_.reserve(n);
    size_t next = 0;
    while (!ready_.empty()) {
      if (work_ > budget_) return absl::nullopt;
      const int64_t take = NextToTake(&next);
      if (take < 0) return absl::nullopt;
      Schedule(take);
    }
    if (order_.size() != n) return absl::nullopt;
    return std::move(order_);
  }

 private:
  using Priority = std::pair<int64_t, int64_t>;
  // (priority, sequence number, id); the last element is the best.
  using Entry = std::tuple<Priority, int64_t, int64_t>;

  Priority PriorityOf(int64_t id) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    work_ += 1 + static_cast<int64_t>(g_.used_buffers[id].size() +
                                      g_.defined_buffers[id].size());
    if (g_.instructions[id].effective_scalar) return {kMax, kMax};
    int64_t freed = 0;
    for (int64_t b : g_.used_buffers[id]) {
      if (use_count_[b] == 1) freed += g_.buffer_bytes[b];
    }
    int64_t defined = 0;
    for (int64_t b : g_.defined_buffers[id]) defined += g_.buffer_bytes[b];
    return {freed - defined, static_cast<int64_t>(g_.users[id].size())};
  }

  void Add(int64_t id) {
    entry_of_[id] = Entry(PriorityOf(id), sequence_++, id);
    ready_.insert(entry_of_[id]);
    is_ready_[id] = true;
  }

  // The instruction to schedule next, -1 when the text's order cannot be
  // followed; advances `next` past the text's instruction when it is taken.
  int64_t NextToTake(size_t* next) const {
    const Entry& best = *ready_.rbegin();
    const int64_t best_id = std::get<2>(best);
    if (*next == g_.text_order.size()) {
      return g_.instructions[best_id].folded ? best_id : -1;
    }
    const int64_t x = g_.text_order[*next];
    if (!is_ready_[x] || std::get<0>(best) > std::get<0>(entry_of_[x])) {
      // Something of higher priority comes first: only a folded one may.
      return g_.instructions[best_id].folded ? best_id : -1;
    }
    // Equal priorities: the latest made ready among the folded ones and x.
    for (auto it = ready_.rbegin(); it != ready_.rend(); ++it) {
      if (std::get<0>(*it) != std::get<0>(entry_of_[x])) break;
      if (std::get<1>(*it) <= std::get<1>(entry_of_[x])) break;
      if (g_.instructions[std::get<2>(*it)].folded) return std::get<2>(*it);
    }
    ++*next;
    return x;
  }

  void Schedule(int64_t id) {
    ready_.erase(entry_of_[id]);
    is_ready_[id] = false;
    order_.push_back(id);
    bool adjust = false;
    for (int64_t b : g_.used_buffers[id]) {
      if (--use_count_[b] == 1) adjust = true;
    }
    for (int64_t user : g_.users[id]) {
      if (--pending_[user] == 0) Add(user);
    }
    for (int64_t succ : g_.control_successors[id]) {
      if (--pending_[succ] == 0) Add(succ);
    }
    if (adjust) Reprioritize(id);
  }

  // A buffer `id` used is down to its last use: its users' priorities.
  void Reprioritize(int64_t id) {
    for (int64_t op : g_.operands[id]) {
      for (int64_t user : g_.users[op]) {
        ++work_;
        if (!is_ready_[user]) continue;
        const Priority p = PriorityOf(user);
        if (p == std::get<0>(entry_of_[user])) continue;
        ready_.erase(entry_of_[user]);
        entry_of_[user] = Entry(p, sequence_++, user);
        ready_.insert(entry_of_[user]);
      }
    }
  }

  const Graph& g_;
  std::vector<int64_t> use_count_, pending_;
  int64_t budget_ = 0, work_ = 0, sequence_ = 0;
  std::set<Entry> ready_;
  std::vector<Entry> entry_of_;
  std::vector<bool> is_ready_;
  std::vector<int64_t> order_;
};

absl::optional<std::vector<int64_t>> GuidedListOrder(const Graph& g) {
  return GuidedListScheduler(g).Run();
}

bool FollowsText(const Graph& g, const std::vector<int64_t>& order) {
  if (order.size() != g.instructions.size()) return false;
  size_t next = 0;
  for (int64_t id : order) {
    if (g.instructions[id].folded) continue;
    if (next >= g.text_order.size() || g.text_order[next] != id) return false;
    ++next;
  }
  return next == g.text_order.size();
}

// The DFS scheduler's order (with the parameters moved to the front when
// asked), if it follows the text.
absl::optional<std::vector<int64_t>> DfsReplay(
    const Graph& g, const std::vector<DfsStats>& stats, bool parameters_first) {
  std::vector<int64_t> order =
      DfsOrder(g, stats, /*check=*/true, parameters_first);
  if (parameters_first) {
    std::stable_partition(order.begin(), order.end(), [&](int64_t id) {
      return g.instructions[id].parameter;
    });
  }
  if (!FollowsText(g, order)) return absl::nullopt;
  return order;
}

}  // namespace

std::array<absl::optional<std::vector<int64_t>>, 4> ReplayXlaSchedulers(
    const SchedulingGraph& graph) {
  std::array<absl::optional<std::vector<int64_t>>, 4> out;
  auto at = [&](XlaScheduler s) -> absl::optional<std::vector<int64_t>>& {
    return out[static_cast<int>(s)];
  };
  at(XlaScheduler::kList) = GuidedListOrder(graph);
  // One post order serves the post-order scheduler and the DFS statistics.
  std::vector<int64_t> post = PostOrder(graph, /*check=*/false);
  const std::vector<DfsStats> stats = ComputeDfsStats(graph, post);
  if (FollowsText(graph, post)) at(XlaScheduler::kPostOrder) = std::move(post);
  at(XlaScheduler::kDfs) = DfsReplay(graph, stats, false);
  at(XlaScheduler::kDfsParametersFirst) = DfsReplay(graph, stats, true);
  return out;
}

absl::optional<XlaScheduler> ChooseXlaScheduler(
    size_t computations, size_t sample,
    const std::function<bool(size_t, XlaScheduler)>& reproduces, bool skip) {
  // By preference: XLA's own (list, DFS, post-order), with DFS with the
  // parameters first (XLA:CPU's schedules) before post-order.
  constexpr XlaScheduler kPreference[4] = {
      XlaScheduler::kList, XlaScheduler::kDfs,
      XlaScheduler::kDfsParametersFirst, XlaScheduler::kPostOrder};
  std::array<size_t, 4> reproduced{}, left{};
  size_t from = 0;
  for (size_t round = 0; round < 2; ++round) {
    const size_t n = round == 0 ? std::min(sample, computations) : computations;
    if (round == 1 && n == from) break;
    for (int s = 0; s < 4; ++s) left[s] = n - from;
    // Scheduler s cannot be chosen, whatever its remaining replays give.
    auto cannot_win = [&](int s) {
      const size_t most = reproduced[s] + left[s];
      for (int t = 0; t < 4; ++t) {
        if (t != s &&
            (reproduced[t] > most || (reproduced[t] == most && t < s))) {
          return true;
        }
      }
      return false;
    };
    for (size_t k = n; k-- > from;) {
      for (int s = 0; s < 4; ++s) {
        if (skip && cannot_win(s)) continue;
        --left[s];
        reproduced[s] += reproduces(k, kPreference[s]);
      }
    }
    from = n;
    size_t best_count = 0;
    int best = -1;
    for (int s = 0; s < 4; ++s) {
      if (reproduced[s] > best_count) {
        best_count = reproduced[s];
        best = s;
      }
    }
    if (best >= 0) return kPreference[best];
  }
  return absl::nullopt;
}

void EncodeSchedulingGraph(const SchedulingGraph& g,
                           FlatSchedulingGraph* flat) {
  std::vector<int64_t>& data = flat->data;
  data.clear();
  const size_t n = g.instructions.size();
  data.push_back(static_cast<int64_t>(n));
  auto append = [&](absl::Span<const int64_t> items) {
    data.push_back(static_cast<int64_t>(items.size()));
    data.insert(data.end(), items.begin(), items.end());
  };
  flat->names.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const SchedulingGraph::Instruction& in = g.instructions[i];
    data.push_back(
        (in.folded ? FlatSchedulingGraph::kFolded : 0) |
        (in.ignored ? FlatSchedulingGraph::kIgnored : 0) |
        (in.parameter ? FlatSchedulingGraph::kParameter : 0) |
        (in.effective_scalar ? FlatSchedulingGraph::kEffectiveScalar : 0));
    append(g.operands[i]);
    append(g.control_predecessors[i]);
    append(g.used_buffers[i]);
    append(g.defined_buffers[i]);
    flat->names[i] = in.name;
  }
  append(g.buffer_bytes);
  append(g.live_out);
  data.push_back(g.root);
  append(g.text_order);
}

void DecodeSchedulingGraph(const FlatSchedulingGraph& flat,
                           SchedulingGraph* graph) {
  SchedulingGraph& g = *graph;
  g.Clear();
  const int64_t* data = flat.data.data();
  const int64_t n = data[0];
  // Sizes first, so that each list is filled in place.
  SchedulingLists* const lists[4] = {&g.operands, &g.control_predecessors,
                                     &g.used_buffers, &g.defined_buffers};
  int64_t items[4] = {0, 0, 0, 0};
  const int64_t* at = data + 1;
  for (int64_t i = 0; i < n; ++i) {
    ++at;  // flags
    for (int list = 0; list < 4; ++list) {
      items[list] += *at;
      at += 1 + *at;
    }
  }
  for (int list = 0; list < 4; ++list) {
    lists[list]->begin_.resize(n + 1);
    lists[list]->items_.resize(items[list]);
    items[list] = 0;  // now: where the next row goes
  }
  g.instructions.resize(n);
  at = data + 1;
  for (int64_t i = 0; i < n; ++i) {
    SchedulingGraph::Instruction& in = g.instructions[i];
    const int64_t flags = *at++;
    in.folded = (flags & FlatSchedulingGraph::kFolded) != 0;
    in.ignored = (flags & FlatSchedulingGraph::kIgnored) != 0;
    in.parameter = (flags & FlatSchedulingGraph::kParameter) != 0;
    in.effective_scalar = (flags & FlatSchedulingGraph::kEffectiveScalar) != 0;
    in.name = flat.names[i];
    for (int list = 0; list < 4; ++list) {
      const int64_t count = *at++;
      SchedulingLists& l = *lists[list];
      std::copy(at, at + count, l.items_.data() + items[list]);
      at += count;
      items[list] += count;
      l.begin_[i + 1] = items[list];
    }
  }
  auto vector = [&](std::vector<int64_t>* out) {
    const int64_t count = *at++;
    out->assign(at, at + count);
    at += count;
  };
  vector(&g.buffer_bytes);
  vector(&g.live_out);
  g.root = *at++;
  vector(&g.text_order);
  g.SetUsers();
}

void XlaReplayCache::Decode(const FlatSchedulingGraph& flat) {
  if (has_decoded_ && decoded_.data == flat.data &&
      decoded_.names == flat.names) {
    return;
  }
  DecodeSchedulingGraph(flat, &graph_);
  decoded_.data = flat.data;
  decoded_.names = flat.names;
  has_decoded_ = true;
}

const absl::optional<std::vector<int64_t>>& XlaReplayCache::Replay(
    const FlatSchedulingGraph& flat, XlaScheduler scheduler) {
  const std::vector<int64_t>& data = flat.data;
  if (data.size() > kLargest) {
    Decode(flat);
    uncached_ = ReplayXlaScheduler(graph_, scheduler);
    return uncached_;
  }
  std::vector<int64_t>& key = key_;
  const bool dfs = scheduler == XlaScheduler::kDfs ||
                   scheduler == XlaScheduler::kDfsParametersFirst;
  const int64_t n = data.empty() ? 0 : data[0];
  key.resize(1 + data.size() + (dfs ? n : 0));
  key[0] = static_cast<int64_t>(scheduler);
  std::copy(data.begin(), data.end(), key.begin() + 1);
  if (dfs) {
    // The DFS tie-break compares names, a folded get-tuple-element's being
    // "get-tuple-element": each instruction's rank among the distinct
    // names decides it.
    folded_.resize(n);
    size_t at = 1;
    for (int64_t i = 0; i < n; ++i) {
      folded_[i] = (data[at++] & FlatSchedulingGraph::kFolded) != 0;
      for (int list = 0; list < 4; ++list) at += 1 + data[at];
    }
    auto name = [&](int64_t i) {
      return folded_[i] ? absl::string_view("get-tuple-element")
                        : flat.names[i];
    };
    by_name_.resize(n);
    for (int64_t i = 0; i < n; ++i) by_name_[i] = i;
    std::sort(by_name_.begin(), by_name_.end(),
              [&](int64_t a, int64_t b) { return name(a) < name(b); });
    int64_t* ranks = key.data() + 1 + data.size();
    int64_t rank = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (k > 0 && name(by_name_[k]) != name(by_name_[k - 1])) ++rank;
      ranks[by_name_[k]] = rank;
    }
  }
  auto it = orders_.find(key);
  if (it != orders_.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  Decode(flat);
  return orders_.emplace(key, ReplayXlaScheduler(graph_, scheduler))
      .first->second;
}

absl::optional<std::vector<int64_t>> ReplayXlaScheduler(
    const SchedulingGraph& graph, XlaScheduler scheduler) {
  if (scheduler == XlaScheduler::kList) return GuidedListOrder(graph);
  const bool post_order = scheduler == XlaScheduler::kPostOrder;
  std::vector<int64_t> post = PostOrder(graph, /*check=*/post_order);
  if (!post_order) {
    return DfsReplay(graph, ComputeDfsStats(graph, post),
                     scheduler == XlaScheduler::kDfsParametersFirst);
  }
  if (!FollowsText(graph, post)) return absl::nullopt;
  return post;
}

}  // namespace hlolayout
