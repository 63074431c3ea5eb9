// hlo/reader_internal.h: the reader behind hlo/reader.h, one class whose
// stages are the source files beside it: reader_module.cc (modules, headers,
// stack tables), reader_computation.cc (computation headers and bodies),
// reader_fast.cc (the usual instruction line) and reader_instruction.cc (the
// careful path: any instruction, exact errors), reader_attributes.cc,
// reader_shapes.cc (cached, kept, decoded again, inferred), reader_tokens.cc
// (strings, brackets, resyncing after errors), reader_checks.cc (the rules
// XLA's parser applies to references, roots and asynchronous chains),
// reader_inline.cc (computations written inline as attribute values) and
// reader_parts.cc (reading in parts) and reader_collect.cc (modules kept in
// memory); reader.cc holds the entry points.
// Lexical helpers without state are in reader_text.h. Not for use elsewhere.
#ifndef HLOLAYOUT_HLO_READER_INTERNAL_H_
#define HLOLAYOUT_HLO_READER_INTERNAL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/definitions.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/names.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_text.h"
#include "hlolayout/hlo/scan.h"
#include "hlolayout/hlo/shape_cache.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

// `shape`, then the tuple element that each `#N` at `at` in `text` names
// (`%x#1#0`: element 0 of element 1); null when one does not exist.
const Shape* FollowOutputIndexes(const Shape* shape, absl::string_view text,
                                 size_t at);

// Texts the reader makes up (the names of instructions written inline as
// operands, the printed form of inferred shapes) must outlive the reading,
// like the views into the input: they are kept once each for the life of
// the process. Only text without names or shapes of its own produces them
// (hand-written modules, XLA's tests), so the set stays small.
absl::string_view Intern(std::string text);

// An instruction as the reader builds it: the record a visitor is handed,
// and the lists its `operands` and `attributes` view, which the reader
// fills. Whoever changes a list calls Bind before the record is read again
// (adding to a list may move it); copies and moves bind themselves.
// The shape text written at each operand's use (HloOperand keeps the
// decoded shape only) stands beside the list, by operand position: the
// reader sets it for each operand it reads (OperandShapeText), and the
// checks read it (operand_shape_text). A draft made from a visitor's
// HloInstruction has none.
struct DraftInstruction : HloInstruction {
  std::vector<HloOperand> operand_list;
  std::vector<HloAttribute> attribute_list;
  // Grows only: entries past operand_list.size() are stale.
  std::vector<absl::string_view> operand_shape_texts;

  DraftInstruction() = default;
  // A copy of `in` with lists of its own.
  explicit DraftInstruction(const HloInstruction& in)
      : HloInstruction(in),
        operand_list(in.operands().begin(), in.operands().end()),
        attribute_list(in.attributes().begin(), in.attributes().end()) {
    Bind();
  }
  DraftInstruction(const DraftInstruction& o)
      : HloInstruction(o),
        operand_list(o.operand_list),
        attribute_list(o.attribute_list),
        operand_shape_texts(o.operand_shape_texts) {
    Bind();
  }
  DraftInstruction(DraftInstruction&& o) noexcept
      : HloInstruction(o),
        operand_list(std::move(o.operand_list)),
        attribute_list(std::move(o.attribute_list)),
        operand_shape_texts(std::move(o.operand_shape_texts)) {
    Bind();
    o.Bind();
  }
  DraftInstruction& operator=(const DraftInstruction& o) {
    if (this == &o) return *this;
    HloInstruction::operator=(o);
    operand_list = o.operand_list;
    attribute_list = o.attribute_list;
    operand_shape_texts = o.operand_shape_texts;
    Bind();
    return *this;
  }
  DraftInstruction& operator=(DraftInstruction&& o) noexcept {
    if (this == &o) return *this;
    HloInstruction::operator=(o);
    operand_list = std::move(o.operand_list);
    attribute_list = std::move(o.attribute_list);
    operand_shape_texts = std::move(o.operand_shape_texts);
    Bind();
    o.Bind();
    return *this;
  }
  // The views, set unchecked while the instruction is read: one of 4 GiB
  // or more is cut, and ReadBodyInstruction refuses the instruction before
  // anything reads it ("instruction longer than 4 GiB"). They hide
  // HloInstruction's, which abort on such a view.
  void set_name(absl::string_view v) { Set(&name_, &name_size_, v, false); }
  void set_shape_text(absl::string_view v) {
    Set(&shape_text_, &shape_text_size_, v, false);
  }
  void set_opcode_name(absl::string_view v) {
    Set(&opcode_name_, &opcode_name_size_, v, false);
  }
  void set_operand_text(absl::string_view v) {
    Set(&operand_text_, &operand_text_size_, v, false);
  }
  void set_operands(absl::Span<const HloOperand> v) {
    Set(&operands_, &operand_count_, v, false);
  }
  void set_attributes(absl::Span<const HloAttribute> v) {
    Set(&attributes_, &attribute_count_, v, false);
  }
  // Points operands() and attributes() at the lists.
  void Bind() {
    set_operands(operand_list);
    set_attributes(attribute_list);
  }
  // The shape text written at operand `k`'s use, to set (the list grows to
  // hold it).
  absl::string_view& OperandShapeText(size_t k) {
    if (k >= operand_shape_texts.size()) operand_shape_texts.resize(k + 1);
    return operand_shape_texts[k];
  }
  // The same, to read: empty when none was set.
  absl::string_view operand_shape_text(size_t k) const {
    return k < operand_list.size() && k < operand_shape_texts.size()
               ? operand_shape_texts[k]
               : absl::string_view();
  }
};

