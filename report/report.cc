#include "hlolayout/report/report.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/memory/memory.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/opcode.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/report/report_internal.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/cores.h"
#include "hlolayout/util/same_bytes.h"

namespace hlolayout {

namespace {

int64_t SaturatingAdd(int64_t a, int64_t b, bool* overflow) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) {
    *overflow = true;
    return std::numeric_limits<int64_t>::max();
  }
  return sum;
}

}  // namespace

void ByteCounts::Add(const ByteCounts& other) {
  logical_bytes = SaturatingAdd(logical_bytes, other.logical_bytes, &overflow);
  padded_bytes = SaturatingAdd(padded_bytes, other.padded_bytes, &overflow);
  overflow = overflow || other.overflow;
}

void MemorySpaceTotals::AddResults(const MemorySpaceTotals& other) {
  instructions += other.instructions;
  array_leaves += other.array_leaves;
  bytes.Add(other.bytes);
}

void ModuleTotals::AddResults(const ModuleTotals& other) {
  computations += other.computations;
  instructions += other.instructions;
  instructions_without_shape += other.instructions_without_shape;
  array_leaves += other.array_leaves;
  unsized_array_leaves += other.unsized_array_leaves;
  bytes.Add(other.bytes);
}

double ByteCounts::expansion() const {
  if (logical_bytes == 0) return 1.0;
  return static_cast<double>(padded_bytes) / static_cast<double>(logical_bytes);
}

namespace {

// What the report needs from one shape; computed once per distinct shape.
struct LeafTotals {
  int64_t memory_space = 0;
  int64_t array_leaves = 0;
  int64_t unsized_array_leaves = 0;
  ByteCounts bytes;
};

// Bytes and values per memory space, with saturating sums.
struct SpaceBytes {
  int64_t memory_space = 0;
  int64_t values = 0;
  ByteCounts bytes;
};

struct ShapeSummary {
  int64_t memory_space = ReportRow::kNoMemorySpace;
  int64_t array_leaves = 0;
  int64_t unsized_array_leaves = 0;
  ByteCounts bytes;
  // Per memory space (a tuple may mix them); usually one entry, kept in
  // place (no pointer to follow into the heap for every instruction).
  absl::InlinedVector<LeafTotals, 1> by_space;
  // Every index of the shape (tuple nodes, arrays, tokens...): the values
  // an instruction that defines all of its result defines.
  int64_t nodes = 0;
  int64_t tuple_nodes = 0;
  int64_t tuple_table_bytes = 0;  // 8 per element of every tuple node
  int64_t top_table_bytes = 0;    // of the top-level tuple (0: not a tuple)
  // What the rare walked rules (copy-start, async and collective pairs)
  // define in this shape, computed on first use.
  std::vector<std::pair<ValueRule, std::vector<SpaceBytes>>> walked;
};

void AddLeaves(const Shape& shape, ShapeSummary* summary) {
  ++summary->nodes;
  if (shape.IsTuple()) {
    ++summary->tuple_nodes;
    summary->tuple_table_bytes += TupleTableBytes(shape);
    for (const Shape& element : shape.tuple_shapes()) {
      AddLeaves(element, summary);
    }
    return;
  }
  if (!shape.IsArray()) return;  // token, opaque, buffer
  const int64_t space = shape.has_layout() ? shape.layout().memory_space() : 0;
  ++summary->array_leaves;
  if (summary->array_leaves == 1) {
    summary->memory_space = space;
  } else if (summary->memory_space != space) {
    summary->memory_space = ReportRow::kMixedMemorySpaces;
  }
  LeafTotals* totals = nullptr;
  for (LeafTotals& t : summary->by_space) {
    if (t.memory_space == space) totals = &t;
  }
  if (totals == nullptr) {
    summary->by_space.emplace_back();
    totals = &summary->by_space.back();
    totals->memory_space = space;
  }
  ++totals->array_leaves;
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (!sizes.ok()) {
    ++summary->unsized_array_leaves;
    ++totals->unsized_array_leaves;
    if (absl::StrContains(sizes.status().message(), "overflow")) {
      summary->bytes.overflow = true;
      totals->bytes.overflow = true;
    }
    return;
  }
  ByteCounts leaf;
  leaf.logical_bytes = sizes->logical_bytes;
  leaf.padded_bytes = sizes->padded_bytes;
  summary->bytes.Add(leaf);
  totals->bytes.Add(leaf);
}

void AddTo(std::vector<SpaceBytes>* list, int64_t space, int64_t values,
           const ByteCounts& bytes) {
  for (SpaceBytes& entry : *list) {
    if (entry.memory_space == space) {
      entry.values += values;
      entry.bytes.Add(bytes);
      return;
    }
  }
  list->push_back({space, values, bytes});
}

// A hash of computation names, which the report looks up once per call
// (every fusion): 8 bytes per multiply, where absl's string hash cost about
// 190 instructions for a name like "fused_computation.1832".
struct NameHash {
  size_t operator()(absl::string_view s) const {
    uint64_t h = s.size() * 0x9e3779b97f4a7c15ULL;
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 31;
    }
    if (i < s.size()) {
      uint64_t w = 0;
      std::memcpy(&w, s.data() + i, s.size() - i);
      h = (h ^ w) * 0x94d049bb133111ebULL;
    }
    h ^= h >> 29;
    h *= 0xd6e8feb86659fd93ULL;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

// Name equality without a call to memcmp (names are short).
struct NameEq {
  bool operator()(absl::string_view a, absl::string_view b) const {
    return a.size() == b.size() && SameBytes(a.data(), b.data(), a.size());
  }
};

ByteCounts Bytes(int64_t n) {
  ByteCounts bytes;
  bytes.logical_bytes = n;
  bytes.padded_bytes = n;
  return bytes;
}

// The values a rule that is not kAll/kNothing/kTop defines, walked index by
// index (rare opcodes: copy-start, async and collective pairs).
void AddDefinedByWalk(const Shape& shape, ValueRule rule,
                      std::vector<int64_t>* index,
                      std::vector<SpaceBytes>* out) {
  const bool defines = DefinesValueAt(rule, *index, shape.IsTuple(), true);
  if (shape.IsTuple()) {
    if (defines) AddTo(out, 0, 1, Bytes(TupleTableBytes(shape)));
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      index->push_back(i);
      AddDefinedByWalk(shape.tuple_shape(i), rule, index, out);
      index->pop_back();
    }
    return;
  }
  if (!defines) return;
  if (!shape.IsArray()) {
    AddTo(out, 0, 1, ByteCounts());
    return;
  }
  const int64_t space = shape.has_layout() ? shape.layout().memory_space() : 0;
  ByteCounts bytes;
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (sizes.ok()) {
    bytes.logical_bytes = sizes->logical_bytes;
    bytes.padded_bytes = sizes->padded_bytes;
  } else if (absl::StrContains(sizes.status().message(), "overflow")) {
    bytes.overflow = true;
  }
  AddTo(out, space, 1, bytes);
}

// Values and bytes per memory space, summed in place for spaces 0..7: the
// open computation's values, added to for every instruction without
// allocating.
class SpaceSums {
 public:
  void Add(int64_t space, int64_t values, const ByteCounts& bytes) {
    if (space >= 0 && space < kSmall) {
      SpaceBytes& entry = small_[space];
      if ((used_ & (1u << space)) == 0) {
        used_ |= 1u << space;
        entry = SpaceBytes{space, 0, ByteCounts()};
      }
      entry.values += values;
      entry.bytes.Add(bytes);
      return;
    }
    AddTo(&large_, space, values, bytes);
  }
  void Add(const SpaceBytes& entry) {
    Add(entry.memory_space, entry.values, entry.bytes);
  }
  void Add(const SpaceSums& other) {
    other.ForEach([this](const SpaceBytes& e) { Add(e); });
  }
  // Spaces 0..7 in order, then the others in order of first use.
  template <typename F>
  void ForEach(F f) const {
    for (int64_t i = 0; i < kSmall; ++i) {
      if ((used_ & (1u << i)) != 0) f(small_[i]);
    }
    for (const SpaceBytes& entry : large_) f(entry);
  }
  // Appends the sums to `*out` and empties this.
  void MoveTo(std::vector<SpaceBytes>* out) {
    ForEach([out](const SpaceBytes& e) { out->push_back(e); });
    used_ = 0;
    large_.clear();
  }
  bool empty() const { return used_ == 0 && large_.empty(); }

