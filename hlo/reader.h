// hlo/reader.h: reads HLO module text (XLA's --xla_dump_to files)
// into the structures of hlo/module.h, or streams it to a visitor.
//
//   absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(R"(
//     HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}
//     ENTRY %main (p: f32[2]) -> f32[2] {
//       %p = f32[2]{0} parameter(0)
//       ROOT %n = f32[2]{0:T(128)} negate(f32[2]{0} %p)
//     })");
//   (*modules)[0].entry().instructions[1].shape  // f32[2]{0:T(128)}
//
// What is read (docs/hlo-text.md):
//   - several modules per text (lit's --split-input-file files). A line that
//     begins with `// -----` separates modules only where a new module
//     starts after it: when the text after it (past blank lines and
//     comments) begins with `HloModule`, or, in a module without an
//     `HloModule` header, when it stands between two computations. Anywhere
//     else (above a description, before `HloModule`, inside a computation)
//     it is a comment, as XLA's own test files use it;
//   - an optional `HloModule name, key=value, ...` header; every value is
//     kept raw, `entry_computation_layout` is also decoded;
//   - the FileNames / FunctionNames / FileLocations / StackFrames tables;
//   - computations, with optional `ENTRY` (default: the last computation),
//     optional `%`, optional signature, `execution_thread=` after them;
//   - instructions: optional `ROOT` (default: the last instruction), name,
//     optional result shape, opcode (any hyphenated identifier), operands
//     with optional inline shapes (tuples too, `/*index=N*/` comments
//     allowed), `parameter(N)`, `constant(<literal>)` skipped unread, and
//     `, name=value` attributes found by balanced matching of `{}()[]` that
//     respects "strings with \" escapes". Newlines are plain whitespace.
//   - instructions written inline as operands (each an instruction of its
//     own, named `opcode@line:column`), and result shapes left out, inferred
//     as XLA's parser infers them (hlo/shape_inference.h);
//   - computations written inline in place of a called computation's name
//     (`to_apply={ p0 = f32[] parameter(0) ... }`): computations of the
//     module, named as XLA names them (`_`, `_.1`, ...), the attribute's
//     value replaced by that name, visited after the top-level computation
//     that holds them (HloVisitor below).
// Every shape is decoded and validated with ParseShapeAt. Beyond syntax, the
// rules of XLA's parser that the text shows are checked (docs/hlo-text.md,
// "What the reader refuses"): operands defined before their use, shapes at
// uses, called computations, roots against signatures, literals against
// their shapes, attribute syntax, asynchronous chains.
//
// Cost: linear in the text; nothing is copied. Names, attribute values and
// literals are views into `text`, which must outlive the result
// (ReadOwnedHloModules and ReadHloModulesFromFile: modules that own it). The
// visitor form keeps one instruction at a time, so its memory is the input
// plus what the visitor keeps; ReadHloModules keeps every instruction, and
// each module owns the decoded shapes its instructions point to
// (HloModule::shapes) and their operand and attribute lists, a few large
// blocks per module (HloModule::lists; no allocation per instruction). Each
// operand is linked to its definition by the thread that read its
// computation (HloOperand::index).
//
// Errors are InvalidArgument statuses "file:L:C: message", the source line
// and a caret (parser/diagnostic.h). Two ROOTs or two ENTRYs are errors, as
// in XLA.
#ifndef HLOLAYOUT_HLO_READER_H_
#define HLOLAYOUT_HLO_READER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

namespace hlo_internal {
class DefinitionTable;   // hlo/definitions.h
class ComputationTable;  // hlo/definitions.h
}  // namespace hlo_internal

struct HloReadOptions {
  // Prefixed to error positions ("dump.txt:3:14: ...") when not empty.
  absl::string_view file_name;
  // On a bad instruction, report it and go on with the next line that
  // starts an instruction (or closes the computation). A bad module header
  // or computation header ends that module (the reader goes on with the
  // next module separator; in a module without a header, the next
  // `// -----` line).
  bool keep_going = false;
  // Maximum nesting of brackets in attribute values and literals, and of
  // shapes.
  int max_depth = 256;
  // Decode each distinct shape text once and share the Shape between the
  // instructions that write it (a bounded cache keyed by the text). False:
  // every shape text is decoded by ParseShapeAt where it stands.
  bool share_shapes = true;
  // False: operand lists are only skipped to their closing ')' (brackets
  // matched, `/*...*/` comments skipped): `operands` stays empty and
  // `operand_text` holds them raw. For readers that need only results and
  // attributes (the report); a malformed operand list is then not always
  // diagnosed.
  bool read_operands = true;
  // Called now and then with a range [begin, end) of the text (offsets) that
  // the reading has passed, on the thread that read it: the reader reads
  // those bytes again only through views the module keeps (names, attribute
  // values, shape texts), seldom. A caller whose text is a mapped file may
  // give the range's pages back (InputText::ReleasePages): the peak memory
  // of a reading is then the module's, not the module's and the text's.
  // Ranges come in text order for each part, 1 MB at a time, 1 MB behind the
  // reading (never for a part under 2 MB), then, as a computation cut
  // between two parts is joined and as the module is linked, for the text
  // they read again (operand names across the cut, control predecessors;
  // the callee names the reader keeps are not read again): a large
  // computation's join in chunks on two threads, each chunk's ranges in
  // order. Empty: never called. Must be safe to call from several threads
  // at once.
  std::function<void(size_t begin, size_t end)> passed;
};

