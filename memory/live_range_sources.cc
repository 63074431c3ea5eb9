// The positions' sources (memory/live_range_analyzer.h): what each
// position of each node holds, read from the node's opcode class: a value
// it defines, one it forwards (a get-tuple-element's element, a tuple's
// operand, a call's root), or a phi of several (a parameter of a computation
// called from several places, a while's or conditional's result). Set by
// Analyzer::SetSources on two threads; ResolveValues (memory/live_range.cc)
// then follows them into values.
//
//   %t = (f32[8], s32[]) tuple(%a, %b)   // positions {0} and {1} forward
//                                         // %a's and %b's
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/live_range_analyzer.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {
namespace memory_internal {

absl::Status Analyzer::SetSources() {
  absl::Status numbered = NumberPositions();
  if (!numbered.ok()) return numbered;
  ListCallsites();
  // The nodes in chunks that two threads take in turn (a node's work varies:
  // a parameter of a body shared by thousands of loops costs more than
  // thousands of adds; halves by node count took 8.5 and 4.7 ms on a 75 MB
  // dump). Each chunk has phi inputs of its own, joined in node order:
  // the same sources as one pass, and the first error in node order.
  const size_t n = nodes_.size();
  const size_t chunks = parallel_ ? kSourceChunks : 1;
  struct Chunk {
    absl::Status status;
    ScratchVector<int32_t> inputs, phis;
  };
  std::vector<Chunk> out(chunks);
  std::atomic<size_t> next{0};
  const auto take_chunks = [&] {
    for (size_t c = next++; c < chunks; c = next++) {
      out[c].status =
          SetSourcesOf(n * c / chunks, n * (c + 1) / chunks,
                       c == 0 ? PhiInputs{&phi_inputs_}
                              : PhiInputs{&out[c].inputs, &out[c].phis});
    }
  };
  RunSideBySide(parallel_, take_chunks, take_chunks);
  size_t inputs = phi_inputs_.size();
  for (const Chunk& chunk : out) {
    if (!chunk.status.ok()) return chunk.status;
    inputs += chunk.inputs.size();
  }
  // Phi sources index phi_inputs_ in 32 bits (Source::target).
  if (inputs > static_cast<size_t>(kMostIds)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "module has ", inputs,
        " phi inputs; the memory analysis numbers at most ", kMostIds));
  }
  phi_inputs_.reserve(inputs);
  for (size_t c = 1; c < chunks; ++c) {
    const int32_t shift = static_cast<int32_t>(phi_inputs_.size());
    for (const int32_t p : out[c].phis) sources_[p].target += shift;
    phi_inputs_.insert(phi_inputs_.end(), out[c].inputs.begin(),
                       out[c].inputs.end());
  }
  return absl::OkStatus();
}

absl::Status Analyzer::SetSourcesOf(size_t begin, size_t end, PhiInputs out) {
  ScratchVector<int32_t> from;
  std::vector<int32_t> ks;
  for (size_t id = begin; id < end; ++id) {
    const Node& node = nodes_[id];
    const ValueRule rule = node.rule;
    if (rule == ValueRule::kAll) continue;  // defines every position
    const bool params_define =
        comps_[node.computation].context != Context::kControlFlow;
    if (node.op == Op::kParameter) {
      absl::Status status = SetParameterSources(static_cast<int64_t>(id),
                                                params_define, &from, &ks, out);
      if (!status.ok()) return status;
      continue;
    }
    const int64_t element = GetTupleElementIndex(node);
    for (size_t k = 0; k < node.subshapes.size(); ++k) {
      const int64_t pos = node.first_position + static_cast<int64_t>(k);
      const Subshape& sub = node.subshapes[k];
      absl::Span<const int64_t> index = sub.index;
      // A tuple has its elements' offsets (not sub.shape->IsTuple(): the
      // shapes are scattered, and reading each one missed the cache).
      const bool is_tuple = sub.children >= 0;
      if (rule != ValueRule::kNothing &&
          DefinesValueAt(rule, index, is_tuple, params_define)) {
        continue;
      }
      absl::Status status =
          SetPositionSource(static_cast<int64_t>(id), element, pos, index, out);
      if (!status.ok()) return status;
    }
  }
  return absl::OkStatus();
}

