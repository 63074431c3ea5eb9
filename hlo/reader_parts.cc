// Reading in parts (reader.h: HloCutPoints, ReadHloInParts, ReadHloHead,
// ReadHloTail, JoinHloParts): where to cut, a tail read from a cut inside a
// computation, the stop where a part ends, what each part hands over
// (HloPartLinks), the join that checks across the cuts what one reading
// would have checked, and the threads that read the parts.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::ReadTail(size_t begin) {
  tail_ = true;
  text_ = whole_;
  pos_ = begin;
  module_ = HloModuleHeader();
  module_.offset = begin;
  in_module_ = true;
  headerless_ = false;
  computation_count_ = 0;
  entry_index_ = -1;
  computation_ = HloComputationHeader();
  computation_.offset = begin;
  result_text_ = absl::string_view();
  in_first_computation_ = true;
  in_first_module_ = true;
  computation_slot_ = -1;  // its header is before the part
  tail_begin_ = begin;
  if (options_.passed) {
    passed_to_ = begin;
    next_passed_ = begin + kPassedWindow + kPassedStep;
  }
  if (collect_ != nullptr && !collect_->empty()) {
    // ReadHloModules in parts: the module the part begins in (its
    // collector made it) keeps the part's shapes.
    keep_ = &collect_->back().shapes;
    ++keep_stamp_;
  }
  visitor_->BeginComputation(computation_);
  absl::Status status = ParseComputationBody(begin);
  if (status.ok()) status = ReadComputations();
  if (!status.ok()) return status;
  return ReadModules();
}

absl::Status Reader::AtStop() {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    return absl::AbortedError("cancelled");
  }
  if (pos_ < stop_) return absl::OkStatus();
  if (inline_depth_ > 0 || !inline_done_.empty()) {
    // Inside a computation written inline, or before the top-level one
    // that holds some ends (they are handed over then): not a place to
    // stop. The head reads on; a tail (which cannot name them) gives up.
    if (at_stop_ == nullptr) return absl::AbortedError("passed the stop");
    stop_ = absl::string_view::npos;
    return absl::OkStatus();
  }
  if (pos_ == stop_ && !headerless_ && errors_ == 0) FillLastLinks();
  if (pos_ == stop_ && !headerless_ && errors_ == 0 &&
      (at_stop_ == nullptr || (*at_stop_)())) {
    stopped_ = true;
    return absl::CancelledError("stopped");
  }
  // A tail that does not arrive exactly at its stop is of no use.
  if (at_stop_ == nullptr) return absl::AbortedError("passed the stop");
  stop_ = absl::string_view::npos;  // the head reads on as ReadHlo
  return absl::OkStatus();
}

const Shape* Reader::ShapeBeforeTail(absl::string_view name) {
  auto found = before_tail_.find(name);
  if (found != before_tail_.end()) return found->second;
  // Back through the lines before the part, to the start of its first
  // computation (a line that closes one or opens one), at most 4 MB; and
  // at most kBeforeTailBudget for all names of the part together (past it
  // the name is not found: the part is read again with the text before it,
  // rather than scanning 4 MB for each of many names).
  constexpr size_t kBeforeTailBudget = size_t{32} << 20;
  const char* data = text_.data();
  size_t line_end = tail_begin_;
  const Shape* shape = nullptr;
  while (line_end > 0 && tail_begin_ - line_end < (size_t{4} << 20)) {
    if (before_tail_scanned_ >= kBeforeTailBudget) return nullptr;
    size_t line = line_end - 1;
    while (line > 0 && data[line - 1] != '\n') --line;
    before_tail_scanned_ += line_end - line;
    size_t p = line;
    while (p < line_end && Is(data[p], kHorizontalSpace)) ++p;
    if (p < line_end && data[p] == '}') break;
    if (text_.substr(p, 5) == "ROOT ") p += 5;
    while (p < line_end && Is(data[p], kHorizontalSpace)) ++p;
    if (p < line_end && data[p] == '%') ++p;
    if (text_.substr(p, name.size()) == name &&
        (p + name.size() >= line_end ||
         !Is(data[p + name.size()], kNameChar))) {
      size_t q = p + name.size();
      while (q < line_end && Is(data[q], kHorizontalSpace)) ++q;
      if (q < line_end && data[q] == '=') {
        ++q;
        while (q < line_end && Is(data[q], kHorizontalSpace)) ++q;
        Shape decoded;
        if (LooksLikeShapeAt(q) &&
            ParseShapeAt(text_, &q, &decoded, shape_options_).ok()) {
          shape = Keep(std::move(decoded));
        }
        break;
      }
    }
    // A computation's header ends its line with '{'.
    size_t last = line_end;
    while (last > line && Is(data[last - 1], kSpace)) --last;
    if (last > line && data[last - 1] == '{' && !LineStartsInstruction(line)) {
      break;
    }
    line_end = line;
  }
  before_tail_.emplace(name, shape);
  return shape;
}

