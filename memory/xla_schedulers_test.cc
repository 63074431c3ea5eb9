#include "hlolayout/memory/xla_schedulers.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// Builds a SchedulingGraph instruction by instruction; folded
// get-tuple-elements have no name and are left out of the text order.
class GraphBuilder {
 public:
  int64_t Add(const char* name, std::vector<int64_t> operands,
              std::vector<int64_t> defined_bytes = {}, bool scalar = false) {
    Row row;
    row.in.name = name;
    row.in.effective_scalar = scalar;
    row.operands = std::move(operands);
    for (int64_t bytes : defined_bytes) {
      row.defined.push_back(static_cast<int64_t>(buffer_bytes_.size()));
      buffer_bytes_.push_back(bytes);
    }
    names_.push_back(name);
    rows_.push_back(std::move(row));
    return static_cast<int64_t>(rows_.size()) - 1;
  }
  int64_t Parameter(const char* name) {
    const int64_t id = Add(name, {});
    rows_[id].in.parameter = true;
    rows_[id].in.ignored = true;
    return id;
  }
  int64_t Constant(const char* name) {
    const int64_t id = Add(name, {}, {}, /*scalar=*/true);
    rows_[id].in.ignored = true;
    return id;
  }
  // A folded get-tuple-element of `producer`, reading all its buffers.
  int64_t Folded(int64_t producer, const char* label, bool scalar) {
    const int64_t id = Add(label, {producer}, {}, scalar);
    rows_[id].in.folded = true;
    rows_[id].in.name = "";
    rows_[id].used = rows_[producer].defined;
    return id;
  }
  void Uses(int64_t id, std::vector<int64_t> buffers) {
    rows_[id].used = std::move(buffers);
  }
  void ControlPredecessor(int64_t id, int64_t predecessor) {
    rows_[id].control.push_back(predecessor);
  }
  const std::vector<int64_t>& Defined(int64_t id) const {
    return rows_[id].defined;
  }

  // The graph so far, with `text` as the printed order.
  SchedulingGraph Build(std::vector<int64_t> text, int64_t root) const {
    SchedulingGraph g;
    for (const Row& row : rows_) {
      g.instructions.push_back(row.in);
      for (int64_t x : row.operands) g.operands.Add(x);
      for (int64_t x : row.control) g.control_predecessors.Add(x);
      for (int64_t x : row.used) g.used_buffers.Add(x);
      for (int64_t x : row.defined) g.defined_buffers.Add(x);
      g.operands.EndRow();
      g.control_predecessors.EndRow();
      g.used_buffers.EndRow();
      g.defined_buffers.EndRow();
    }
    g.buffer_bytes = buffer_bytes_;
    g.text_order = std::move(text);
    g.root = root;
    g.SetUsers();
    return g;
  }
  std::string Names(const std::vector<int64_t>& order) const {
    std::vector<std::string> out;
    for (int64_t id : order) out.push_back(names_[id]);
    return absl::StrJoin(out, " ");
  }

 private:
  struct Row {
    SchedulingGraph::Instruction in;
    std::vector<int64_t> operands, control, used, defined;
  };
  std::vector<Row> rows_;
  std::vector<int64_t> buffer_bytes_;
  std::vector<std::string> names_;
};

// The shape of XLA's 12-element tuple module, with one fusion:
//   f = (f32[4,33], f32[]) fusion(p); add = f32[] fusion(f#1);
//   ROOT t = tuple(f#0, add)
// The list scheduler takes the scalar f#1 first, then the scalar `add`
// (highest priority), and f#0 only then.
TEST(ReplayXlaScheduler, ListTakesScalarsFirst) {
  GraphBuilder b;
  const int64_t p = b.Parameter("p");
  const int64_t f = b.Add("f", {p}, {16, 528, 4});
  const int64_t g0 = b.Folded(f, "f#0", false);
  const int64_t g1 = b.Folded(f, "f#1", true);
  const int64_t add = b.Add("add", {g1}, {4}, /*scalar=*/true);
  b.Uses(add, {b.Defined(f)[2]});
  const int64_t t = b.Add("t", {g0, add}, {16});
  b.Uses(t, {b.Defined(f)[1], b.Defined(add)[0]});
  SchedulingGraph g = b.Build({p, f, add, t}, t);
  g.live_out = {b.Defined(f)[1], b.Defined(add)[0], b.Defined(t)[0]};
  auto order = ReplayXlaScheduler(g, XlaScheduler::kList);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(b.Names(*order), "p f f#1 add f#0 t");
}