absl::Status Analyzer::NumberPositions() {
  for (Node& node : nodes_) {
    node.first_position = static_cast<int32_t>(positions_);  // checked below
    positions_ += static_cast<int64_t>(node.subshapes.size());
  }
  // Values are positions, so they fit too.
  if (positions_ > kMostIds) {
    return absl::InvalidArgumentError(
        absl::StrCat("module has ", positions_,
                     " result positions (instructions and their tuple "
                     "elements); the memory analysis numbers at most ",
                     kMostIds));
  }
  sources_.assign(positions_, Source());
  return absl::OkStatus();
}

void Analyzer::ListCallsites() {
  // In node order, by a counting sort. A caller's callees are in its node's
  // calls (HasCalls), not read from its record.
  for (const Node& node : nodes_) {
    if (!node.calls_parameters) continue;
    for (int64_t callee : Callees(node)) ++comps_[callee].callsites_size;
  }
  int64_t total = 0;
  for (Comp& comp : comps_) {
    comp.callsites_begin = total;
    total += comp.callsites_size;
    comp.callsites_size = 0;
  }
  callsite_ids_.resize(total);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    if (!nodes_[id].calls_parameters) continue;
    for (int64_t callee : Callees(nodes_[id])) {
      Comp& comp = comps_[callee];
      callsite_ids_[comp.callsites_begin + comp.callsites_size++] =
          static_cast<int64_t>(id);
    }
  }
}

int64_t Analyzer::GetTupleElementIndex(const Node& node) const {
  if (node.op != Op::kGetTupleElement) return kNone;
  if (node.restored) return node.gte_index();
  // The reader's `index=` (-1: none), as FillTextNodes copied it.
  if (node.element_or_calls != HloInstruction::kAskAttributes) {
    return node.element_or_calls >= 0 ? node.element_or_calls : kNone;
  }
  return SourceOf(node)->tuple_index().value_or(kNone);
}

inline bool Analyzer::PushPhiInput(int64_t from,
                                   absl::Span<const int64_t> index,
                                   PhiInputs out) const {
  const int64_t p = PositionAt(from, index);
  if (p == kNone) return false;
  out.inputs->push_back(p);
  return true;
}

absl::Status Analyzer::CallShapesMismatch(
    const Node& node, absl::Span<const int64_t> index) const {
  return absl::InvalidArgumentError(absl::StrCat(
      Opcode(node), " '", NodeName(node), "' at index ",
      ShapeIndexString(index),
      ": the shapes of its caller and callee computations do not fit"));
}

inline bool Analyzer::ForwardTo(int64_t pos, int64_t node,
                                absl::Span<const int64_t> head,
                                absl::Span<const int64_t> tail) {
  const int64_t p = PositionAt(node, head, tail);
  if (p == kNone) return false;
  sources_[pos].kind = SourceKind::kForward;
  sources_[pos].target = p;
  return true;
}

inline void Analyzer::SetInputs(int64_t pos, size_t begin, bool single_forwards,
                                PhiInputs out) {
  ScratchVector<int32_t>& inputs = *out.inputs;
  const size_t n = inputs.size() - begin;
  if (n == 1 && single_forwards) {
    sources_[pos].kind = SourceKind::kForward;
    sources_[pos].target = inputs[begin];
    inputs.resize(begin);
  } else {
    sources_[pos].kind = SourceKind::kPhi;
    sources_[pos].target = static_cast<int64_t>(begin);
    sources_[pos].inputs = static_cast<int64_t>(n);
    if (out.phis != nullptr) out.phis->push_back(static_cast<int32_t>(pos));
  }
}

inline absl::Status Analyzer::SetPositionSource(int64_t id, int64_t element,
                                                int64_t pos,
                                                absl::Span<const int64_t> index,
                                                PhiInputs out) {
  const Node& node = nodes_[id];
  if (node.op == Op::kWhile || node.op == Op::kConditional) {
    return SetResultPhi(node, pos, index, out);
  }
  if (!SetForwardSource(node, element, pos, index)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot follow ", Opcode(node), " '", NodeName(node), "' at index ",
        ShapeIndexString(index), " to its operand"));
  }
  return absl::OkStatus();
}