void Reader::FillComputationSide(HloPartLinks::Side* side) {
  side->definitions = definitions_;
  side->pending_uses.clear();
  for (const Use& use : uses_) {
    if (FindDefinition(use.name) >= 0) continue;
    side->pending_uses.push_back(use);
  }
  side->pending_rules = pending_rules_;
  side->parameter_numbers = parameter_numbers_;
  side->signature_result =
      computation_.has_signature ? result_text_ : absl::string_view();
  side->root_marked = root_index_ >= 0;
  side->root_text = root_index_ >= 0 ? definitions_->shape_text(root_index_)
                                     : absl::string_view();
  int64_t earlier = -1;
  side->names_twice = definitions_->FindDuplicate(&earlier) >= 0;
  side->open_computation = computation_.name;
  side->last_text = definitions_->empty()
                        ? absl::string_view()
                        : definitions_->shape_text(definitions_->size() - 1);
}

void Reader::FillModuleSide(HloPartLinks::Side* side) {
  LookUpCallees();
  side->computations = computations_;  // the table itself, shared
  side->pending_callees.clear();
  side->async_calls.clear();
  side->pending_callees.reserve(callees_.size());
  for (const auto& callee : callees_) {
    side->pending_callees.push_back(callee.first);
  }
  // In a tail, the callees defined before the part: as many as the calls
  // of a cut entry computation. Looked up again only when computations
  // were defined since the first was looked up, a batch at a time.
  // A callee not found when it was looked up, after its use, and defined
  // in the part now is defined after its caller.
  side->calls_forward = !forward_callee_.empty();
  side->first_callees.clear();
  for (absl::string_view name : first_callees_) {
    side->first_callees.push_back(computations_->KeepName(name));
  }
  if (computations_->size() != callees_since_ && !callees_.empty()) {
    const size_t pending = side->pending_callees.size();
    computations_->DropFound(&side->pending_callees);
    if (side->pending_callees.size() != pending) side->calls_forward = true;
  }
  // entry_index_ counts the ENTRY of the part's computations that ended;
  // the one open at a cut is computation_ (a tail's first: not known).
  side->entry_marked =
      entry_index_ >= 0 || (in_computation_ && computation_.entry_marker &&
                            !(tail_ && in_first_computation_));
  side->entry_layout =
      !(tail_ && in_first_module_) && module_.has_entry_computation_layout;
  side->async_calls.reserve(async_calls_.size());
  for (const auto& call : async_calls_) side->async_calls.push_back(call.first);
}

void Reader::FillLastLinks() {
  if (links_ == nullptr) return;
  links_->has_last = true;
  FillComputationSide(in_first_computation_ ? &links_->first : &links_->last);
  FillModuleSide(in_first_module_ ? &links_->first : &links_->last);
}

}  // namespace hlo_internal

namespace {

absl::StatusOr<Shape> DecodeText(absl::string_view text) {
  size_t at = 0;
  Shape shape;
  absl::Status status = ParseShapeAt(text, &at, &shape);
  if (!status.ok()) return status;
  return shape;
}

// The checks of CheckComputationEnd and CheckInstruction for uses, operand
// rules, parameter numbers and a root across cuts.
struct SpanningComputation {
  absl::string_view text;
  // The parts' definitions, in text order.
  std::vector<const hlo_internal::DefinitionTable*> definitions;
  // Control predecessors not found yet: resolved by any definition.
  std::vector<HloPartLinks::Name> anywhere;
  absl::flat_hash_set<int64_t> parameter_numbers;
  absl::string_view signature;
  bool root_marked = false;
  absl::string_view root_text;