 private:
  static constexpr int64_t kSmall = 8;
  SpaceBytes small_[kSmall];
  uint32_t used_ = 0;  // bit i: small_[i] holds a sum
  std::vector<SpaceBytes> large_;
};

// The values an instruction with `rule` defines (kParameter: as if its
// computation defines its parameters), per memory space, added to `*out`;
// their bytes to `*total` when it is not null.
void AddDefined(const Shape& shape, ShapeSummary& summary, ValueRule rule,
                SpaceSums* out, ByteCounts* total) {
  if (rule == ValueRule::kNothing) return;
  if (rule == ValueRule::kTop && shape.IsTuple()) {
    out->Add(0, 1, Bytes(summary.top_table_bytes));
    if (total != nullptr) total->Add(Bytes(summary.top_table_bytes));
    return;
  }
  if (rule == ValueRule::kAll || rule == ValueRule::kParameter ||
      rule == ValueRule::kTop) {
    int64_t values = summary.nodes;
    for (const LeafTotals& leaf : summary.by_space) {
      out->Add(leaf.memory_space, leaf.array_leaves, leaf.bytes);
      values -= leaf.array_leaves;
    }
    // Tuple tables (and tokens, which have no bytes) in the default space.
    if (values > 0) out->Add(0, values, Bytes(summary.tuple_table_bytes));
    if (total != nullptr) {
      total->Add(summary.bytes);
      total->Add(Bytes(summary.tuple_table_bytes));
    }
    return;
  }
  const std::vector<SpaceBytes>* walked = nullptr;
  for (const auto& entry : summary.walked) {
    if (entry.first == rule) walked = &entry.second;
  }
  if (walked == nullptr) {
    summary.walked.emplace_back(rule, std::vector<SpaceBytes>());
    std::vector<int64_t> index;
    AddDefinedByWalk(shape, rule, &index, &summary.walked.back().second);
    walked = &summary.walked.back().second;
  }
  for (const SpaceBytes& entry : *walked) {
    out->Add(entry);
    if (total != nullptr) total->Add(entry.bytes);
  }
}

class ReportBuilder : public HloVisitor {
 public:
  // `continuation`: for ReadHloTail, whose first module and computation
  // begin inside ones that another builder holds (see Absorb).
  // `text_bytes`: the size of the text (or part) it reads, from which the
  // computation index is sized once (XLA dumps have a computation per 2 to
  // 6 KB; growing the index was 3% of reading 31,000 of them).
  ReportBuilder(const ReportOptions& options, Report* report, size_t text_bytes,
                bool continuation = false)
      : options_(options),
        report_(report),
        continuation_(continuation),
        expected_computations_(std::min<size_t>(text_bytes / 2048, 1 << 20)) {
    if (continuation_) {
      report_->modules.emplace_back();
      m_.module = &report_->modules.back();
      m_.index.reserve(expected_computations_);
    }
  }

  void BeginModule(const HloModuleHeader& header) override {
    report_->modules.emplace_back();
    m_ = ModuleState();
    m_.module = &report_->modules.back();
    m_.module->name = header.name;
    m_.index.reserve(expected_computations_);
  }

  void BeginComputation(const HloComputationHeader& header) override {
    const size_t c = m_.computations.size();
    if (header.entry_marker) m_.entry_marked = c;
    m_.root_marked = false;
    m_.computation = header.name;
    m_.names.push_back(header.name);
    if (!header.name.empty()) m_.AddName(header.name, c);
    m_.first_row = m_.module->rows.size();
    m_.computations.emplace_back();
    m_.computations.back().first_row = m_.first_row;
  }

  void UnknownOpcode(const HloInstruction& in) override {
    // This text's entries (those not located yet), by opcode.
    auto [it, added] = unknown_index_.try_emplace(
        in.opcode_name(), report_->unknown_opcodes.size());
    if (!added) {
      ++report_->unknown_opcodes[it->second].instructions;
      return;
    }
    report_->unknown_opcodes.push_back(hlolayout::UnknownOpcode{
        in.opcode_name(), 1, in.offset, std::string()});
  }