// The shape of XLA's sort/FFT module: the DFS scheduler visits the root's
// operands with the larger cumulative size first, so the FFT runs before
// the get-tuple-element that only the root reads.
TEST(ReplayXlaScheduler, DfsVisitsLargerOperandsFirst) {
  GraphBuilder b;
  const int64_t p = b.Parameter("x");
  const int64_t f = b.Add("convert", {p}, {16, 256000, 512000});
  const int64_t g0 = b.Folded(f, "convert#0", false);
  const int64_t g1 = b.Folded(f, "convert#1", false);
  const int64_t fft = b.Add("fft", {g1}, {512000});
  const int64_t t = b.Add("t", {g0, fft}, {16});
  SchedulingGraph g = b.Build({p, f, fft, t}, t);
  auto order = ReplayXlaScheduler(g, XlaScheduler::kDfs);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(b.Names(*order), "x convert convert#1 fft convert#0 t");
  // The post-order scheduler visits operands first to last: it would have
  // printed t's first operand's producer chain first, which is this text
  // too, with the get-tuple-elements in operand order.
  auto post = ReplayXlaScheduler(g, XlaScheduler::kPostOrder);
  ASSERT_TRUE(post.has_value());
  EXPECT_EQ(b.Names(*post), "x convert convert#0 convert#1 fft t");
}

// A while condition as XLA:CPU prints it: parameter, constant, compare.
// DFS names `constant.16` before `get-tuple-element...` and so would put
// the constant first; only with the parameters first does it give the
// text, with the folded get-tuple-element after the constant.
TEST(ReplayXlaScheduler, DfsWithParametersFirst) {
  GraphBuilder b;
  const int64_t c = b.Parameter("arg_tuple");
  const int64_t k = b.Constant("constant.16");
  const int64_t g0 = b.Folded(c, "arg_tuple#0", true);
  const int64_t lt = b.Add("compare", {g0, k}, {1}, true);
  SchedulingGraph g = b.Build({c, k, lt}, lt);
  EXPECT_FALSE(ReplayXlaScheduler(g, XlaScheduler::kDfs).has_value());
  auto order = ReplayXlaScheduler(g, XlaScheduler::kDfsParametersFirst);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(b.Names(*order), "arg_tuple constant.16 arg_tuple#0 compare");
  auto post = ReplayXlaScheduler(g, XlaScheduler::kPostOrder);
  ASSERT_TRUE(post.has_value());
  EXPECT_EQ(b.Names(*post), "arg_tuple arg_tuple#0 constant.16 compare");
}

// A replay that cannot give the text's order is refused, and control
// predecessors order instructions as operands do.
TEST(ReplayXlaScheduler, RefusesOrdersItCannotProduceAndHonoursControlEdges) {
  GraphBuilder b;
  const int64_t p = b.Parameter("p");
  const int64_t a = b.Add("a", {p}, {32});
  const int64_t e = b.Add("e", {p}, {32});
  const int64_t t = b.Add("t", {a, e}, {16});
  SchedulingGraph g = b.Build({p, e, a, t}, t);
  EXPECT_FALSE(ReplayXlaScheduler(g, XlaScheduler::kPostOrder).has_value());
  // `a` waits for `e`: now the post-order walk gives the text.
  b.ControlPredecessor(a, e);
  g = b.Build({p, e, a, t}, t);
  auto order = ReplayXlaScheduler(g, XlaScheduler::kPostOrder);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(b.Names(*order), "p e a t");
  // The list scheduler follows the text among equal priorities.
  auto list = ReplayXlaScheduler(g, XlaScheduler::kList);
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(b.Names(*list), "p e a t");
}