  void Reset(const HloPartLinks::Side& side) {
    definitions.clear();
    anywhere.clear();
    parameter_numbers.clear();
    signature = side.signature_result;
    root_marked = false;
    root_text = absl::string_view();
    Add(side);
  }
  // The shape text of the latest definition of `name` among the parts so
  // far (the latest part first), in `*defined`; false when none defines it.
  bool Lookup(absl::string_view name, absl::string_view* defined) const {
    const uint64_t hash = hlo_internal::NameHash(name);
    for (size_t p = definitions.size(); p-- > 0;) {
      const int64_t d = definitions[p]->Find(name, hash);
      if (d >= 0) {
        *defined = definitions[p]->shape_text(d);
        return true;
      }
    }
    return false;
  }
  // The shape a use refers to (its definition's, or the tuple element its
  // `#N#M...` names), decoded into `*storage`; null when not known or when
  // an index does not exist (`*bad`).
  const Shape* UsedShape(const HloPartLinks::Name& use,
                         absl::string_view defined, Shape* storage,
                         bool* bad) const {
    *bad = false;
    absl::StatusOr<Shape> shape = DecodeText(defined);
    if (!shape.ok()) return nullptr;
    *storage = *std::move(shape);
    if (use.output_index < 0) return storage;
    const Shape* s = hlo_internal::FollowOutputIndexes(
        storage, text, use.offset + use.name.size());
    *bad = s == nullptr;
    return s;
  }
  bool Check(const HloPartLinks::Name& use, absl::string_view defined) const {
    if (use.output_index < 0 &&
        (use.shape_text.empty() || use.shape_text == defined)) {
      return true;
    }
    Shape storage;
    bool bad = false;
    const Shape* s = UsedShape(use, defined, &storage, &bad);
    if (bad) return false;
    if (s == nullptr || use.shape_text.empty()) return true;
    absl::StatusOr<Shape> written = DecodeText(use.shape_text);
    return !written.ok() ||
           Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(*written, *s);
  }
  bool CheckRule(const HloPartLinks::Rule& rule,
                 absl::string_view defined) const {
    Shape storage;
    bool bad = false;
    const Shape* s = UsedShape(rule.operand, defined, &storage, &bad);
    if (bad) return false;
    if (s == nullptr) return true;  // as where the shape is not known
    size_t at = 0;
    return CheckHloOperandRule(
               rule.rule, *s,
               rule.operand.output_index < 0 ? defined : absl::string_view(),
               &at)
        .ok();
  }
  bool Add(const HloPartLinks::Side& side) {
    // Operands are defined before their use: in the parts before.
    absl::string_view defined;
    for (const HloPartLinks::Name& use : side.pending_uses) {
      if (use.control) {
        anywhere.push_back(use);
      } else if (!Lookup(use.name, &defined) || !Check(use, defined)) {
        return false;
      }
    }
    for (const HloPartLinks::Rule& rule : side.pending_rules) {
      if (!Lookup(rule.operand.name, &defined) || !CheckRule(rule, defined)) {
        return false;
      }
    }
    for (int64_t number : side.parameter_numbers) {
      if (!parameter_numbers.insert(number).second) return false;
    }
    if (side.names_twice) return false;
    if (side.definitions != nullptr) {
      // Each instruction name once (each part refused a name it defines
      // twice itself).
      for (const hlo_internal::DefinitionTable* d : definitions) {
        if (d->SharesNameWith(*side.definitions)) return false;
      }
      definitions.push_back(side.definitions.get());
    }
    if (side.root_marked) {
      if (root_marked) return false;
      root_marked = true;
      root_text = side.root_text;
    }
    return true;
  }
  bool Close(const HloPartLinks::Side& closing) {
    // Parameter numbers 0 to count - 1.
    for (int64_t number : parameter_numbers) {
      if (number >= static_cast<int64_t>(parameter_numbers.size())) {
        return false;
      }
    }
    absl::string_view defined;
    for (const HloPartLinks::Name& use : anywhere) {
      if (!Lookup(use.name, &defined)) return false;
    }
    const absl::string_view root = root_marked ? root_text : closing.last_text;
    if (!signature.empty() && !root.empty()) {
      absl::StatusOr<Shape> want = DecodeText(signature);
      absl::StatusOr<Shape> got = DecodeText(root);
      if (want.ok() && got.ok() &&
          !Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(*want,
                                                                  *got)) {
        return false;
      }
    }
    return true;
  }
};

struct SpanningModule {
  // The parts' computations, looked up in each part's own table.
  std::vector<const hlo_internal::ComputationTable*> tables;
  absl::flat_hash_set<absl::string_view> async_calls;
  std::vector<absl::string_view> callees;
  bool entry_marked = false;
  bool entry_layout = false;