  void VisitInstruction(const HloInstruction& in) override {
    if (in.root_marker) m_.root_marked = true;
    const int64_t order = m_.order++;
    ModuleTotals& totals = m_.module->totals;
    ++totals.instructions;
    const ValueRule rule = ValueRuleOf(in.opcode);
    ReportRow* row = nullptr;
    if (options_.keep_rows) {
      m_.module->rows.emplace_back();
      row = &m_.module->rows.back();
      row->order = order;
      row->computation = m_.computation;
      row->name = in.name();
      row->opcode = in.opcode_name();
      row->shape_text = in.shape_text();
      row->is_root = in.root_marker;
    }
    if (in.shape == nullptr) {
      ++totals.instructions_without_shape;
      if (row != nullptr && rule == ValueRule::kNothing) {
        row->buffer = BufferRole::kAlias;
      }
    } else {
      ShapeSummary& summary = Summarize(in.shape_text(), *in.shape);
      totals.array_leaves += summary.array_leaves;
      totals.unsized_array_leaves += summary.unsized_array_leaves;
      totals.bytes.Add(summary.bytes);
      for (const LeafTotals& leaf : summary.by_space) {
        MemorySpaceTotals& space = Space(leaf.memory_space);
        ++space.instructions;
        space.array_leaves += leaf.array_leaves;
        space.bytes.Add(leaf.bytes);
      }
      AddDefined(*in.shape, summary, rule,
                 rule == ValueRule::kParameter ? &m_.open_parameters
                                               : &m_.open_defined,
                 row != nullptr ? &row->buffer_bytes : nullptr);
      if (row != nullptr) {
        row->has_shape = true;
        row->memory_space = summary.memory_space;
        row->array_leaves = summary.array_leaves;
        row->unsized_array_leaves = summary.unsized_array_leaves;
        row->bytes = summary.bytes;
        switch (rule) {
          case ValueRule::kAll:
          case ValueRule::kParameter:  // settled at the end of the module
            row->buffer = BufferRole::kNew;
            break;
          case ValueRule::kNothing:
            row->buffer = BufferRole::kAlias;
            break;
          case ValueRule::kTop:
            row->buffer =
                in.shape->IsTuple() ? BufferRole::kPartial : BufferRole::kNew;
            break;
          default:
            row->buffer = BufferRole::kPartial;
        }
      }
    }
    if (row != nullptr && rule == ValueRule::kParameter) {
      m_.computations.back().parameter_rows.push_back(m_.module->rows.size() -
                                                      1);
    }
    // The reader recorded whether an attribute names callees: most
    // instructions' attributes are not read again.
    if (!in.attributes().empty() && in.may_have(kHloFactCallee)) {
      callees_.clear();
      AppendCalledComputationNames(in, &callees_);
      if (!callees_.empty()) {
        const CallKind kind = CallKindOf(in.opcode);
        const size_t caller = m_.computations.size() - 1;
        for (absl::string_view callee : callees_) {
          AddCall(Call{caller, callee, kind});
        }
      }
    }
  }

  void EndComputation(int64_t root_index, absl::string_view) override {
    CloseComputation(&m_);
    ++m_.module->totals.computations;
    if (continuation_ && !first_module_ended_ && m_.computations.size() == 1) {
      // Begun by another builder, which may have seen its ROOT: Absorb
      // marks the root.
      first_root_marked_ = m_.root_marked;
      return;
    }
    if (root_index < 0) return;
    // The root is known only now when no instruction says ROOT.
    if (options_.keep_rows) {
      const size_t index = m_.first_row + static_cast<size_t>(root_index);
      if (index < m_.module->rows.size()) m_.module->rows[index].is_root = true;
    }
  }

  void EndModule(int64_t entry_index) override {
    if (continuation_ && !first_module_ended_) {
      // Begun by another builder: Absorb ends it.
      ResolveCalls();
      first_module_ended_ = true;
      first_module_ = std::move(m_);
      m_ = ModuleState();
      return;
    }
    FinishModule(entry_index);
  }

  void Error(const absl::Status& error) override {
    report_->errors.push_back(std::string(error.message()));
  }

  // For ReadHloHead's stop: true when the tails (in text order, each having
  // arrived at the next one's start, the last at the end of the text) can be
  // joined to this builder, stopped at the first tail's start: no
  // computation gets two ROOTs and no module two ENTRYs across a cut (the
  // reader, reading the text whole, would stop there with an error).
  bool CanAbsorb(const std::vector<std::unique_ptr<ReportBuilder>>& tails) {
    bool root = m_.root_marked;
    bool entry = m_.entry_marked >= 0;
    for (const auto& tail : tails) {
      const ModuleState& first =
          tail->first_module_ended_ ? tail->first_module_ : tail->m_;
      const bool first_computation_ended =
          first.computations.front().end_row != kOpen;
      const bool first_root = first_computation_ended ? tail->first_root_marked_
                                                      : tail->m_.root_marked;
      if ((root && first_root) || (entry && first.entry_marked >= 0)) {
        return false;
      }
      if (tail->first_module_ended_) {
        root = tail->m_.root_marked;
        entry = tail->m_.entry_marked >= 0;
      } else {
        root =
            first_computation_ended ? tail->m_.root_marked : root || first_root;
        entry = entry || first.entry_marked >= 0;
      }
    }
    return true;
  }

  // A tail, once read (on its own thread): its first module's calls were
  // linked as they were read to the computations it defines itself (a
  // name is defined once in a module whose parts are joined, JoinHloParts
  // checks it, so the tail's own definition is the one a whole reading
  // finds); here the calls to computations defined after them are, leaving
  // Absorb (on the joining thread) only the calls to earlier parts.
  void SettleOwnCalls() {
    if (!continuation_) return;
    if (!first_module_ended_) ResolveCalls();
    ModuleState& first = first_module_ended_ ? first_module_ : m_;
    std::vector<Call>& calls = first.unresolved;
    // Most are calls to earlier parts: when no computation was defined
    // since the first of them was looked up, none resolves.
    if (first.index.size() == first.unresolved_index_size) return;
    // A batch at a time, its names and index slots prefetched together (as
    // ResolveCalls).
    size_t kept = 0;
    for (size_t begin = 0; begin < calls.size();
         begin += ModuleState::kCallBatch) {
      const size_t end =
          std::min(calls.size(), begin + ModuleState::kCallBatch);
      for (size_t i = begin; i < end; ++i) {
        __builtin_prefetch(calls[i].callee.data());
      }
      for (size_t i = begin; i < end; ++i)
        first.index.prefetch(calls[i].callee);
      for (size_t i = begin; i < end; ++i) {
        const Call call = calls[i];
        auto it = first.index.find(call.callee);
        if (it == first.index.end()) {
          calls[kept++] = call;
        } else {
          Link(&first, call.caller, it->second, call.kind);
        }
      }
    }
    calls.resize(kept);
  }