TEST(ReplayXlaScheduler, EmptyAndUnreachable) {
  SchedulingGraph empty;
  empty.SetUsers();
  for (XlaScheduler s :
       {XlaScheduler::kList, XlaScheduler::kDfs, XlaScheduler::kPostOrder,
        XlaScheduler::kDfsParametersFirst}) {
    auto order = ReplayXlaScheduler(empty, s);
    ASSERT_TRUE(order.has_value()) << XlaSchedulerName(s);
    EXPECT_TRUE(order->empty());
  }
  // An unused parameter: DFS visits it before the root's tree.
  GraphBuilder b;
  const int64_t unused = b.Parameter("unused");
  const int64_t p = b.Parameter("p");
  const int64_t n = b.Add("n", {p}, {4});
  SchedulingGraph g = b.Build({unused, p, n}, n);
  auto order = ReplayXlaScheduler(g, XlaScheduler::kDfs);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(b.Names(*order), "unused p n");
}

// Users are distinct and in instruction order, whether an instruction
// repeats an operand in a short row or in a long one (a wide tuple).
TEST(SchedulingLists, TransposeKeepsUsersDistinctAndOrdered) {
  SchedulingLists from;
  for (int64_t x : {1, 2, 1}) from.Add(x);
  from.EndRow();  // row 0 reads 1, 2, 1
  for (int k = 0; k < 40; ++k) from.Add(k % 2 == 0 ? 2 : 0);
  from.EndRow();  // row 1 reads 2 and 0, twenty times each
  from.EndRow();  // row 2 reads nothing
  SchedulingLists users;
  users.SetTransposeOf(from, 3);
  ASSERT_EQ(users.rows(), 3u);
  EXPECT_THAT(users[0], ::testing::ElementsAre(1));
  EXPECT_THAT(users[1], ::testing::ElementsAre(0));
  EXPECT_THAT(users[2], ::testing::ElementsAre(0, 1));
}

// Determinism, not correctness (the library against itself): the choice
// with skipped replays is the choice with every replay, for every pattern
// of which scheduler reproduces which computation (up to four
// computations, samples of one, two and eight); no replay is asked twice,
// and the chosen scheduler was replayed on every computation that decided.
TEST(ChooseXlaSchedulerDeterminism, SkippingReplaysKeepsTheChoice) {
  for (size_t n = 1; n <= 4; ++n) {
    for (size_t sample : {size_t{1}, size_t{2}, size_t{8}}) {
      for (uint32_t pattern = 0; pattern < (1u << (4 * n)); ++pattern) {
        auto reproduces = [&](size_t k, XlaScheduler s) {
          return ((pattern >> (4 * k + static_cast<int>(s))) & 1) != 0;
        };
        std::vector<int> asked(4 * n, 0);
        const absl::optional<XlaScheduler> full =
            ChooseXlaScheduler(n, sample, reproduces, /*skip=*/false);
        const absl::optional<XlaScheduler> fast = ChooseXlaScheduler(
            n, sample,
            [&](size_t k, XlaScheduler s) {
              ++asked[4 * k + static_cast<int>(s)];
              return reproduces(k, s);
            },
            /*skip=*/true);
        ASSERT_EQ(fast, full) << n << " " << sample << " " << pattern;
        for (int a : asked) ASSERT_LE(a, 1);
        if (!fast.has_value()) continue;
        // Deciding: the sample, or everything when the sample had no
        // reproduction.
        size_t deciding = std::min(sample, n);
        bool any = false;
        for (size_t k = 0; k < deciding; ++k) {
          for (int s = 0; s < 4; ++s) {
            any = any || reproduces(k, static_cast<XlaScheduler>(s));
          }
        }
        if (!any) deciding = n;
        for (size_t k = 0; k < deciding; ++k) {
          ASSERT_EQ(asked[4 * k + static_cast<int>(*fast)], 1)
              << n << " " << sample << " " << pattern << " " << k;
        }
      }
    }
  }
  // The order of preference on ties: list, DFS, DFS with parameters
  // first, post-order.
  auto all = [](size_t, XlaScheduler) { return true; };
  EXPECT_EQ(ChooseXlaScheduler(3, 8, all, true), XlaScheduler::kList);
  auto not_list = [](size_t, XlaScheduler s) {
    return s != XlaScheduler::kList;
  };
  EXPECT_EQ(ChooseXlaScheduler(3, 8, not_list, true), XlaScheduler::kDfs);
  auto post_or_params = [](size_t, XlaScheduler s) {
    return s == XlaScheduler::kPostOrder ||
           s == XlaScheduler::kDfsParametersFirst;
  };
  EXPECT_EQ(ChooseXlaScheduler(3, 8, post_or_params, true),
            XlaScheduler::kDfsParametersFirst);
  auto none = [](size_t, XlaScheduler) { return false; };
  EXPECT_EQ(ChooseXlaScheduler(3, 8, none, true), absl::nullopt);
}

