// The analysis of memory/live_range.h: the module's records read into
// nodes, the values of their positions (phis resolved; what each position
// holds is set in memory/live_range_sources.cc), the flattened
// schedule, the uses, and the passes run in order (Analyzer::Run). The
// class and its layout: memory/live_range_analyzer.h.
#include "hlolayout/memory/live_range.h"

#include <algorithm>
#include <charconv>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/live_range_analyzer.h"
#include "hlolayout/memory/phi_graph.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/util/cores.h"
#include "hlolayout/util/pages.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {
namespace memory_internal {
namespace {

// The op_name="..." of a metadata attribute's value (empty if none).
absl::string_view OpNameOf(absl::string_view metadata) {
  const size_t at = metadata.find("op_name=\"");
  if (at == absl::string_view::npos) return {};
  const size_t b = at + 9;
  const size_t e = metadata.find('"', b);
  return e == absl::string_view::npos ? absl::string_view()
                                      : metadata.substr(b, e - b);
}

// The records of computation `c` (up to `most` of them), and, when
// `lists`, the operand and attribute arrays they point to (the records
// should be in cache by then).
inline void PrefetchComputation(const HloModule& module, size_t c, size_t most,
                                bool lists) {
  if (c >= module.computations.size()) return;
  const std::vector<HloInstruction>& instructions =
      module.computations[c].instructions;
  const size_t n = std::min(most, instructions.size());
  if (!lists) {
    Prefetch(instructions.data(), n * sizeof(HloInstruction));
    return;
  }
  for (size_t k = 0; k < n; ++k) {
    Prefetch(instructions[k].operands().data(), 64);
    Prefetch(instructions[k].attributes().data(), 64);
  }
}
}  // namespace

Op OpOf(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kCall:
      return Op::kCall;
    case HloOpcode::kCopy:
      return Op::kCopy;
    case HloOpcode::kTuple:
      return Op::kTuple;
    case HloOpcode::kWhile:
      return Op::kWhile;
    case HloOpcode::kFusion:
      return Op::kFusion;
    case HloOpcode::kDomain:
      return Op::kDomain;
    case HloOpcode::kConstant:
      return Op::kConstant;
    case HloOpcode::kParameter:
      return Op::kParameter;
    case HloOpcode::kConditional:
      return Op::kConditional;
    case HloOpcode::kAsyncStart:
      return Op::kAsyncStart;
    case HloOpcode::kCustomCall:
      return Op::kCustomCall;
    case HloOpcode::kGetTupleElement:
      return Op::kGetTupleElement;
    case HloOpcode::kDynamicUpdateSlice:
      return Op::kDynamicUpdateSlice;
    case HloOpcode::kAllReduceStart:
      return Op::kAllReduceStart;
    case HloOpcode::kAsyncUpdate:
      return Op::kAsyncUpdate;
    case HloOpcode::kAsyncDone:
      return Op::kAsyncDone;
    default:
      return Op::kOther;
  }
}

Forward ForwardOf(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBitcast:
    case HloOpcode::kDomain:
    case HloOpcode::kOptBarrier:
    case HloOpcode::kAddDependency:
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kCopy:
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kRecvDone:
      return Forward::kSameIndex;
    case HloOpcode::kCopyDone:
      return Forward::kUnder0;
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
    case HloOpcode::kAsyncDone:
      return Forward::kUnder1;
    case HloOpcode::kCopyStart:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kSend:
      return Forward::kDropFirst;
    case HloOpcode::kAllGatherStart:
      return Forward::kAllGatherStart;
    default:
      return Forward::kNone;
  }
}

namespace {

struct OpcodeClassTable {
  OpcodeClassTable() {
    for (int k = 0; k < kHloOpcodeCount; ++k) {
      const HloOpcode opcode = static_cast<HloOpcode>(k);
      OpcodeClass& c = classes[k];
      c.op = OpOf(opcode);
      c.rule = ValueRuleOf(opcode);
      c.forward = ForwardOf(opcode);
      c.call_kind = CallKindOf(opcode);
      c.async_update_or_done =
          opcode == HloOpcode::kAsyncUpdate || opcode == HloOpcode::kAsyncDone;
    }
  }
  OpcodeClass classes[kHloOpcodeCount];
};

}  // namespace

const OpcodeClass& OpcodeClassOf(HloOpcode opcode) {
  static const OpcodeClassTable* const table = new OpcodeClassTable;
  return table->classes[static_cast<int>(opcode)];
}