// Receives a module as it is read. The references are valid only during the
// call (the reader reuses its instruction), and so are the views of an
// instruction's operands and attributes (the reader's lists: copy them to
// keep them) and the `const Shape*` of the instruction and its operands (the
// reader's shape cache owns them and empties itself between instructions
// when full): copy a Shape to keep it, and do not key anything by its
// address. The string views live as long as the text. Each instruction
// comes with what ReadHloModules records too: its attribute facts and
// typed attributes (HloInstruction::fusion_kind, ...) and each operand's
// definition (HloOperand::index: how many instructions of the computation
// the visitor was handed before it), so a visitor that keeps per-
// instruction data in a vector needs no table of names. Not given: callees
// (a computation may be called before it is read) and OperandShape (keep
// the shapes you need by index).
class HloVisitor {
 public:
  virtual ~HloVisitor() = default;
  // After the header and the stack tables.
  virtual void BeginModule(const HloModuleHeader& header) {}
  // The computations in text order, except that those written inline
  // (header.written_inline) come right after the top-level computation that
  // holds them ends, innermost first, in the order of their names.
  virtual void BeginComputation(const HloComputationHeader& header) {}
  virtual void VisitInstruction(const HloInstruction& instruction) {}
  // `root_index` is the ROOT instruction, or the last one, or -1 when the
  // computation is empty.
  virtual void EndComputation(int64_t root_index,
                              absl::string_view execution_thread) {}
  // `entry_index` is the ENTRY computation, or the last top-level one.
  virtual void EndModule(int64_t entry_index) {}
  // keep_going only: one call per error, in text order.
  virtual void Error(const absl::Status& error) {}
  // Right before VisitInstruction of an instruction whose opcode the reader
  // does not know (not one of XLA's, nor an async wrapper of one): it is read
  // with its shape as written, so that dumps of newer XLA versions still
  // read (docs/hlo-text.md); callers may warn.
  virtual void UnknownOpcode(const HloInstruction& instruction) {}
};

// ReadHlo
//
// Reads every module of `text` into `visitor`. Without keep_going, stops at
// the first error and returns it. With keep_going, gives each error to
// visitor->Error and returns "N errors in the hlo text" (InvalidArgument)
// when there were any, OK otherwise.
absl::Status ReadHlo(absl::string_view text, const HloReadOptions& options,
                     HloVisitor* visitor);

// ReadHloModules
//
// Reads every module of `text` into memory. With keep_going, the errors are
// appended to `*errors` (which must then not be null) and the modules read
// are returned, without the bad instructions.
// `threads` > 1 (0: one per idle core, at most 8) reads a text of 8 MB or more
// in parts on that many threads (ReadHloInParts); the modules are the same.
//
// The modules keep views into `text` (names, attribute values, shape texts):
// `text` must outlive them. A temporary std::string does not compile
// (the deleted overload below), so the one-liner
// `ReadHloModules(*ReadFileText(path))`, whose modules would read freed
// memory, is refused; read such a text with ReadOwnedHloModules or
// ReadHloModulesFromFile, whose modules keep their text alive.
absl::StatusOr<std::vector<HloModule>> ReadHloModules(
    absl::string_view text ABSL_ATTRIBUTE_LIFETIME_BOUND,
    const HloReadOptions& options = {},
    std::vector<absl::Status>* errors = nullptr, int64_t threads = 1);

// A temporary std::string (or one std::move'd in) would be freed at the end
// of the call's statement while the modules still view it: use
// ReadOwnedHloModules. Deleted so that overload resolution, and a check of
// whether the call is well formed, both refuse it.
template <typename String, typename = std::enable_if_t<std::is_same<
                               std::remove_cv_t<String>, std::string>::value>>
absl::StatusOr<std::vector<HloModule>> ReadHloModules(
    String&& text, const HloReadOptions& options = {},
    std::vector<absl::Status>* errors = nullptr, int64_t threads = 1) = delete;