  // True when no computation of `t` is defined in the parts so far (each
  // part refused a name defined twice in itself): the smaller of each two
  // tables is scanned by its slots, no name hashed again.
  bool Apart(const hlo_internal::ComputationTable& t) const {
    for (const hlo_internal::ComputationTable* in : tables) {
      if (t.SharesNameWith(*in)) return false;
    }
    return true;
  }
  bool Reset(const HloPartLinks::Side& side) {
    tables.clear();
    async_calls.clear();
    callees.clear();
    entry_marked = false;
    entry_layout = false;
    return Add(side);
  }
  bool Add(const HloPartLinks::Side& side) {
    if (side.calls_forward) return false;
    // A part's callees are defined in the parts before it (XLA reads a
    // callee before its callers). They are many (in a cut entry
    // computation, one per fusion) and the names far apart: each table
    // looks up what the ones before left, a batch at a time
    // (ComputationTable::FindEach).
    if (!side.pending_callees.empty()) {
      callees.assign(side.pending_callees.begin(), side.pending_callees.end());
      for (const hlo_internal::ComputationTable* t : tables) {
        if (callees.empty()) break;
        t->DropFound(&callees);
      }
      if (!callees.empty()) return false;
    }
    if (side.computations != nullptr) {
      if (!Apart(*side.computations)) return false;  // twice
      tables.push_back(side.computations.get());
    }
    for (absl::string_view c : side.async_calls) {
      if (!async_calls.insert(c).second) return false;  // twice
    }
    entry_marked = entry_marked || side.entry_marked;
    entry_layout = entry_layout || side.entry_layout;
    return true;
  }
  // True unless the module's entry must be checked against its layout
  // with no part knowing both: no computation says ENTRY.
  bool Close() const { return entry_marked || !entry_layout; }
};

}  // namespace

// Where the parts' reading costs are about equal. The cost of reading a
// stretch of text is estimated as 8 per byte, 390 per line and 480 per '['
// (about one per shape): callgrind's instruction counts of the 45 tails of
// the three 75 MB benchmark dumps read in 16 parts (XLA:TPU-shaped large
// and small computations, classic) fit that within 6% each. (Bytes and
// lines alone, 1 and 700, gave the second of two parts 1.2 to 1.3 times the
// first's work: the entry's lines, long and full of distinct shapes, cost
// more than the fused computations' before it.) The lines and brackets of
// each of 64 equal segments are counted in a 4 KiB sample at its start.
namespace {

std::vector<size_t> BalancedOffsets(absl::string_view text, int64_t parts) {
  constexpr size_t kSegments = 64;
  constexpr size_t kSample = 4096;
  constexpr double kPerByte = 8;
  constexpr double kPerLine = 390;
  constexpr double kPerBracket = 480;
  const size_t n = text.size();
  std::vector<size_t> offsets;
  if (parts <= 1) return offsets;
  const size_t segment = n / kSegments;
  if (segment < kSample) {  // small texts: equal bytes
    for (int64_t k = 1; k < parts; ++k) offsets.push_back(n / parts * k);
    return offsets;
  }
  double cost[kSegments];
  double total = 0;
  for (size_t i = 0; i < kSegments; ++i) {
    const char* const begin = text.data() + i * segment;
    size_t lines = 0;
    size_t brackets = 0;
    for (size_t j = 0; j < kSample; ++j) {
      lines += begin[j] == '\n';
      brackets += begin[j] == '[';
    }
    const double length = i + 1 < kSegments ? segment : n - i * segment;
    cost[i] =
        length * (kPerByte + (kPerLine * static_cast<double>(lines) +
                              kPerBracket * static_cast<double>(brackets)) /
                                 kSample);
    total += cost[i];
  }
  size_t i = 0;
  double before = 0;  // cost of the segments before i
  for (int64_t k = 1; k < parts; ++k) {
    const double want = total * k / parts;
    while (i + 1 < kSegments && before + cost[i] < want) before += cost[i++];
    const double within = cost[i] > 0 ? (want - before) / cost[i] : 0;
    const size_t length = i + 1 < kSegments ? segment : n - i * segment;
    offsets.push_back(i * segment + static_cast<size_t>(
                                        within * static_cast<double>(length)));
  }
  return offsets;
}

}  // namespace