absl::Status Analyzer::Build() {
  bool scheduled = false;
  for (const HloAttribute& a : module_.header.attributes) {
    if (a.name() == "is_scheduled" && a.value() == "true") scheduled = true;
  }
  out_.scheduled = scheduled;
  if (!scheduled && !options_.allow_unscheduled) {
    return absl::InvalidArgumentError(absl::StrCat(
        "module ", module_.header.name.empty() ? "(no name)" : "",
        module_.header.name,
        " is not scheduled (no is_scheduled=true): its text order is not "
        "an execution order, so there is no live range to compute"));
  }
  const size_t computations = module_.computations.size();
  comps_.resize(computations);
  for (size_t c = 0; c < computations; ++c) {
    comps_[c].source = &module_.computations[c];
  }
  // Contexts (every caller's kind; embedded wins) come from the module,
  // which resolved every call once while it was read: no pass over the
  // records here. What the nodes need (infos_) is copied afterwards, one
  // computation at a time, for the computations that are not embedded
  // only: a fused computation's instructions become no nodes, and a dump of
  // many small fusions would otherwise fill a record for nearly every
  // instruction for nothing.
  comp_first_instruction_.resize(computations);
  int64_t first = 0;
  for (size_t c = 0; c < computations; ++c) {
    comp_first_instruction_[c] = first;
    first += static_cast<int64_t>(module_.computations[c].instructions.size());
    const uint8_t by = c < module_.called_by.size() ? module_.called_by[c] : 0;
    if (by & kHloCalledByEmbedded) {
      comps_[c].context = Context::kEmbedded;
    } else if (by & kHloCalledByControlFlow) {
      comps_[c].context = Context::kControlFlow;
    }
  }
  absl::Status known = CheckCalleesKnown();
  if (!known.ok()) return known;
  if (module_.entry_index < 0 ||
      module_.entry_index >= static_cast<int64_t>(computations)) {
    return absl::InvalidArgumentError("module has no entry computation");
  }
  comps_[module_.entry_index].context = Context::kEntry;
  absl::Status checked = CheckCallGraph();
  if (!checked.ok()) return checked;
  // Build every computation that is not embedded.
  size_t built = 0;
  for (size_t c = 0; c < computations; ++c) {
    if (comps_[c].context == Context::kEmbedded) continue;
    built += module_.computations[c].instructions.size();
  }
  // Two parts, side by side, once the work is large enough to split.
  const int64_t parts =
      static_cast<int64_t>(built) >= options_.parallel_from ? 2 : 1;
  parallel_ = ThreadsForParts(options_.threads, parts, /*at_most=*/2) >= 2;
  nodes_.reserve(built * 5 / 4 + 16);
  // A list per distinct shape object met (most of the module's, at most
  // one per node): one table, never grown.
  subshape_cache_.reserve(std::min(module_.shapes.size(), built) + 16);
  operand_ids_.reserve(built * 2);
  sequence_ids_.reserve(built * 5 / 4 + 16);
  // Joined by AddTextNodes, or here on the way out of an error.
  const std::unique_ptr<EarlyTail> early = StartEarlyTail();
  for (size_t c = 0; c < comps_.size(); ++c) {
    PrefetchComputation(module_, c + 8, 16, /*lists=*/false);
    PrefetchComputation(module_, c + 4, 16, /*lists=*/true);
    if (comps_[c].context == Context::kEmbedded) continue;
    absl::Status status = BuildComputation(c, early.get());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

std::unique_ptr<Analyzer::EarlyTail> Analyzer::StartEarlyTail() {
  if (!parallel_) return nullptr;
  int64_t largest = kNone, count = 0, before = 0, built = 0;
  for (size_t c = 0; c < comps_.size(); ++c) {
    if (comps_[c].context == Context::kEmbedded) continue;
    const int64_t n =
        static_cast<int64_t>(module_.computations[c].instructions.size());
    if (n > count) {
      largest = static_cast<int64_t>(c);
      count = n;
      before = built;
    }
    built += n;
  }
  const int64_t halved_from =
      std::min<int64_t>(kHalvedComputation, options_.parallel_from);
  if (largest == kNone || count < 2 || count < halved_from) return nullptr;
  // A rough balance, not a fitted one: the calling thread builds the
  // `before` instructions of the computations ahead, at about half the cost
  // of the largest one's (their shapes are mostly met already), then its
  // first `begin`; the second thread fills the rest, listing their shapes,
  // at about the calling thread's cost a node. So each takes about half of
  // the rest. (When the calling thread listed the second one's shapes as
  // it joined them, a third was the balance. With the lists on the second
  // thread, a third left the calling thread waiting 9 ms on a 75 MB dump,
  // 11 runs; half, none.)
  return StartTail(largest,
                   std::clamp<int64_t>((count - before / 2) / 2, 0, count - 1),
                   count);
}

std::unique_ptr<Analyzer::EarlyTail> Analyzer::StartTail(int64_t c,
                                                         int64_t begin,
                                                         int64_t end) {
  auto tail = std::make_unique<EarlyTail>();
  tail->computation = c;
  tail->begin = begin;
  EarlyTail* const t = tail.get();
  tail->task = std::make_unique<SideTask>(true, [this, t, end] {
    // Faulted in on this thread.
    t->nodes.resize(end - t->begin);
    t->tables.shape_ids.resize(end - t->begin);
    t->tables.status =
        FillTextNodes(t->computation, t->begin, end, t->nodes.data(),
                      &t->tables, &t->tables.calls, &t->tables.parameters);
    if (t->tables.status.ok()) ListHalfShapes(&t->tables);
  });
  return tail;
}

absl::Status Analyzer::CheckCalleesKnown() const {
  const std::vector<int32_t>& callees = module_.callee_indices;
  const auto unknown = std::find(callees.begin(), callees.end(), -1);
  if (unknown == callees.end()) return absl::OkStatus();
  // The first instruction in text order that names it (the module lists
  // the callees in that order).
  const int64_t at = unknown - callees.begin();
  for (const HloComputation& c : module_.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (at >= in.first_callee && at < in.first_callee + in.callee_count) {
        return absl::InvalidArgumentError(absl::StrCat(
            "instruction '", in.name(), "' calls unknown computation '",
            CalledComputationNames(in)[at - in.first_callee], "'"));
      }
    }
  }
  return absl::InvalidArgumentError("a call names an unknown computation");
}

absl::Status Analyzer::CheckCallGraph() const {
  // The calls of computation c: module_.callee_indices from refs(c) to
  // ends(c).
  const size_t n = comps_.size();
  const std::vector<int32_t>& callee_ids = module_.callee_indices;
  const std::vector<int32_t>& begins = module_.computation_callees_begin;
  if (begins.size() != n + 1) {
    return absl::InvalidArgumentError(
        "module is not linked (no computation_callees_begin)");
  }
  const auto refs = [&](size_t c) { return static_cast<uint32_t>(begins[c]); };
  const auto ends = [&](size_t c) {
    return static_cast<uint32_t>(begins[c + 1]);
  };
  // Depth-first, without recursion: depth[c] is 0 before c is met, -1
  // while c is on the walk, then the longest chain of calls from c (1 when
  // it calls nothing).
  ScratchVector<int32_t> depth(n, 0);
  struct Frame {
    size_t computation;
    uint32_t next;  // into callee_ids
  };
  std::vector<Frame> walk;
  for (size_t root = 0; root < n; ++root) {
    if (depth[root] != 0) continue;
    depth[root] = -1;
    walk.push_back({root, refs(root)});
    while (!walk.empty()) {
      Frame& f = walk.back();
      if (f.next < ends(f.computation)) {
        const int64_t callee = callee_ids[f.next++];
        if (depth[callee] == -1) {
          return absl::InvalidArgumentError(absl::StrCat(
              "computation '", module_.computations[callee].header.name,
              "' calls itself",
              callee == static_cast<int64_t>(f.computation)
                  ? ""
                  : " through other computations",
              " (XLA's computations call each other without cycles)"));
        }
        if (depth[callee] == 0) {
          depth[callee] = -1;
          walk.push_back({static_cast<size_t>(callee), refs(callee)});
        }
        continue;
      }
      int32_t d = 1;
      for (uint32_t k = refs(f.computation); k < ends(f.computation); ++k) {
        d = std::max(d, depth[callee_ids[k]] + 1);
      }
      if (d > kMaxCallDepth) {
        return absl::InvalidArgumentError(absl::StrCat(
            "calls are nested more than ", kMaxCallDepth,
            " computations deep from '",
            module_.computations[f.computation].header.name,
            "' (the memory analysis follows at most ", kMaxCallDepth, ")"));
      }
      depth[f.computation] = d;
      walk.pop_back();
    }
  }
  return absl::OkStatus();
}

void Analyzer::ReadInfo(const HloInstruction& in, InstructionInfo* out) {
  InstructionInfo& info = *out;
  info = InstructionInfo();
  info.source = &in;
  info.name = in.name();
  info.shape = in.shape;
  info.opcode_class = OpcodeClassOf(in.opcode);
  if (in.parameter_number.has_value()) {
    info.has_parameter_number = true;
    info.parameter_number = *in.parameter_number;
  }
  // Most of a dump: its attributes, and the text they view, are not read
  // again (docs/memory-speed.md, "What the analysis reads of the text").
  if (ReadRecordedInfo(in, &info)) return;
  bool body_seen = false, condition_seen = false;
  for (const HloAttribute& a : in.attributes()) {
    switch (a.name().size()) {
      case 4:
        if (!body_seen && Eq(a.name(), "body")) {
          body_seen = true;
          info.body = CalledComputation(module_, in, "body");
        }
        break;
      case 9:
        if (!condition_seen && Eq(a.name(), "condition")) {
          condition_seen = true;
          info.condition = CalledComputation(module_, in, "condition");
        }
        break;
      case 20:
        if (Eq(a.name(), "control-predecessors")) {
          info.has_control_predecessors = true;
        }
        break;
      default:
        break;
    }
  }
}

bool Analyzer::ReadRecordedInfo(const HloInstruction& in,
                                InstructionInfo* info) const {
  const uint8_t facts = in.attribute_facts;
  if ((facts & kHloFactsKnown) == 0) return false;
  const bool body = (facts & kHloFactBody) != 0;
  const bool condition = (facts & kHloFactCondition) != 0;
  if (body || condition) {
    // A loop's two callees, in the order written (HloModule::callees).
    const absl::Span<const int32_t> callees = module_.callees(in);
    if (!body || !condition || callees.size() != 2) return false;
    const bool body_first = (facts & kHloFactBodyFirst) != 0;
    info->body = callees[body_first ? 0 : 1];
    info->condition = callees[body_first ? 1 : 0];
  }
  info->has_control_predecessors = (facts & kHloFactControl) != 0;
  return true;
}

absl::Status Analyzer::BuildComputation(int64_t c, EarlyTail* early) {
  Comp& comp = comps_[c];
  // The text's instructions become nodes base, base + 1, ...
  const int64_t base = static_cast<int64_t>(nodes_.size());
  absl::StatusOr<int64_t> parameters = AddTextNodes(c, early);
  if (!parameters.ok()) return parameters.status();
  IndexParameters(c, base, *parameters);
  absl::Status status = AddOperands(c, base);
  if (!status.ok()) return status;
  SequenceNodes(c, base);
  if (comp.source->root_index >= 0) comp.root = base + comp.source->root_index;
  comp.built = true;
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Analyzer::AddTextNodes(int64_t c, EarlyTail* early) {
  const HloComputation& source = *comps_[c].source;
  const int64_t count = static_cast<int64_t>(source.instructions.size());
  const HloInstruction* const records = source.instructions.data();
  const int64_t base = static_cast<int64_t>(nodes_.size());
  nodes_.resize(base + count);
  scratch_parameters_.clear();
  // The last nodes come from the second thread: the early tail, or the
  // second half of a large computation when that thread is free (started
  // here). Its shape lists, calls and parameters are its own, joined after:
  // the same nodes, and the first error in text order. (Tests halve every
  // computation: parallel_from 0.)
  std::unique_ptr<EarlyTail> half;
  EarlyTail* tail = early;
  if (early == nullptr || early->computation == kNone) {
    const int64_t halved_from =
        std::min<int64_t>(kHalvedComputation, options_.parallel_from);
    if (parallel_ && count >= 2 && count >= halved_from) {
      half = StartTail(c, count / 2, count);
    }
    tail = half.get();
  }
  if (tail == nullptr || tail->computation != c) {
    absl::Status status = FillTextNodes(c, 0, count, nodes_.data() + base,
                                        nullptr, &calls_, &scratch_parameters_);
    if (!status.ok()) return status;
  } else {
    const int64_t begin = tail->begin;
    const absl::Status first_status =
        FillTextNodes(c, 0, begin, nodes_.data() + base, nullptr, &calls_,
                      &scratch_parameters_);
    tail->task->Join();
    tail->computation = kNone;
    if (!first_status.ok()) return first_status;
    if (!tail->tables.status.ok()) return tail->tables.status;
    JoinHalf(base + begin, base + count, tail);
  }
  int64_t parameters = 0;  // 1 + the largest parameter number
  for (const auto& [k, number] : scratch_parameters_) {
    parameters = std::max(parameters, number + 1);
  }
  // XLA numbers a computation's parameters 0 to N-1, one instruction each
  // (the reader refuses a number used twice). The parameters are indexed
  // by number: a larger one would size that table by the number, not by
  // the text (parameter(2000000000) asked for 16 GB).
  const size_t numbered = scratch_parameters_.size();
  if (parameters > static_cast<int64_t>(numbered)) {
    const auto largest = std::max_element(
        scratch_parameters_.begin(), scratch_parameters_.end(),
        [](const auto& a, const auto& b) { return a.second < b.second; });
    return absl::InvalidArgumentError(
        absl::StrCat("parameter '", records[largest->first].name(), "' of '",
                     source.header.name, "' is numbered ", largest->second,
                     ", but '", source.header.name, "' has ", numbered,
                     numbered == 1 ? " parameter" : " parameters",
                     " (XLA numbers them from 0 to ", numbered - 1, ")"));
  }
  return parameters;
}

absl::Status Analyzer::FillTextNodes(
    int64_t c, int64_t begin, int64_t end, Node* out, HalfTables* half,
    ScratchVector<NodeCalls>* calls,
    ScratchVector<std::pair<int64_t, int64_t>>* parameters) {
  const HloComputation& source = *comps_[c].source;
  const int64_t first_instruction = comp_first_instruction_[c];
  const HloInstruction* const records = source.instructions.data();
  InstructionInfo info;
  for (int64_t k = begin; k < end; ++k) {
    if (k + 4 < end) Prefetch(records[k + 4].attributes().data(), 64);
    ReadInfo(records[k], &info);
    if (info.shape == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", info.name, "' in '", source.header.name,
          "' has no shape; memory analysis needs every result shape"));
    }
    Node& node = out[k - begin];
    const OpcodeClass& opcode = info.opcode_class;
    node.op = opcode.op;
    node.rule = opcode.rule;
    node.forward = opcode.forward;
    if (half != nullptr) {
      half->shape_ids[k - begin] = half->IdOf(info.shape);  // see JoinHalf
    } else {
      node.subshapes = SubshapesOf(info.shape);
      node.effective_scalar = node.subshapes[0].effective_scalar;
    }
    node.info = static_cast<int32_t>(first_instruction + k);
    node.computation = static_cast<int32_t>(c);
    node.has_control_predecessors = info.has_control_predecessors;
    node.calls_parameters = records[k].callee_count > 0 &&
                            opcode.call_kind == CallKind::kControlFlow &&
                            !opcode.async_update_or_done;
    if (HasCalls(node.op)) {
      node.element_or_calls = static_cast<int32_t>(calls->size());
      NodeCalls& call = calls->emplace_back();
      if (node.op == Op::kWhile) {
        call.body = static_cast<int32_t>(info.body);
        call.condition = static_cast<int32_t>(info.condition);
      }
      call.first_callee = static_cast<uint32_t>(records[k].first_callee);
      call.callee_count = static_cast<uint32_t>(records[k].callee_count);
    } else if (node.op == Op::kParameter) {
      // An int32_t in the record (HloInstruction::parameter_number).
      node.element_or_calls = info.has_parameter_number
                                  ? static_cast<int32_t>(info.parameter_number)
                                  : 0;
    } else if (node.op == Op::kGetTupleElement) {
      // The reader's `index=` (HloInstruction::decoded_attribute of a
      // get-tuple-element; kAskAttributes: tuple_index() reads it).
      node.element_or_calls = records[k].decoded_attribute;
    } else if (node.op == Op::kFusion) {
      const absl::Span<const int32_t> called = module_.callees(records[k]);
      node.element_or_calls = called.empty() ? -1 : called[0];
    }
    node.may_alias_operands = records[k].may_have(kHloFactOperandAliasing);
    if (info.has_parameter_number && info.parameter_number >= 0) {
      parameters->emplace_back(k, info.parameter_number);
    }
  }
  return absl::OkStatus();
}