  // Joins what `tail` read (ReadHloTail from where this builder stopped) to
  // this builder, as if one builder had read both parts in turn.
  void Absorb(ReportBuilder* tail) {
    const bool module_ended = tail->first_module_ended_;
    if (!module_ended) tail->ResolveCalls();  // SettleOwnCalls did, if run
    ModuleState& first = module_ended ? tail->first_module_ : tail->m_;
    ModuleReport& from = tail->report_->modules.front();
    ModuleReport& to = *m_.module;
    const size_t row_base = to.rows.size();
    const int64_t order_base = m_.order;
    const size_t computation_base = m_.computations.size() - 1;
    for (ReportRow& row : from.rows) {
      row.order += order_base;
      if (row.computation.empty()) row.computation = m_.computation;
      to.rows.push_back(row);
    }
    to.totals.AddResults(from.totals);
    for (const MemorySpaceTotals& space : first.space_list) {
      Space(space.memory_space).AddResults(space);
    }
    const bool computation_ended =
        ContinueOpenComputation(first, tail->first_root_marked_, row_base);
    AppendTailComputations(first, row_base);
    // The calls the tail linked to its own computations (SettleOwnCalls).
    for (const Edge& edge : first.control_edges) {
      m_.control_edges.push_back(
          Edge{edge.caller + computation_base, edge.callee + computation_base});
    }
    // The tail resolved no other names in its first module: every
    // computation before its start is this builder's.
    for (Call call : first.unresolved) {
      call.caller += computation_base;
      AddCall(call);
    }
    if (first.entry_marked >= 0) {
      m_.entry_marked = computation_base + first.entry_marked;
    }
    m_.order += first.order;
    if (first.computations.size() > 1) {
      m_.computation = first.computation;
      m_.root_marked = first.root_marked;
    }
    if (first.computations.size() > 1 || computation_ended) {
      m_.first_row = first.first_row + row_base;
    }
    if (!module_ended) return;
    FinishModule(m_.entry_marked >= 0
                     ? m_.entry_marked
                     : static_cast<int64_t>(m_.computations.size()) - 1);
    // The tail's later modules, read whole, and the one it stopped in.
    for (size_t i = 1; i < tail->report_->modules.size(); ++i) {
      report_->modules.push_back(std::move(tail->report_->modules[i]));
    }
    m_ = std::move(tail->m_);
    m_.module = &report_->modules.back();
  }

 private:
  static constexpr size_t kOpen = ~size_t{0};  // end_row of an open one
  // How a computation is called (ComputationValues::called).
  static constexpr uint8_t kCalledEmbedded = 1;
  static constexpr uint8_t kCalledControlFlow = 2;
  // The values of one computation, before it is known how it is called:
  // once it is closed, in ModuleState::sums from defined_begin: those of its
  // instructions but parameters, then from parameters_begin those of its
  // parameters (if its parameters define values), up to sums_end.
  struct ComputationValues {
    size_t defined_begin = 0;
    size_t parameters_begin = 0;
    size_t sums_end = 0;
    uint8_t called = 0;  // kCalledEmbedded | kCalledControlFlow
    size_t first_row = 0;
    size_t end_row = kOpen;
    std::vector<size_t> parameter_rows;
  };
  // `caller` calls the computation named `callee` (not yet resolved).
  struct Call {
    size_t caller;
    absl::string_view callee;
    CallKind kind;
  };
  struct Edge {
    size_t caller;
    size_t callee;
  };
  static constexpr int64_t kSmallSpaces = 8;
  // Everything of the module being read.
  struct ModuleState {
    ModuleReport* module = nullptr;
    absl::string_view computation;
    std::vector<absl::string_view> names;  // of the computations
    // Computation by name, the first of each name (as XLA resolves them).
    // Its keys are copies packed together (KeyOf): a lookup compares the
    // name it finds, and the names in the text are far apart (a cache
    // miss each, most of a call's lookup).
    absl::flat_hash_map<absl::string_view, size_t, NameHash, NameEq> index;
    std::vector<std::unique_ptr<char[]>> key_blocks;
    char* key_next = nullptr;
    size_t key_room = 0;  // bytes left after key_next
    // Computation `c` is named `name`, unless an earlier one is (the first
    // wins).
    void AddName(absl::string_view name, size_t c) {
      index.lazy_emplace(
          name, [&](const auto& construct) { construct(KeyOf(name), c); });
    }
    // Absorbed computations not in `index` yet (after every computation
    // that is), by name.
    std::vector<std::pair<absl::string_view, size_t>> unindexed;
    // Adds `unindexed` to the index; false when there was nothing to add.
    bool IndexAbsorbed() {
      if (unindexed.empty()) return false;
      index.reserve(index.size() + unindexed.size());
      for (const auto& [name, c] : unindexed) AddName(name, c);
      unindexed.clear();
      return true;
    }
    absl::string_view KeyOf(absl::string_view name) {
      constexpr size_t kBlock = size_t{64} << 10;
      if (name.size() > key_room) {
        const size_t size = std::max(kBlock, name.size());
        key_blocks.push_back(std::make_unique<char[]>(size));
        key_next = key_blocks.back().get();
        key_room = size;
      }
      if (!name.empty()) std::memcpy(key_next, name.data(), name.size());
      const absl::string_view key(key_next, name.size());
      key_next += name.size();
      key_room -= name.size();
      return key;
    }
    std::vector<ComputationValues> computations;
    // The open computation's values, and the closed ones' (see
    // ComputationValues).
    SpaceSums open_defined;
    SpaceSums open_parameters;
    std::vector<SpaceBytes> sums;
    // Control-flow calls (while, call, conditional, async): whether their
    // callees are embedded depends on the caller, known at the end.
    std::vector<Edge> control_edges;
    // Calls to names not known when they were read (a callee defined later,
    // or, in a tail's first module, before the tail).
    std::vector<Call> unresolved;
    // index.size() when the first of `unresolved` was looked up: while the
    // index has not grown, none of them resolves.
    size_t unresolved_index_size = 0;
    // Calls not looked up yet: a module's computation names are many and
    // far apart, so AddCall looks them up kCallBatch at a time, the cache
    // misses of a batch prefetched together (ResolveCalls).
    static constexpr size_t kCallBatch = 32;
    Call pending_calls[kCallBatch];
    size_t pending_count = 0;
    size_t first_row = 0;
    int64_t order = 0;
    // Memory space totals of the module, in order of first use.
    std::vector<MemorySpaceTotals> space_list;
    int32_t small_spaces[kSmallSpaces] = {-1, -1, -1, -1,
                                          -1, -1, -1, -1};  // -1: none
    absl::flat_hash_map<int64_t, size_t> large_spaces;
    int64_t entry_marked = -1;  // the computation marked ENTRY
    bool root_marked = false;   // the open computation has a ROOT
  };
  enum class Context : uint8_t { kUncalled, kControlFlow, kEmbedded };

