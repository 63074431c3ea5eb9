// The links of a module read whole (reader_internal.h: LinkHloModule): names
// are looked up here once, so that analyses follow indices. The cost is one
// hash of each instruction name and operand name of the module, or, in a
// computation of a few instructions, a scan of its names.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/util/pages.h"

namespace hlolayout {
namespace hlo_internal {

namespace {

// Computations of at most this many instructions look their names up by a
// scan from the end (the latest definition wins, as in the map) instead of
// a hash map: most computations of an XLA dump are a few instructions
// (a fused computation per fusion), and hashing each name cost more than
// comparing it with a few others.
constexpr size_t kScannedComputation = 16;

// The instructions of one computation by name: the latest of the first
// `limit` instructions called `name`, or -1.
class DefinedNames {
 public:
  // Starts on `instructions` (no name known yet).
  void Reset(const std::vector<HloInstruction>& instructions) {
    instructions_ = &instructions;
    scanned_ = instructions.size() <= kScannedComputation;
    map_.clear();
    if (!scanned_) map_.reserve(instructions.size());
  }
  // Instruction `i` is known from now on (called with 0, 1, 2, ...).
  void Add(size_t i) {
    if (!scanned_) {
      map_.insert_or_assign((*instructions_)[i].name(),
                            static_cast<int32_t>(i));
    }
  }
  // The latest of the instructions added so far (the first `added`) that
  // is called `name`, or -1.
  int32_t Find(absl::string_view name, size_t added) const {
    if (!scanned_) {
      auto it = map_.find(name);
      return it == map_.end() ? -1 : it->second;
    }
    const HloInstruction* in = instructions_->data();
    for (size_t j = added; j-- > 0;) {
      const absl::string_view defined = in[j].name();
      if (defined.size() == name.size() &&
          (name.empty() ||
           (defined.back() == name.back() &&
            std::memcmp(defined.data(), name.data(), name.size()) == 0))) {
        return static_cast<int32_t>(j);
      }
    }
    return -1;
  }

 private:
  const std::vector<HloInstruction>* instructions_ = nullptr;
  bool scanned_ = true;
  absl::flat_hash_map<absl::string_view, int32_t> map_;
};

// "more than 2147483647 instructions in computation 'c'" (a module's
// links are 32-bit indices).
absl::Status TooMany(int64_t max_count, absl::string_view what,
                     absl::string_view name, absl::string_view end) {
  return absl::InvalidArgumentError(
      absl::StrCat("more than ", max_count, " ", what, name, end));
}

// The computations' names looked up a batch at a time: each name's slot
// of the map is fetched when the name is added, and the batch is looked up
// once it is full, so that the cache misses of several lookups overlap
// (one at a time, a dump of 60,000 small computations spent half the link
// waiting on the map).
class CalleeLookups {
 public:
  using Map = absl::flat_hash_map<absl::string_view, int32_t>;

  explicit CalleeLookups(const Map& computations)
      : computations_(computations) {}

  // module->callee_indices[slot] becomes the index of the computation
  // called `name` (-1 when there is none), and that computation is marked
  // called by `by`, by the next Resolve at the latest. `name` stays valid
  // until then.
  void Add(size_t slot, absl::string_view name, uint8_t by, HloModule* module) {
    computations_.prefetch(name);
    pending_[count_++] = {slot, name, by};
    if (count_ == kBatch) Resolve(module);
  }
  void Resolve(HloModule* module) {
    for (size_t i = 0; i < count_; ++i) {
      const Pending& p = pending_[i];
      auto it = computations_.find(p.name);
      if (it == computations_.end()) continue;  // -1 already
      module->callee_indices[p.slot] = it->second;
      module->called_by[it->second] |= p.by;
    }
    count_ = 0;
  }

 private:
  static constexpr size_t kBatch = 16;
  struct Pending {
    size_t slot;
    absl::string_view name;
    uint8_t by;
  };
  const Map& computations_;
  Pending pending_[kBatch];
  size_t count_ = 0;
};

// Links each operand of `computation` to the latest definition of its name
// before it, `defined` started on it.
void LinkOperands(HloComputation* computation, DefinedNames* defined) {
  std::vector<HloInstruction>& instructions = computation->instructions;
  defined->Reset(instructions);
  for (size_t i = 0; i < instructions.size(); ++i) {
    const HloInstruction& in = instructions[i];
    // The lists are the module's own (HloModule::lists), set here once
    // before anyone reads them.
    HloOperand* operands = const_cast<HloOperand*>(in.operands().data());
    for (size_t k = 0; k < in.operands().size(); ++k) {
      operands[k].index = defined->Find(operands[k].name, i);
    }
    defined->Add(i);
  }
}

// The records one pass of LinkComputation reads: every record of a
// computation, or those listed (HloCalleeNames::records). The listed ones
// are far apart (one in 6 of a 75 MB dump's entry): each is fetched
// kAhead records ahead, or each missed the cache.
class RecordPass {
 public:
  using Listed = absl::Span<const std::pair<uint32_t, uint32_t>>;
  // `all`: every record of `instructions`, else those in `listed`.
  RecordPass(std::vector<HloInstruction>* instructions, bool all, Listed listed)
      : instructions_(*instructions), all_(all), listed_(listed) {}
  size_t size() const { return all_ ? instructions_.size() : listed_.size(); }
  HloInstruction& operator[](size_t r) const {
    if (all_) return instructions_[r];
    if (r + kAhead < listed_.size()) {
      const char* ahead = reinterpret_cast<const char*>(
          &instructions_[listed_[r + kAhead].second]);
      __builtin_prefetch(ahead);
      __builtin_prefetch(ahead + 64);
    }
    return instructions_[listed_[r].second];
  }