int32_t Analyzer::HalfTables::IdOf(const Shape* shape) {
  const size_t slot = RecentShapeSlot(shape);
  if (recent[slot].first == shape) return recent[slot].second;
  const auto [it, added] =
      ids.try_emplace(shape, static_cast<int32_t>(shapes.size()));
  if (added) shapes.push_back(shape);
  recent[slot] = {shape, it->second};
  return it->second;
}

void Analyzer::ListHalfShapes(HalfTables* half) {
  half->lists.reserve(half->shapes.size());
  half->scalar.resize(half->shapes.size());
  for (size_t i = 0; i < half->shapes.size(); ++i) {
    Subshape* list = half->arena.List(*half->shapes[i], &half->child_offsets);
    half->lists.push_back(list);
    half->scalar[i] = list->effective_scalar;
  }
}

void Analyzer::JoinHalf(int64_t begin, int64_t end, EarlyTail* tail) {
  HalfTables& half = tail->tables;
  // The half's lists count their tuples' children from the start of its
  // own offsets, which follow the analysis' (those of the lists it drops
  // too: fewer than the lists' records).
  const int32_t children = static_cast<int32_t>(child_offsets_.size());
  child_offsets_.insert(child_offsets_.end(), half.child_offsets.begin(),
                        half.child_offsets.end());
  std::vector<Subshapes> lists(half.shapes.size());
  for (size_t i = 0; i < lists.size(); ++i) {
    // The shapes' slots in the cache of lists, fetched ahead: each lookup
    // of these shapes, new to this thread, missed.
    if (i + 8 < lists.size()) subshape_cache_.prefetch(half.shapes[i + 8]);
    const auto [it, added] =
        subshape_cache_.try_emplace(half.shapes[i], Subshapes(half.lists[i]));
    if (added && half.lists[i]->children >= 0) {
      // A tuple: its records' children now count from the table's start.
      Subshape* const list = half.lists[i];
      for (int64_t k = 0; k < list->count; ++k) {
        if (list[k].children >= 0) list[k].children += children;
      }
    }
    lists[i] = it->second;
  }
  // The lists the analysis had already stay in the half's arena, unused.
  storage_->subshapes.Adopt(&half.arena);
  const ScratchVector<char>& scalar = half.scalar;
  // Its calls follow the analysis' own.
  const int32_t calls = static_cast<int32_t>(calls_.size());
  // The nodes copied in two halves side by side when the analysis runs so
  // (each node is the tail's; the tables above are only read; nothing is
  // allocated, which would wait on the CLI heap's one lock).
  const auto copy = [&](int64_t from, int64_t to) {
    for (int64_t id = from; id < to; ++id) {
      Node& node = nodes_[id];
      node = tail->nodes[id - begin];
      const int32_t shape = half.shape_ids[id - begin];
      node.subshapes = lists[shape];
      node.effective_scalar = scalar[shape] != 0;
      if (HasCalls(node.op)) node.element_or_calls += calls;
    }
  };
  const int64_t middle = begin + (end - begin) / 2;
  RunSideBySide(
      parallel_, [&] { copy(begin, middle); }, [&] { copy(middle, end); });
  ScratchVector<Node>().swap(tail->nodes);
  calls_.insert(calls_.end(), half.calls.begin(), half.calls.end());
  scratch_parameters_.insert(scratch_parameters_.end(), half.parameters.begin(),
                             half.parameters.end());
}