// A random graph: parameters, constants, folded get-tuple-elements and
// instructions with random operands, buffers, sizes, names (with ties and
// names around "get-tuple-element"), control edges and a random
// topological text order.
SchedulingGraph RandomGraph(std::mt19937_64& rng) {
  auto r = [&](int n) { return static_cast<int>(rng() % n); };
  static const char* const kNames[] = {"a",   "b", "get-tuple-element",
                                       "get", "z", "get-tuple-element.1"};
  GraphBuilder b;
  const int n = 1 + r(10);
  std::vector<int64_t> defined_any;
  for (int i = 0; i < n; ++i) {
    const char* name = kNames[r(6)];
    const int kind = i == 0 ? 0 : r(5);
    if (kind == 0) {
      b.Parameter(name);
    } else if (kind == 1) {
      b.Constant(name);
    } else if (kind == 2) {
      b.Folded(r(i), "", r(2) == 0);
    } else {
      std::vector<int64_t> operands;
      for (int k = r(4); k > 0; --k) operands.push_back(r(i));
      std::vector<int64_t> bytes;
      for (int k = r(3); k > 0; --k) bytes.push_back(int64_t{4} << r(5));
      const int64_t id = b.Add(name, operands, bytes, r(3) == 0);
      std::vector<int64_t> used;
      for (int64_t op : operands) {
        for (int64_t x : b.Defined(op)) {
          if (std::find(used.begin(), used.end(), x) == used.end()) {
            used.push_back(x);
          }
        }
      }
      b.Uses(id, used);
      if (r(6) == 0) b.ControlPredecessor(id, r(i));
    }
  }
  // A random topological order of the printed instructions.
  SchedulingGraph g = b.Build({}, n - 1 - r(std::min(n, 2)));
  std::vector<int64_t> pending(n, 0), ready;
  for (int i = 0; i < n; ++i) {
    pending[i] = static_cast<int64_t>(g.operands[i].size() +
                                      g.control_predecessors[i].size());
    if (pending[i] == 0) ready.push_back(i);
  }
  while (!ready.empty()) {
    const size_t k = r(static_cast<int>(ready.size()));
    const int64_t id = ready[k];
    ready.erase(ready.begin() + k);
    if (!g.instructions[id].folded) g.text_order.push_back(id);
    for (int i = 0; i < n; ++i) {
      const auto ops = g.operands[i];
      const auto preds = g.control_predecessors[i];
      const int64_t uses = std::count(ops.begin(), ops.end(), id) +
                           std::count(preds.begin(), preds.end(), id);
      if (uses > 0 && (pending[i] -= uses) == 0) ready.push_back(i);
    }
  }
  // Live out: the root's buffers and, like a root tuple's elements, some
  // others.
  for (int64_t x : b.Defined(g.root)) g.live_out.push_back(x);
  for (int64_t x = 0; x < static_cast<int64_t>(g.buffer_bytes.size()); ++x) {
    if (r(4) == 0 && std::find(g.live_out.begin(), g.live_out.end(), x) ==
                         g.live_out.end()) {
      g.live_out.push_back(x);
    }
  }
  return g;
}

