#include "hlolayout/report/report.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/shape/shape.h"

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
  // Per memory space (a tuple may mix them); usually one entry.
  std::vector<LeafTotals> by_space;
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

// The values an instruction with `rule` defines (kParameter: as if its
// computation defines its parameters), per memory space.
void AddDefined(const Shape& shape, ShapeSummary& summary, ValueRule rule,
                std::vector<SpaceBytes>* out, ByteCounts* total) {
  if (rule == ValueRule::kNothing) return;
  if (rule == ValueRule::kTop && shape.IsTuple()) {
    AddTo(out, 0, 1, Bytes(summary.top_table_bytes));
    total->Add(Bytes(summary.top_table_bytes));
    return;
  }
  if (rule == ValueRule::kAll || rule == ValueRule::kParameter ||
      rule == ValueRule::kTop) {
    int64_t values = summary.nodes;
    for (const LeafTotals& leaf : summary.by_space) {
      AddTo(out, leaf.memory_space, leaf.array_leaves, leaf.bytes);
      values -= leaf.array_leaves;
    }
    // Tuple tables (and tokens, which have no bytes) in the default space.
    if (values > 0) AddTo(out, 0, values, Bytes(summary.tuple_table_bytes));
    total->Add(summary.bytes);
    total->Add(Bytes(summary.tuple_table_bytes));
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
    AddTo(out, entry.memory_space, entry.values, entry.bytes);
    total->Add(entry.bytes);
  }
}

// Why each padded leaf of `shape` is padded.
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

class ReportBuilder : public HloVisitor {
 public:
  ReportBuilder(const ReportOptions& options, Report* report)
      : options_(options), report_(report) {}

  void BeginModule(const HloModuleHeader& header) override {
    report_->modules.emplace_back();
    module_ = &report_->modules.back();
    module_->name = header.name;
    space_list_.clear();
    for (int32_t& slot : small_spaces_) slot = -1;
    large_spaces_.clear();
    wasters_.clear();
    computation_names_.clear();
    computations_.clear();
    calls_.clear();
    order_ = 0;
  }

  void BeginComputation(const HloComputationHeader& header) override {
    computation_ = header.name;
    computation_names_.push_back(header.name);
    first_row_ = module_->rows.size();
    computations_.emplace_back();
    computations_.back().first_row = first_row_;
  }

  void VisitInstruction(const HloInstruction& in) override {
    ReportRow row;
    row.order = order_++;
    row.computation = computation_;
    row.name = in.name;
    row.opcode = in.opcode;
    row.shape_text = in.shape_text;
    row.is_root = in.root_marker;
    ModuleTotals& totals = module_->totals;
    ++totals.instructions;
    if (in.shape == nullptr) {
      ++totals.instructions_without_shape;
    } else {
      row.has_shape = true;
      ShapeSummary& summary = Summarize(in.shape_text, *in.shape);
      row.memory_space = summary.memory_space;
      row.array_leaves = summary.array_leaves;
      row.unsized_array_leaves = summary.unsized_array_leaves;
      row.bytes = summary.bytes;
      totals.array_leaves += summary.array_leaves;
      totals.unsized_array_leaves += summary.unsized_array_leaves;
      totals.bytes.Add(summary.bytes);
      for (const LeafTotals& leaf : summary.by_space) {
        MemorySpaceTotals& space = Space(leaf.memory_space);
        ++space.instructions;
        space.array_leaves += leaf.array_leaves;
        space.bytes.Add(leaf.bytes);
      }
      if (summary.bytes.wasted_bytes() > 0) ConsiderWaster(row, *in.shape);
      const ValueRule rule = ValueRuleOf(in.opcode);
      ComputationValues& values = computations_.back();
      AddDefined(
          *in.shape, summary, rule,
          rule == ValueRule::kParameter ? &values.parameters : &values.defined,
          &row.buffer_bytes);
      switch (rule) {
        case ValueRule::kAll:
        case ValueRule::kParameter:  // settled at the end of the module
          row.buffer = BufferRole::kNew;
          break;
        case ValueRule::kNothing:
          row.buffer = BufferRole::kAlias;
          break;
        case ValueRule::kTop:
          row.buffer =
              in.shape->IsTuple() ? BufferRole::kPartial : BufferRole::kNew;
          break;
        default:
          row.buffer = BufferRole::kPartial;
      }
    }
    if (in.shape == nullptr && ValueRuleOf(in.opcode) == ValueRule::kNothing) {
      row.buffer = BufferRole::kAlias;
    }
    if (options_.keep_rows && in.opcode == "parameter") {
      computations_.back().parameter_rows.push_back(module_->rows.size());
    }
    callees_.clear();
    AppendCalledComputationNames(in, &callees_);
    for (absl::string_view callee : callees_) {
      const Call call{computations_.size() - 1, callee, CallKindOf(in.opcode)};
      if (!calls_.empty() && calls_.back().caller == call.caller &&
          calls_.back().callee == call.callee &&
          calls_.back().kind == call.kind) {
        continue;
      }
      calls_.push_back(call);
    }
    if (options_.keep_rows) module_->rows.push_back(row);
  }