// One part of a text read in parts (ReadInParts): its visitor, and for
// ReadHloModules the modules that keep the part's shapes.
struct PartReading {
  HloVisitor* visitor;
  std::vector<HloModule>* collect;
  // When set, receives what the part leaves across its cuts once the parts
  // are joined (the definitions of the computations open at them).
  HloPartLinks* links = nullptr;
};

// ReadHloModules on `threads` threads, the text cut at `cuts` (none: in one
// piece); `*joined`: the parts were joined (else read whole). For tests that
// cut anywhere.
absl::StatusOr<std::vector<HloModule>> ReadModulesInParts(
    absl::string_view text, const HloReadOptions& options,
    std::vector<absl::Status>* errors, const std::vector<size_t>& cuts,
    int64_t threads, bool* joined);

// Links a module read whole (ReadHloModules): each operand to the
// instruction of its computation that defines it (HloOperand::index; not
// when `operands_linked`: LinkHloOperands did, computation by computation),
// each instruction to the computations it calls (HloModule::callees) and to
// its control predecessors, and reads the header's input_output_alias.
// Linear in the module. Its links are 32-bit: a module of more than
// `max_count` (at most INT32_MAX; less for tests) computations, called
// computations or control predecessors, or a computation of more
// instructions, is refused ("more than 2147483647 computations in a
// module").
// HloReadOptions::passed as a pass over a module's instructions goes (the
// linking, the join of a computation cut in two): At(offset) hands over the
// text from the last range's end to `offset` once `offset` is `step` bytes
// past it. `passed` may be null or empty (then nothing is called).
struct PassedText {
  PassedText(const std::function<void(size_t, size_t)>* passed, size_t from,
             size_t step)
      : passed(passed), to(from), next(from + step), step(step) {}
  // Whether At(offset) would hand text over.
  bool Due(size_t offset) const {
    return passed != nullptr && *passed && offset >= next;
  }
  void At(size_t offset) {
    if (!Due(offset)) return;
    (*passed)(to, offset);
    to = offset;
    next = offset + step;
  }
  // Hands over the text from the last range's end to `offset`, whatever its
  // length (at the end of the pass, or of its part of the instructions).
  void Flush(size_t offset) {
    if (passed == nullptr || !*passed || offset <= to) return;
    (*passed)(to, offset);
    to = offset;
    next = offset + step;
  }

  const std::function<void(size_t, size_t)>* passed;
  size_t to, next;
  size_t step;
};

// The names of the computations a module's instructions call, kept by the
// reader that collected it while their text was at hand: copies, one after
// the other. A record with kHloFactCalleeNamesRead has its names at
// [first_callee, first_callee + callee_count) here until it is linked.
// With them, when `listed`, the records that may call a computation or
// name control predecessors (HloInstruction::may_have), as (computation,
// index in it) in module order: linking reads no other record (a dump of
// 60,000 fused computations spent a third of its linking reading their
// records for nothing; a 75 MB dump's entry of 350,000 records has 25,000
// such).
struct HloCalleeNames {
  std::string chars;
  std::vector<std::pair<uint32_t, uint32_t>> names;  // (offset, size)
  std::vector<std::pair<uint32_t, uint32_t>> records;
  bool listed = false;

  size_t size() const { return names.size(); }
  absl::string_view operator[](size_t i) const {
    return absl::string_view(chars.data() + names[i].first, names[i].second);
  }
  // Appends `other`'s names; false (nothing appended) past 32-bit offsets.
  bool Append(const HloCalleeNames& other);
  // Frees the names, their pages given back first (the program's heap may
  // keep freed memory resident, and the analysis after a reading asks for
  // larger blocks).
  void Free();
};

// `passed` (may be empty): HloReadOptions::passed, called as the linking
// goes with the text it has passed, which it reads again for the callee
// names of records without kHloFactCalleeNamesRead. `kept`: the names the
// reader kept for this module (may be null).
absl::Status LinkHloModule(
    HloModule* module, bool operands_linked = false,
    int64_t max_count = INT32_MAX,
    const std::function<void(size_t, size_t)>& passed = nullptr,
    const HloCalleeNames* kept = nullptr);
// Links each operand of `computation` to the latest instruction before it
// that defines its name (HloOperand::index), -1 when none does: the part of
// LinkHloModule that needs only the computation, done by each reading
// thread as its computations end.
void LinkHloOperands(HloComputation* computation);
// The same, unless the reader linked every operand of `computation` as it
// read it (every HloOperand::index set); returns whether it linked them.
bool LinkHloOperandsLeft(HloComputation* computation);

// An error located at the entry computation when no computation says ENTRY
// and the last one, taken as the entry, does not match the module header's
// entry_computation_layout (parameter count, each parameter's and the
// result's element type and dimensions); OK when the header has no such
// layout or a computation says ENTRY.
absl::Status CheckEntryLayout(absl::string_view text,
                              const HloReadOptions& options,
                              const HloModule& module);

// What differs between a computation taken as the entry (its parameter
// numbers and shape texts, its root's shape text) and `header`'s
// entry_computation_layout (the parameter count, each parameter's and the
// result's element type and dimensions), in words; "" when nothing.
std::string EntryTextMismatch(const HloModuleHeader& header,
                              const std::vector<int64_t>& numbers,
                              const std::vector<absl::string_view>& texts,
                              absl::string_view root_text);
// The error's message for the entry computation `name` taken as the last
// one: "the entry computation 'name' " + mismatch + a hint.
std::string EntryMismatchMessage(absl::string_view name,
                                 absl::string_view mismatch);