absl::Status Analyzer::SetParameterSources(int64_t id, bool params_define,
                                           ScratchVector<int32_t>* from,
                                           std::vector<int32_t>* ks,
                                           PhiInputs out) {
  const Node& node = nodes_[id];
  const Subshapes subshapes = node.subshapes;
  ks->clear();
  for (size_t k = 0; k < subshapes.size(); ++k) {
    if (node.rule == ValueRule::kNothing ||
        !DefinesValueAt(node.rule, subshapes[k].index,
                        subshapes[k].children >= 0, params_define)) {
      ks->push_back(static_cast<int32_t>(k));
    }
  }
  if (ks->empty()) return absl::OkStatus();
  // The nodes whose positions are the inputs, in call site order: each
  // caller's operand (a loop's init, then its body's root; a branch's
  // operand), the same for every position.
  const int64_t number = node.ParameterNumber();
  bool is_while = false;
  from->clear();
  for (int64_t site : Callsites(comps_[node.computation])) {
    const Node& caller = nodes_[site];
    const absl::Span<const int32_t> caller_operands = Operands(caller);
    if (caller.op == Op::kWhile) {
      is_while = true;
      if (!caller_operands.empty()) from->push_back(caller_operands[0]);
      const int64_t body = Body(caller);
      if (body != kNone && comps_[body].root != kNone &&
          comps_[body].root != id) {
        from->push_back(static_cast<int32_t>(comps_[body].root));
      }
    } else if (caller.op == Op::kConditional) {
      const absl::Span<const int32_t> callees = Callees(caller);
      for (size_t b = 0; b < callees.size(); ++b) {
        if (callees[b] == node.computation && b + 1 < caller_operands.size()) {
          from->push_back(caller_operands[b + 1]);
        }
      }
    } else if (number < static_cast<int64_t>(caller_operands.size())) {
      from->push_back(caller_operands[number]);
    }
  }
  const size_t n = from->size();
  if (n == 0) return absl::OkStatus();  // no caller: defines (kDefined)
  // Position ks[i]'s inputs at begin + i * n, as one position after the
  // other would have pushed them. An input whose shape list is the
  // parameter's own (most: the shapes are shared) has its positions in the
  // same order; others are looked up by index.
  ScratchVector<int32_t>& inputs = *out.inputs;
  const size_t begin = inputs.size();
  inputs.resize(begin + ks->size() * n);
  for (size_t j = 0; j < n; ++j) {
    const Node& input = nodes_[(*from)[j]];
    for (size_t i = 0; i < ks->size(); ++i) {
      const int32_t k = (*ks)[i];
      int64_t p = input.first_position + k;
      if (input.subshapes != subshapes) {
        p = PositionAt((*from)[j], subshapes[k].index);
      }
      if (p == kNone) {
        // Some caller does not fit: the error names the first position
        // that one does not fit, as setting one position after the other
        // found it.
        inputs.resize(begin);
        return FirstCallMismatch(node, *from, *ks);
      }
      inputs[begin + i * n + j] = static_cast<int32_t>(p);
    }
  }
  for (size_t i = 0; i < ks->size(); ++i) {
    const int64_t pos = node.first_position + (*ks)[i];
    if (n == 1 && !is_while) {  // a single caller forwards
      sources_[pos].kind = SourceKind::kForward;
      sources_[pos].target = inputs[begin + i];
      continue;
    }
    sources_[pos].kind = SourceKind::kPhi;
    sources_[pos].target = static_cast<int32_t>(begin + i * n);
    sources_[pos].inputs = static_cast<int32_t>(n);
    if (out.phis != nullptr) out.phis->push_back(static_cast<int32_t>(pos));
  }
  if (n == 1 && !is_while) inputs.resize(begin);
  return absl::OkStatus();
}

