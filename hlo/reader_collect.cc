// The modules of a text kept in memory (reader.h: ReadHloModules): a
// visitor that keeps everything the reader reports, and, for a large text
// read in parts on several threads, one per part and the join of their
// modules in text order.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "hlolayout/hlo/definitions.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/util/cores.h"
#include "hlolayout/util/paged_array.h"
#include "hlolayout/util/pages.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {
namespace {

using hlo_internal::HloCalleeNames;

// Keeps everything ReadHlo reports. A collector of a part after the first
// (ReadHloTail) begins inside a module and a computation that another part
// began: it starts with that module and keeps whether the two end in its
// part. `text_bytes`: the size of the text (or part), to size the list of
// computations once.
//
// The instructions of the computation being read gather in a list reused
// from one computation to the next, and move into the computation, sized
// exactly, when it ends (Flush): most computations are a few instructions,
// and growing each one's list by doubling cost more copies and memory. A
// large computation that fills at least half the list takes the list itself
// (kTakenWhole): a copy would hold the computation twice at the end of the
// reading, and the list, freed after it, stays resident in the CLI's heap
// (cli/heap.cc) where the analysis that follows has not always a use for it
// (docs/report-speed.md, "Sixteenth round"). What the list has unused is
// never touched. A later part's first computation, the one it begins in,
// gathers apart, in a PagedArray (continued()): joining the parts moves
// those records behind the earlier part's by their pages (Absorb).
// Their operand and attribute lists are copied into the module's store
// (HloModule::lists), one after the other: no allocation per instruction.
class CollectingVisitor : public HloVisitor {
 public:
  CollectingVisitor(std::vector<HloModule>* modules,
                    std::vector<absl::Status>* errors, bool continuation,
                    size_t text_bytes)
      : modules_(modules),
        errors_(errors),
        continuation_(continuation),
        // XLA dumps have a computation per 1 to 6 KB; what is not used of
        // the reserve is never touched.
        expected_computations_(std::min<size_t>(text_bytes / 1024, 1 << 20)) {
    if (continuation) {
      AddModule();
      // The computation the part begins in: as large as the part at one
      // instruction per 64 bytes (see Reserve); room only.
      continued_.Reserve(text_bytes / 64);
    }
  }