// ReadHloInParts, with the modules that keep each part's shapes.
absl::Status ReadInParts(absl::string_view text, const HloReadOptions& options,
                         const std::vector<size_t>& cuts, int64_t threads,
                         const PartReading& head,
                         const std::vector<PartReading>& tails,
                         const std::function<void(size_t)>& tail_read,
                         const std::function<bool()>& can_join, bool* joined);

class Reader {
 public:
  // `collect`: the modules `visitor` fills (ReadHloModules); each gets the
  // shapes its instructions point to.
  Reader(absl::string_view whole, const HloReadOptions& options,
         HloVisitor* visitor, std::vector<HloModule>* collect = nullptr)
      : whole_(whole), options_(options), visitor_(visitor), collect_(collect) {
    shape_options_.file_name = options.file_name;
    shape_options_.max_depth = options.max_depth;
    if (options.passed) next_passed_ = kPassedWindow + kPassedStep;
  }

  // Reads every module: each ends at a split line or at the end.
  absl::Status ReadAll();
  // ReadHloHead / ReadHloTail (see reader.h): `stop` as there; `at_stop`
  // null for a tail, which always stops there.
  void SetStop(size_t stop, const std::function<bool()>* at_stop,
               const std::atomic<bool>* cancel) {
    stop_ = stop;
    at_stop_ = at_stop;
    cancel_ = cancel;
  }
  void SetLinks(HloPartLinks* links) { links_ = links; }
  // Reads on from `begin`, inside a computation body, as ReadHloTail.
  absl::Status ReadTail(size_t begin);
  bool stopped() const { return stopped_; }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  // A dash line at `p` ends the module when a new module (`HloModule`)
  // starts after it, or, in a module without an `HloModule` header, when it
  // stands between two computations (split-input files of header-less
  // modules). Anywhere else it is a comment.
  bool DashLineSplits(size_t p) {
    return between_headerless_computations_ || probe_.HloModuleFollows(p);
  }
  bool IsSplitAt(size_t p) { return IsDashLine(text_, p) && DashLineSplits(p); }
  // At the end of the text or at a module separator.
  bool AtModuleEnd() { return AtEnd() || IsSplitAt(pos_); }
  // Reads modules from pos_ to the end of the text.
  absl::Status ReadModules();
  // Reads the module at pos_.
  absl::Status ReadModule();
  // The computations of the module from pos_, then EndModule.
  absl::Status ReadComputations();
  // At or past stop_ (or cancelled) at the start of an instruction: OK to
  // read on, or the status that ends the reading (stopped_ set when it
  // stopped there).
  absl::Status AtStop() __attribute__((noinline));
  // Ends the module and computation left open by a failed ReadModule.
  void Abandon();
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool LookingAtWord(absl::string_view word) const {
    const size_t end = pos_ + word.size();
    return text_.substr(pos_, word.size()) == word &&
           (end >= text_.size() || !Is(text_[end], kNameChar));
  }

  absl::Status Error(size_t offset, absl::string_view message) const {
    // Located from the error before (errors come in text order): with
    // keep_going, 100,000 errors each counted lines from the start (24 s
    // for 5.5 MB).
    return absl::InvalidArgumentError(
        FormatDiagnostic(text_, std::min(offset, text_.size()), message,
                         options_.file_name, &error_locator_));
  }
  // Quotes the token at the current position for a message.
  std::string Found() const {
    if (AtEnd()) return "end of input";
    size_t end = pos_;
    while (end < text_.size() && Is(text_[end], kNameChar)) ++end;
    if (end == pos_) ++end;
    return DescribeToken(text_.substr(pos_, end - pos_));
  }
  absl::Status Expected(absl::string_view what) const {
    return Error(pos_, absl::StrCat("expected ", what, ", found ", Found()));
  }

  absl::Status SkipTrivia() {
    // Fast path: whitespace only; comments go the slow way.
    const size_t n = text_.size();
    const char* data = text_.data();
    size_t p = pos_;
    while (p < n && Is(data[p], kSpace)) ++p;
    pos_ = p;
    if (p >= n || data[p] != '/') return absl::OkStatus();
    return SkipComments();
  }
  absl::Status SkipComments() __attribute__((noinline)) {
    size_t bad = pos_;
    const size_t next = SkipTriviaAt(
        text_, pos_, &bad, [this](size_t p) { return DashLineSplits(p); });
    if (next == absl::string_view::npos) {
      return Error(bad, "unterminated comment");
    }
    pos_ = next;
    return absl::OkStatus();
  }
  void SkipHorizontalSpace() {
    while (pos_ < text_.size() && Is(text_[pos_], kHorizontalSpace)) ++pos_;
  }
  absl::string_view ScanName() {
    const size_t begin = pos_;
    if (pos_ < text_.size() && Is(text_[pos_], kNameStart)) {
      ++pos_;
      while (pos_ < text_.size() && Is(text_[pos_], kNameChar)) ++pos_;
    }
    return text_.substr(begin, pos_ - begin);
  }
  absl::string_view ScanPercentName() {
    if (Peek() == '%') ++pos_;
    return ScanName();
  }
  absl::Status ExpectChar(char c, absl::string_view what) {
    if (Peek() != c) return Expected(what);
    ++pos_;
    return absl::OkStatus();
  }