void Analyzer::IndexParameters(int64_t c, int64_t base, int64_t parameters) {
  // The last one written with a number counts.
  Comp& comp = comps_[c];
  comp.parameters_begin = static_cast<int64_t>(parameter_ids_.size());
  comp.parameters_size = parameters;
  parameter_ids_.resize(parameter_ids_.size() + parameters, kNone);
  // AddTextNodes listed them in text order.
  for (const auto& [k, number] : scratch_parameters_) {
    parameter_ids_[comp.parameters_begin + number] = base + k;
  }
}

absl::Status Analyzer::AddOperands(int64_t c, int64_t base) {
  const HloComputation& source = *comps_[c].source;
  const int64_t count = static_cast<int64_t>(source.instructions.size());
  const HloInstruction* const records = source.instructions.data();
  FillScratch(&scratch_gte_head_, count, kNone);
  if (scratch_gte_tail_.size() < static_cast<size_t>(count)) {
    scratch_gte_tail_.resize(count);
  }
  scratch_gtes_.clear();
  // A restored get-tuple-element's operand is written after the operands
  // of the instruction that first uses it.
  ScratchVector<std::pair<int64_t, int64_t>>& new_gtes = scratch_new_gtes_;
  for (int64_t k = 0; k < count; ++k) {
    const HloInstruction& in = records[k];
    if (k + 4 < count) Prefetch(records[k + 4].operands().data(), 64);
    const size_t begin = operand_ids_.size();
    new_gtes.clear();
    for (const HloOperand& operand : in.operands()) {
      // Resolved by the reader (HloOperand::index).
      if (operand.index < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operand '", operand.name, "' of '", in.name(),
            "' is not an instruction of '", source.header.name, "'"));
      }
      int64_t producer = base + operand.index;
      if (operand.has_output_index()) {
        int64_t gte =
            FindRestoredGetTupleElement(producer - base, operand.output_index);
        if (gte == kNone) {
          absl::StatusOr<int64_t> added =
              AddRestoredGetTupleElement(c, base, producer, operand, in.name());
          if (!added.ok()) return added.status();
          gte = *added;
        }
        producer = gte;
      }
      operand_ids_.push_back(producer);
    }
    Node& node = nodes_[base + k];
    node.operands_begin = static_cast<uint32_t>(begin);
    node.operands_size = static_cast<uint32_t>(in.operands().size());
    for (const auto& [gid, producer] : new_gtes) {
      nodes_[gid].operands_begin = static_cast<uint32_t>(operand_ids_.size());
      operand_ids_.push_back(producer);
    }
  }
  return absl::OkStatus();
}