  void BeginModule(const HloModuleHeader& header) override {
    Flush();
    AddModule();
    modules_->back().header = header;
  }
  void BeginComputation(const HloComputationHeader& header) override {
    Flush();
    modules_->back().computations.emplace_back();
    HloComputationHeader& kept = modules_->back().computations.back().header;
    kept = header;
    // The name a copy of the module's (linking the module looks every
    // computation's name up: in the text, the reading's pages it passed,
    // given back, would all come back; HloReadOptions::passed).
    const absl::Span<char> name = lists_->Add(
        absl::MakeConstSpan(header.name.data(), header.name.size()));
    kept.name = absl::string_view(name.data(), name.size());
    open_ = &modules_->back().computations.back();
    root_marked_ = -1;
    paging_ = continuation_ && modules_->size() == 1 &&
              modules_->back().computations.size() == 1;
  }
  void VisitInstruction(const HloInstruction& instruction) override {
    HloInstruction& copy = Gather(instruction);
    copy.set_operands(lists_->Add(instruction.operands()));
    copy.set_attributes(lists_->Add(instruction.attributes()));
    if ((copy.attribute_facts & (kHloFactsKnown | kHloFactCallee)) ==
        (kHloFactsKnown | kHloFactCallee)) {
      KeepCalleeNames(instruction, &copy);
    }
    if (copy.may_have(kHloFactCallee) || copy.may_have(kHloFactControl)) {
      ListRecord();
    }
    if (copy.may_have(kHloFactOperandAliasing)) KeepOperandAliasing(copy);
    if (instruction.root_marker && root_marked_ < 0 && open_ != nullptr) {
      root_marked_ =
          static_cast<int64_t>(open_->instructions.size() + Gathered() - 1);
      if (modules_->size() == 1 && modules_->back().computations.size() == 1) {
        first_root_marked_ = root_marked_;
      }
    }
  }
  void EndComputation(int64_t root_index,
                      absl::string_view execution_thread) override {
    Flush();
    root_marked_ = -1;
    HloComputation& c = modules_->back().computations.back();
    c.root_index = root_index;
    c.execution_thread = execution_thread;
    const bool first =
        modules_->size() == 1 && modules_->back().computations.size() == 1;
    // The reader links the operands as it reads; what it left, on the
    // thread that read it. A computation continued across a cut is linked
    // once joined (Absorb).
    if (!(first && continuation_)) hlo_internal::LinkHloOperandsLeft(&c);
    if (first) first_computation_ended_ = true;
  }
  // Moves the instructions gathered into the computation they belong to
  // (also when it is left open: the reading stopped in it). `cut`: the
  // reading stopped at a cut, the parts after it continue the computation:
  // it takes the list whole, room and all (see Reserve).
  void Flush(bool cut = false) {
    if (open_ == nullptr) return;
    if (paging_) {  // they stay in continued_ (Absorb joins them)
      paging_ = false;
      open_ = nullptr;
      return;
    }
    std::vector<HloInstruction>& to = open_->instructions;
    if (to.empty() &&
        (cut || (instructions_.size() >= kTakenWhole &&
                 instructions_.size() * 2 >= instructions_.capacity()))) {
      to.swap(instructions_);
      open_ = nullptr;
      return;
    }
    to.reserve(to.size() + instructions_.size());
    std::move(instructions_.begin(), instructions_.end(),
              std::back_inserter(to));
    instructions_.clear();
    open_ = nullptr;
  }
  // HloModule::operand_aliasing: decoded once, here (sorted by offset
  // once the module is read).
  void KeepOperandAliasing(const HloInstruction& in) {
    absl::optional<absl::string_view> v =
        FindHloAttribute(in.attributes(), "output_to_operand_aliasing");
    if (!v.has_value()) return;
    modules_->back().operand_aliasing_table.push_back(
        {in.offset, in.name(), ParseHloAliasPairs(*v)});
  }
  void UnknownOpcode(const HloInstruction&) override {
    ++modules_->back().unknown_opcodes;
  }
  void EndModule(int64_t entry_index) override {
    modules_->back().entry_index = entry_index;
    if (modules_->size() == 1) first_module_ended_ = true;
  }
  void Error(const absl::Status& error) override {
    ++error_count_;
    if (errors_ != nullptr) errors_->push_back(error);
  }

  // Room for `count` instructions in the list the instructions gather in,
  // before the reading: the first part of a text read in parts, whose last
  // computation the other parts continue, so that joining them copies only
  // theirs (Absorb). Room never used is never touched.
  void Reserve(size_t count) { instructions_.reserve(count); }

  // A part after the first: the instructions of the computation it begins
  // in, which joining the parts appends to those the part before read
  // (Absorb). Its computation 0's own list stays empty.
  PagedArray<HloInstruction>& continued() { return continued_; }

  // The callee names kept for each module collected, in the modules' order.
  std::vector<HloCalleeNames>& callee_names() { return callee_names_; }

  bool first_computation_ended() const { return first_computation_ended_; }
  // The index of the first instruction written with `ROOT` in the first
  // computation collected (of a part read from inside one, in the part),
  // and in the last one (open where the reading stopped); -1 when none.
  int64_t first_root_marked() const { return first_root_marked_; }
  int64_t last_root_marked() const { return root_marked_; }
  bool first_module_ended() const { return first_module_ended_; }
  int64_t error_count() const { return error_count_; }

 private:
  // A computation of this many instructions or more may take the list.
  static constexpr size_t kTakenWhole = size_t{1} << 12;

  // Keeps the names of the computations `instruction` calls while its text
  // is at hand (linking the module would read them in the text again,
  // given back by then), for `copy`.
  void KeepCalleeNames(const HloInstruction& instruction,
                       HloInstruction* copy) {
    HloCalleeNames& kept = callee_names_.back();
    names_.clear();
    AppendCalledComputationNames(instruction, &names_);
    size_t chars = kept.chars.size();
    for (absl::string_view name : names_) chars += name.size();
    if (chars > UINT32_MAX ||
        kept.size() + names_.size() > static_cast<size_t>(INT32_MAX)) {
      return;  // read again from the text when linked
    }
    copy->first_callee = static_cast<int32_t>(kept.size());
    copy->callee_count = static_cast<int32_t>(names_.size());
    for (absl::string_view name : names_) {
      kept.names.emplace_back(static_cast<uint32_t>(kept.chars.size()),
                              static_cast<uint32_t>(name.size()));
      kept.chars.append(name.data(), name.size());
    }
    copy->attribute_facts |= kHloFactCalleeNamesRead;
  }