  // True when a shape starts at `p`: '(' (tuple), `type[` or `b(`.
  bool LooksLikeShapeAt(size_t p) const;
  bool LooksLikeShape() const { return LooksLikeShapeAt(pos_); }
  // The cache slot of the shape text at `begin`, if the cache has it. Sets
  // `*key_end` to the end of the text when a quick scan can tell where the
  // shape parser would stop (else npos) and `*hash` to its hash (else 0).
  ShapeCache::Slot* FindCachedShape(size_t begin, size_t* key_end,
                                    uint64_t* hash);
  // The slot's shape, first taken into the module being collected
  // (ReadHloModules) when there is one.
  const Shape* UseCached(ShapeCache::Slot* slot) {
    if (keep_ != nullptr && shape_cache_.stamp(*slot) != keep_stamp_) {
      shape_cache_.stamp(*slot) = keep_stamp_;
      keep_->push_back(shape_cache_.owner(*slot));
    }
    return slot->shape;
  }
  // Reads the shape at pos_, through the cache when it can. The Shape lives
  // until the next instruction at least; an uncached one is decoded over
  // `scratch` (0: the result, 1 + i: operand i) while streaming.
  absl::Status ReadShape(size_t scratch, const Shape** shape,
                         absl::string_view* shape_text) {
    const size_t begin = pos_;
    size_t key_end = absl::string_view::npos;
    uint64_t hash = 0;
    if (options_.share_shapes) {
      ShapeCache::Slot* slot = FindCachedShape(begin, &key_end, &hash);
      if (slot != nullptr) {
        *shape = UseCached(slot);
        *shape_text = text_.substr(begin, key_end - begin);
        pos_ = key_end;
        return absl::OkStatus();
      }
    }
    return DecodeShape(scratch, key_end, hash, shape, shape_text);
  }
  absl::Status DecodeShape(size_t scratch, size_t key_end, uint64_t hash,
                           const Shape** shape, absl::string_view* shape_text)
      __attribute__((noinline));
  // Reads a shape into a value (the entry layout).
  absl::Status ParseShape(Shape* shape, absl::string_view* shape_text);
  // Reads a shape of a computation's signature: the cache's or the
  // module's Shape, or one kept for the header (header_kept_).
  absl::Status ReadHeaderShape(const Shape** shape,
                               absl::string_view* shape_text);
  // Before the shape cache is emptied while streaming: the header's shapes
  // that the cache owns are copied into header_kept_.
  void PinHeaderShapes();
  absl::Status SkipString();
  // Skips from an opening bracket to its closing one.
  absl::Status SkipBalanced();
  // Scans an attribute value (see kValueStop) into `*value`.
  absl::Status ScanValue(absl::string_view name, absl::string_view* value);
  // Reads `, name=value` pairs while a ',' follows.
  absl::Status ParseAttributes(std::vector<HloAttribute>* attributes);

  absl::Status ParseModuleHeader();
  absl::Status ParseEntryComputationLayout(size_t value_offset);
  absl::Status ParseStackTables();
  absl::Status ParseComputation();
  // The instructions from pos_ to the closing '}' (`open`: the '{'), then
  // EndComputation.
  absl::Status ParseComputationBody(size_t open);
  // ParseComputationBody's stages: the computation's state emptied; one
  // instruction read (fast path, else careful), checked, defined and
  // visited; after the '}', the execution thread, the computation's checks
  // and its end.
  void StartComputationBody();
  absl::Status ReadBodyInstruction() __attribute__((always_inline));
  absl::Status EndComputationBody();
  // An instruction refused at `offset`: `status` ends the reading, or with
  // keep_going it is reported and the reading resyncs (OK).
  absl::Status InstructionFailed(const absl::Status& status, size_t offset)
      __attribute__((noinline));
  // The instruction read goes into the definitions (`careful`: read by
  // ParseInstruction, else by FastInstruction).
  void DefineInstruction(bool careful) __attribute__((always_inline));
  // `, execution_thread="..."` after a computation's '}', if there.
  absl::Status ParseExecutionThread(absl::string_view* thread);
  absl::Status ParseComputationHeader();
  // From the '(' of a computation's signature to after its result shape
  // (`*parameters`: how many were read); one parameter `name: shape`, into
  // computation_.parameters[i].
  absl::Status ParseSignature(size_t* parameters)
      __attribute__((always_inline));
  absl::Status ParseParameter(size_t i) __attribute__((always_inline));
  absl::Status ParseInstruction();
  // From `(` after the opcode: the literal, parameter number or operands
  // to the closing `)`. `depth`: 0 for an instruction line, 1 + n for an
  // instruction written inline as an operand (its shapes are made, not
  // cached).
  absl::Status ParseParens(DraftInstruction* in, int depth);
  // An instruction written inline as an operand (`add(f32[] constant(1),
  // x)`), from `(` after its opcode: read into inline_ (each is an
  // instruction of its own, named `opcode@line:column`) and its result
  // shape and name set into `*operand` (its shape text into
  // `*shape_text`).
  absl::Status ParseInline(HloOperand* operand, absl::string_view* shape_text,
                           absl::string_view opcode, size_t offset, int depth);
  // Fills in the result shape of an instruction written without one, as
  // XLA's parser does (hlo/shape_inference.h). One it cannot infer stays
  // without a shape. In a tail (ReadHloTail) a name defined before the
  // part is not known: Aborted, for the caller to read the text whole.
  absl::Status InferShape(HloInstruction* in);
  // The shape of what `name` defines in the computation being read (null
  // when nothing does, or its shape is not known).
  const Shape* DefinedShape(absl::string_view name);
  // In a tail's first computation: the shape of `name` as defined before
  // the part (found by reading the lines before `begin` back to the
  // computation's start), or null.
  const Shape* ShapeBeforeTail(absl::string_view name);
  // Keeps a shape the reader made for the module being read (and the
  // module being collected) and returns it.
  const Shape* Keep(Shape shape);
  // Reads the shape at pos_ into a kept Shape (inline instructions).
  absl::Status ReadKeptShape(const Shape** shape,
                             absl::string_view* shape_text);