// `g` with one thing changed, one of everything the replays read.
SchedulingGraph Variant(const SchedulingGraph& g, std::mt19937_64& rng) {
  auto r = [&](int n) { return static_cast<int>(rng() % n); };
  SchedulingGraph v = g;
  const int n = static_cast<int>(g.instructions.size());
  // `lists` without its item `skip` (counted over all rows), or with `add`
  // appended to row `row`.
  auto edit = [](const SchedulingLists& lists, int64_t skip, int64_t row,
                 int64_t add) {
    SchedulingLists out;
    int64_t k = 0;
    for (size_t i = 0; i < lists.rows(); ++i) {
      for (int64_t x : lists[i]) {
        if (k++ != skip) out.Add(x);
      }
      if (static_cast<int64_t>(i) == row) out.Add(add);
      out.EndRow();
    }
    return out;
  };
  auto items = [](const SchedulingLists& lists) {
    int64_t k = 0;
    for (size_t i = 0; i < lists.rows(); ++i) k += lists[i].size();
    return k;
  };
  const int64_t buffers = static_cast<int64_t>(g.buffer_bytes.size());
  switch (r(10)) {
    case 0: {
      SchedulingGraph::Instruction& in = v.instructions[r(n)];
      switch (r(3)) {
        case 0:
          in.effective_scalar = !in.effective_scalar;
          break;
        case 1:
          in.ignored = !in.ignored;
          break;
        default:
          in.parameter = !in.parameter;
          break;
      }
      break;
    }
    case 1:
      if (buffers > 0) v.buffer_bytes[r(buffers)] *= 1000;
      break;
    case 2:
      if (buffers > 0) {
        const int64_t x = r(buffers);
        auto it = std::find(v.live_out.begin(), v.live_out.end(), x);
        if (it == v.live_out.end()) {
          v.live_out.push_back(x);
        } else {
          v.live_out.erase(it);
        }
      }
      break;
    case 3:
      if (items(g.used_buffers) > 0) {
        v.used_buffers = edit(g.used_buffers, r(items(g.used_buffers)), -1, 0);
      }
      break;
    case 4:
      if (items(g.defined_buffers) > 0) {
        v.defined_buffers =
            edit(g.defined_buffers, r(items(g.defined_buffers)), -1, 0);
      }
      break;
    case 5:
      if (buffers > 0) {
        v.used_buffers = edit(g.used_buffers, -1, r(n), r(buffers));
      }
      break;
    case 6: {
      const int64_t id = r(n);
      if (id > 0) {
        v.control_predecessors =
            edit(g.control_predecessors, -1, id, r(static_cast<int>(id)));
      }
      break;
    }
    case 7:
      if (items(g.operands) > 0) {
        v.operands = edit(g.operands, r(items(g.operands)), -1, 0);
      }
      break;
    case 8:
      v.root = r(n);
      break;
    default: {
      // Names in another order.
      const int64_t id = r(n);
      v.instructions[id].name = id % 2 == 0 ? "0" : "zz";
      break;
    }
  }
  v.SetUsers();
  return v;
}

// Determinism, not correctness (the library against itself): the cache
// gives what a replay gives: for graphs it has seen (hits), renamed copies
// whose names keep their order (hits), and graphs that differ from one it
// has seen in any one thing a replay reads (misses).
TEST(XlaReplayCacheDeterminism, MatchesReplays) {
  std::mt19937_64 rng(14);
  XlaReplayCache cache;
  const XlaScheduler schedulers[] = {XlaScheduler::kList, XlaScheduler::kDfs,
                                     XlaScheduler::kPostOrder,
                                     XlaScheduler::kDfsParametersFirst};
  int64_t found = 0;
  for (int round = 0; round < 3000; ++round) {
    const SchedulingGraph g = RandomGraph(rng);
    SchedulingGraph same_order = g;
    std::vector<std::string> kept(g.instructions.size());
    for (size_t i = 0; i < g.instructions.size(); ++i) {
      kept[i] = absl::StrCat("x.", g.instructions[i].name);
      same_order.instructions[i].name = kept[i];
    }
    std::vector<SchedulingGraph> graphs = {g, same_order, g};
    for (int k = 0; k < 4; ++k) graphs.push_back(Variant(g, rng));
    // Without buffers, for the schedulers that do not read them.
    SchedulingGraph bare = g;
    bare.used_buffers.Clear();
    bare.defined_buffers.Clear();
    for (size_t i = 0; i < g.instructions.size(); ++i) {
      bare.used_buffers.EndRow();
      bare.defined_buffers.EndRow();
    }
    bare.buffer_bytes.clear();
    bare.live_out.clear();
    for (XlaScheduler s : schedulers) {
      if (ReplayReadsBuffers(s)) continue;
      EXPECT_EQ(ReplayXlaScheduler(bare, s), ReplayXlaScheduler(g, s))
          << "round " << round << " " << XlaSchedulerName(s);
    }
    for (const SchedulingGraph& graph : graphs) {
      for (XlaScheduler s : schedulers) {
        const absl::optional<std::vector<int64_t>> want =
            ReplayXlaScheduler(graph, s);
        found += want.has_value();
        FlatSchedulingGraph flat;
        EncodeSchedulingGraph(graph, &flat);
        EXPECT_EQ(cache.Replay(flat, s), want)
            << "round " << round << " " << XlaSchedulerName(s);
      }
    }
  }
  EXPECT_GT(cache.hits(), 0);
  EXPECT_GT(cache.misses(), 0);
  EXPECT_GT(found, 1000);  // replays that reproduce the text are covered
}