  // Lists the record just collected as one that linking reads
  // (HloCalleeNames::records); past 32 bits, or outside a computation (the
  // reader never hands one so), none is listed any more: linking then reads
  // every record.
  void ListRecord() {
    HloCalleeNames& kept = callee_names_.back();
    if (!kept.listed) return;
    const size_t c = modules_->back().computations.size() - 1;
    const size_t k =
        open_ == nullptr ? 0 : open_->instructions.size() + Gathered() - 1;
    if (open_ == nullptr || c > UINT32_MAX || k > UINT32_MAX) {
      kept.listed = false;
      std::vector<std::pair<uint32_t, uint32_t>>().swap(kept.records);
      return;
    }
    kept.records.emplace_back(static_cast<uint32_t>(c),
                              static_cast<uint32_t>(k));
  }

  // Gathers a copy of `instruction` (in continued_ while the computation a
  // part begins in is open) and returns it.
  HloInstruction& Gather(const HloInstruction& instruction) {
    if (paging_) {
      continued_.push_back(instruction);
      return continued_.back();
    }
    instructions_.push_back(instruction);
    return instructions_.back();
  }
  // How many instructions of the open computation are gathered.
  size_t Gathered() const {
    return paging_ ? continued_.size() : instructions_.size();
  }

  // A new module, with a store of its own for its lists.
  void AddModule() {
    modules_->emplace_back();
    callee_names_.emplace_back();
    callee_names_.back().listed = true;
    HloModule& module = modules_->back();
    module.unknown_opcodes = 0;
    // Room for the text's computations in the first module only: a reserve
    // by the whole text in each of 8,000 small modules held 759 MB (the
    // heap's huge pages commit the reserves' first bytes, 123 KB apart).
    if (modules_->size() == 1) {
      module.computations.reserve(expected_computations_);
    }
    auto lists = std::make_shared<HloListStore>();
    lists_ = lists.get();
    module.lists.push_back(std::move(lists));
  }

  std::vector<HloModule>* modules_;
  std::vector<absl::Status>* errors_;
  const bool continuation_;
  const size_t expected_computations_;
  std::vector<HloInstruction> instructions_;
  // A continuation's first computation's instructions (continued()), and
  // whether they are the ones being gathered.
  PagedArray<HloInstruction> continued_;
  bool paging_ = false;
  std::vector<HloCalleeNames> callee_names_;  // by module
  std::vector<absl::string_view> names_;      // KeepCalleeNames' scratch
  HloComputation* open_ = nullptr;            // where instructions_ go
  HloListStore* lists_ = nullptr;             // the last module's
  int64_t root_marked_ = -1;                  // in the open computation
  int64_t first_root_marked_ = -1;            // in the first one
  bool first_computation_ended_ = false;
  bool first_module_ended_ = false;
  int64_t error_count_ = 0;
};

// The ENTRY computation marked in `module` from computation `from` on, or
// -1.
int64_t EntryMarked(const HloModule& module, size_t from = 0) {
  for (size_t i = from; i < module.computations.size(); ++i) {
    if (module.computations[i].header.entry_marker) return i;
  }
  return -1;
}

// One part read by ReadHloTail: its modules (the first continues the module
// open where the part begins) and its collector.
struct TailModules {
  std::vector<HloModule> modules;
  std::unique_ptr<CollectingVisitor> visitor;
  HloPartLinks links;  // its definitions across the cuts
};

// The definitions of the computation open at a cut, part by part: each
// part's table (in step with the instructions it read: definition i is its
// i-th) and where that part's instructions start in the joined
// computation. Empty when not known.
using OpenDefinitions =
    std::vector<std::pair<const hlo_internal::DefinitionTable*, size_t>>;

// The operands of a computation cut in two that the second part did not
// define, looked up in the parts before it a batch at a time
// (DefinitionTable::FindEach).
class CutLookups {
 public:
  explicit CutLookups(const OpenDefinitions& before) : before_(before) {}