  // Absorb's first step: the tail's first computation goes on with the
  // open one (and closes it when the tail closed it). True when it closed.
  bool ContinueOpenComputation(ModuleState& first, bool tail_root_marked,
                               size_t row_base) {
    ModuleReport& to = *m_.module;
    ComputationValues& open = m_.computations.back();
    const ComputationValues& rest = first.computations.front();
    for (size_t r : rest.parameter_rows) {
      open.parameter_rows.push_back(r + row_base);
    }
    const bool computation_ended = rest.end_row != kOpen;
    if (computation_ended) {
      // Its values, closed in the tail, join the open ones, which close.
      for (size_t i = rest.defined_begin; i < rest.parameters_begin; ++i) {
        m_.open_defined.Add(first.sums[i]);
      }
      for (size_t i = rest.parameters_begin; i < rest.sums_end; ++i) {
        m_.open_parameters.Add(first.sums[i]);
      }
      CloseComputation(&m_);
      open.end_row = rest.end_row + row_base;
      // No ROOT on either side: the last instruction is the root.
      if (!m_.root_marked && !tail_root_marked && options_.keep_rows &&
          open.end_row > open.first_row) {
        to.rows[open.end_row - 1].is_root = true;
      }
      m_.root_marked = false;
    } else {
      m_.open_defined.Add(first.open_defined);
      m_.open_parameters.Add(first.open_parameters);
      m_.root_marked = m_.root_marked || first.root_marked;
    }
    return computation_ended;
  }

  // Absorb's next step: the tail's later computations of its first module
  // follow, their rows and values moved past this builder's.
  void AppendTailComputations(ModuleState& first, size_t row_base) {
    for (size_t i = 1; i < first.computations.size(); ++i) {
      ComputationValues values = std::move(first.computations[i]);
      values.first_row += row_base;
      if (values.end_row != kOpen) values.end_row += row_base;
      for (size_t& r : values.parameter_rows) r += row_base;
      const size_t sums_base = m_.sums.size();
      m_.sums.insert(m_.sums.end(), first.sums.begin() + values.defined_begin,
                     first.sums.begin() + values.sums_end);
      values.parameters_begin =
          values.parameters_begin - values.defined_begin + sums_base;
      values.sums_end = values.sums_end - values.defined_begin + sums_base;
      values.defined_begin = sums_base;
      const size_t c = m_.computations.size();
      m_.computations.push_back(std::move(values));
      m_.names.push_back(first.names[i]);
      // Indexed when a lookup misses (IndexAbsorbed): most of the tail's
      // calls are to computations before it, and the tail linked those to
      // its own.
      if (!first.names[i].empty()) m_.unindexed.emplace_back(first.names[i], c);
    }
    if (first.computations.size() > 1) {
      // The tail's last computation, when open, goes on open here.
      m_.open_defined = std::move(first.open_defined);
      m_.open_parameters = std::move(first.open_parameters);
    }
  }

  // Moves the open computation's values to `state->sums` and records where
  // they are.
  static void CloseComputation(ModuleState* state) {
    ComputationValues& values = state->computations.back();
    values.end_row = state->module->rows.size();
    values.defined_begin = state->sums.size();
    state->open_defined.MoveTo(&state->sums);
    values.parameters_begin = state->sums.size();
    state->open_parameters.MoveTo(&state->sums);
    values.sums_end = state->sums.size();
  }

  // Records that computation `call.caller` calls `call.callee`, resolving
  // the name now when it is known. In a tail's first module a name not
  // known may also be defined before the tail (Absorb resolves those).
  void AddCall(const Call& call) {
    m_.pending_calls[m_.pending_count++] = call;
    if (m_.pending_count == ModuleState::kCallBatch) ResolveCalls();
  }

  // Looks up the calls AddCall left pending.
  void ResolveCalls() {
    const size_t n = m_.pending_count;
    m_.pending_count = 0;
    // The names first (a tail's calls absorbed here name computations far
    // back in the text), then the index slots their hashes pick.
    for (size_t i = 0; i < n; ++i) {
      __builtin_prefetch(m_.pending_calls[i].callee.data());
    }
    for (size_t i = 0; i < n; ++i)
      m_.index.prefetch(m_.pending_calls[i].callee);
    size_t callees[ModuleState::kCallBatch];
    for (size_t i = 0; i < n; ++i) {
      auto it = m_.index.find(m_.pending_calls[i].callee);
      if (it == m_.index.end() && m_.IndexAbsorbed()) {
        it = m_.index.find(m_.pending_calls[i].callee);
      }
      callees[i] = it == m_.index.end() ? kOpen : it->second;
      if (callees[i] != kOpen) __builtin_prefetch(&m_.computations[callees[i]]);
    }
    for (size_t i = 0; i < n; ++i) {
      const Call& call = m_.pending_calls[i];
      if (callees[i] == kOpen) {
        if (m_.unresolved.empty()) m_.unresolved_index_size = m_.index.size();
        m_.unresolved.push_back(call);
      } else {
        Link(&m_, call.caller, callees[i], call.kind);
      }
    }
  }