  void EndComputation(int64_t root_index, absl::string_view) override {
    computations_.back().end_row = module_->rows.size();
    ++module_->totals.computations;
    if (root_index < 0) return;
    // The root is known only now when no instruction says ROOT.
    if (options_.keep_rows) {
      const size_t index = first_row_ + static_cast<size_t>(root_index);
      if (index < module_->rows.size()) module_->rows[index].is_root = true;
    }
  }

  void EndModule(int64_t entry_index) override {
    if (entry_index >= 0 &&
        entry_index < static_cast<int64_t>(computation_names_.size())) {
      module_->entry_computation = computation_names_[entry_index];
    }
    SumBuffers(entry_index);
    module_->memory_spaces = space_list_;
    std::sort(module_->memory_spaces.begin(), module_->memory_spaces.end(),
              [](const MemorySpaceTotals& a, const MemorySpaceTotals& b) {
                return a.memory_space < b.memory_space;
              });
    std::sort(wasters_.begin(), wasters_.end(), MoreWasteful);
    for (Candidate& c : wasters_) {
      AppendReasons(c.shape, "", false, &c.waster.reasons);
      module_->top_wasters.push_back(std::move(c.waster));
    }
    wasters_.clear();
  }

  void Error(const absl::Status& error) override {
    report_->errors.push_back(std::string(error.message()));
  }

 private:
  struct Candidate {
    PaddingWaster waster;
    Shape shape;  // the reader's Shape lives only during VisitInstruction
  };

  // The values of one computation, before it is known how it is called.
  struct ComputationValues {
    std::vector<SpaceBytes> defined;     // by instructions but parameters
    std::vector<SpaceBytes> parameters;  // if its parameters define values
    size_t first_row = 0;
    size_t end_row = 0;
    std::vector<size_t> parameter_rows;
  };
  struct Call {
    size_t caller;
    absl::string_view callee;
    CallKind kind;
  };
  enum class Context : uint8_t { kUncalled, kControlFlow, kEmbedded };