  // Links `operand` by its name, now or by the next Resolve.
  void Add(HloOperand* operand) {
    pending_[count_++] = operand;
    if (count_ == kBatch) ok_ = Resolve() && ok_;
  }
  // Links the pending operands; false when a name is defined in no part.
  bool Resolve() {
    size_t left = count_;
    count_ = 0;
    for (auto part = before_.rbegin(); part != before_.rend() && left > 0;
         ++part) {
      for (size_t i = 0; i < left; ++i) names_[i] = pending_[i]->name;
      part->first->FindEach(names_, left, found_);
      size_t kept = 0;
      for (size_t i = 0; i < left; ++i) {
        if (found_[i] >= 0) {
          pending_[i]->index = static_cast<int32_t>(part->second + found_[i]);
        } else {
          pending_[kept++] = pending_[i];
        }
      }
      left = kept;
    }
    return left == 0;
  }
  bool ok() const { return ok_; }

 private:
  static constexpr size_t kBatch = 32;
  const OpenDefinitions& before_;
  HloOperand* pending_[kBatch];
  absl::string_view names_[kBatch];
  int64_t found_[kBatch];
  size_t count_ = 0;
  bool ok_ = true;
};

// Links the operands of `records`, the instructions a part read from
// inside a computation cut before it, which follow the `from` instructions
// read before the cut: their indices, relative to the part's start (its
// definition table, in step with `records`), are moved by `from`; the
// names the part did not define are looked up in `before`, the latest part
// first. False when it cannot (LinkHloOperands then links the whole
// computation). The records themselves are only read, the operand lists
// written.
// The names looked up are read from the text again: `passed`
// (HloReadOptions::passed) hears of the text behind the linking every 1 MB
// (the reader's own step), so that a computation cut in two (often a
// dump's entry, tens of MB of text) is not made resident again whole; at
// the end, of the text up to `pass_to` (SIZE_MAX: the last record's line).
bool LinkAcrossCut(absl::Span<const HloInstruction> records, size_t from,
                   const OpenDefinitions& before,
                   const std::function<void(size_t, size_t)>& passed,
                   size_t pass_to) {
  const size_t n = records.size();
  if (n == 0) return true;
  // The text up to the last instruction's line is handed over at the end
  // (its names all looked up by then).
  const size_t last_offset =
      pass_to == SIZE_MAX ? records[n - 1].offset : pass_to;
  hlo_internal::PassedText passed_text(&passed, records[0].offset,
                                       size_t{1} << 20);
  CutLookups lookups(before);
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i) {
    const HloInstruction& in = records[i];
    // The pending names are in the text about to be handed over.
    if (passed_text.Due(in.offset) && !lookups.Resolve()) {
      ok = false;
      break;
    }
    passed_text.At(in.offset);
    // The module's own lists, as in LinkHloOperands.
    HloOperand* operands = const_cast<HloOperand*>(in.operands().data());
    for (size_t k = 0; k < in.operands().size(); ++k) {
      HloOperand& operand = operands[k];
      if (operand.index >= 0) {
        operand.index += static_cast<int32_t>(from);
        continue;
      }
      lookups.Add(&operand);
    }
    ok = lookups.ok();
  }
  if (!ok || !lookups.Resolve()) return false;
  passed_text.Flush(last_offset);
  return true;
}

// The records AppendGivingBack copies at a time: 2 MiB of them.
constexpr size_t kCopyRun = (size_t{2} << 20) / sizeof(HloInstruction);