inline int64_t Analyzer::FindRestoredGetTupleElement(int64_t local,
                                                     int64_t n) const {
  int64_t e = scratch_gte_head_[local];
  while (e != kNone && scratch_gtes_[e].index != n) e = scratch_gtes_[e].next;
  return e == kNone ? kNone : scratch_gtes_[e].node;
}

absl::StatusOr<int64_t> Analyzer::AddRestoredGetTupleElement(
    int64_t c, int64_t base, int64_t producer, const HloOperand& operand,
    absl::string_view user) {
  const int64_t local = producer - base;
  const Shape* ps = NodeShape(nodes_[producer]);
  if (!ps->IsTuple() || operand.output_index >= ps->tuple_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "operand '", operand.name, "#", operand.output_index, "' of '", user,
        "' selects no element of ", NameOf(nodes_[producer]), "'s result"));
  }
  const int64_t gid = static_cast<int64_t>(nodes_.size());
  nodes_.emplace_back();
  Node& gte = nodes_.back();
  gte.info = nodes_[producer].info;
  gte.restored = true;
  gte.op = Op::kGetTupleElement;
  gte.rule = ValueRule::kNothing;
  gte.element_or_calls = static_cast<int32_t>(operand.output_index);
  gte.subshapes = SubshapesOf(&ps->tuple_shape(operand.output_index));
  gte.effective_scalar = gte.subshapes[0].effective_scalar;
  gte.computation = static_cast<int32_t>(c);
  gte.operands_size = 1;
  scratch_new_gtes_.emplace_back(gid, producer);
  // Appended to the producer's list.
  const int64_t e = static_cast<int64_t>(scratch_gtes_.size());
  scratch_gtes_.push_back({operand.output_index, gid, kNone});
  if (scratch_gte_head_[local] == kNone) {
    scratch_gte_head_[local] = e;
  } else {
    scratch_gtes_[scratch_gte_tail_[local]].next = e;
  }
  scratch_gte_tail_[local] = e;
  return gid;
}

void Analyzer::SequenceNodes(int64_t c, int64_t base) {
  // Each producer's restored get-tuple-elements go right after it, past
  // the constants that directly follow it (where XLA's schedulers put them
  // in the dumps of docs/memory.md).
  Comp& comp = comps_[c];
  const int64_t count = static_cast<int64_t>(comp.source->instructions.size());
  comp.first_node = base;
  comp.text_nodes = count;
  comp.folded_begin = static_cast<int64_t>(folded_.size());
  comp.folded_size = static_cast<int64_t>(scratch_gtes_.size());
  comp.sequence_begin = static_cast<int64_t>(sequence_ids_.size());
  comp.sequence_size = count + comp.folded_size;
  ScratchVector<int64_t>& pending = scratch_pending_;
  pending.clear();
  for (int64_t k = 0; k < count; ++k) {
    const int64_t id = base + k;
    if (!pending.empty() && nodes_[id].op != Op::kConstant) {
      for (int64_t g : pending) sequence_ids_.push_back(g);
      pending.clear();
    }
    sequence_ids_.push_back(id);
    for (int64_t e = scratch_gte_head_[k]; e != kNone;
         e = scratch_gtes_[e].next) {
      pending.push_back(scratch_gtes_[e].node);
      folded_.emplace_back(id, scratch_gtes_[e].node);
    }
  }
  for (int64_t g : pending) sequence_ids_.push_back(g);
}

void Analyzer::Flatten(int64_t c) {
  Comp& comp = comps_[c];
  if (comp.span_start != kNone || !comp.built) return;
  comp.span_start = static_cast<int64_t>(schedule_.size());
  for (int64_t id : Sequence(comp)) {
    const Node& node = nodes_[id];
    if (node.op == Op::kCall || node.op == Op::kConditional ||
        node.op == Op::kAsyncStart) {
      for (int64_t callee : Callees(node)) Flatten(callee);
    } else if (node.op == Op::kWhile) {
      // condition first, then body, whatever the attribute order.
      if (Condition(node) != kNone) Flatten(Condition(node));
      if (Body(node) != kNone) Flatten(Body(node));
    }
    if (nodes_[id].time == kNone) {
      nodes_[id].time = static_cast<int32_t>(schedule_.size());
      schedule_.push_back(id);
    }
  }
  comp.span_end = static_cast<int64_t>(schedule_.size());
}

Subshapes Analyzer::SubshapesOf(const Shape* shape) {
  const size_t slot = RecentShapeSlot(shape);
  if (recent_shapes_[slot].first == shape) return recent_shapes_[slot].second;
  Subshapes& cached = subshape_cache_[shape];
  if (cached.null()) {
    cached = Subshapes(storage_->subshapes.List(*shape, &child_offsets_));
  }
  recent_shapes_[slot] = {shape, cached};
  return cached;
}

namespace {
// Frees `table` (clear() would keep its room).
template <typename Table>
void Release(Table* table) {
  Table().swap(*table);
}

// A graph node in Analyzer's `end_of`, where a chain end's entry was its
// own position (>= 0) and kNone is -1.
int32_t GraphNodeEntry(int64_t node) { return static_cast<int32_t>(-2 - node); }
int64_t GraphNodeOf(int64_t entry) { return -2 - entry; }
}  // namespace

absl::Status Analyzer::ResolveValues() {
  // The chains and the phis both only read the sources: side by side (4-5
  // ms each on a 75 MB dump, in a phase that is otherwise one thread's).
  ScratchVector<int32_t> end_of;
  absl::Status followed;
  PositionKinds kinds;
  ScratchVector<PhiSource> phis;
  RunSideBySide(
      parallel_,
      [&] {
        end_of.assign(positions_, kNone);
        followed = FollowForwards(&end_of);
      },
      [&] { CollectPhis(&kinds, &phis); });
  if (!followed.ok()) return followed;
  PhiGraph graph;
  ScratchVector<int32_t> position_of;
  BuildPhiGraph(&end_of, kinds, phis, &graph, &position_of);
  Release(&phis);
  graph.Optimize(parallel_);
  NumberValues(kinds, graph, position_of, &end_of);
  value_of_ = std::move(end_of);
  return absl::OkStatus();
}

