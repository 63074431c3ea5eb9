// The reader's fast path (reader_internal.h): the usual instruction line
// read with positions in locals and no status per token, shapes hashed in
// place and looked up in the shape cache at the end of the line.
#include <cstdint>
#include <cstring>

#include "absl/base/optimization.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/scan.h"
#include "hlolayout/hlo/shape_cache.h"

namespace hlolayout {
namespace hlo_internal {

// ParseInstruction for the usual lines, with positions in locals and no
// absl::Status per token (that bookkeeping cost more than the scanning). It
// accepts a subset of what ParseInstruction accepts and reads it the same
// way; for anything else (errors, `//` comments, a shape that fails to
// decode, odd spellings) it returns false and ParseInstruction reads the
// line again and says exactly what is wrong. Each stage below returns where
// it stopped, or npos to leave the line to the careful path.
bool Reader::FastInstruction() {
  constexpr size_t npos = absl::string_view::npos;
  size_t p = FastHead(pos_);
  if (p == npos) return false;
  p = FastParens(p);
  if (p == npos) return false;
  p = FastAttributes(p);
  // The lists are complete (a line left to the careful path is read again
  // from its start, lists and all).
  instruction_.Bind();
  if (p == npos || !FastLookUpShapes()) return false;
  pos_ = p;
  return true;
}

// `ROOT name = shape opcode`, up to the '(' after the opcode.
inline size_t Reader::FastHead(size_t p) {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  DraftInstruction& in = instruction_;
  in.offset = p;
  in.root_marker = false;
  in.parameter_number.reset();
  in.attribute_list.clear();
  if (p + 4 < n && std::memcmp(data + p, "ROOT", 4) == 0 &&
      !Is(data[p + 4], kNameChar)) {
    in.root_marker = true;
    p = FastSkipTrivia(data, p + 4, n);
    if (p == npos) return npos;
  }
  if (p < n && data[p] == '%') ++p;
  size_t end = NameEnd(data, p, n);
  if (end == p) return npos;
  in.set_name(absl::string_view(data + p, end - p));
  instruction_hash_ = NameHash(in.name());
  definitions_->Prefetch(instruction_hash_);
  p = FastSkipTrivia(data, end, n);
  if (p == npos || p >= n || data[p] != '=') return npos;
  p = FastSkipTrivia(data, p + 1, n);
  if (p == npos) return npos;
  pending_count_ = 0;
  absl::string_view shape_text;
  end = FastShape(p, 0, &in.shape, &shape_text);
  in.set_shape_text(shape_text);
  // No shape: the careful path infers one.
  if (end == npos || end == p) return npos;
  p = FastSkipTrivia(data, end, n);
  if (p == npos) return npos;
  end = NameEnd(data, p, n);
  if (end == p) return npos;
  in.set_opcode_name(absl::string_view(data + p, end - p));
  in.opcode = HloOpcodeOf(in.opcode_name());
  p = FastSkipTrivia(data, end, n);
  if (p == npos || p >= n || data[p] != '(') return npos;
  return p;
}

// From the '(' at `open`: a literal, a parameter number or the operands, to
// after the ')'.
inline size_t Reader::FastParens(size_t open) {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  DraftInstruction& in = instruction_;
  size_t p = open;
  if (in.opcode == HloOpcode::kConstant) {
    in.operand_list.clear();
    p = FastSkipBalanced(data, p, n, options_.max_depth);
    if (p == npos) return npos;
  } else if (in.opcode == HloOpcode::kParameter) {
    in.operand_list.clear();
    p = FastSkipTrivia(data, p + 1, n);
    if (p == npos) return npos;
    const size_t digits = p;
    int64_t number = 0;
    while (p < n && data[p] >= '0' && data[p] <= '9' && p - digits < 10) {
      number = number * 10 + (data[p++] - '0');
    }
    // Over INT32_MAX: the careful path refuses it.
    if (p == digits || (p < n && data[p] >= '0' && data[p] <= '9') ||
        number > INT32_MAX) {
      return npos;
    }
    in.parameter_number = static_cast<int32_t>(number);
    p = FastSkipTrivia(data, p, n);
    if (p == npos || p >= n || data[p] != ')') return npos;
    ++p;
  } else if (!options_.read_operands) {
    in.operand_list.clear();
    p = SkipOperandList(data, p, n, options_.max_depth);
    if (p == npos) return npos;
  } else {
    p = FastOperands(p);
    if (p == npos) return npos;
  }
  in.set_operand_text(absl::string_view(data + open + 1, p - open - 2));
  return p;
}

// The operand list from its '(' to after its ')'.
inline size_t Reader::FastOperands(size_t p) {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  DraftInstruction& in = instruction_;
  size_t count = 0;
  p = FastSkipTrivia(data, p + 1, n);
  if (p == npos || p >= n) return npos;
  if (data[p] == ')') {
    in.operand_list.resize(0);
    return p + 1;
  }
  while (true) {
    // `in` is reused from line to line and may hold more operands than
    // operand_defs_ has seen: each grows on its own.
    if (count == in.operand_list.size()) in.operand_list.emplace_back();
    if (count == operand_defs_.size()) operand_defs_.push_back(-1);
    const size_t end =
        FastOperand(p, count, &in.operand_list[count], &operand_defs_[count]);
    ++count;
    if (end == npos) return npos;
    p = FastSkipTrivia(data, end, n);
    if (p == npos || p >= n) return npos;
    if (data[p] == ')') {
      ++p;
      break;
    }
    if (data[p] != ',') return npos;
    p = FastSkipTrivia(data, p + 1, n);
    if (p == npos) return npos;
  }
  in.operand_list.resize(count);
  return p;
}

// Operand `index` at `p` (`shape %name#N`, each part but the name
// optional), its definition in `*resolved` when looked up and its use needs
// no other check (else -1); returns where it ends.
inline size_t Reader::FastOperand(size_t p, size_t index, HloOperand* operand,
                                  int64_t* resolved) {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  *resolved = -1;
  absl::string_view& shape_text = instruction_.OperandShapeText(index);
  size_t end = p;
  bool named = false;
  if (data[p] == '%') {
    // No shape at the use (XLA's dumps since 2023).
    operand->shape = nullptr;
    shape_text = absl::string_view();
    ++p;
  } else if (OperandOfDefinedShape(p, operand, &shape_text, resolved, &end)) {
    // The definition's shape text written again (older dumps); the name
    // read too, up to `end`.
    named = true;
  } else {
    end = FastShape(p, index + 1, &operand->shape, &shape_text);
    if (end == npos) return npos;
    if (end != p) {
      p = FastSkipTrivia(data, end, n);
      if (p == npos) return npos;
    }
    if (p < n && data[p] == '%') ++p;
  }
  if (!named) {
    end = NameEnd(data, p, n);
    if (end == p) return npos;
    operand->name = absl::string_view(data + p, end - p);
  }
  operand->output_index = HloOperand::kWholeResult;
  if (*resolved < 0 && shape_text.empty() && (end >= n || data[end] != '#')) {
    const uint64_t hash = NameHash(operand->name);
    *resolved = definitions_->Find(operand->name, hash);
    // A name defined before a tail's part, its use recorded already.
    if (*resolved < 0 && RecordsBeforePart() &&
        before_uses_.Find(operand->name, hash, absl::string_view()) >= 0) {
      *resolved = kBeforePart;
    }
  }
  if (end < n && data[end] == '#') {
    // `%name#N`: output N (at most INT32_MAX; the careful path gives the
    // error for anything else).
    size_t q = end + 1;
    int64_t output = 0;
    while (q < n && data[q] >= '0' && data[q] <= '9' && q - end <= 10) {
      output = output * 10 + (data[q++] - '0');
    }
    if (q == end + 1 || (q < n && data[q] >= '0' && data[q] <= '9') ||
        output > INT32_MAX) {
      return npos;
    }
    operand->output_index = static_cast<int32_t>(output);
    end = q;
  }
  return end;
}

// `, name=value` attributes from `p`, to where they end.
inline size_t Reader::FastAttributes(size_t p) {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  DraftInstruction& in = instruction_;
  while (true) {
    size_t q = FastSkipTrivia(data, p, n);
    if (q == npos) return npos;
    if (q >= n || data[q] != ',') break;
    q = FastSkipTrivia(data, q + 1, n);
    if (q == npos) return npos;
    size_t end = NameEnd(data, q, n);
    if (end == q) return npos;
    const absl::string_view name(data + q, end - q);
    // `literal=f32[] 0.1`: a shape and a value (the careful path).
    if (Eq(name, "literal")) return npos;
    q = end;
    while (q < n && Is(data[q], kHorizontalSpace)) ++q;
    if (q >= n || data[q] != '=') return npos;
    ++q;
    while (q < n && Is(data[q], kHorizontalSpace)) ++q;
    end = FastValueEnd(data, q, n, options_.max_depth);
    if (end == npos) return npos;
    // A computation written inline (`to_apply={...}`, or one in a list of
    // callees, `branch_computations={%a, {...}}`): the careful path reads
    // it.
    if (ABSL_PREDICT_FALSE(data[q] == '{' && IsCalleeAttributeName(name)) &&
        (!IsCalleeListName(name) ||
         std::memchr(data + q + 1, '{', end - q - 1) != nullptr)) {
      return npos;
    }
    // HloAttribute aborts on 4 GiB or more: the careful path refuses it.
    if (name.size() > UINT32_MAX || end - q > UINT32_MAX) return npos;
    in.attribute_list.emplace_back(name, absl::string_view(data + q, end - q));
    p = end;
  }
  return p;
}

// The cache lines of the shapes were prefetched while the rest of the line
// was read; now look them up.
inline bool Reader::FastLookUpShapes() {
  const char* const data = text_.data();
  const size_t n = text_.size();
  DraftInstruction& in = instruction_;
  for (size_t i = 0; i < pending_count_; ++i) {
    const PendingShape& pending = pending_[i];
    const Shape** shape = pending.target == 0
                              ? &in.shape
                              : &in.operand_list[pending.target - 1].shape;
    ShapeCache::Slot* slot = shape_cache_.Find(
        data + pending.begin, pending.end - pending.begin, pending.hash);
    if (slot != nullptr &&
        (!pending.guessed || CachedTextStopsHere(data, pending.end, n))) {
      *shape = UseCached(slot);
      continue;
    }
    // A guessed extent that the quick scan does not confirm: the rest of
    // the line was read from a wrong place.
    if (pending.guessed && ShapeKeyEnd(data, pending.begin, n) != pending.end) {
      return false;
    }
    // First sight: decode it. A decode that fails or stops elsewhere than
    // the quick scan said leaves the line to the careful path.
    pos_ = pending.begin;
    absl::string_view unused;
    if (!DecodeShape(pending.target, pending.end, pending.hash, shape, &unused)
             .ok() ||
        pos_ != pending.end) {
      return false;
    }
  }
  return true;
}

bool Reader::OperandOfDefinedShape(size_t p, HloOperand* operand,
                                   absl::string_view* operand_shape_text,
                                   int64_t* resolved, size_t* name_end) {
  const char* const data = text_.data();
  const size_t n = text_.size();
  // `shape %name`: a shape holds no '%' (longer shapes: FastShape).
  const size_t limit = n - p > 512 ? p + 512 : n;
  const size_t q = FindByte(data, p, limit, '%');
  if (q >= limit || q == p || data[q - 1] != ' ') return false;
  size_t e = q - 1;
  while (e > p && data[e - 1] == ' ') --e;
  const size_t end = NameEnd(data, q + 1, n);
  if (end == q + 1 || (end < n && data[end] == '#')) return false;
  const absl::string_view name(data + q + 1, end - q - 1);
  const uint64_t hash = NameHash(name);
  const int64_t d = definitions_->Find(name, hash);
  const Shape* shape;
  absl::string_view shape_text;
  if (d >= 0) {
    // Byte for byte the definition's text, which decoded to exactly its
    // extent, followed by " %": the parser would stop where it ends.
    shape = definitions_->ShapeIfCurrent(d, cache_generation_);
    shape_text = definitions_->shape_text(d);
  } else {
    // In a tail's first computation, a name defined before the part whose
    // use with these bytes is recorded already (they decoded to exactly
    // their extent there).
    if (!RecordsBeforePart()) return false;
    const int64_t b =
        before_uses_.Find(name, hash, absl::string_view(data + p, e - p));
    if (b < 0 || before_uses_[b].generation != cache_generation_) return false;
    shape = before_uses_[b].shape;
    shape_text = before_uses_[b].shape_text;
  }
  if (shape == nullptr || shape_text.size() != e - p ||
      !SameBytes(shape_text.data(), data + p, e - p)) {
    return false;
  }
  operand->shape = shape;
  *operand_shape_text = absl::string_view(data + p, e - p);
  operand->name = name;
  *resolved = d >= 0 ? d : kBeforePart;
  *name_end = end;
  return true;
}

size_t Reader::FastShape(size_t p, size_t target, const Shape** shape,
                         absl::string_view* shape_text) {
  const char* const data = text_.data();
  const bool queue = options_.share_shapes && pending_count_ < kMaxPending;
  // Most shapes: the extent guessed from one 64-byte window and hashed in
  // place, both proven at the end of the line (by the cache holding exactly
  // these bytes, or by ShapeKeyEnd before decoding them).
  const size_t guess = queue ? GuessShapeLength(data, p, text_.size()) : 0;
  if (guess != 0) {
    PendingShape& pending = pending_[pending_count_++];
    pending.target = target;
    pending.begin = p;
    pending.end = p + guess;
    pending.hash = HashShapeTextInPlace(data + p, guess);
    pending.guessed = true;
    shape_cache_.Prefetch(pending.hash);
    *shape = nullptr;
    *shape_text = absl::string_view(data + p, guess);
    return p + guess;
  }
  const size_t end =
      queue ? ShapeKeyEnd(data, p, text_.size()) : absl::string_view::npos;
  if (end == absl::string_view::npos) {
    // ShapeKeyEnd found no shape it can vouch for (a shape it finds always
    // looks like one): is there one at all?
    if (!LooksLikeShapeAt(p)) {
      *shape = nullptr;
      *shape_text = absl::string_view();
      return p;
    }
    pos_ = p;
    if (!ReadShape(target, shape, shape_text).ok()) {
      return absl::string_view::npos;
    }
    return pos_;
  }
  PendingShape& pending = pending_[pending_count_++];
  pending.target = target;
  pending.begin = p;
  pending.end = end;
  pending.hash = HashShapeText(data + p, end - p);
  pending.guessed = false;
  shape_cache_.Prefetch(pending.hash);
  *shape = nullptr;
  *shape_text = absl::string_view(data + p, end - p);
  return end;
}

}  // namespace hlo_internal
}  // namespace hlolayout