  static void Link(ModuleState* state, size_t caller, size_t callee,
                   CallKind kind) {
    if (callee == caller) return;
    if (kind == CallKind::kEmbedded) {
      state->computations[callee].called |= kCalledEmbedded;
    } else {
      state->computations[callee].called |= kCalledControlFlow;
      state->control_edges.push_back(Edge{caller, callee});
    }
  }

  void FinishModule(int64_t entry_index) {
    if (!m_.open_defined.empty() || !m_.open_parameters.empty()) {
      // Only a computation that never ended leaves values open.
      if (!m_.computations.empty()) CloseComputation(&m_);
    }
    if (entry_index >= 0 &&
        entry_index < static_cast<int64_t>(m_.names.size())) {
      m_.module->entry_computation = m_.names[entry_index];
    }
    SumBuffers(entry_index);
    m_.module->memory_spaces = m_.space_list;
    std::sort(m_.module->memory_spaces.begin(), m_.module->memory_spaces.end(),
              [](const MemorySpaceTotals& a, const MemorySpaceTotals& b) {
                return a.memory_space < b.memory_space;
              });
  }

  // Adds the values of the computations that are part of the schedule
  // (entry, control-flow callees; and, as in XLA, computations nobody
  // calls) to the module's buffer totals, and settles the rows' roles.
  void SumBuffers(int64_t entry_index) {
    ResolveCalls();
    // Every name is known now: the rest resolve or name no computation.
    if (!m_.unresolved.empty()) m_.IndexAbsorbed();
    for (const Call& call : m_.unresolved) {
      auto it = m_.index.find(call.callee);
      if (it != m_.index.end()) Link(&m_, call.caller, it->second, call.kind);
    }
    m_.unresolved.clear();
    const size_t n = m_.computations.size();
    std::vector<Context> context(n, Context::kUncalled);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t called = m_.computations[i].called;
      if ((called & kCalledEmbedded) != 0) {
        context[i] = Context::kEmbedded;
      } else if ((called & kCalledControlFlow) != 0) {
        context[i] = Context::kControlFlow;
      }
    }
    // Embedded reaches everything below it (embedded calls made the callee
    // embedded already); a few passes settle nesting.
    for (bool changed = true; changed;) {
      changed = false;
      for (const Edge& edge : m_.control_edges) {
        if (context[edge.caller] == Context::kEmbedded &&
            context[edge.callee] != Context::kEmbedded) {
          context[edge.callee] = Context::kEmbedded;
          changed = true;
        }
      }
    }
    for (size_t i = 0; i < n; ++i) {
      const ComputationValues& values = m_.computations[i];
      const bool entry = static_cast<int64_t>(i) == entry_index;
      const Context c = entry ? Context::kUncalled : context[i];
      if (c == Context::kEmbedded) {
        if (options_.keep_rows) {
          for (size_t r = values.first_row; r < values.end_row; ++r) {
            m_.module->rows[r].buffer = BufferRole::kInEmbedded;
            m_.module->rows[r].buffer_bytes = ByteCounts();
          }
        }
        continue;
      }
      AddBuffers(values.defined_begin, values.parameters_begin);
      if (c == Context::kUncalled) {
        AddBuffers(values.parameters_begin, values.sums_end);
      } else if (options_.keep_rows) {
        for (size_t r : values.parameter_rows) {
          m_.module->rows[r].buffer = BufferRole::kAlias;
          m_.module->rows[r].buffer_bytes = ByteCounts();
        }
      }
    }
  }

  // Adds m_.sums[begin, end) to the module's buffer totals.
  void AddBuffers(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const SpaceBytes& entry = m_.sums[i];
      MemorySpaceTotals& space = Space(entry.memory_space);
      space.buffer_values += entry.values;
      space.buffer_bytes.Add(entry.bytes);
      m_.module->totals.buffer_values += entry.values;
      m_.module->totals.buffer_bytes.Add(entry.bytes);
    }
  }

  // Keyed by the shape text (a view into the input): equal texts decode to
  // equal shapes. The reader hands out one Shape per distinct text while it
  // is cached, so a direct-mapped table keyed by the Shape's address answers
  // most lookups without hashing the text; an entry counts only when its
  // text is also byte-equal (addresses are reused once the reader's cache
  // empties, and uncached shapes share a scratch address).
  ShapeSummary& Summarize(absl::string_view text, const Shape& shape) {
    FrontEntry& front =
        front_[(reinterpret_cast<uintptr_t>(&shape) >> 4) & (kFrontSize - 1)];
    // The text's first bytes are compared with the entry's copy of them:
    // the text it was made for lies anywhere earlier in the input, most
    // likely out of the caches.
    if (front.shape == &shape && front.size == text.size() &&
        SameBytes(front.prefix, text.data(),
                  std::min(text.size(), FrontEntry::kPrefix)) &&
        (text.size() <= FrontEntry::kPrefix ||
         SameBytes(front.text + FrontEntry::kPrefix,
                   text.data() + FrontEntry::kPrefix,
                   text.size() - FrontEntry::kPrefix))) {
      return summary_store_[front.index];
    }
    uint32_t index;
    auto it = summaries_.find(text);
    if (it != summaries_.end()) {
      index = it->second;
    } else {
      if (summary_store_.size() >= kMaxSummaries) {
        // clear() frees a table this large; the reserve puts one back at
        // full size, so that refilling it never rehashes.
        summaries_.clear();
        summaries_.reserve(kMaxSummaries);
        summary_store_.clear();
        for (FrontEntry& entry : front_) entry = FrontEntry();
      } else if (summaries_.empty()) {
        summaries_.reserve(kMaxSummaries);
      }
      index = static_cast<uint32_t>(summary_store_.size());
      summary_store_.emplace_back();
      summaries_.emplace(text, index);
      ShapeSummary& summary = summary_store_.back();
      AddLeaves(shape, &summary);
      if (shape.IsTuple()) summary.top_table_bytes = TupleTableBytes(shape);
    }
    // Texts of 4 GB or more (never in practice) are not kept.
    front.shape = text.size() <= UINT32_MAX ? &shape : nullptr;
    front.text = text.data();
    front.size = static_cast<uint32_t>(text.size());
    front.index = index;
    std::memcpy(front.prefix, text.data(),
                std::min(text.size(), FrontEntry::kPrefix));
    return summary_store_[index];
  }

  // The totals of a memory space, found without hashing for the usual small
  // space numbers.
  MemorySpaceTotals& Space(int64_t memory_space) {
    if (memory_space >= 0 && memory_space < kSmallSpaces) {
      int32_t& slot = m_.small_spaces[memory_space];
      if (slot < 0) {
        slot = static_cast<int32_t>(m_.space_list.size());
        m_.space_list.emplace_back();
        m_.space_list.back().memory_space = memory_space;
      }
      return m_.space_list[slot];
    }
    auto it = m_.large_spaces.find(memory_space);
    if (it == m_.large_spaces.end()) {
      it = m_.large_spaces.emplace(memory_space, m_.space_list.size()).first;
      m_.space_list.emplace_back();
      m_.space_list.back().memory_space = memory_space;
    }
    return m_.space_list[it->second];
  }

  static constexpr size_t kMaxSummaries = 1 << 14;
  static constexpr size_t kFrontSize = 1 << 12;
  // One cache line: the Shape's address, its text (the first kPrefix
  // bytes copied) and its summary.
  struct alignas(64) FrontEntry {
    static constexpr size_t kPrefix = 40;
    const Shape* shape = nullptr;
    const char* text = nullptr;
    uint32_t size = 0;
    uint32_t index = 0;
    char prefix[kPrefix] = {};
  };

  const ReportOptions& options_;
  Report* report_;
  ModuleState m_;
  // A continuation builder: its first module and computation, begun by
  // another builder (see Absorb).
  const bool continuation_ = false;
  const size_t expected_computations_;
  // This text's unknown opcodes: index in report_->unknown_opcodes.
  absl::flat_hash_map<absl::string_view, size_t> unknown_index_;
  bool first_module_ended_ = false;
  ModuleState first_module_;        // when it ended
  bool first_root_marked_ = false;  // its first computation's, when ended
  std::vector<absl::string_view> callees_;  // scratch
  absl::flat_hash_map<absl::string_view, uint32_t> summaries_;
  std::vector<ShapeSummary> summary_store_;
  std::vector<FrontEntry> front_ = std::vector<FrontEntry>(kFrontSize);
};