// ReadOwnedHloModules
//
// ReadHloModules of a text the modules own: the text is moved into one
// shared block that every module returned (and each copy of one) keeps alive
// (HloModule::text_owner), so the views they hold stay valid however long
// they live. No copy of the text is made.
//   ReadOwnedHloModules(*ReadFileText("dump.txt"))  // safe
absl::StatusOr<std::vector<HloModule>> ReadOwnedHloModules(
    std::string text, const HloReadOptions& options = {},
    std::vector<absl::Status>* errors = nullptr, int64_t threads = 1);

// ReadHloModulesFromFile
//
// The modules of file `path` (ReadFileText's errors: "cannot open 'x':
// ..."), owning the file's text as ReadOwnedHloModules does; a regular file
// is mapped, not copied (OpenFileText). Errors of the text are prefixed with
// `path` unless options.file_name is set.
absl::StatusOr<std::vector<HloModule>> ReadHloModulesFromFile(
    absl::string_view path, const HloReadOptions& options = {},
    std::vector<absl::Status>* errors = nullptr, int64_t threads = 1);

// CheckEntryComputationLayout
//
// An error located at the entry computation of `module` (read from `text`)
// when no computation says ENTRY and the last one, which the reader took as
// the entry, does not match the header's entry_computation_layout (the
// parameter count, each parameter's and the result's element type and
// dimensions): most likely a dump cut before its ENTRY computation. OK
// otherwise. The reader itself takes such a module as written; the
// analyses that need the right entry (`hlolayout memory`, hl.memory())
// call this first.
absl::Status CheckEntryComputationLayout(absl::string_view text,
                                         const HloModule& module,
                                         absl::string_view file_name = "");

// SplitHloModuleTexts
//
// The `[begin, end)` byte ranges of the modules of `text`: it is cut before
// each `// -----` line that separates modules by the rule above, without
// parsing: "between two computations" of a header-less module is read as
// "the last line that is not blank or a `//` comment starts with '}'".
// Ranges holding only whitespace and comments are dropped. Linear in the
// text, however many dash lines it has.
std::vector<std::pair<size_t, size_t>> SplitHloModuleTexts(
    absl::string_view text);

// Reading one text on several threads (what `hlolayout report` does with
// large files). The text is cut before instruction lines into parts; the
// first is read by ReadHloHead, the others by ReadHloTail, each into its own
// visitor; the caller joins the visitors' results in order. A part is read
// exactly as ReadHlo reads it only when the part before it arrived exactly at
// its start (`*stopped`): anything else (an error, a cut inside a multi-line
// value, a module without an `HloModule` line) must be read again by ReadHlo,
// which alone gives the right errors.
//
// "Arriving at `stop`": the reading is at `stop` where an instruction may
// begin (past the whitespace and comments after the previous one), inside a
// computation of a module with an `HloModule` line, with no error so far.

// What the reader checks across a cut between parts (every name used in a
// computation is defined in it, before its use; rules on operand shapes
// whose operand is defined before the part; parameter numbers used once;
// every called computation exists, once; an async start's computation is
// called by one start; the root matches the signature), left by each part
// for JoinHloParts. Views into the text.
struct HloPartLinks {
  struct Name {
    absl::string_view name;
    absl::string_view shape_text;  // the definition's, or the use's
    int64_t output_index = -1;     // uses: `#N`
    size_t offset = 0;
    // Uses: a control predecessor (defined anywhere in its computation),
    // else an operand (defined before its use).
    bool control = false;
  };
  // A rule on an operand's shape (checks.h) whose operand is defined
  // before the part: `operand` is the use (name, `#N`, offset).
  struct Rule {
    HloOperandRule rule;
    Name operand;
  };
  // A computation or module cut by a part boundary, as seen from one part.
  struct Side {
    // Instructions defined in the part: the reader's own table, handed
    // over whole (JoinHloParts looks names up in it; opaque elsewhere).
    std::shared_ptr<const hlo_internal::DefinitionTable> definitions;
    std::vector<Name> pending_uses;          // used, not defined in the part
    std::vector<Rule> pending_rules;         // on operands not defined in it
    std::vector<int64_t> parameter_numbers;  // of parameters in the part
    absl::string_view signature_result;      // when the header is in the part
    absl::string_view root_text;             // a ROOT marked in the part
    bool root_marked = false;
    absl::string_view last_text;  // the part's last instruction
    // Computations of the module defined in the part (the reader's own
    // table, handed over whole: JoinHloParts looks names up in it; opaque
    // elsewhere); names called and not defined in the part, called by
    // async starts in it.
    std::shared_ptr<const hlo_internal::ComputationTable> computations;
    std::vector<absl::string_view> pending_callees;
    std::vector<absl::string_view> async_calls;
    // A computation of the module called by one in the part and defined
    // by it or after it (XLA reads callees first).
    bool calls_forward = false;
    // The part's first computation (of a tail: begun before the part)
    // calls these: none may be the computation open at the cut before the
    // part, which is not defined before itself.
    std::vector<absl::string_view> first_callees;
    // Last sides: the computation open at the cut.
    absl::string_view open_computation;
    // An instruction name the part defines twice in the computation.
    bool names_twice = false;
    // Of the module: a computation in the part says ENTRY (the one open at
    // the cut included); its header in the part has an
    // entry_computation_layout. Without an ENTRY the last computation is
    // checked against that layout, which the parts do not know: such a
    // module is read whole.
    bool entry_marked = false;
    bool entry_layout = false;
  };
  // ReadHloTail: the computation and module open at `begin`, and whether
  // they end in the part.
  Side first;
  bool first_computation_closed = false;
  bool first_module_closed = false;
  // Arriving at `stop`: the computation and module open there.
  Side last;
  bool has_last = false;
};