std::vector<size_t> HloCutPoints(absl::string_view text, int64_t parts) {
  std::vector<size_t> cuts;
  const size_t n = text.size();
  constexpr size_t kSearch = 1 << 16;  // bytes looked at after each cut
  const std::vector<size_t> offsets = BalancedOffsets(text, parts);
  for (int64_t k = 1; k < parts; ++k) {
    size_t line = std::min(offsets[k - 1], n);
    if (!cuts.empty() && line <= cuts.back()) line = cuts.back() + 1;
    const size_t limit = std::min(n, line + kSearch);
    while (line < limit) {
      const void* nl = std::memchr(text.data() + line, '\n', limit - line);
      if (nl == nullptr) break;
      size_t p = static_cast<const char*>(nl) - text.data() + 1;
      line = p;
      while (p < n && (text[p] == ' ' || text[p] == '\t')) ++p;
      const size_t begin = p;
      if (text.substr(p, 5) == "ROOT ") {
        cuts.push_back(begin);
        break;
      }
      if (p < n && text[p] == '%') ++p;
      if (p >= n || !(absl::ascii_isalpha(text[p]) || text[p] == '_')) continue;
      while (p < n && (absl::ascii_isalnum(text[p]) || text[p] == '_' ||
                       text[p] == '.' || text[p] == '-')) {
        ++p;
      }
      while (p < n && text[p] == ' ') ++p;
      if (p < n && text[p] == '=') {
        cuts.push_back(begin);
        break;
      }
    }
  }
  return cuts;
}