// Appends `from`'s instructions to `to`, whose room holds them, 2 MiB at
// a time, and frees `from`, giving back the pages of each run once it is
// copied: the CLI's heap keeps freed memory resident (cli/heap.cc), and a
// list made whole before its source goes would hold the instructions twice
// for a moment. The records are plain data, so the source's dropped pages
// are never read as records again.
void AppendGivingBack(std::vector<HloInstruction>* from,
                      std::vector<HloInstruction>* to) {
  static_assert(std::is_trivially_copyable<HloInstruction>::value &&
                    std::is_trivially_destructible<HloInstruction>::value,
                "instructions are copied and their pages dropped");
  const size_t n = from->size();
  for (size_t i = 0; i < n; i += kCopyRun) {
    const size_t end = std::min(n, i + kCopyRun);
    to->insert(to->end(), from->begin() + i, from->begin() + end);
    DropWholePages(from->data() + i, (end - i) * sizeof(HloInstruction));
  }
  std::vector<HloInstruction>().swap(*from);
}

// Moves the instructions of `rest`, read by a part that began inside the
// computation whose first instructions `to` holds, to the end of `to`, by
// their pages (AppendByMovingPages): a copy wrote each page of them fresh
// (the tail of an entry computation cut in two: 25 MB of a 75 MB dump).
// `to` grows first when its room is short, and frees the list it leaves (a
// computation cut in two is often the dump's entry computation, the
// largest: tens of MB each).
void MoveRecords(PagedArray<HloInstruction>* rest,
                 std::vector<HloInstruction>* to) {
  const size_t from = to->size();
  const size_t n = rest->size();
  if (to->capacity() - from < n) {
    std::vector<HloInstruction> grown;
    grown.reserve(from + n);
    AppendGivingBack(to, &grown);
    to->swap(grown);
  }
  AppendByMovingPages(rest, to);
}

// The records a later part read inside a computation cut before it, moved
// behind the earlier parts' (module `module`, computation `computation`,
// from instruction `from`, `n` of them), to be linked (LinkAcrossCut) with
// the definitions of the parts before it (`before`).
struct CutLink {
  size_t module, computation, from, n;
  OpenDefinitions before;
};

// Links the records of `links` a chunk at a time, the chunks taken in order
// from a shared count: on the calling thread and, with `parallel`, on a
// second one, which runs `first` (may be empty) before it takes any: the
// modules' own links, which read and write no operand, beside the cuts'.
// A link that fails has its computation linked whole, by name
// (LinkHloOperands), afterwards. Each chunk's text is handed back
// (`passed`) in order on the thread that links it.
void LinkCuts(std::vector<HloModule>* modules,
              const std::vector<CutLink>& links,
              const std::function<void(size_t, size_t)>& passed, bool parallel,
              const std::function<void()>& first) {
  // A chunk worth a thread's turn (the link takes some 80 ns a record).
  constexpr size_t kChunk = size_t{1} << 14;
  struct Chunk {
    size_t link, begin, end;
  };
  std::vector<Chunk> chunks;
  for (size_t l = 0; l < links.size(); ++l) {
    for (size_t b = 0; b < links[l].n; b += kChunk) {
      chunks.push_back({l, b, std::min(links[l].n, b + kChunk)});
    }
  }
  std::vector<std::atomic<bool>> failed(links.size());  // all false
  std::atomic<size_t> next{0};
  const auto take = [&] {
    for (size_t k; (k = next.fetch_add(1)) < chunks.size();) {
      const Chunk& chunk = chunks[k];
      const CutLink& link = links[chunk.link];
      const HloInstruction* records = (*modules)[link.module]
                                          .computations[link.computation]
                                          .instructions.data() +
                                      link.from;
      const size_t pass_to =
          chunk.end < link.n ? records[chunk.end].offset : SIZE_MAX;
      if (!LinkAcrossCut(absl::MakeConstSpan(records + chunk.begin,
                                             chunk.end - chunk.begin),
                         link.from, link.before, passed, pass_to)) {
        failed[chunk.link] = true;
      }
    }
  };
  if (parallel && (chunks.size() > 1 || first)) {
    RunSideBySide(
        true, [&] { take(); },
        [&] {
          if (first) first();
          take();
        });
  } else {
    if (first) first();
    take();
  }
  for (size_t l = 0; l < links.size(); ++l) {
    if (failed[l]) {
      hlo_internal::LinkHloOperands(
          &(*modules)[links[l].module].computations[links[l].computation]);
    }
  }
}