absl::Status Analyzer::FollowForwards(ScratchVector<int32_t>* end_of) const {
  ScratchVector<int32_t>& end = *end_of;
  ScratchVector<int64_t> path;
  for (int64_t p = 0; p < positions_; ++p) {
    if (end[p] != kNone) continue;
    path.clear();
    int64_t q = p;
    while (end[q] == kNone && sources_[q].kind == SourceKind::kForward) {
      if (static_cast<int64_t>(path.size()) > positions_) {
        return absl::InvalidArgumentError("cyclic value forwarding");
      }
      path.push_back(q);
      q = sources_[q].target;
    }
    if (end[q] == kNone) end[q] = q;
    for (int64_t x : path) end[x] = end[q];
  }
  return absl::OkStatus();
}

void Analyzer::CollectPhis(PositionKinds* kinds,
                           ScratchVector<PhiSource>* phis) const {
  // What the graph needs of the sources is each position's kind (a byte)
  // and the phis' inputs: the sources themselves (12 bytes a position)
  // are freed before it is built, unless the dataflow is kept
  // (ExportDataflow reads them).
  kinds->of.resize(positions_);
  for (int64_t p = 0; p < positions_; ++p) {
    const SourceKind kind = sources_[p].kind;
    kinds->of[p] = kind;
    kinds->phis += kind == SourceKind::kPhi;
    kinds->defined += kind == SourceKind::kDefined;
  }
  phis->reserve(kinds->phis);
  for (int64_t p = 0; p < positions_; ++p) {
    if (kinds->of[p] != SourceKind::kPhi) continue;
    phis->push_back(
        {static_cast<int32_t>(p), sources_[p].target, sources_[p].inputs});
  }
}

void Analyzer::BuildPhiGraph(ScratchVector<int32_t>* end_of,
                             const PositionKinds& kinds,
                             const ScratchVector<PhiSource>& phis,
                             PhiGraph* graph,
                             ScratchVector<int32_t>* position_of) {
  ScratchVector<int32_t>& end = *end_of;
  if (!options_.keep_dataflow) Release(&sources_);
  // Other defined positions than the phis' inputs' would be nodes without
  // operands or users, which the optimization leaves alone.
  const size_t most_nodes = kinds.phis + phi_inputs_.size();
  graph->Reserve(static_cast<int64_t>(most_nodes));
  position_of->reserve(most_nodes);
  for (const PhiSource& phi : phis) {
    end[phi.position] = GraphNodeEntry(graph->AddNode(/*is_phi=*/true));
    position_of->push_back(phi.position);
  }
  ScratchVector<int64_t> operands;
  for (size_t n = 0; n < phis.size(); ++n) {
    operands.clear();
    for (int32_t i = 0; i < phis[n].inputs; ++i) {
      // The input's chain end, or its node when the input is an end.
      int64_t e = end[phi_inputs_[phis[n].first_input + i]];
      if (e >= 0) {
        if (end[e] == e) {  // a defined position not yet in the graph
          end[e] = GraphNodeEntry(graph->AddNode(/*is_phi=*/false));
          position_of->push_back(static_cast<int32_t>(e));
        }
        e = end[e];
      }
      operands.push_back(GraphNodeOf(e));
    }
    graph->SetOperands(static_cast<int64_t>(n), operands);
  }
  graph->DropSpareRoom();
  DropSpareRoom(position_of);
  if (!options_.keep_dataflow) ReleasePositionSources();
}

void Analyzer::NumberValues(const PositionKinds& kinds, const PhiGraph& graph,
                            const ScratchVector<int32_t>& position_of,
                            ScratchVector<int32_t>* end_of) {
  ScratchVector<int32_t>& end = *end_of;
  // Defined positions, then the surviving phis, in position order
  // (position order is computation text order; phis after the defined
  // values, as XLA numbers them), numbered in one walk over the nodes once
  // the survivors are counted. Each one's id is written over its chain end
  // (a table of their own was 4 bytes a position more at the analysis'
  // peak); a phi's entry holds its graph node until then.
  size_t surviving_phis = 0;
  for (size_t n = 0; n < kinds.phis; ++n) {
    surviving_phis += !graph.dead(static_cast<int64_t>(n));
  }
  first_phi_value_ = kinds.defined;
  value_def_position_.resize(kinds.defined + surviving_phis);
  value_def_node_.resize(kinds.defined + surviving_phis);
  int32_t next_defined = 0;
  int32_t next_phi = static_cast<int32_t>(kinds.defined);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const int64_t to = PositionsEnd(id);
    for (int64_t p = nodes_[id].first_position; p < to; ++p) {
      int32_t v;
      if (kinds.of[p] == SourceKind::kDefined) {
        v = next_defined++;
      } else if (kinds.of[p] == SourceKind::kPhi &&
                 !graph.dead(GraphNodeOf(end[p]))) {
        v = next_phi++;
      } else {
        continue;
      }
      end[p] = v;
      value_def_position_[v] = static_cast<int32_t>(p);
      value_def_node_[v] = static_cast<int32_t>(id);
    }
  }
  // A phi the optimization replaced: the value of the node that replaced
  // it (a defined position or a surviving phi, numbered above).
  for (int64_t p = 0; p < positions_; ++p) {
    if (kinds.of[p] == SourceKind::kPhi && end[p] < -1) {
      end[p] = end[position_of[graph.Find(GraphNodeOf(end[p]))]];
    }
  }
  // A forwarded position: its chain end's value (ends are never forwarded,
  // so each is read before, and never after, it is written).
  for (int64_t p = 0; p < positions_; ++p) {
    if (kinds.of[p] == SourceKind::kForward) end[p] = end[end[p]];
  }
}

void Analyzer::ComputeUses() {
  // The latest time at which each value is used. A `while` uses its
  // operand at the time of its body's parameter. `get-tuple-element` and
  // `copy` read only the tuple node {} of their operand, `tuple` and
  // `domain` nothing; everything else, `conditional` included, every
  // operand (XLA's MayUseOperandValue).
  use_end_.assign(value_def_position_.size(), kNone);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& user = nodes_[id];
    if (user.op == Op::kTuple || user.op == Op::kDomain) continue;
    int64_t used = static_cast<int64_t>(id);
    if (user.op == Op::kWhile && Body(user) != kNone &&
        FirstParameter(Body(user)) != kNone) {
      used = FirstParameter(Body(user));
    }
    const int64_t time = nodes_[used].time;
    if (time == kNone) continue;
    const bool top_only =
        user.op == Op::kGetTupleElement || user.op == Op::kCopy;
    const absl::Span<const int32_t> operands = Operands(user);
    // A call's operand k counts at the time of its callee's parameter k,
    // as a while's at its body's parameter (inferred from XLA:CPU's dumps,
    // jaxlib 0.10.2: the loop state passed to a while wrapped in a call
    // ends where the callee starts, docs/memory.md, "Live ranges").
    absl::Span<const int64_t> callee_parameters;
    if (user.op == Op::kCall && Callees(user).size() == 1) {
      callee_parameters = Parameters(comps_[Callees(user)[0]]);
    }
    const size_t n = operands.size();
    for (size_t k = 0; k < n; ++k) {
      const Node& operand = nodes_[operands[k]];
      int64_t at = time;
      if (k < callee_parameters.size() && callee_parameters[k] != kNone &&
          nodes_[callee_parameters[k]].time != kNone) {
        at = nodes_[callee_parameters[k]].time;
      }
      const size_t subshapes = top_only ? 1 : operand.subshapes.size();
      for (size_t s = 0; s < subshapes; ++s) {
        const int64_t v = value_of_[operand.first_position + s];
        if (v != kNone)
          use_end_[v] =
              static_cast<int32_t>(std::max<int64_t>(use_end_[v], at));
      }
    }
  }
}