  // The rules beyond syntax (reader_checks.cc). CheckInstruction: one
  // instruction read (hlo/checks.h, parameter numbers, asynchronous
  // chains), its operand and control-predecessor names and called
  // computations noted for the end of its computation and module.
  // `resolved` (may be null): what FastInstruction resolved of its operands
  // (operand_defs_). Sets each operand's `index` to its definition when
  // the definitions are in step with the instructions handed over
  // (definitions_in_step_), else to -1.
  absl::Status CheckInstruction(DraftInstruction& in,
                                const int64_t* resolved = nullptr);
  // HloInstruction::attribute_facts, metadata_attribute and decoded_attribute
  // of `in`, whose attributes are of `kinds` (HloAttributeKindOf).
  void RecordAttributeFacts(DraftInstruction& in, uint32_t kinds);
  // Whether definition i of the computation is the i-th instruction handed
  // to the visitor, as HloOperand::index counts (set for each instruction
  // before its checks; false after an instruction skipped with keep_going).
  bool definitions_in_step_ = true;
  // Whether the opcode of the instruction CheckInstruction saw last is
  // unknown (HloVisitor::UnknownOpcode).
  bool unknown_opcode_ = false;
  // CheckHloInstruction's rules, for the instructions that have some.
  absl::Status CheckRules(const DraftInstruction& in, const HloOpcodeInfo* info,
                          int stage) __attribute__((noinline));
  // An operand defined nowhere before its use (`shape_text`: written at
  // the use): an error, or a use left for JoinHloParts in a tail's first
  // computation.
  absl::Status UndefinedOperand(const HloOperand& operand,
                                absl::string_view shape_text)
      __attribute__((noinline));
  // An asynchronous start, update or done: its chain.
  absl::Status CheckAsync(const HloInstruction& in, int stage,
                          absl::string_view wrapped) __attribute__((noinline));
  // The shape of an operand: written at the use, else its definition's
  // (the tuple element `#N#M...` names); null when not known.
  const Shape* OperandShape(const HloOperand& operand);
  // At the end of a computation: every name used is defined in it, `#N`
  // outputs exist, shapes written at uses match the definitions, the root
  // matches the signature.
  absl::Status CheckComputationEnd(int64_t root);
  // CheckComputationEnd's rules on the computation read whole: each
  // instruction name once, parameter numbers below their count.
  absl::Status CheckNamesAndParameters();
  // The line of a name in the text (0 for one the reader made).
  int64_t LineOfName(absl::string_view name) const;
  // A use of definition `d`: its `#N` outputs exist, and a shape written at
  // the use is the definition's.
  // A use of a name: what HloPartLinks hands a later part (the name, the
  // shape written at the use, `#N`, its offset, and whether it is a control
  // predecessor, defined anywhere in the computation, or an operand, defined
  // before its use).
  using Use = HloPartLinks::Name;
  absl::Status CheckUse(const Use& use, int64_t d);
  // At the end of a module: called computations exist.
  absl::Status CheckModuleEnd();
  // The module header's attributes; a computation's name not used before.
  absl::Status CheckModuleHeaderRules();
  absl::Status NoteComputationName();
  // The Shape of definition i (decoded from its text once).
  const Shape* DefinitionShape(size_t i);
  // Index of the definition of `name` in the computation, or -1 (the latest
  // of two definitions of a name). Small computations (most fused ones) are
  // scanned from the latest definition (operands are mostly recent); larger
  // ones go through definition_index_.
  int64_t FindDefinition(absl::string_view name) const {
    return definitions_->Find(name);
  }
  // HloOperand::index for definition `d` (-1 when none, kBeforePart, or the
  // definitions out of step with the instructions handed over).
  int32_t IndexOfDefinition(int64_t d) const {
    return d >= 0 && d <= INT32_MAX && definitions_in_step_
               ? static_cast<int32_t>(d)
               : -1;
  }
  // HloPartLinks: the open computation and module as seen from this part.
  void FillComputationSide(HloPartLinks::Side* side);
  void FillModuleSide(HloPartLinks::Side* side);
  void FillLastLinks();
  // The common instruction without statuses (see its definition), in
  // stages (reader_fast.cc) that return where they stop or npos.
  bool FastInstruction();
  size_t FastHead(size_t p) __attribute__((always_inline));
  size_t FastParens(size_t open) __attribute__((always_inline));
  size_t FastOperands(size_t p) __attribute__((always_inline));
  size_t FastOperand(size_t p, size_t index, HloOperand* operand,
                     int64_t* resolved) __attribute__((always_inline));
  size_t FastAttributes(size_t p) __attribute__((always_inline));
  bool FastLookUpShapes() __attribute__((always_inline));
  // FastInstruction's operand at `p` when it is `shape %name` with the
  // shape text of `name`'s definition: `*operand`'s shape, text and name
  // set (its text into `*shape_text`), `*resolved` the definition,
  // `*name_end` where the name ends.
  bool OperandOfDefinedShape(size_t p, HloOperand* operand,
                             absl::string_view* shape_text, int64_t* resolved,
                             size_t* name_end);
  // FastInstruction's operands: the definition of operand i when it is
  // looked up and its use needs no other check, kBeforePart for a use
  // recorded already (see before_uses_), else -1.
  std::vector<int64_t> operand_defs_;
  // The shape at `p` for FastInstruction, into `*shape` (target 0) or into
  // operand target - 1: its extent and hash now, its cache lookup deferred
  // to the end of the line so that the slot's cache line arrives meanwhile.
  // Returns the end of the shape, `p` when no shape starts there (`*shape`
  // null), or npos to leave the line to the careful path.
  size_t FastShape(size_t p, size_t target, const Shape** shape,
                   absl::string_view* shape_text);
  absl::Status ParseOperands(DraftInstruction* in, int depth);
  // ParseOperands' items: a parameter's number, or one operand (`shape
  // %name#N`, or an instruction written inline) whose uncached shape is
  // decoded over scratch `scratch`, and its `#N#M...` from the '#'.
  absl::Status ParseParameterNumber(HloInstruction* in);
  absl::Status ParseOperand(HloOperand* operand, absl::string_view* shape_text,
                            size_t scratch, int depth);
  absl::Status ParseOutputIndexes(HloOperand* operand);
  // After a bad instruction: moves to the next line that starts an
  // instruction or closes the computation.
  void Resync(size_t instruction_offset);
  // True when the line from `p` starts with `ROOT` or `%?name =`.
  bool LineStartsInstruction(size_t p) const;