absl::Status Analyzer::FirstCallMismatch(const Node& node,
                                         absl::Span<const int32_t> from,
                                         absl::Span<const int32_t> ks) const {
  for (const int32_t k : ks) {
    absl::Span<const int64_t> index = node.subshapes[k].index;
    for (const int32_t input : from) {
      if (PositionAt(input, index) == kNone) {
        return CallShapesMismatch(node, index);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Analyzer::SetResultPhi(const Node& node, int64_t pos,
                                    absl::Span<const int64_t> index,
                                    PhiInputs out) {
  const size_t begin = out.inputs->size();
  if (node.op == Op::kWhile) {
    // The body's root, then the loop's init.
    const int64_t body = Body(node);
    if (body != kNone && comps_[body].root != kNone) {
      if (!PushPhiInput(comps_[body].root, index, out)) {
        return CallShapesMismatch(node, index);
      }
    }
    const absl::Span<const int32_t> operands = Operands(node);
    if (!operands.empty()) {
      if (!PushPhiInput(operands[0], index, out)) {
        return CallShapesMismatch(node, index);
      }
    }
    SetInputs(pos, begin, /*single_forwards=*/false, out);
    return absl::OkStatus();
  }
  // A conditional: its branches' roots.
  for (int64_t callee : Callees(node)) {
    if (comps_[callee].root != kNone) {
      if (!PushPhiInput(comps_[callee].root, index, out)) {
        return CallShapesMismatch(node, index);
      }
    }
  }
  SetInputs(pos, begin, /*single_forwards=*/true, out);
  return absl::OkStatus();
}

inline bool Analyzer::SetForwardSource(const Node& node, int64_t element,
                                       int64_t pos,
                                       absl::Span<const int64_t> index) {
  const absl::Span<const int32_t> operands = Operands(node);
  const absl::Span<const int64_t> all = index;
  // `all` without its first element (the whole of an empty index).
  const absl::Span<const int64_t> after_first =
      all.subspan(std::min<size_t>(1, all.size()));
  if (node.op == Op::kGetTupleElement) {
    return !operands.empty() && ForwardTo(pos, operands[0], {element}, all);
  }
  switch (node.forward) {
    case Forward::kSameIndex:
      return !operands.empty() && ForwardTo(pos, operands[0], all, {});
    case Forward::kUnder0:
      return !operands.empty() && ForwardTo(pos, operands[0], {0}, all);
    case Forward::kUnder1:
      return !operands.empty() && ForwardTo(pos, operands[0], {1}, all);
    case Forward::kDropFirst:
      return !operands.empty() && ForwardTo(pos, operands[0], after_first, {});
    case Forward::kAllGatherStart:
      if (operands.size() == 1) {
        return ForwardTo(pos, operands[0], after_first, {});
      }
      return index.size() >= 2 && index[1] < (int64_t)operands.size() &&
             ForwardTo(pos, operands[index[1]], all.subspan(2), {});
    case Forward::kNone:
      break;
  }
  if (node.op == Op::kTuple) {
    return !index.empty() && index[0] < (int64_t)operands.size() &&
           ForwardTo(pos, operands[index[0]], all.subspan(1), {});
  }
  if (node.op == Op::kAsyncStart) {
    // {0, i, ...}: operand i; {1, ...}: the called computation's root.
    if (!index.empty() && index[0] == 0 && index.size() >= 2 &&
        index[1] < (int64_t)operands.size()) {
      return ForwardTo(pos, operands[index[1]], all.subspan(2), {});
    }
    const absl::Span<const int32_t> callees = Callees(node);
    return !index.empty() && index[0] == 1 && !callees.empty() &&
           comps_[callees[0]].root != kNone &&
           ForwardTo(pos, comps_[callees[0]].root, all.subspan(1), {});
  }
  if (node.op == Op::kCall) {
    const absl::Span<const int32_t> callees = Callees(node);
    return !callees.empty() && comps_[callees[0]].root != kNone &&
           ForwardTo(pos, comps_[callees[0]].root, all, {});
  }
  return true;  // the position defines (kDefined)
}

}  // namespace memory_internal
}  // namespace hlolayout