// True when no module gets two ENTRYs across the cuts (the reader, reading
// the text whole, stops there with an error; two ROOTs across a cut are
// JoinHloParts' to find).
bool EntriesJoin(const std::vector<HloModule>& head,
                 const std::vector<TailModules>& tails) {
  bool entry = EntryMarked(head.back()) >= 0;
  for (const TailModules& tail : tails) {
    // The continued computation's header is the head's.
    const bool first = EntryMarked(tail.modules.front(), 1) >= 0;
    if (entry && first) return false;
    entry = tail.visitor->first_module_ended()
                ? EntryMarked(tail.modules.back()) >= 0
                : entry || first;
  }
  return true;
}

// The callee names `tail` kept, appended to `names` (the module's it
// continues): its records' indices move past the module's names (or, past
// 32 bits, the names are read again when the module is linked), and its
// list of records follows the module's, its computation 0 being the
// module's computation `open_index` from instruction `from` on. Done
// before the records move.
void JoinCalleeNames(TailModules* tail, size_t open_index, size_t from,
                     HloCalleeNames* names_of_module) {
  HloModule& first = tail->modules.front();
  PagedArray<HloInstruction>& rest = tail->visitor->continued();
  const size_t joined_size = from + rest.size();
  HloCalleeNames& names = *names_of_module;
  HloCalleeNames& tail_names = tail->visitor->callee_names().front();
  const size_t names_base = names.size();
  const bool names_fit = names.Append(tail_names);
  const auto move_names = [&](HloInstruction& in) {
    if ((in.attribute_facts & kHloFactCalleeNamesRead) == 0) return;
    if (names_fit) {
      in.first_callee += static_cast<int32_t>(names_base);
    } else {
      in.attribute_facts &= ~kHloFactCalleeNamesRead;
    }
  };
  if (tail_names.listed) {
    for (const auto& [c, k] : tail_names.records) {
      move_names(c == 0 ? rest[k] : first.computations[c].instructions[k]);
    }
  } else {
    for (HloInstruction& in : rest) move_names(in);
    for (HloComputation& c : first.computations) {
      for (HloInstruction& in : c.instructions) move_names(in);
    }
  }
  names.listed = names.listed && tail_names.listed &&
                 open_index + first.computations.size() <= UINT32_MAX &&
                 joined_size <= UINT32_MAX;
  if (names.listed) {
    names.records.reserve(names.records.size() + tail_names.records.size());
    for (const auto& [c, k] : tail_names.records) {
      names.records.emplace_back(static_cast<uint32_t>(open_index + c),
                                 static_cast<uint32_t>(c == 0 ? from + k : k));
    }
  } else {
    std::vector<std::pair<uint32_t, uint32_t>>().swap(names.records);
  }
  tail_names.Free();
}