 private:
  static constexpr size_t kAhead = 8;
  std::vector<HloInstruction>& instructions_;
  const bool all_;
  const Listed listed_;
};

// Links the callees of `computation`'s instructions, then their control
// predecessors (which may be defined after their successor: looked up among
// every name of the computation), and, unless `operands_linked`, first
// their operands.
// Each count is kept in 32 bits: one over `max_count` is refused.
// `control_count`: the module's control predecessors so far.
// `all`: every record is read; else those in `listed` alone, the records
// of this computation that may call one or name control predecessors
// (HloCalleeNames::records: (computation, index)), the others left as the
// reader made them (empty lists).
absl::Status LinkComputation(CalleeLookups* lookups, bool operands_linked,
                             int64_t max_count, HloComputation* computation,
                             bool all, RecordPass::Listed listed,
                             DefinedNames* defined,
                             std::vector<absl::string_view>* callees,
                             PassedText* passed, const HloCalleeNames* kept,
                             int64_t* control_count, HloModule* module) {
  std::vector<HloInstruction>& instructions = computation->instructions;
  if (instructions.size() > static_cast<uint64_t>(max_count)) {
    return TooMany(max_count, "instructions in computation '",
                   computation->header.name, "'");
  }
  if (!operands_linked) LinkOperands(computation, defined);
  bool names_known = !operands_linked;
  module->computation_callees_begin.push_back(
      static_cast<int32_t>(module->callee_indices.size()));
  // One pass over the records; most have neither kind of attribute (the
  // reader says so) and keep their empty lists (0, 0) unwritten.
  const RecordPass records(&instructions, all, listed);
  for (size_t r = 0; r < records.size(); ++r) {
    HloInstruction& in = records[r];
    const bool calls = in.may_have(kHloFactCallee);
    const bool control = in.may_have(kHloFactControl);
    if (!calls && !control) {
      if (in.callee_count != 0 || in.control_predecessors_at >= 0) {
        in.callee_count = 0;
        in.control_predecessors_at = -1;
      }
      continue;
    }
    // The names the reader kept, else those in the attributes (read again
    // in the text).
    callees->clear();
    bool names_kept = false;
    if (calls) {
      names_kept = (in.attribute_facts & kHloFactCalleeNamesRead) != 0 &&
                   kept != nullptr && in.first_callee >= 0 &&
                   in.callee_count >= 0 &&
                   static_cast<uint64_t>(in.first_callee) + in.callee_count <=
                       kept->size();
      if (names_kept) {
        for (int32_t k = 0; k < in.callee_count; ++k) {
          callees->push_back((*kept)[in.first_callee + k]);
        }
      } else {
        passed->At(in.offset);
        AppendCalledComputationNames(in, callees);
      }
    }
    in.attribute_facts &= ~kHloFactCalleeNamesRead;
    in.first_callee = static_cast<int32_t>(module->callee_indices.size());
    in.callee_count = 0;
    if (calls) {
      in.callee_count = static_cast<int32_t>(callees->size());
      const uint8_t by = HloCallKindOf(in.opcode) == HloCallKind::kEmbedded
                             ? kHloCalledByEmbedded
                             : kHloCalledByControlFlow;
      for (absl::string_view name : *callees) {
        module->callee_indices.push_back(-1);
        lookups->Add(module->callee_indices.size() - 1, name, by, module);
      }
      // Names read in the text are looked up while it is at hand.
      if (!names_kept) lookups->Resolve(module);
      if (module->callee_indices.size() > static_cast<uint64_t>(max_count)) {
        return TooMany(max_count, "called computations in a module", "", "");
      }
    }
    in.control_predecessors_at = -1;
    absl::optional<absl::string_view> value;
    if (control) {
      value = FindHloAttribute(in.attributes(), "control-predecessors");
    }
    if (!value.has_value()) continue;
    if (!names_known) {
      defined->Reset(instructions);
      for (size_t i = 0; i < instructions.size(); ++i) defined->Add(i);
      names_known = true;
    }
    std::vector<int32_t>& indices = module->control_predecessor_indices;
    const size_t at = indices.size();
    indices.push_back(0);  // the count, below
    for (absl::string_view name : HloValueNames(*value)) {
      indices.push_back(defined->Find(name, instructions.size()));
    }
    *control_count += static_cast<int64_t>(indices.size() - at - 1);
    // (The lists' counts too must leave the table's positions in 32 bits.)
    if (*control_count > max_count || indices.size() > INT32_MAX) {
      return TooMany(std::min<int64_t>(max_count, INT32_MAX),
                     "control predecessors in a module", "", "");
    }
    indices[at] = static_cast<int32_t>(indices.size() - at - 1);
    in.control_predecessors_at = static_cast<int32_t>(at);
  }
  return absl::OkStatus();
}

}  // namespace

bool HloCalleeNames::Append(const HloCalleeNames& other) {
  if (chars.size() + other.chars.size() > UINT32_MAX ||
      names.size() + other.names.size() > static_cast<size_t>(INT32_MAX)) {
    return false;
  }
  const uint32_t base = static_cast<uint32_t>(chars.size());
  chars += other.chars;
  names.reserve(names.size() + other.names.size());
  for (const auto& [offset, size] : other.names) {
    names.emplace_back(base + offset, size);
  }
  return true;
}

void HloCalleeNames::Free() {
  DropWholePages(chars.data(), chars.capacity());
  DropWholePages(names.data(), names.capacity() * sizeof(names[0]));
  DropWholePages(records.data(), records.capacity() * sizeof(records[0]));
  std::string().swap(chars);
  std::vector<std::pair<uint32_t, uint32_t>>().swap(names);
  std::vector<std::pair<uint32_t, uint32_t>>().swap(records);
}

void LinkHloOperands(HloComputation* computation) {
  DefinedNames defined;
  LinkOperands(computation, &defined);
}

bool LinkHloOperandsLeft(HloComputation* computation) {
  for (const HloInstruction& in : computation->instructions) {
    for (const HloOperand& operand : in.operands()) {
      if (operand.index < 0) {
        LinkHloOperands(computation);
        return true;
      }
    }
  }
  return false;
}

absl::Status LinkHloModule(HloModule* module, bool operands_linked,
                           int64_t max_count,
                           const std::function<void(size_t, size_t)>& passed,
                           const HloCalleeNames* kept) {
  max_count = std::min<int64_t>(max_count, INT32_MAX);
  if (module->computations.size() > static_cast<uint64_t>(max_count)) {
    return TooMany(max_count, "computations in a module", "", "");
  }
  absl::flat_hash_map<absl::string_view, int32_t> computations;
  computations.reserve(module->computations.size());
  for (size_t c = 0; c < module->computations.size(); ++c) {
    // XLA names computations uniquely; the first keeps a repeated name.
    computations.try_emplace(module->computations[c].header.name,
                             static_cast<int32_t>(c));
  }
  module->callee_indices.clear();
  module->control_predecessor_indices.clear();
  module->computation_callees_begin.clear();
  module->computation_callees_begin.reserve(module->computations.size() + 1);
  module->called_by.assign(module->computations.size(), 0);
  DefinedNames defined;
  std::vector<absl::string_view> callees;
  int64_t control_count = 0;
  // The text before an instruction that names callees, once the linking
  // is past it (every 4 MB).
  PassedText passed_text(&passed, 0, size_t{4} << 20);
  CalleeLookups lookups(computations);
  // The records the reader listed (else every record is read), in module
  // order: computation c's are [begin, end).
  const std::vector<std::pair<uint32_t, uint32_t>>* listed =
      kept != nullptr && kept->listed ? &kept->records : nullptr;
  size_t begin = 0;
  for (size_t c = 0; c < module->computations.size(); ++c) {
    HloComputation& computation = module->computations[c];
    size_t end = begin;
    // Records listed out of order or past the computation's end (the
    // reader lists them in order: never so far) have all its records read.
    bool in_order = true;
    if (listed != nullptr) {
      while (begin < listed->size() && (*listed)[begin].first < c) ++begin;
      end = begin;
      for (; end < listed->size() && (*listed)[end].first == c; ++end) {
        const uint32_t k = (*listed)[end].second;
        in_order = in_order && k < computation.instructions.size() &&
                   (end == begin || (*listed)[end - 1].second < k);
      }
    }
    absl::Status status = LinkComputation(
        &lookups, operands_linked, max_count, &computation,
        listed == nullptr || !in_order,
        listed == nullptr
            ? RecordPass::Listed()
            : RecordPass::Listed(listed->data() + begin, end - begin),
        &defined, &callees, &passed_text, kept, &control_count, module);
    begin = end;
    if (!status.ok()) return status;
  }
  lookups.Resolve(module);
  module->computation_callees_begin.push_back(
      static_cast<int32_t>(module->callee_indices.size()));
  module->header.input_output_alias.clear();
  if (absl::optional<absl::string_view> alias =
          FindHloAttribute(module->header.attributes, "input_output_alias")) {
    module->header.input_output_alias = ParseHloAliasPairs(*alias);
  }
  return absl::OkStatus();
}

}  // namespace hlo_internal
}  // namespace hlolayout