  absl::string_view whole_;
  absl::string_view text_;  // whole_ up to the end of the current module
  size_t pos_ = 0;
  ModuleStartProbe probe_{whole_};
  // Lines and columns of errors (Error); text_ begins where whole_ does.
  mutable OffsetLocator error_locator_{whole_};
  // Set while skipping trivia between two computations of a module without
  // an `HloModule` header: there any dash line is a separator.
  bool between_headerless_computations_ = false;
  const HloReadOptions& options_;
  ShapeParseOptions shape_options_;
  HloVisitor* visitor_;

  HloModuleHeader module_;
  HloComputationHeader computation_;
  DraftInstruction instruction_;
  bool in_module_ = false;
  bool in_computation_ = false;
  int64_t computation_count_ = 0;
  int64_t entry_index_ = -1;
  int64_t instruction_count_ = 0;
  int64_t root_index_ = -1;
  int64_t errors_ = 0;
  bool headerless_ = false;  // the module being read has no HloModule line
  // ReadHloHead / ReadHloTail.
  size_t stop_ = absl::string_view::npos;
  // HloReadOptions::passed: the text before passed_to_ has been handed
  // over; the next range is, once pos_ reaches next_passed_.
  // 1 MB steps, 1 MB behind: with 4 and 2 MB (before 2026-11-26) two parts
  // held up to 12 MB of text at once, the peak of `memory` on a 40 MB dump
  // (docs/report-speed.md, "Twenty-first round").
  static constexpr size_t kPassedStep = size_t{1} << 20;
  static constexpr size_t kPassedWindow = size_t{1} << 20;
  size_t passed_to_ = 0;
  size_t next_passed_ = absl::string_view::npos;
  void NotePassed();
  const std::function<bool()>* at_stop_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  bool stopped_ = false;
  std::vector<char> closers_;
  ShapeCache shape_cache_;
  // Where uncached shapes are decoded while streaming, reused in place.
  std::vector<std::unique_ptr<Shape>> scratch_;
  Shape* Scratch(size_t i) {
    while (scratch_.size() <= i) scratch_.push_back(absl::make_unique<Shape>());
    return scratch_[i].get();
  }
  // ReadHloModules: the modules being filled (null while streaming), the
  // shape table of the current one and its stamp (see ShapeCache::Slot).
  // FastInstruction's deferred lookups.
  struct PendingShape {
    size_t target;  // 0: the result; 1 + i: operand i
    size_t begin;
    size_t end;
    uint64_t hash;
    bool guessed;  // `end` from GuessShapeLength, not yet proven
  };
  static constexpr size_t kMaxPending = 16;
  PendingShape pending_[kMaxPending];
  size_t pending_count_ = 0;
  std::vector<HloModule>* collect_ = nullptr;
  std::vector<std::shared_ptr<const Shape>>* keep_ = nullptr;
  uint32_t keep_stamp_ = 0;