// Joins `tail` to the modules read before it, as if one reader had read on;
// `defined`: the definitions of the computation open at the tail's cut,
// left as those of the one open at the next cut.
void Absorb(TailModules* tail, OpenDefinitions* defined, int64_t* root_marked,
            std::vector<CutLink>* cut_links, std::vector<HloModule>* modules,
            std::vector<HloCalleeNames>* names_of_modules) {
  const size_t module_index = modules->size() - 1;
  HloModule& module = modules->back();
  HloModule& first = tail->modules.front();
  HloComputation& open = module.computations.back();
  // The tail's computation 0, continued from `open` (its own list is
  // empty).
  PagedArray<HloInstruction>& rest = tail->visitor->continued();
  const size_t from = open.instructions.size();
  const size_t open_index = module.computations.size() - 1;
  JoinCalleeNames(tail, open_index, from, &names_of_modules->back());
  const hlo_internal::DefinitionTable* own =
      tail->links.first.definitions.get();
  const size_t n = rest.size();
  MoveRecords(&rest, &open.instructions);
  if (own == nullptr || defined->empty() || own->size() != n ||
      from + n > static_cast<size_t>(INT32_MAX)) {
    // Linked whole by name, the records of earlier parts' links included.
    cut_links->erase(std::remove_if(cut_links->begin(), cut_links->end(),
                                    [&](const CutLink& link) {
                                      return link.module == module_index &&
                                             link.computation == open_index;
                                    }),
                     cut_links->end());
    hlo_internal::LinkHloOperands(&open);
  } else {
    cut_links->push_back({module_index, open_index, from, n, *defined});
  }
  if (tail->visitor->first_computation_ended()) {
    defined->clear();
    const hlo_internal::DefinitionTable* last =
        tail->links.has_last ? tail->links.last.definitions.get() : nullptr;
    if (last != nullptr) defined->emplace_back(last, 0);
  } else if (own != nullptr) {
    defined->emplace_back(own, from);
  }
  const int64_t tail_root = tail->visitor->first_root_marked();
  if (*root_marked < 0 && tail_root >= 0) {
    *root_marked = static_cast<int64_t>(from) + tail_root;
  }
  if (tail->visitor->first_computation_ended()) {
    // The ROOT (one at most: JoinHloParts checks it), else the last.
    open.root_index = *root_marked >= 0
                          ? *root_marked
                          : static_cast<int64_t>(open.instructions.size()) - 1;
    // The computation open at the next cut is the tail's last.
    *root_marked = tail->visitor->last_root_marked();
    open.execution_thread = first.computations.front().execution_thread;
  }
  std::move(first.computations.begin() + 1, first.computations.end(),
            std::back_inserter(module.computations));
  std::move(first.shapes.begin(), first.shapes.end(),
            std::back_inserter(module.shapes));
  std::move(first.lists.begin(), first.lists.end(),
            std::back_inserter(module.lists));
  module.unknown_opcodes += first.unknown_opcodes;
  std::move(first.operand_aliasing_table.begin(),
            first.operand_aliasing_table.end(),
            std::back_inserter(module.operand_aliasing_table));
  if (!tail->visitor->first_module_ended()) return;
  // The ENTRY marked, else the last computation not written inline.
  module.entry_index = EntryMarked(module);
  for (size_t i = module.computations.size();
       module.entry_index < 0 && i-- > 0;) {
    if (!module.computations[i].header.written_inline) module.entry_index = i;
  }
  std::move(tail->modules.begin() + 1, tail->modules.end(),
            std::back_inserter(*modules));
  std::vector<HloCalleeNames>& later = tail->visitor->callee_names();
  std::move(later.begin() + 1, later.end(),
            std::back_inserter(*names_of_modules));
}

// HloModule::operand_aliasing_table in offset order (inline computations
// are visited after the one that holds them).
void SortOperandAliasing(std::vector<HloModule>* modules) {
  for (HloModule& module : *modules) {
    std::stable_sort(module.operand_aliasing_table.begin(),
                     module.operand_aliasing_table.end(),
                     [](const HloModule::OperandAliasing& a,
                        const HloModule::OperandAliasing& b) {
                       return a.offset < b.offset;
                     });
  }
}

// A text of this size or more is read in parts on several threads (each
// part at least half of it, or 4 MB).
constexpr size_t kMinBytesPerThread = size_t{4} << 20;

int64_t ThreadsFor(int64_t threads, size_t size) {
  return ThreadsForParts(threads,
                         static_cast<int64_t>(size / kMinBytesPerThread), 8);
}

}  // namespace