  // Adds the values of the computations that are part of the schedule
  // (entry, control-flow callees; and, as in XLA, computations nobody
  // calls) to the module's buffer totals, and settles the rows' roles.
  void SumBuffers(int64_t entry_index) {
    const size_t n = computations_.size();
    absl::flat_hash_map<absl::string_view, size_t> index;
    for (size_t i = 0; i < n && i < computation_names_.size(); ++i) {
      index.emplace(computation_names_[i], i);
    }
    std::vector<Context> context(n, Context::kUncalled);
    // Each callee is looked up once, not once per pass.
    std::vector<size_t> callee(calls_.size(), n);
    for (size_t c = 0; c < calls_.size(); ++c) {
      auto it = index.find(calls_[c].callee);
      if (it != index.end() && it->second != calls_[c].caller) {
        callee[c] = it->second;
      }
    }
    // Embedded reaches everything below it; a few passes settle nesting.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t c = 0; c < calls_.size(); ++c) {
        if (callee[c] == n) continue;
        const Call& call = calls_[c];
        Context want = call.kind == CallKind::kEmbedded ||
                               context[call.caller] == Context::kEmbedded
                           ? Context::kEmbedded
                           : Context::kControlFlow;
        Context& have = context[callee[c]];
        if (want > have) {
          have = want;
          changed = true;
        }
      }
    }
    for (size_t i = 0; i < n; ++i) {
      const ComputationValues& values = computations_[i];
      const bool entry = static_cast<int64_t>(i) == entry_index;
      const Context c = entry ? Context::kUncalled : context[i];
      if (c == Context::kEmbedded) {
        if (options_.keep_rows) {
          for (size_t r = values.first_row; r < values.end_row; ++r) {
            module_->rows[r].buffer = BufferRole::kInEmbedded;
            module_->rows[r].buffer_bytes = ByteCounts();
          }
        }
        continue;
      }
      AddBuffers(values.defined);
      if (c == Context::kUncalled) {
        AddBuffers(values.parameters);
      } else if (options_.keep_rows) {
        for (size_t r : values.parameter_rows) {
          module_->rows[r].buffer = BufferRole::kAlias;
          module_->rows[r].buffer_bytes = ByteCounts();
        }
      }
    }
  }

  void AddBuffers(const std::vector<SpaceBytes>& list) {
    for (const SpaceBytes& entry : list) {
      MemorySpaceTotals& space = Space(entry.memory_space);
      space.buffer_values += entry.values;
      space.buffer_bytes.Add(entry.bytes);
      module_->totals.buffer_values += entry.values;
      module_->totals.buffer_bytes.Add(entry.bytes);
    }
  }

  static bool MoreWasteful(const Candidate& a, const Candidate& b) {
    if (a.waster.bytes.wasted_bytes() != b.waster.bytes.wasted_bytes()) {
      return a.waster.bytes.wasted_bytes() > b.waster.bytes.wasted_bytes();
    }
    return a.waster.order < b.waster.order;
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
    if (front.shape == &shape && front.text.size() == text.size() &&
        std::memcmp(front.text.data(), text.data(), text.size()) == 0) {
      return summary_store_[front.index];
    }
    uint32_t index;
    auto it = summaries_.find(text);
    if (it != summaries_.end()) {
      index = it->second;
    } else {
      if (summary_store_.size() >= kMaxSummaries) {
        summaries_.clear();
        summary_store_.clear();
        for (FrontEntry& entry : front_) entry = FrontEntry();
      }
      index = static_cast<uint32_t>(summary_store_.size());
      summary_store_.emplace_back();
      summaries_.emplace(text, index);
      ShapeSummary& summary = summary_store_.back();
      AddLeaves(shape, &summary);
      if (shape.IsTuple()) summary.top_table_bytes = TupleTableBytes(shape);
    }
    front.shape = &shape;
    front.text = text;
    front.index = index;
    return summary_store_[index];
  }

  // The totals of a memory space, found without hashing for the usual small
  // space numbers.
  MemorySpaceTotals& Space(int64_t memory_space) {
    if (memory_space >= 0 && memory_space < kSmallSpaces) {
      int32_t& slot = small_spaces_[memory_space];
      if (slot < 0) {
        slot = static_cast<int32_t>(space_list_.size());
        space_list_.emplace_back();
        space_list_.back().memory_space = memory_space;
      }
      return space_list_[slot];
    }
    auto it = large_spaces_.find(memory_space);
    if (it == large_spaces_.end()) {
      it = large_spaces_.emplace(memory_space, space_list_.size()).first;
      space_list_.emplace_back();
      space_list_.back().memory_space = memory_space;
    }
    return space_list_[it->second];
  }

  // Keeps the top_wasters most wasteful instructions (a min-heap on waste).
  void ConsiderWaster(const ReportRow& row, const Shape& shape) {
    if (options_.top_wasters <= 0) return;
    // Most instructions do not get in: tell before building a Candidate
    // (a Shape and a PaddingWaster) for them.
    if (static_cast<int64_t>(wasters_.size()) >= options_.top_wasters) {
      const PaddingWaster& least = wasters_.front().waster;
      const int64_t wasted = row.bytes.wasted_bytes();
      if (wasted < least.bytes.wasted_bytes() ||
          (wasted == least.bytes.wasted_bytes() && row.order > least.order)) {
        return;
      }
    }
    Candidate c;
    c.waster.order = row.order;
    c.waster.computation = row.computation;
    c.waster.name = row.name;
    c.waster.shape_text = row.shape_text;
    c.waster.bytes = row.bytes;
    if (static_cast<int64_t>(wasters_.size()) < options_.top_wasters) {
      c.shape = shape;
      wasters_.push_back(std::move(c));
      std::push_heap(wasters_.begin(), wasters_.end(), MoreWasteful);
      return;
    }
    // wasters_.front() is the least wasteful kept.
    if (!MoreWasteful(c, wasters_.front())) return;
    c.shape = shape;  // copied only when it gets in
    std::pop_heap(wasters_.begin(), wasters_.end(), MoreWasteful);
    wasters_.back() = std::move(c);
    std::push_heap(wasters_.begin(), wasters_.end(), MoreWasteful);
  }

  static constexpr size_t kMaxSummaries = 1 << 14;
  static constexpr size_t kFrontSize = 1 << 12;
  static constexpr int64_t kSmallSpaces = 8;
  struct FrontEntry {
    const Shape* shape = nullptr;
    absl::string_view text;
    uint32_t index = 0;
  };

  const ReportOptions& options_;
  Report* report_;
  ModuleReport* module_ = nullptr;
  absl::string_view computation_;
  std::vector<absl::string_view> computation_names_;
  std::vector<ComputationValues> computations_;
  std::vector<Call> calls_;
  std::vector<absl::string_view> callees_;  // scratch
  size_t first_row_ = 0;
  int64_t order_ = 0;
  // Memory space totals of the module, in order of first use.
  std::vector<MemorySpaceTotals> space_list_;
  int32_t small_spaces_[kSmallSpaces] = {-1, -1, -1, -1,
                                         -1, -1, -1, -1};  // -1: none
  absl::flat_hash_map<int64_t, size_t> large_spaces_;
  absl::flat_hash_map<absl::string_view, uint32_t> summaries_;
  std::vector<ShapeSummary> summary_store_;
  std::vector<FrontEntry> front_ = std::vector<FrontEntry>(kFrontSize);
  std::vector<Candidate> wasters_;
};

}  // namespace