absl::StatusOr<MemoryAnalysis> Analyzer::Run() {
  absl::Status status = Build();
  if (!status.ok()) return status;
  // Reserved for bounds (Build), filled now.
  DropSpareRoom(&nodes_);
  DropSpareRoom(&operand_ids_);
  DropSpareRoom(&sequence_ids_);
  ReleaseBuildTables();
  // The nodes' operand ids are all the analysis reads of these lists from
  // here on (the embedded computations' it reads to the end). On two
  // threads the caller hears of it on the second one, while the sources
  // are set (giving the lists back took 4.5 ms of the calling thread on a
  // 75 MB dump).
  std::unique_ptr<SideTask> operands_read;
  if (options_.operands_read) {
    std::vector<int32_t> built;
    for (size_t c = 0; c < comps_.size(); ++c) {
      if (comps_[c].context != Context::kEmbedded) {
        built.push_back(static_cast<int32_t>(c));
      }
    }
    if (parallel_) {
      operands_read = std::make_unique<SideTask>(
          true,
          [this, built = std::move(built)] { options_.operands_read(built); });
    } else {
      options_.operands_read(built);
    }
  }
  status = SetSources();
  if (!status.ok()) return status;
  if (operands_read != nullptr) operands_read->Join();
  status = ResolveValues();
  if (!status.ok()) return status;
  // The tables the graph was built and the values resolved with are freed.
  // The heap kept them resident for the next requests (ScratchPool); what
  // it did not hand out again goes back now, before the output's tables
  // (on a 75 MB dump, 15 MiB; the peak 146.7 -> 137.5 MB for 1,600 more
  // page faults).
  ScratchPool::GiveBackFreeHeap();
  // Only the dataflow export reads the positions' sources past here (a
  // value's kind is its number: the phis come last): ResolveValues has
  // freed them otherwise.
  // Without a schedule there is no order to reproduce: the restored
  // get-tuple-elements stay right after their producers.
  if (out_.scheduled) PlaceFoldedGetTupleElements();
  ReleaseScheduleTables();
  schedule_.reserve(nodes_.size());
  Flatten(module_.entry_index);
  DropSpareRoom(&schedule_);  // embedded computations' nodes are not in it
  // The computations' sequences are in the schedule now.
  Release(&sequence_ids_);
  out_.module_name = module_.header.name;
  out_.schedule_end = static_cast<int64_t>(schedule_.size());
  // The buffers' union reads the values' ids only; the live ranges write
  // their own tables.
  RunSideBySide(
      parallel_,
      [&] {
        ComputeUses();
        LiveRanges();
      },
      [&] { UniteBuffers(); });
  // What only the live ranges and the buffers' union read, freed before
  // the buffers are normalized (unless the dataflow export reads it).
  Release(&use_end_);
  if (!options_.keep_dataflow) {
    Release(&value_def_node_);
    Release(&operand_ids_);
  }
  if (options_.keep_dataflow) {
    NormalizeBuffers();
    ExportDataflow();
    ReleaseValueTables();
    ListInstructions();
  } else {
    // The instructions are listed in the memory of the value tables freed
    // first, on a second thread, while the buffers are normalized (which
    // reads the values and their roots, and frees the roots before it
    // sorts; the instructions read the nodes). What is held at once peaks
    // here or at the live ranges. The normalization runs on this thread,
    // whose tables of 1 MiB or more give their pages back when freed
    // (ScratchPool::DuringAnalysis).
    ScratchVector<int32_t> roots;
    roots.swap(value_parent_);
    ReleaseValueTables();
    value_parent_.swap(roots);
    RunSideBySide(
        parallel_, [&] { NormalizeBuffers(); }, [&] { ListInstructions(); });
  }
  ReleaseNodeTables();
  status = Peaks();
  if (!status.ok()) return status;
  out_.storage = std::move(storage_);
  return std::move(out_);
}

void Analyzer::ListInstructions() {
  // The restored get-tuple-elements' names, "producer#N", one after the
  // other in one string whose size is known first (it never moves).
  std::string& restored = storage_->restored_names;
  char digits[24];
  size_t size = 0, count = 0;
  for (const int64_t id : schedule_) {
    const Node& node = nodes_[id];
    if (!node.restored) continue;
    ++count;
    size +=
        NameOf(node).size() + 1 +
        (std::to_chars(digits, digits + sizeof(digits), node.gte_index()).ptr -
         digits);
  }
  restored.reserve(size);
  storage_->restored.reserve(count);
  // Each record written once (resize would zero them all first: 33 MB for
  // a 75 MB dump).
  out_.instructions.reserve(schedule_.size());
  const size_t n = schedule_.size();
  for (size_t t = 0; t < n; ++t) {
    // Nodes come in schedule order here, not in memory order.
    if (t + 8 < n) Prefetch(&nodes_[schedule_[t + 8]], 64);
    const Node& node = nodes_[schedule_[t]];
    ScheduledInstruction s(SourceOf(node));
    if (node.restored) {  // "producer#N", and its own shape
      const size_t at = restored.size();
      const absl::string_view producer = NameOf(node);
      restored.append(producer.data(), producer.size());
      restored.push_back('#');
      restored.append(
          digits,
          std::to_chars(digits, digits + sizeof(digits), node.gte_index()).ptr);
      storage_->restored.push_back(
          {absl::string_view(restored.data() + at, restored.size() - at),
           NodeShape(node)});
      s = ScheduledInstruction(&storage_->restored.back());
    }
    const Comp& comp = comps_[node.computation];
    s.computation_source = comp.source;
    for (int64_t site : Callsites(comp)) {
      if (nodes_[site].time != kNone) {
        s.caller = nodes_[site].time;
        break;
      }
    }
    out_.instructions.push_back(s);
  }
}

void Analyzer::ReleaseBuildTables() {
  Release(&subshape_cache_);
  Release(&scratch_gte_head_);
  Release(&scratch_gte_tail_);
  Release(&scratch_gtes_);
  Release(&scratch_names_);
  Release(&scratch_pending_);
  Release(&scratch_parameters_);
  Release(&scratch_new_gtes_);
}