// JoinHloParts
//
// True when the parts (the head's links, then each tail's, in text order,
// each part having arrived at the next one's start) pass the checks a reader
// of the whole text makes across the cuts. False: read the text whole (it
// gives the error, if there is one).
bool JoinHloParts(absl::string_view text, const HloPartLinks& head,
                  const std::vector<const HloPartLinks*>& tails);

// ReadHloHead
//
// ReadHlo, except that arriving at `stop` it calls `at_stop()`: true ends the
// reading there (OK, `*stopped` true; the visitor gets no EndComputation or
// EndModule for the computation and module open there); false reads on as
// ReadHlo. `links` (may be null) gets HloPartLinks::last before `at_stop` is
// called.
absl::Status ReadHloHead(absl::string_view text, const HloReadOptions& options,
                         size_t stop, const std::function<bool()>& at_stop,
                         HloVisitor* visitor, bool* stopped,
                         HloPartLinks* links = nullptr);

// ReadHloTail
//
// Reads `text` from `begin`, taken to be where an instruction begins inside
// a computation of a module with an `HloModule` line, as ReadHlo reads on from
// there: the visitor gets BeginComputation with a header of which only
// `offset` (= begin) is set, the instructions, EndComputation (its root index
// counted from `begin`), the module's next computations, EndModule (the entry
// index counted from the first computation of the part: the ENTRY marked in
// the part, else the last), then the next modules as ReadHlo. Arriving at
// `stop` it ends (OK, `*stopped` true, as ReadHloHead). Any other end is an
// error status that is not for users: passing `stop` without arriving at it,
// `*cancel` (may be null) turning true, or an error of the text (read without
// keep_going; it may differ from what ReadHlo says, since what came before
// `begin` is not known). Reaching the end of the text is OK with `*stopped`
// false. With `links`, names the part uses but does not define in its first
// computation and module go to `links` for JoinHloParts; without, they end
// the reading (Aborted).
absl::Status ReadHloTail(absl::string_view text, const HloReadOptions& options,
                         size_t begin, size_t stop,
                         const std::atomic<bool>* cancel, HloVisitor* visitor,
                         bool* stopped, HloPartLinks* links = nullptr);

// HloCutPoints
//
// Where to cut `text` into `parts` parts of about equal reading cost (an
// estimate: 8 per byte, 390 per line, 480 per '[', from samples of the
// text), each cut at the first instruction line (`ROOT ...` or
// `%?name = ...`) after it, at its first byte that is not a space; fewer
// when the text has no such line there. Only a guess: a line inside a
// multi-line value looks the same, and then the part before does not arrive
// there and ReadHloInParts reads the text whole.
std::vector<size_t> HloCutPoints(absl::string_view text, int64_t parts);

// ReadHloInParts
//
// Reads `text` cut at `cuts` on `threads` threads: `head` gets the first
// part (ReadHloHead), tails[k] the part from cuts[k] to the next cut
// (ReadHloTail; then `tail_read(k)`, may be null, on the thread that read
// it). When every tail arrived at its stop, `can_join()` (may be null: the
// visitors' own checks across the cuts, e.g. two ROOTs) and JoinHloParts
// agree, the head stops at cuts[0] and `*joined` is true: the caller then
// joins the tails' visitors to the head's, in order. Otherwise the head reads
// on to the end alone and the tails' work is dropped. Returns what ReadHlo
// would return.
absl::Status ReadHloInParts(absl::string_view text,
                            const HloReadOptions& options,
                            const std::vector<size_t>& cuts, int64_t threads,
                            HloVisitor* head,
                            const std::vector<HloVisitor*>& tails,
                            const std::function<void(size_t)>& tail_read,
                            const std::function<bool()>& can_join,
                            bool* joined);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_READER_H_