absl::Status AppendReport(absl::string_view text, const ReportOptions& options,
                          Report* report) {
  ReportBuilder builder(options, report);
  // The report needs results and attributes, not operands.
  HloReadOptions read = options.read;
  read.read_operands = false;
  absl::Status status = ReadHlo(text, read, &builder);
  if (!status.ok() && !options.read.keep_going) return status;
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
    switch (order) {
      case RowOrder::kText:
        std::sort(rows.begin(), rows.end(),
                  [](const ReportRow& a, const ReportRow& b) {
                    return a.order < b.order;
                  });
        break;
      case RowOrder::kPaddedBytes:
        std::sort(rows.begin(), rows.end(),
                  [](const ReportRow& a, const ReportRow& b) {
                    if (a.bytes.padded_bytes != b.bytes.padded_bytes) {
                      return a.bytes.padded_bytes > b.bytes.padded_bytes;
                    }
                    return a.order < b.order;
                  });
        break;
      case RowOrder::kName:
        std::sort(rows.begin(), rows.end(),
                  [](const ReportRow& a, const ReportRow& b) {
                    if (a.computation != b.computation) {
                      return a.computation < b.computation;
                    }
                    if (a.name != b.name) return a.name < b.name;
                    return a.order < b.order;
                  });
        break;
    }
  }
}

}  // namespace hlolayout