void Analyzer::ReleaseScheduleTables() {
  Release(&buffer_of_);
  Release(&buffer_owner_);
  Release(&scratch_index_of_);
  Release(&scratch_mark_);
  Release(&scratch_fold_begin_);
  Release(&scratch_buffer_bytes_);
  Release(&scratch_live_out_);
  Release(&scratch_flat_);
  Release(&scratch_node_of_);
  Release(&scratch_used_);
}

void Analyzer::ReleasePositionSources() {
  Release(&sources_);
  Release(&phi_inputs_);
}

void Analyzer::ReleaseValueTables() {
  ReleasePositionSources();
  Release(&child_offsets_);
  Release(&value_of_);
  Release(&use_end_);
  Release(&value_def_position_);
  Release(&value_def_node_);
  Release(&value_buffer_);
  Release(&value_parent_);
  Release(&operand_ids_);
  Release(&sequence_ids_);
  Release(&parameter_ids_);
  Release(&folded_);
  Release(&calls_);
}

void Analyzer::ReleaseNodeTables() {
  Release(&nodes_);
  Release(&schedule_);
  Release(&callsite_ids_);
  Release(&comp_first_instruction_);
}

void Analyzer::ExportDataflow() {
  auto d = std::make_shared<MemoryDataflow>();
  d->nodes.reserve(nodes_.size());
  for (const Node& node : nodes_) {
    d->nodes.emplace_back();
    DataflowNode& n = d->nodes.back();
    n.name = NameOf(node);
    n.gte_index = node.gte_index();
    n.source = SourceOf(node);
    n.opcode = node.restored ? HloOpcode::kGetTupleElement : n.source->opcode;
    n.computation = node.computation;
    n.time = node.time;
    n.first_position = node.first_position;
    n.positions = static_cast<int64_t>(node.subshapes.size());
    n.operands_begin = node.operands_begin;
    n.operands_size = node.operands_size;
    n.shape = NodeShape(node);
    n.body = Body(node);
    n.condition = Condition(node);
    n.instruction = node.restored ? -1 : node.info;
    n.control_predecessors = node.has_control_predecessors;
  }
  d->operands.assign(operand_ids_.begin(), operand_ids_.end());
  d->positions.resize(positions_);
  // The shape indices' table reserved at its size (grown by doubling, it
  // took up to twice that).
  size_t index_entries = 0;
  for (const Node& node : nodes_) {
    for (const auto& subshape : node.subshapes) {
      index_entries += subshape.index.size();
    }
  }
  d->index_data.reserve(index_entries);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    for (size_t k = 0; k < node.subshapes.size(); ++k) {
      const int64_t p = node.first_position + static_cast<int64_t>(k);
      DataflowPosition& pos = d->positions[p];
      pos.node = static_cast<int64_t>(id);
      pos.shape = node.subshapes[k].shape;
      const absl::Span<const int64_t> index = node.subshapes[k].index;
      pos.index_begin = static_cast<int64_t>(d->index_data.size());
      pos.index_size = static_cast<int64_t>(index.size());
      d->index_data.insert(d->index_data.end(), index.begin(), index.end());
      pos.value = value_of_[p];
      pos.source =
          sources_[p].kind == SourceKind::kDefined   ? PositionSource::kDefined
          : sources_[p].kind == SourceKind::kForward ? PositionSource::kForward
                                                     : PositionSource::kPhi;
      pos.target = sources_[p].target;
      pos.inputs = sources_[p].inputs;
    }
  }
  d->phi_inputs.assign(phi_inputs_.begin(), phi_inputs_.end());
  d->computations.resize(comps_.size());
  for (size_t c = 0; c < comps_.size(); ++c) {
    const Comp& comp = comps_[c];
    DataflowComputation& out = d->computations[c];
    out.source = comp.source;
    out.scheduled = comp.built;
    out.control_flow = comp.context == Context::kControlFlow;
    out.first_node = comp.first_node;
    out.text_nodes = comp.text_nodes;
    out.nodes = comp.built ? comp.text_nodes + comp.folded_size : 0;
    out.root = comp.root;
    const absl::Span<const int64_t> params = Parameters(comp);
    out.parameters.assign(params.begin(), params.end());
    const absl::Span<const int64_t> sites = Callsites(comp);
    out.callsites.assign(sites.begin(), sites.end());
    out.span_start = comp.span_start;
    out.span_end = comp.span_end;
  }
  d->value_node.assign(value_def_node_.begin(), value_def_node_.end());
  d->value_position.assign(value_def_position_.begin(),
                           value_def_position_.end());
  d->value_buffer.assign(value_buffer_.begin(), value_buffer_.end());
  d->computation_first.assign(comp_first_instruction_.begin(),
                              comp_first_instruction_.end());
  // Every instruction's callees, by its number over all computations.
  d->callee_begin.reserve(module_.instruction_count() + 1);
  size_t callees = 0;
  for (const HloComputation& c : module_.computations) {
    for (const HloInstruction& in : c.instructions) {
      callees += module_.callees(in).size();
    }
  }
  d->callees.reserve(callees);
  for (const HloComputation& c : module_.computations) {
    for (const HloInstruction& in : c.instructions) {
      d->callee_begin.push_back(static_cast<int64_t>(d->callees.size()));
      const absl::Span<const int32_t> called = module_.callees(in);
      d->callees.insert(d->callees.end(), called.begin(), called.end());
    }
  }
  d->callee_begin.push_back(static_cast<int64_t>(d->callees.size()));
  out_.dataflow = std::move(d);
}

}  // namespace memory_internal

absl::string_view ScheduledInstruction::opcode() const {
  return memory_internal::OpcodeText(source());
}

absl::string_view ScheduledInstruction::computation() const {
  return computation_source == nullptr ? absl::string_view()
                                       : computation_source->header.name;
}

absl::string_view ScheduledInstruction::metadata() const {
  return source() == nullptr ? absl::string_view()
                             : memory_internal::MetadataOf(*source());
}

absl::string_view ScheduledInstruction::op_name() const {
  return memory_internal::OpNameOf(metadata());
}

absl::StatusOr<MemoryAnalysis> AnalyzeMemory(
    const HloModule& module, const MemoryAnalysisOptions& options) {
  memory_internal::Analyzer analyzer(module, options);
  // Ends before the analyzer's tables are freed (kept for the next
  // analysis).
  memory_internal::ScratchPool::DuringAnalysis during;
  return analyzer.Run();
}

absl::StatusOr<MemoryAnalysis> AnalyzeMemory(const HloModule& module) {
  return AnalyzeMemory(module, MemoryAnalysisOptions());
}
std::string ShapeIndexString(absl::Span<const int64_t> index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

}  // namespace hlolayout