  // What the computation being read defines, in instruction order (inline
  // instructions too): the name, the shape text, and the Shape when one is
  // at hand (the cache's, valid while `generation` is the cache's; or one
  // the reader made or decoded again, kept for the module: kKept). Shape
  // inference and operand checks look names up here: by a scan in small
  // computations, through an index in larger ones (DefinitionTable).
  static constexpr uint64_t kKept = DefinitionTable::kKept;
  using Definition = DefinitionTable::Definition;
  // Shared with a part's HloPartLinks::Side when the part's first or last
  // computation is handed over; the next computation then starts a new one.
  std::shared_ptr<DefinitionTable> definitions_ =
      std::make_shared<DefinitionTable>();
  // NameHash of the instruction being read (FastInstruction prefetches its
  // index slot as soon as the name is read; the insert comes at the end of
  // the line).
  uint64_t instruction_hash_ = 0;
  void AddDefinition(absl::string_view name, absl::string_view shape_text,
                     const Shape* shape, uint64_t generation) {
    definitions_->Add(name, shape_text, shape, generation);
  }
  // The root of each computation of computations_ (same index; for
  // `call` and `conditional` written without a shape): its shape text, and
  // its Shape once one is kept for the module. Empty until it has ended.
  struct ComputationRoot {
    absl::string_view shape_text;
    const Shape* shape = nullptr;
  };
  std::vector<ComputationRoot> computation_roots_;
  // The computation being read's index in computations_, or -1.
  int64_t computation_slot_ = -1;
  // The root Shape of the computation named `name`, or null.
  const Shape* CalledRoot(absl::string_view name);
  // `root`'s Shape, decoded from its text (and kept) the first time.
  const Shape* RootShape(ComputationRoot* root);
  // Definition `root` of the computation ending, as its ComputationRoot
  // (the cache's Shape goes away with the cache: decoded when asked).
  ComputationRoot RootOf(int64_t root) const {
    return ComputationRoot{definitions_->shape_text(root),
                           definitions_->generation(root) == kKept
                               ? definitions_->shape(root)
                               : nullptr};
  }
  // Shapes made for the module being read (inferred, decoded again).
  std::vector<std::shared_ptr<const Shape>> made_shapes_;
  // Inferred shapes of the module by their interned text.
  absl::flat_hash_map<const char*, const Shape*> inferred_shapes_;
  // The last shape inferred for an instruction without attributes, with
  // what it was inferred from (copies of the operands' shapes, compared by
  // value: no pointer is trusted across lines). InferHloShape is a function
  // of these alone, so an equal opcode and operand shapes give the same
  // shape and text (a dump of shapeless `add`s of one shape infers, writes
  // out and interns it once, not once a line).
  struct LastInferred {
    std::string opcode;
    std::vector<Shape> operands;
    Shape shape;
    absl::string_view text;  // interned
    bool valid = false;
  };
  LastInferred last_inferred_;
  // The shape and text InferHloShape gives for `opcode` of `operands`
  // without attributes when last_inferred_ holds them, else null.
  const LastInferred* FindLastInferred(
      absl::string_view opcode, absl::Span<const Shape* const> operands) const;
  // The instructions written inline in the instruction being read, in the
  // order XLA adds them (operands before their user).
  std::vector<DraftInstruction> inline_;
  // Emptyings of the shape cache (a Shape pointer names the same Shape only
  // within one generation).
  uint64_t cache_generation_ = 0;
  // Shapes of the current computation's signature that neither the cache
  // nor the module owns (streaming).
  std::vector<std::shared_ptr<const Shape>> header_kept_;
  // ReadHloTail: what came before `begin` is not known.
  bool tail_ = false;
  // ReadHloHead/ReadHloTail: what is left to check across the cuts.
  HloPartLinks* links_ = nullptr;
  // A tail reading the computation and module open at `begin`.
  bool in_first_computation_ = false;
  size_t tail_begin_ = 0;
  absl::flat_hash_map<absl::string_view, const Shape*> before_tail_;
  size_t before_tail_scanned_ = 0;  // bytes ShapeBeforeTail went through
  bool in_first_module_ = false;

  // Uses of names in the computation being read, checked at its end.
  std::vector<Use> uses_;
  // A tail's first computation: the uses in uses_ of names defined before
  // the part, one per (name, shape text) (`#N` uses are all kept), found by
  // name: FastInstruction marks a later use of one with the same shape text
  // kBeforePart in operand_defs_ (nothing new to record or check).
  BeforePartUses before_uses_;
  static constexpr int64_t kBeforePart = -2;
  // Uses of names not defined in the computation are recorded for
  // JoinHloParts (a tail's first computation), not refused.
  bool RecordsBeforePart() const {
    return tail_ && in_first_computation_ && links_ != nullptr;
  }
  // `shape` when the shape cache (or the module) holds it, null for a
  // scratch Shape (decoded over for the next instruction).
  const Shape* LastingShape(const Shape* shape) const {
    for (const std::unique_ptr<Shape>& s : scratch_) {
      if (s.get() == shape) return nullptr;
    }
    return shape;
  }
  // Likewise the operand rules in pending_rules_ (kind, operand name, shape
  // text, dimension, constraint, branch computations).
  absl::flat_hash_set<std::tuple<int, absl::string_view, absl::string_view,
                                 int64_t, absl::string_view, bool>>
      tail_rules_;
  // A tail's first computation: rules on operands defined before the part.
  std::vector<HloPartLinks::Rule> pending_rules_;
  std::vector<int64_t> parameter_numbers_;
  // Beside parameter_numbers_: where each parameter instruction is, and its
  // shape text (for the range of the numbers and the entry's layout).
  std::vector<size_t> parameter_offsets_;
  // errors_ when the computation's body began (keep_going).
  int64_t body_errors_ = 0;
  std::vector<absl::string_view> parameter_texts_;
  // The last top-level computation of the module read so far, for the
  // check of the header's entry_computation_layout when no computation says
  // ENTRY (CheckEntryCandidate): its parameters (numbers and shape texts),
  // its root's shape text, where it is and its name. `last_read_`: one was
  // read whole in this reading.
  struct EntryCandidate {
    std::vector<int64_t> numbers;
    std::vector<absl::string_view> texts;
    absl::string_view root_text;
    size_t offset = 0;
    absl::string_view name;
    bool read = false;
  };
  EntryCandidate last_top_;
  // CheckModuleEnd: an error when the module's header has an
  // entry_computation_layout, no computation says ENTRY and last_top_ does
  // not match it (a dump cut before its ENTRY computation).
  absl::Status CheckEntryCandidate();
  // "computation 'name' is called before it is defined" at `offset`.
  absl::Status CalledBeforeDefined(absl::string_view name, size_t offset) const;
  // The batch's first callee found defined at or after the computation that
  // calls it (XLA reads a computation's callees before it): its name and
  // offset, reported at the module's end.
  absl::string_view forward_callee_;
  size_t forward_callee_offset_ = 0;
  // The number of computations of the module before the top-level one
  // being read: a callee found at this index or later is defined after its
  // caller.
  size_t calls_limit_ = 0;
  // A tail's first computation: the names it calls (HloPartLinks::Side).
  std::vector<absl::string_view> first_callees_;
  // parameter_numbers_ as a set, once it is longer than a scan is cheap.
  absl::flat_hash_set<int64_t> parameter_seen_;
  // False when `number` is in parameter_numbers_ (which it is not added
  // to: the caller adds it).
  bool NewParameterNumber(int64_t number) {
    constexpr size_t kScan = 16;
    if (parameter_numbers_.size() < kScan) {
      return std::find(parameter_numbers_.begin(), parameter_numbers_.end(),
                       number) == parameter_numbers_.end();
    }
    if (parameter_seen_.empty()) {
      parameter_seen_.insert(parameter_numbers_.begin(),
                             parameter_numbers_.end());
    }
    return parameter_seen_.insert(number).second;
  }
  // The signature's result shape text of the computation being read.
  absl::string_view result_text_;
  // The module's computations, shared with a part's HloPartLinks::Side
  // when the module is handed over (the next module then starts a new
  // table).
  std::shared_ptr<ComputationTable> computations_ =
      std::make_shared<ComputationTable>();
  // The index of the computation named `name` (hash `hash`) in
  // computations_, or -1.
  int64_t FindComputation(absl::string_view name, uint64_t hash) const {
    return computations_->Find(name, hash);
  }
  bool HasComputation(absl::string_view name, uint64_t hash) const {
    return FindComputation(name, hash) >= 0;
  }
  bool HasComputation(absl::string_view name) const {
    return HasComputation(name, NameHash(name));
  }
  // Called names (offset of the use) not defined when they were looked up.
  std::vector<std::pair<absl::string_view, size_t>> callees_;
  // computations_->size() when the first of callees_ was looked up: while
  // it has not grown, none of them names a computation.
  size_t callees_since_ = 0;
  // Called names not looked up yet. A module's computations are many and
  // their names far apart in the text: each lookup misses the cache three
  // times (index slot, name entry, name text), so they are looked up
  // kCalledBatch at a time, every miss of a batch prefetched together.
  static constexpr size_t kCalledBatch = 32;
  struct CalledName {
    absl::string_view name;
    size_t offset;
    size_t limit;  // calls_limit_ at the call
  };
  CalledName called_batch_[kCalledBatch];
  size_t called_count_ = 0;
  void NoteCallee(absl::string_view name, size_t offset) {
    if (tail_ && in_first_computation_) first_callees_.push_back(name);
    called_batch_[called_count_++] = {name, offset, calls_limit_};
    if (called_count_ == kCalledBatch) LookUpCallees();
  }
  // Moves the batch's names that name no computation (yet) to callees_.
  void LookUpCallees();
  std::vector<absl::string_view> callee_scratch_;
  // Asynchronous operations of the computation (start and update), and the
  // computations async starts of the module call.
  struct AsyncOp {
    absl::string_view name;
    absl::string_view wrapped;  // `<op>` of `<op>-start`, "" for async-*
    absl::string_view calls;
    absl::string_view thread;
  };
  std::vector<AsyncOp> async_ops_;
  // The latest of async_ops_ by name.
  absl::flat_hash_map<absl::string_view, size_t> async_index_;
  void AddAsyncOp(const AsyncOp& op) {
    async_index_[op.name] = async_ops_.size();
    async_ops_.push_back(op);
  }
  absl::flat_hash_map<absl::string_view, size_t> async_calls_;
  // Line and column of inline instructions (their names), counted from the
  // last one: inline instructions come in text order.
  size_t line_cursor_offset_ = 0;
  int64_t line_cursor_line_ = 1;

