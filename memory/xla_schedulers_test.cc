#include "hlolayout/memory/xla_schedulers.h"

#include <string>
#include <vector>

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

}  // namespace
}  // namespace hlolayout