constexpr int64_t kMaxThreads = 64;

int64_t PartsFor(const ReportOptions& options, size_t size) {
  const int64_t per_thread = std::max<int64_t>(options.min_bytes_per_thread, 1);
  const int64_t parts = static_cast<int64_t>(size) / per_thread;
  return ThreadsForParts(options.threads, std::min(parts, kMaxThreads), 8);
}

// Reads `text` in parts on several threads (HloCutPoints, ReadHloInParts)
// into `*report` and sets `*status` to what ReadHlo would return; false
// (nothing done) when there is only one part. When a part does not join the
// one before, the first part's reader reads on to the end alone: the result
// is then ReadHlo's in every case, errors included.
bool AppendReportInParts(absl::string_view text, const ReportOptions& options,
                         const HloReadOptions& read, Report* report,
                         absl::Status* status) {
  const int64_t threads = PartsFor(options, text.size());
  const std::vector<size_t> cuts = HloCutPoints(text, threads);
  if (cuts.empty()) return false;
  const size_t tails = cuts.size();
  std::vector<Report> tail_reports(tails);
  std::vector<std::unique_ptr<ReportBuilder>> builders;
  std::vector<HloVisitor*> visitors;
  for (size_t k = 0; k < tails; ++k) {
    const size_t end = k + 1 < tails ? cuts[k + 1] : text.size();
    builders.push_back(absl::make_unique<ReportBuilder>(
        options, &tail_reports[k], end - cuts[k], true));
    visitors.push_back(builders.back().get());
  }
  ReportBuilder head(options, report, cuts[0]);
  bool joined = false;
  *status = ReadHloInParts(
      text, read, cuts, threads, &head, visitors,
      [&](size_t k) { builders[k]->SettleOwnCalls(); },
      [&] { return head.CanAbsorb(builders); }, &joined);
  if (joined) {
    for (std::unique_ptr<ReportBuilder>& tail : builders) {
      head.Absorb(tail.get());
    }
    // Unknown opcodes: the tails' after the head's, one per name.
    absl::flat_hash_map<absl::string_view, size_t> unknown;
    for (size_t i = 0; i < report->unknown_opcodes.size(); ++i) {
      if (report->unknown_opcodes[i].first.empty()) {
        unknown.emplace(report->unknown_opcodes[i].opcode, i);
      }
    }
    for (const Report& tail : tail_reports) {
      for (const UnknownOpcode& u : tail.unknown_opcodes) {
        auto [it, added] =
            unknown.try_emplace(u.opcode, report->unknown_opcodes.size());
        if (added) {
          report->unknown_opcodes.push_back(u);
        } else {
          report->unknown_opcodes[it->second].instructions += u.instructions;
        }
      }
    }
    report->parallel_parts += static_cast<int64_t>(tails) + 1;
  }
  return true;
}

}  // namespace

namespace report_internal {

void AppendReasons(const Shape& shape, const std::string& prefix,
                   bool is_tuple_leaf, std::vector<std::string>* reasons) {
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      AppendReasons(shape.tuple_shape(i),
                    absl::StrCat(prefix, prefix.empty() ? "" : ",", i), true,
                    reasons);
    }
    return;
  }
  if (!shape.IsArray()) return;
  const std::string lead =
      is_tuple_leaf ? absl::StrCat("{", prefix, "}: ") : std::string();
  absl::StatusOr<std::vector<TilePadding>> padding = ExplainTilePadding(shape);
  if (padding.ok()) {
    for (const TilePadding& p : *padding) {
      reasons->push_back(absl::StrCat(lead, p.reason));
    }
  }
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (sizes.ok() && sizes->padded_elements > sizes->tiled_elements) {
    reasons->push_back(absl::StrCat(
        lead, "L(", shape.layout().tail_padding_alignment_in_elements(),
        ") tail alignment: ", sizes->tiled_elements, " elements padded to ",
        sizes->padded_elements));
  }
}

