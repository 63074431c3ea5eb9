// The reader's shapes (reader_internal.h): shape text decoded through the
// shape cache or over scratch Shapes, Shapes kept for the module, the shapes
// of definitions decoded again when asked, and shapes XLA's parser infers
// for instructions written without one.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/shape_cache.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

ShapeCache::Slot* Reader::FindCachedShape(size_t begin, size_t* key_end,
                                          uint64_t* hash) {
  *key_end = ShapeKeyEnd(text_.data(), begin, text_.size());
  if (*key_end == absl::string_view::npos) return nullptr;
  *hash = HashShapeText(text_.data() + begin, *key_end - begin);
  return shape_cache_.Find(text_.data() + begin, *key_end - begin, *hash);
}

absl::Status Reader::DecodeShape(size_t scratch, size_t key_end, uint64_t hash,
                                 const Shape** shape,
                                 absl::string_view* shape_text) {
  const size_t begin = pos_;
  const bool cacheable = hash != 0 && shape_cache_.has_room() &&
                         shape_cache_.can_keep(key_end - begin);
  // A shape that may outlive the instruction gets its own allocation; the
  // others are decoded over a scratch Shape in place (no allocation).
  std::shared_ptr<Shape> owned;
  Shape* target;
  if (cacheable || keep_ != nullptr) {
    owned = std::make_shared<Shape>();
    target = owned.get();
  } else {
    target = Scratch(scratch);
  }
  absl::Status status = ParseShapeAt(text_, &pos_, target, shape_options_);
  if (!status.ok()) return status;
  *shape_text = text_.substr(begin, pos_ - begin);
  if (cacheable && pos_ == key_end) {
    *shape = UseCached(
        shape_cache_.Insert(text_.data() + begin, pos_ - begin, hash, owned));
  } else if (keep_ != nullptr) {
    keep_->push_back(owned);
    *shape = target;
  } else if (owned != nullptr) {
    // Decoded to another extent than the quick scan said: not cached, kept
    // for the instruction in its scratch.
    *Scratch(scratch) = std::move(*owned);
    *shape = Scratch(scratch);
  } else {
    *shape = target;
  }
  return absl::OkStatus();
}

absl::Status Reader::ParseShape(Shape* shape, absl::string_view* shape_text) {
  // Outside instructions: scratch 0 is free, and the cache can be used.
  const Shape* read = nullptr;
  absl::Status status = ReadShape(0, &read, shape_text);
  if (status.ok()) *shape = *read;
  return status;
}

absl::Status Reader::ReadHeaderShape(const Shape** shape,
                                     absl::string_view* shape_text) {
  // Signatures of small computations repeat the same few shapes: they are
  // pointed to, never copied (a third of reading a dump of many small fused
  // computations was copying them; memory held them once per computation).
  const Shape* read = nullptr;
  absl::Status status = ReadShape(0, &read, shape_text);
  if (!status.ok()) return status;
  if (read == Scratch(0)) {  // streaming, not cached: the next read reuses it
    header_kept_.push_back(std::make_shared<const Shape>(*read));
    if (keep_ != nullptr) keep_->push_back(header_kept_.back());
    read = header_kept_.back().get();
  }
  *shape = read;
  return status;
}

void Reader::PinHeaderShapes() {
  if (keep_ != nullptr) return;  // the module owns them
  const auto pin = [this](const Shape** shape) {
    if (*shape == nullptr) return;
    header_kept_.push_back(std::make_shared<const Shape>(**shape));
    *shape = header_kept_.back().get();
  };
  for (HloParameter& parameter : computation_.parameters) {
    pin(&parameter.shape);
  }
  pin(&computation_.result_shape);
}

const Shape* Reader::Keep(Shape shape) {
  auto owned = std::make_shared<const Shape>(std::move(shape));
  made_shapes_.push_back(owned);
  if (keep_ != nullptr) keep_->push_back(owned);
  return owned.get();
}

absl::Status Reader::ReadKeptShape(const Shape** shape,
                                   absl::string_view* shape_text) {
  const size_t begin = pos_;
  Shape decoded;
  absl::Status status = ParseShapeAt(text_, &pos_, &decoded, shape_options_);
  if (!status.ok()) return status;
  *shape_text = text_.substr(begin, pos_ - begin);
  *shape = Keep(std::move(decoded));
  return absl::OkStatus();
}

const Shape* Reader::DefinedShape(absl::string_view name) {
  const int64_t d = FindDefinition(name);
  if (d >= 0) return DefinitionShape(d);
  if (tail_ && in_first_computation_) return ShapeBeforeTail(name);
  return nullptr;
}