namespace hlo_internal {

absl::StatusOr<std::vector<HloModule>> ReadModulesInParts(
    absl::string_view text, const HloReadOptions& options,
    std::vector<absl::Status>* errors, const std::vector<size_t>& cuts,
    int64_t threads, bool* joined) {
  *joined = false;
  if (absl::Status side = XlaSideFileError(text, options.file_name);
      !side.ok()) {
    // As any error: with keep_going it is collected, and no module read.
    if (!options.keep_going || errors == nullptr) return side;
    errors->push_back(std::move(side));
    return std::vector<HloModule>();
  }
  std::vector<HloModule> modules;
  CollectingVisitor visitor(&modules, errors, false,
                            cuts.empty() ? text.size() : cuts[0]);
  absl::Status status;
  // What the parts left (their definition tables live as long as the
  // cuts' links need them), and the records moved across cuts, linked
  // below.
  HloPartLinks head_links;
  std::vector<TailModules> tails;
  std::vector<CutLink> cut_links;
  if (cuts.empty()) {
    status = Reader(text, options, &visitor, &modules).ReadAll();
    visitor.Flush();
  } else {
    tails.resize(cuts.size());
    std::vector<PartReading> parts;
    for (size_t k = 0; k < cuts.size(); ++k) {
      const size_t end = k + 1 < cuts.size() ? cuts[k + 1] : text.size();
      tails[k].visitor = std::make_unique<CollectingVisitor>(
          &tails[k].modules, nullptr, true, end - cuts[k]);
      parts.push_back(
          {tails[k].visitor.get(), &tails[k].modules, &tails[k].links});
    }
    // A line of an XLA dump is 60 to 400 bytes: room for a computation as
    // large as the whole text at one instruction per 64 bytes.
    visitor.Reserve(text.size() / 64);
    status = ReadInParts(
        text, options, cuts, threads, {&visitor, &modules, &head_links}, parts,
        [&](size_t k) { tails[k].visitor->Flush(); },
        [&] { return EntriesJoin(modules, tails); }, joined);
    visitor.Flush(*joined);
    if (*joined) {
      // The head stopped inside a computation (ReadTail begins in one).
      OpenDefinitions defined;
      // The first ROOT of the computation open at the cut, as the tails
      // continue it.
      int64_t root_marked = visitor.last_root_marked();
      const hlo_internal::DefinitionTable* head_table =
          head_links.last.definitions.get();
      if (head_table != nullptr &&
          head_table->size() ==
              modules.back().computations.back().instructions.size()) {
        defined.emplace_back(head_table, 0);
      }
      for (TailModules& tail : tails) {
        Absorb(&tail, &defined, &root_marked, &cut_links, &modules,
               &visitor.callee_names());
      }
    }
    // The room reserved for the joined computation (Reserve) and not used:
    // under the CLI's huge pages, the untouched end of its last 2 MiB page
    // would stay resident, and so would the next page's when a block
    // after the list is written (2 MiB for a 75 MB dump).
    for (HloModule& module : modules) {
      for (HloComputation& c : module.computations) {
        DropSpareRoom(&c.instructions);
      }
    }
  }
  if (!status.ok() && !options.keep_going) return status;
  // Read without an error, every computation ended (its operands linked
  // then) or was joined (its records moved across cuts linked below); after
  // one, the reading may have left one open: all are linked again, by name.
  const bool operands_linked = status.ok() && visitor.error_count() == 0;
  for (HloModule& module : modules) module.computations.shrink_to_fit();
  // (Freed below once every module is linked.)
  const std::vector<HloCalleeNames>& kept = visitor.callee_names();
  absl::Status linked;
  const auto link_modules = [&] {
    for (size_t m = 0; m < modules.size() && linked.ok(); ++m) {
      linked =
          LinkHloModule(&modules[m], operands_linked, INT32_MAX, options.passed,
                        m < kept.size() ? &kept[m] : nullptr);
    }
  };
  if (operands_linked) {
    // The modules' links (calls, control predecessors) read and write no
    // operand: on the second thread, beside the cuts' links (on a 75 MB
    // dump, 8 and 17 ms of one thread's time).
    LinkCuts(&modules, cut_links, options.passed, threads > 1, link_modules);
  } else {
    link_modules();
  }
  if (!linked.ok()) return linked;
  for (HloCalleeNames& names : visitor.callee_names()) names.Free();
  SortOperandAliasing(&modules);
  return modules;
}

}  // namespace hlo_internal

absl::StatusOr<std::vector<HloModule>> ReadHloModules(
    absl::string_view text, const HloReadOptions& options,
    std::vector<absl::Status>* errors, int64_t threads) {
  threads = ThreadsFor(threads, text.size());
  bool joined = false;
  return hlo_internal::ReadModulesInParts(
      text, options, errors,
      threads > 1 ? HloCutPoints(text, threads) : std::vector<size_t>(),
      threads, &joined);
}

absl::Status CheckEntryComputationLayout(absl::string_view text,
                                         const HloModule& module,
                                         absl::string_view file_name) {
  HloReadOptions options;
  options.file_name = file_name;
  return hlo_internal::CheckEntryLayout(text, options, module);
}

}  // namespace hlolayout