  // Computations written inline as attribute values (`to_apply={ p0 = ...
  // }`, in XLA since 2026; reader_inline.cc). Each is read where it
  // stands by ParseComputationBody, the enclosing computation's state set
  // aside meanwhile (ComputationState: every member above that belongs to
  // the computation being read), checked as any computation, named as XLA
  // names it (`_`, `_.1`, ... in the order their closing braces come), and
  // handed to the visitor after the top-level computation that holds it
  // ends. The attribute's value becomes that name.
  struct InlineComputation {
    HloComputationHeader header;
    std::vector<DraftInstruction> instructions;  // shapes kept (Keep)
    std::vector<bool> unknown;                   // UnknownOpcode first
    int64_t root_index = -1;
  };
  struct ComputationState;
  class InlineRecorder;
  // At pos_, the '{' that opens the value of callee attribute `name` of an
  // instruction: reads the computations written inline in it and sets
  // `*value` (a name; a list of names keeps the written ones). A list
  // without any is scanned as before.
  absl::Status ReadCalleeValue(absl::string_view name,
                               absl::string_view* value);
  // At pos_, the '{' of one computation written inline: reads it into
  // inline_done_ and sets `*name` to its name.
  absl::Status ReadInlineComputation(absl::string_view attribute,
                                     absl::string_view* name);
  // ParseComputationBody's end for a computation written inline.
  void EndInlineComputation(int64_t root);
  // Hands inline_done_ to the visitor, in order, and empties it.
  void EmitInlineComputations();
  // CalledRoot for the name of a computation written inline (no written
  // name refers to one, so they are not in computations_).
  const Shape* InlineRoot(absl::string_view name);
  absl::flat_hash_map<absl::string_view, ComputationRoot> inline_roots_;
  void SwapComputationState(ComputationState* state);
  // The line of `offset` (line_cursor_*: offsets come in text order).
  int64_t LineOf(size_t offset);
  // > 0 while a computation written inline is being read.
  int inline_depth_ = 0;
  // Read and not handed to the visitor yet, in XLA's order.
  std::vector<InlineComputation> inline_done_;
  // Names given in the module so far.
  int64_t inline_names_ = 0;
  // The last top-level computation (the entry when none says ENTRY).
  int64_t last_top_index_ = -1;
  // keep_going: the closing brace of the outermost computation written
  // inline that failed, where Resync goes on from (0: none).
  size_t resync_after_ = 0;
};

}  // namespace hlo_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_READER_INTERNAL_H_