const Reader::LastInferred* Reader::FindLastInferred(
    absl::string_view opcode, absl::Span<const Shape* const> operands) const {
  const LastInferred& last = last_inferred_;
  if (!last.valid || last.opcode != opcode ||
      last.operands.size() != operands.size()) {
    return nullptr;
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i] == nullptr || !(*operands[i] == last.operands[i])) {
      return nullptr;
    }
  }
  return &last;
}

absl::Status Reader::InferShape(HloInstruction* in) {
  absl::InlinedVector<const Shape*, 4> operands;
  bool unknown_name = false;
  for (const HloOperand& operand : in->operands()) {
    const Shape* shape = operand.shape;
    if (shape == nullptr) {
      shape = DefinedShape(operand.name);
      if (shape == nullptr) unknown_name = true;
      if (shape != nullptr && operand.has_output_index()) {
        shape = shape->IsTuple() && operand.output_index < shape->tuple_size()
                    ? &shape->tuple_shape(operand.output_index)
                    : nullptr;
      }
    }
    operands.push_back(shape);
  }
  const bool calls =
      in->opcode_name() == "call" || in->opcode_name() == "conditional";
  // Without attributes or a callee, the shape is a function of the opcode
  // and the operands' shapes: the last one inferred from equal ones is it.
  const bool plain =
      !calls && in->attributes().empty() &&
      std::find(operands.begin(), operands.end(), nullptr) == operands.end();
  const LastInferred* last =
      plain ? FindLastInferred(in->opcode_name(), operands) : nullptr;
  if (last != nullptr) {
    in->set_shape_text(last->text);
    auto [kept, added] = inferred_shapes_.try_emplace(last->text.data());
    if (added) kept->second = Keep(last->shape);
    in->shape = kept->second;
    return absl::OkStatus();
  }
  const Shape* called_root = nullptr;
  if (calls) {
    std::vector<absl::string_view> callees = CalledComputationNames(*in);
    if (!callees.empty()) called_root = CalledRoot(callees[0]);
    if (called_root == nullptr) unknown_name = true;
  }
  absl::StatusOr<Shape> inferred =
      InferHloShape(in->opcode_name(), operands, in->attributes(), called_root);
  if (!inferred.ok()) {
    // In a tail the names may be defined before the part.
    if (tail_ && unknown_name) {
      return absl::AbortedError("a name defined before the part");
    }
    return absl::OkStatus();  // stays without a shape
  }
  // One kept Shape per inferred text in a module (a text of many shapeless
  // `add`s infers the same shape many times).
  in->set_shape_text(Intern(inferred->ToString(/*print_layout=*/true)));
  if (plain) {
    LastInferred& remember = last_inferred_;
    remember.valid = true;
    remember.opcode.assign(in->opcode_name().data(), in->opcode_name().size());
    remember.operands.clear();
    for (const Shape* operand : operands) remember.operands.push_back(*operand);
    remember.shape = *inferred;
    remember.text = in->shape_text();
  }
  auto [kept, added] = inferred_shapes_.try_emplace(in->shape_text().data());
  if (added) kept->second = Keep(*std::move(inferred));
  in->shape = kept->second;
  return absl::OkStatus();
}

const Shape* Reader::DefinitionShape(size_t i) {
  const Shape* shape = definitions_->ShapeIfCurrent(i, cache_generation_);
  if (shape != nullptr) return shape;
  definitions_->SetShape(i, nullptr, kKept);
  const absl::string_view shape_text = definitions_->shape_text(i);
  if (!shape_text.empty()) {
    size_t at = shape_text.data() - text_.data();
    Shape decoded;
    if (ParseShapeAt(text_, &at, &decoded, shape_options_).ok()) {
      shape = Keep(std::move(decoded));
      definitions_->SetShape(i, shape, kKept);
    }
  }
  return shape;
}

const Shape* Reader::CalledRoot(absl::string_view name) {
  const int64_t c = FindComputation(name, NameHash(name));
  if (c < 0) return inline_roots_.empty() ? nullptr : InlineRoot(name);
  return RootShape(&computation_roots_[c]);
}

const Shape* Reader::RootShape(ComputationRoot* root) {
  if (root->shape == nullptr && !root->shape_text.empty()) {
    size_t at = root->shape_text.data() - text_.data();
    Shape decoded;
    if (ParseShapeAt(text_, &at, &decoded, shape_options_).ok()) {
      root->shape = Keep(std::move(decoded));
    }
  }
  return root->shape;
}

}  // namespace hlo_internal
}  // namespace hlolayout