// Decoding gives back every field of an encoded graph; graphs too large
// for the cache are replayed all the same.
TEST(XlaReplayCache, EncodesAndDecodesGraphs) {
  std::mt19937_64 rng(15);
  auto lists_equal = [](const SchedulingLists& a, const SchedulingLists& b) {
    if (a.rows() != b.rows()) return false;
    for (size_t i = 0; i < a.rows(); ++i) {
      if (!std::equal(a[i].begin(), a[i].end(), b[i].begin(), b[i].end())) {
        return false;
      }
    }
    return true;
  };
  for (int round = 0; round < 500; ++round) {
    const SchedulingGraph g = RandomGraph(rng);
    FlatSchedulingGraph flat;
    EncodeSchedulingGraph(g, &flat);
    SchedulingGraph back;
    DecodeSchedulingGraph(flat, &back);
    ASSERT_EQ(back.instructions.size(), g.instructions.size());
    for (size_t i = 0; i < g.instructions.size(); ++i) {
      const SchedulingGraph::Instruction& x = g.instructions[i];
      const SchedulingGraph::Instruction& y = back.instructions[i];
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.folded, y.folded);
      EXPECT_EQ(x.ignored, y.ignored);
      EXPECT_EQ(x.parameter, y.parameter);
      EXPECT_EQ(x.effective_scalar, y.effective_scalar);
    }
    EXPECT_TRUE(lists_equal(back.operands, g.operands));
    EXPECT_TRUE(lists_equal(back.control_predecessors, g.control_predecessors));
    EXPECT_TRUE(lists_equal(back.used_buffers, g.used_buffers));
    EXPECT_TRUE(lists_equal(back.defined_buffers, g.defined_buffers));
    EXPECT_TRUE(lists_equal(back.users, g.users));
    EXPECT_TRUE(lists_equal(back.control_successors, g.control_successors));
    EXPECT_EQ(back.buffer_bytes, g.buffer_bytes);
    EXPECT_EQ(back.live_out, g.live_out);
    EXPECT_EQ(back.root, g.root);
    EXPECT_EQ(back.text_order, g.text_order);
  }
  // A chain longer than the cache keeps: p, then a(p), b(a), ... in text
  // order, which the post-order and DFS replays reproduce.
  GraphBuilder b;
  std::vector<int64_t> text = {b.Parameter("p")};
  std::vector<std::string> names(2000);
  for (int i = 0; i < 2000; ++i) {
    names[i] = absl::StrCat("n", 10000 + i);
    text.push_back(b.Add(names[i].c_str(), {text.back()}, {16}));
  }
  const SchedulingGraph chain = b.Build(text, text.back());
  FlatSchedulingGraph flat;
  EncodeSchedulingGraph(chain, &flat);
  ASSERT_GT(flat.data.size(), XlaReplayCache::kLargest);
  XlaReplayCache cache;
  for (XlaScheduler s : {XlaScheduler::kPostOrder, XlaScheduler::kDfs,
                         XlaScheduler::kList, XlaScheduler::kPostOrder}) {
    const absl::optional<std::vector<int64_t>> want =
        ReplayXlaScheduler(chain, s);
    EXPECT_EQ(cache.Replay(flat, s), want) << XlaSchedulerName(s);
  }
  EXPECT_EQ(cache.hits() + cache.misses(), 0);
}

}  // namespace
}  // namespace hlolayout