void ReplayModules(const std::vector<HloModule>& modules,
                   const std::vector<absl::Status>& errors,
                   const ReportOptions& options, Report* report) {
  ReportOptions replay = options;
  replay.top_wasters = 0;  // the caller ranks buffers
  size_t text_bytes = 0;
  for (const HloModule& module : modules) {
    for (const HloComputation& c : module.computations) {
      text_bytes += c.instructions.size() * 100;
    }
  }
  ReportBuilder builder(replay, report, text_bytes);
  for (const absl::Status& error : errors) builder.Error(error);
  for (const HloModule& module : modules) {
    builder.BeginModule(module.header);
    for (const HloComputation& c : module.computations) {
      builder.BeginComputation(c.header);
      for (const HloInstruction& in : c.instructions) {
        if (in.opcode == HloOpcode::kUnknown) builder.UnknownOpcode(in);
        builder.VisitInstruction(in);
      }
      builder.EndComputation(c.root_index, c.execution_thread);
    }
    builder.EndModule(module.entry_index);
  }
}

}  // namespace report_internal

const char* BufferRoleName(BufferRole role) {
  switch (role) {
    case BufferRole::kNew:
      return "new";
    case BufferRole::kPartial:
      return "part";
    case BufferRole::kAlias:
      return "alias";
    case BufferRole::kInEmbedded:
      return "fused";
  }
  return "?";
}

absl::Status AppendReport(absl::string_view text, const ReportOptions& options,
                          Report* report) {
  // The report needs results and attributes; the operands are read for the
  // reader's checks (every name used is defined, shapes at uses match).
  HloReadOptions read = options.read;
  absl::Status status;
  const size_t unknown_before = report->unknown_opcodes.size();
  const size_t modules_before = report->modules.size();
  const size_t errors_before = report->errors.size();
  if (options.keep_rows) {
    // The full report: the text read once into modules (full_report.cc).
    status = report_internal::AppendFullReport(text, options, report);
  } else if (!AppendReportInParts(text, options, read, report, &status)) {
    ReportBuilder builder(options, report, text.size());
    status = ReadHlo(text, read, &builder);
  }
  // This text's unknown opcodes, located (`first` set marks them as done:
  // a next text counts its own).
  OffsetLocator locator(text);  // the offsets come in text order
  for (size_t i = unknown_before; i < report->unknown_opcodes.size(); ++i) {
    UnknownOpcode& u = report->unknown_opcodes[i];
    // The caret under the opcode (a view into the text) rather than the
    // instruction's name.
    if (u.opcode.data() >= text.data() &&
        u.opcode.data() < text.data() + text.size()) {
      u.offset = static_cast<size_t>(u.opcode.data() - text.data());
    }
    u.first = FormatDiagnostic(text, u.offset,
                               UnknownOpcodeWarning(u.opcode, u.instructions),
                               options.read.file_name, &locator);
  }
  for (size_t m = modules_before; m < report->modules.size(); ++m) {
    report->modules[m].file = std::string(options.read.file_name);
  }
  if (!status.ok() && !options.read.keep_going) return status;
  if (report->modules.size() == modules_before &&
      report->errors.size() == errors_before) {
    return NoHloModuleError(text, options.read.file_name);
  }
  return absl::OkStatus();
}

absl::StatusOr<Report> BuildReport(absl::string_view text,
                                   const ReportOptions& options) {
  Report report;
  absl::Status status = AppendReport(text, options, &report);
  if (!status.ok()) return status;
  return report;
}

void SortRows(RowOrder order, Report* report) {
  for (ModuleReport& module : report->modules) {
    std::vector<ReportRow>& rows = module.rows;
    std::sort(rows.begin(), rows.end(),
              [](const ReportRow& a, const ReportRow& b) {
                return a.order < b.order;
              });
    auto most = [&rows](auto key) {
      std::stable_sort(rows.begin(), rows.end(),
                       [&key](const ReportRow& a, const ReportRow& b) {
                         return key(a) > key(b);
                       });
    };
    switch (order) {
      case RowOrder::kText:
        break;
      case RowOrder::kPaddedBytes:
        most([](const ReportRow& r) { return r.bytes.padded_bytes; });
        break;
      case RowOrder::kPaddingBytes:
        most([](const ReportRow& r) { return r.bytes.wasted_bytes(); });
        break;
      case RowOrder::kExpansion:
        most([](const ReportRow& r) { return r.bytes.expansion(); });
        break;
      case RowOrder::kBufferBytes:
        most([](const ReportRow& r) { return r.buffer_bytes.padded_bytes; });
        break;
      case RowOrder::kName:
        std::stable_sort(rows.begin(), rows.end(),
                         [](const ReportRow& a, const ReportRow& b) {
                           if (a.computation != b.computation) {
                             return a.computation < b.computation;
                           }
                           return a.name < b.name;
                         });
        break;
    }
  }
}

void SortModules(ModuleOrder order, Report* report) {
  std::vector<ModuleReport>& modules = report->modules;
  auto most = [&modules](auto key) {
    std::stable_sort(modules.begin(), modules.end(),
                     [&key](const ModuleReport& a, const ModuleReport& b) {
                       return key(a) > key(b);
                     });
  };
  switch (order) {
    case ModuleOrder::kText:
      break;
    case ModuleOrder::kName:
      std::stable_sort(modules.begin(), modules.end(),
                       [](const ModuleReport& a, const ModuleReport& b) {
                         return a.name < b.name;
                       });
      break;
    case ModuleOrder::kInstructions:
      most([](const ModuleReport& m) { return m.totals.instructions; });
      break;
    case ModuleOrder::kBuffers:
      most([](const ModuleReport& m) {
        return m.totals.buffer_bytes.padded_bytes;
      });
      break;
    case ModuleOrder::kPadding:
      most([](const ModuleReport& m) {
        return m.totals.buffer_bytes.wasted_bytes();
      });
      break;
    case ModuleOrder::kExpansion:
      most([](const ModuleReport& m) {
        return m.totals.buffer_bytes.expansion();
      });
      break;
    case ModuleOrder::kAllocated:
      most([](const ModuleReport& m) -> int64_t {
        return m.memory.memory != nullptr
                   ? m.memory.memory->buffers.stats.allocated_bytes()
                   : -1;
      });
      break;
    case ModuleOrder::kPeak:
      most([](const ModuleReport& m) -> int64_t {
        return m.memory.live_ranges != nullptr
                   ? m.memory.live_ranges->peak.bytes
                   : -1;
      });
      break;
  }
}

}  // namespace hlolayout