namespace hlo_internal {

absl::Status ReadInParts(absl::string_view text, const HloReadOptions& options,
                         const std::vector<size_t>& cuts, int64_t threads,
                         const PartReading& head,
                         const std::vector<PartReading>& tails,
                         const std::function<void(size_t)>& tail_read,
                         const std::function<bool()>& can_join, bool* joined) {
  const size_t n = cuts.size();
  *joined = false;
  if (n == 0 || tails.size() != n) {
    Reader reader(text, options, head.visitor, head.collect);
    return reader.ReadAll();
  }
  HloReadOptions tail_options = options;
  tail_options.keep_going = false;
  std::vector<absl::Status> statuses(n, absl::AbortedError("not read"));
  // What each part leaves to check across the cuts.
  std::vector<HloPartLinks> links(n);
  HloPartLinks head_links;
  std::unique_ptr<bool[]> stopped(new bool[n]());
  std::atomic<bool> cancel{false};
  // The tails go to whichever thread is free: the workers, and the head's
  // own thread once it has arrived at its stop.
  std::atomic<size_t> next{0};
  const auto read_tails = [&] {
    while (!cancel.load(std::memory_order_relaxed)) {
      const size_t k = next.fetch_add(1);
      if (k >= n) return;
      if (cuts[k] >= text.size()) {
        statuses[k] = absl::InvalidArgumentError("empty tail");
        continue;
      }
      Reader reader(text, tail_options, tails[k].visitor, tails[k].collect);
      reader.SetStop(k + 1 < n ? cuts[k + 1] : absl::string_view::npos, nullptr,
                     &cancel);
      reader.SetLinks(&links[k]);
      statuses[k] = reader.ReadTail(cuts[k]);
      stopped[k] = reader.stopped();
      if (stopped[k]) statuses[k] = absl::OkStatus();
      if (statuses[k].ok() && tail_read) tail_read(k);
    }
  };
  std::vector<std::thread> workers;
  for (int64_t t = 1; t < threads && static_cast<size_t>(t) <= n; ++t) {
    try {
      workers.emplace_back(read_tails);
    } catch (const std::system_error&) {
      break;  // the head's thread reads what is left
    }
  }
  bool joined_threads = false;
  const auto join = [&] {
    if (joined_threads) return;
    for (std::thread& t : workers) t.join();
    joined_threads = true;
  };
  const std::function<bool()> at_stop = [&] {
    read_tails();
    join();
    std::vector<const HloPartLinks*> tail_links;
    for (size_t k = 0; k < n; ++k) {
      if (!statuses[k].ok() || stopped[k] != (k + 1 < n)) return false;
      tail_links.push_back(&links[k]);
    }
    return (!can_join || can_join()) &&
           JoinHloParts(text, head_links, tail_links);
  };
  Reader reader(text, options, head.visitor, head.collect);
  reader.SetStop(cuts[0], &at_stop, nullptr);
  reader.SetLinks(&head_links);
  absl::Status status = reader.ReadAll();
  *joined = reader.stopped();
  cancel = true;  // the tails are of no use when the head read on
  join();
  if (*joined) {
    if (head.links != nullptr) *head.links = std::move(head_links);
    for (size_t k = 0; k < n; ++k) {
      if (tails[k].links != nullptr) *tails[k].links = std::move(links[k]);
    }
  }
  return *joined ? absl::OkStatus() : status;
}

}  // namespace hlo_internal

absl::Status ReadHloInParts(absl::string_view text,
                            const HloReadOptions& options,
                            const std::vector<size_t>& cuts, int64_t threads,
                            HloVisitor* head,
                            const std::vector<HloVisitor*>& tails,
                            const std::function<void(size_t)>& tail_read,
                            const std::function<bool()>& can_join,
                            bool* joined) {
  *joined = false;
  if (absl::Status side = XlaSideFileError(text, options.file_name);
      !side.ok()) {
    if (options.keep_going) head->Error(side);  // as ReadHlo
    return side;
  }
  std::vector<hlo_internal::PartReading> parts;
  for (HloVisitor* tail : tails) parts.push_back({tail, nullptr});
  return hlo_internal::ReadInParts(text, options, cuts, threads,
                                   {head, nullptr}, parts, tail_read, can_join,
                                   joined);
}

bool JoinHloParts(absl::string_view text, const HloPartLinks& head,
                  const std::vector<const HloPartLinks*>& tails) {
  if (!head.has_last) return false;
  // The spanning computation keeps views of the Sides: none of them is a
  // temporary.
  static const HloPartLinks::Side kNone;
  SpanningComputation computation;
  computation.text = text;
  SpanningModule module;
  computation.Reset(head.last);
  if (!module.Reset(head.last)) return false;
  // The computation open at the cut before the part: not defined before
  // itself, so not a callee of the part's first computation.
  absl::string_view open = head.last.open_computation;
  for (const HloPartLinks* tail : tails) {
    for (absl::string_view callee : tail->first.first_callees) {
      if (callee == open) return false;
    }
    // A part inside one computation leaves it open at the next cut.
    if (tail->has_last && tail->first_computation_closed) {
      open = tail->last.open_computation;
    }
    if (!computation.Add(tail->first)) return false;
    if (tail->first_computation_closed) {
      if (!computation.Close(tail->first)) return false;
      computation.Reset(tail->has_last ? tail->last : kNone);
    }
    if (!module.Add(tail->first)) return false;
    if (tail->first_module_closed) {
      if (!module.Close()) return false;
      if (!module.Reset(tail->has_last ? tail->last : kNone)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace hlolayout
