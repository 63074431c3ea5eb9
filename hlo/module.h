// hlo/module.h: a light view of HLO module text, as XLA writes it with
// --xla_dump_to (module_0021.jit_train_step.after_optimizations.txt).
//
//   HloModule jit_f, entry_computation_layout={(bf16[8,256]{1,0})->bf16[8]{0}}
//
//   %add (x: f32[], y: f32[]) -> f32[] { ... }
//
//   ENTRY %main (p: bf16[8,256]) -> bf16[8] {
//     %p = bf16[8,256]{1,0:T(8,128)(2,1)} parameter(0)
//     ROOT %r = bf16[8]{0} reduce(bf16[8,256]{1,0} %p, bf16[] %c),
//         dimensions={1}, to_apply=%add, metadata={op_name="jit(f)/reduce"}
//   }
//
// Everything here is plain structs. Names and raw attribute texts are
// string_views into the text that was read (hlo/reader.h): the text
// must outlive the structures. An instruction's operands and attributes are
// views too, into lists its module owns (HloModule::lists): a module keeps
// its instructions and their lists in a few large arrays, not a vector per
// instruction. Shapes are decoded values (shape/shape.h) with
// their layouts; an instruction keeps the text its shape came from next to
// it, an operand only the decoded shape. Instruction and operand shapes are
// plain `const Shape*`, deduplicated: every `bf16[8,128]{1,0:T(8,128)(2,1)}`
// of a dump points to one Shape. Who owns them: HloModule::shapes for
// ReadHloModules; the reader while streaming (valid during the visitor call
// only; copy the Shape to keep it).
//
// Sizes (a module costs about this per item, on 64-bit Linux): an
// instruction record 112 bytes (the text views, the two lists' views,
// 32-bit links, a 32-bit parameter number, the opcode), an operand 32 (its
// name, decoded shape, 32-bit `#N` and definition index), an attribute 24
// (two views), and each distinct shape once. Numbers kept in 32 bits that
// the text writes larger (`parameter(N)`, `%x#N`) are refused as out of
// range, never wrapped.
//
// What is resolved once, so that analyses never look a name up: every
// instruction's opcode (HloOpcode, hlo/opcode.h, by the reader) and, for a
// module read whole by ReadHloModules, every operand's defining instruction
// (HloOperand::index), the computations each instruction calls and the
// instructions its control-predecessors name (HloModule::callees,
// HloModule::control_predecessors), each computation's callees and the
// kinds of instructions that call it (HloModule::computation_callees,
// HloModule::called_by), and the header's input_output_alias.
//
// What is kept raw: attribute values (`metadata={...}`, JSON backend
// configs, `sharding={devices=[4,1,2]<=[2,4]T(1,0)}`, replica groups, ...)
// and `constant(...)` literals, found by balanced bracket matching and never
// copied.
#ifndef HLOLAYOUT_HLO_MODULE_H_
#define HLOLAYOUT_HLO_MODULE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/opcode.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace hlo_internal {
struct DraftInstruction;  // the reader's (hlo/reader_internal.h)
}  // namespace hlo_internal

// `name=value` after an instruction, a module header or a computation.
// `value` is the raw text: "{1,0}", "kLoop", "\"__cublas$gemm\"",
// "{op_type=\"Mean\" op_name=\"a/b\"}", "[2,10]<=[20]".
// 24 bytes: two pointers and their 32-bit sizes (the reader refuses a
// value of 4 GiB or more).
struct HloAttribute {
  HloAttribute() = default;
  // Precondition (checked): both are shorter than 4 GiB.
  HloAttribute(absl::string_view name, absl::string_view value)
      : name_(name.data()),
        value_(value.data()),
        name_size_(static_cast<uint32_t>(name.size())),
        value_size_(static_cast<uint32_t>(value.size())) {
    HLOLAYOUT_CHECK(name.size() <= UINT32_MAX && value.size() <= UINT32_MAX)
        << "an attribute of 4 GiB or more";
  }

  absl::string_view name() const { return {name_, name_size_}; }
  absl::string_view value() const { return {value_, value_size_}; }

 private:
  const char* name_ = nullptr;
  const char* value_ = nullptr;
  uint32_t name_size_ = 0;
  uint32_t value_size_ = 0;
};

// Returns the value of the first attribute called `name`, if any.
absl::optional<absl::string_view> FindHloAttribute(
    absl::Span<const HloAttribute> attributes, absl::string_view name);

// One operand: `f32[2]{0} %p0`, just `p0`, or `%custom-call.1#0`: today's
// XLA prints a use of output N of a multi-output instruction as `%name#N`
// (in place of a get-tuple-element instruction; docs/memory.md). 32 bytes:
// the shape written at the use is kept decoded only (the reader checks its
// text while it reads; it is not kept).
struct HloOperand {
  static constexpr int32_t kWholeResult = -1;

  absl::string_view name;  // without the '%' and without `#N`
  // The shape written at the use, decoded; null when not written. Not owned
  // (see above).
  const Shape* shape = nullptr;
  // N of `%name#N`: the operand is tuple element N of `name`'s result.
  // kWholeResult when no `#N` is written. The reader refuses an N over
  // INT32_MAX ("output index out of range").
  int32_t output_index = kWholeResult;
  // The instruction that defines `name`: its index in the same computation
  // (for a visitor: how many instructions of the computation it was handed
  // before that one), set by the reader; -1 when none does, or not known:
  // a module read with keep_going past errors, read_operands off, or, for a
  // visitor of ReadHloInParts, the first computation of a part after a cut.
  int32_t index = -1;

  bool has_shape() const { return shape != nullptr; }
  bool has_output_index() const { return output_index >= 0; }
};

// HloInstruction::attribute_facts: what the reader saw of an instruction's
// attributes. Without kHloFactsKnown nothing is known (every "has" is then
// a maybe: HloInstruction::may_have answers for both cases).
enum HloAttributeFact : uint8_t {
  kHloFactsKnown = 1,
  kHloFactCallee = 2,            // an attribute names called computations
  kHloFactControl = 4,           // control-predecessors=
  kHloFactBody = 8,              // body=
  kHloFactCondition = 16,        // condition=
  kHloFactBodyFirst = 32,        // body= written before condition=
  kHloFactOperandAliasing = 64,  // output_to_operand_aliasing=
  // While a module is read: the reader kept the names of its callees
  // (first_callee and callee_count say where, in the reader's own list);
  // linking the module clears it.
  kHloFactCalleeNamesRead = 128,
};
inline constexpr uint8_t kHloFactsUnknown = 0;

// N of `parameter(N)`, or none: what absl::optional<int32_t> says, in 4
// bytes instead of 8 (HloInstruction::parameter_number). Numbers are 0 to
// INT32_MAX; a negative one is API misuse (checked).
//   HloParameterNumber n;      // none
//   n = 3;                     // n.has_value(), *n == 3, n == 3
//   n.value_or(-1);            // 3
class HloParameterNumber {
 public:
  HloParameterNumber() = default;
  HloParameterNumber(absl::nullopt_t) {}   // NOLINT: as optional's
  HloParameterNumber(int32_t n) : n_(n) {  // NOLINT: as optional's
    HLOLAYOUT_CHECK(n >= 0) << "a negative parameter number";
  }
  bool has_value() const { return n_ >= 0; }
  explicit operator bool() const { return has_value(); }
  // Precondition: has_value().
  int32_t operator*() const { return n_; }
  int32_t value_or(int32_t otherwise) const {
    return has_value() ? n_ : otherwise;
  }
  void reset() { n_ = -1; }
  friend bool operator==(HloParameterNumber a, HloParameterNumber b) {
    return a.n_ == b.n_;
  }
  friend bool operator!=(HloParameterNumber a, HloParameterNumber b) {
    return a.n_ != b.n_;
  }
  // Against a plain number (any: a negative one is never equal).
  friend bool operator==(HloParameterNumber a, int32_t b) {
    return a.has_value() && a.n_ == b;
  }
  friend bool operator!=(HloParameterNumber a, int32_t b) { return !(a == b); }

 private:
  int32_t n_ = -1;
};

// A fusion's kind= (XLA's HloInstruction::FusionKind).
enum class HloFusionKind : uint8_t { kLoop, kInput, kOutput, kCustom };
// "kLoop", "kInput", "kOutput", "kCustom": as the text writes it.
absl::string_view HloFusionKindName(HloFusionKind kind);
// The kind a kind= value names; nullopt for any other text.
absl::optional<HloFusionKind> ParseHloFusionKind(absl::string_view text);
template <typename Sink>
void AbslStringify(Sink& sink, HloFusionKind kind) {
  sink.Append(HloFusionKindName(kind));
}
std::ostream& operator<<(std::ostream& out, HloFusionKind kind);

// The custom-call target families the analyses ask about, as bits (an OR of
// them is HloTargetFamilies' answer). Each tests the target as
// custom_call_target() returns it (unquoted, escapes as written):
enum HloTargetFamily : uint8_t {
  kHloTargetCublas = 1 << 0,            // contains "__cublas"
  kHloTargetCublasLtMatmul = 1 << 1,    // is "__cublas$lt$matmul"
  kHloTargetCudnn = 1 << 2,             // contains "__cudnn"
  kHloTargetTriton = 1 << 3,            // contains "__triton"
  kHloTargetOnednn = 1 << 4,            // contains "__onednn"
  kHloTargetXnn = 1 << 5,               // contains "__xnn"
  kHloTargetCusolverCholesky = 1 << 6,  // is "__cusolver$cholesky"
};
//   "__cublas$lt$matmul"  ->  kHloTargetCublas | kHloTargetCublasLtMatmul
//   "Sharding", ""        ->  0
uint8_t HloTargetFamilies(absl::string_view target);

// What a backend_config's value says, as the analyses ask it: substrings of
// the value as written (quotes and escapes included), not JSON fields, so
// "__triton" in a config is not a target named "__triton".
enum class HloConfigHint : uint8_t {
  // Contains "operation_queue_id", "__triton" or "fusion_backend_config"
  // (XLA:GPU writes these).
  kGpu,
  // Contains "outer_dimension_partitions" or "__ynn_fusion" (XLA:CPU's).
  kCpu,
  // Contains "nvshmem" in any ASCII case (an NVSHMEM collective).
  kNvshmem,
};
bool HloConfigHas(absl::string_view config, HloConfigHint hint);

// How a custom-call's HloInstruction::decoded_attribute packs the target's
// position in attributes() (low 24 bits) and its HloTargetFamilies (above).
constexpr int kHloTargetFamilyShift = 24;
constexpr size_t kHloTargetPositionMask =
    (size_t{1} << kHloTargetFamilyShift) - 1;

// One instruction line (which may span several lines of text):
//   ROOT %fusion.3 = (f32[8]{0}, s32[]) fusion(f32[8]{0} %p), kind=kLoop,
//       calls=%fused_computation.3
// 112 bytes: views into the text and the lists' views (each a pointer and
// a 32-bit size, read through name(), operands(), ...), 32-bit links and
// the opcode; a constant's literal is its operand text (literal()), not a
// view of its own. A 75 MB dump holds some 400,000 of them, so every 8
// bytes here are 3 MiB of `hlolayout memory`'s peak. The reader refuses an
// instruction whose text spans 4 GiB or more ("instruction longer than 4
// GiB"): no view of it could then be longer than 32 bits say.
struct HloInstruction {
  size_t offset = 0;  // byte offset of `ROOT` or of the name

  // "fusion.3" (without '%').
  absl::string_view name() const { return {name_, name_size_}; }
  // "(f32[8]{0}, s32[])", empty when absent.
  absl::string_view shape_text() const {
    return {shape_text_, shape_text_size_};
  }
  // The opcode as written: "fusion", "all-reduce-start", "custom-call-start".
  absl::string_view opcode_name() const {
    return {opcode_name_, opcode_name_size_};
  }
  // Everything between the parentheses after the opcode, raw; for
  // `constant(...)`, its literal.
  absl::string_view operand_text() const {
    return {operand_text_, operand_text_size_};
  }
  // Operands; empty for `constant` and `parameter`. A view into the
  // module's lists (HloModule::lists), or, while streaming, the reader's
  // (valid during the visitor call only, as the instruction itself).
  absl::Span<const HloOperand> operands() const {
    return {operands_, operand_count_};
  }
  // Its `name=value` attributes in order; a view, as operands().
  absl::Span<const HloAttribute> attributes() const {
    return {attributes_, attribute_count_};
  }

  // Setters of the views. Precondition (checked): each is shorter than 4
  // GiB. (The reader's drafts set theirs unchecked and refuse such an
  // instruction once it is read: "instruction longer than 4 GiB".)
  void set_name(absl::string_view v) { Set(&name_, &name_size_, v); }
  void set_shape_text(absl::string_view v) {
    Set(&shape_text_, &shape_text_size_, v);
  }
  void set_opcode_name(absl::string_view v) {
    Set(&opcode_name_, &opcode_name_size_, v);
  }
  void set_operand_text(absl::string_view v) {
    Set(&operand_text_, &operand_text_size_, v);
  }
  void set_operands(absl::Span<const HloOperand> v) {
    Set(&operands_, &operand_count_, v);
  }
  void set_attributes(absl::Span<const HloAttribute> v) {
    Set(&attributes_, &attribute_count_, v);
  }

  // Decoded shape_text(), layouts filled in; null when absent. Not owned
  // (see above).
  const Shape* shape = nullptr;
  // The computations it calls (CalledComputationNames, in that order), as
  // HloModule::callees(*this); set by ReadHloModules (none while streaming).
  int32_t first_callee = 0;
  int32_t callee_count = 0;
  // Its control-predecessors={...}, as HloModule::control_predecessors(*this):
  // where their count is in HloModule::control_predecessor_indices, the
  // indices after it; -1 when it has none.
  int32_t control_predecessors_at = -1;
  // N of `parameter(N)`. The reader refuses an N over INT32_MAX ("parameter
  // number out of range").
  HloParameterNumber parameter_number;
  // The opcode, set by the reader; kUnknown for one XLA does not have.
  HloOpcode opcode = HloOpcode::kUnknown;
  bool root_marker = false;  // written with `ROOT`
  // What the reader saw of its attributes, so that linking a module and the
  // analyses need not read them (nor the text they view) again: an OR of
  // HloAttributeFact bits (above). kHloFactsUnknown for a
  // record made otherwise: its attributes are then read.
  uint8_t attribute_facts = kHloFactsUnknown;
  // Index in attributes() of the first `metadata=`; -1 when none;
  // kAskAttributes (-2) when not recorded (facts unknown, or past 127).
  int8_t metadata_attribute = kAskAttributes;
  // One attribute the reader decoded, which one by the opcode (the
  // accessors below read it; an instruction has at most one of them, so
  // they share these 4 bytes):
  //   fusion:       its kind= as an HloFusionKind;
  //   custom-call:  the position P of custom_call_target= in attributes()
  //                 and its HloTargetFamilies F: P | F << 24 (P < 2^24);
  //   every other:  N of the first `index=N` (get-tuple-element's element),
  //                 0 <= N <= INT32_MAX.
  // -1 when there is no such attribute; kAskAttributes when not recorded
  // (facts unknown, or a value it does not hold: the accessors then read
  // the attributes).
  int32_t decoded_attribute = kAskAttributes;

  static constexpr int8_t kAskAttributes = -2;

  // Typed attributes. Each answers from what the reader recorded (one load
  // and compare; streamed records too), else reads attributes() (a record
  // made otherwise): the same answer, O(attributes).
  //
  // get-tuple-element's `index=N` (any opcode's first `index=`); nullopt
  // without one or for a value that is not a number 0..INT64_MAX.
  absl::optional<int64_t> tuple_index() const;
  // A fusion's `kind=kLoop` as HloFusionKind; nullopt without `kind=` or
  // for a kind XLA does not have (VerifyHloModule refuses it).
  absl::optional<HloFusionKind> fusion_kind() const;
  // `custom_call_target="__cublas$gemm"` without its quotes
  // ("__cublas$gemm", a view into the text; escapes as written); empty
  // without one.
  absl::string_view custom_call_target() const;
  // HloTargetFamilies(custom_call_target()), recorded by the reader for a
  // custom-call; 0 without a target.
  uint8_t custom_call_families() const;
  // Whether custom_call_target() is of `family` (an HloTargetFamily bit).
  bool custom_call_is(HloTargetFamily family) const {
    return (custom_call_families() & family) != 0;
  }
  // `channel_id=N`; nullopt without one or for a value that is not a
  // number 0..INT64_MAX. O(attributes).
  absl::optional<int64_t> channel_id() const;
  // The first `metadata={...}`'s value as written (`{op_name="a/b" ...}`),
  // found where the reader recorded it (metadata_attribute, O(1)); empty
  // without one.
  absl::string_view metadata() const;
  // `backend_config=`'s value as written (a quoted JSON string or `{...}`);
  // empty without one. O(attributes).
  absl::string_view backend_config() const;
  // HloConfigHas(backend_config(), hint). O(attributes + its length).
  bool backend_config_has(HloConfigHint hint) const {
    return HloConfigHas(backend_config(), hint);
  }

  bool has_shape() const { return shape != nullptr; }
  // Whether the attributes may hold what `fact` says (true when the reader
  // did not record its facts): read them only then.
  bool may_have(HloAttributeFact fact) const {
    return (attribute_facts & kHloFactsKnown) == 0 ||
           (attribute_facts & fact) != 0;
  }
  // The literal of `constant(...)`, raw ("{1, 2, 3}", "-inf"): its
  // operand_text(), skipped by bracket matching, never decoded or copied;
  // empty for any other opcode.
  absl::string_view literal() const {
    return opcode == HloOpcode::kConstant ? operand_text()
                                          : absl::string_view();
  }

 private:
  friend struct hlo_internal::DraftInstruction;

  // One view's pointer and 32-bit size; `checked`: abort on a view of 4 GiB
  // or more (API misuse), else cut it (the reader, which refuses it later).
  template <typename T, typename View>
  static void Set(const T** data, uint32_t* size, View v, bool checked = true) {
    if (checked) {
      HLOLAYOUT_CHECK(v.size() <= UINT32_MAX) << "a view of 4 GiB or more";
    }
    *data = v.data();
    *size = static_cast<uint32_t>(v.size());
  }

  // Pointers first, then their 32-bit sizes, so that nothing pads.
  const char* name_ = nullptr;
  const char* shape_text_ = nullptr;
  const char* opcode_name_ = nullptr;
  const char* operand_text_ = nullptr;
  const HloOperand* operands_ = nullptr;
  const HloAttribute* attributes_ = nullptr;
  uint32_t name_size_ = 0;
  uint32_t shape_text_size_ = 0;
  uint32_t opcode_name_size_ = 0;
  uint32_t operand_text_size_ = 0;
  uint32_t operand_count_ = 0;
  uint32_t attribute_count_ = 0;
};

// CalledComputationNames
//
// Names (without '%') of the computations an instruction calls through
// `calls=`, `to_apply=`, `condition=`, `body=`, `branch_computations={..}`,
// `true_computation=`, `false_computation=`, `select=` and `scatter=`
// (select-and-scatter) and `called_computations={..}` (a custom call with
// several), in attribute order.
//   while(...), condition=%cond, body=%body   ->  {"cond", "body"}
std::vector<absl::string_view> CalledComputationNames(
    const HloInstruction& instruction);
// The same, appended to `*names` (no allocation once it has room).
void AppendCalledComputationNames(const HloInstruction& instruction,
                                  std::vector<absl::string_view>* names);
// Whether an attribute of this name names called computations (one of those
// above): "to_apply" yes, "metadata" no. The one list of them (the reader's
// checks and its fast path ask it too, for every attribute: inline, one
// compare for most names, which differ in length).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool IsCalleeAttribute(
    absl::string_view n) {
  const auto is = [&n](absl::string_view name) {
    return std::memcmp(n.data(), name.data(), name.size()) == 0;
  };
  switch (n.size()) {
    case 4:
      return is("body");
    case 5:
      return is("calls");
    case 6:
      return is("select");  // select-and-scatter
    case 7:
      return is("scatter");  // select-and-scatter
    case 8:
      return is("to_apply");
    case 9:
      return is("condition");
    case 16:
      return is("true_computation");
    case 17:
      return is("false_computation");
    case 19:
      // A custom call with several computations prints them as
      // called_computations={...} (one as to_apply=).
      return is("branch_computations") || is("called_computations");
    default:
      return false;
  }
}
// The names in the value of one of those attributes (`%a`, `{%a, %b}`),
// appended to `*names`; none for the raw text of a computation written
// inline (`to_apply={ p0 = ... }`), which the reader replaces by the
// computation's name (`_`).
void AppendComputationNamesOf(absl::string_view value,
                              std::vector<absl::string_view>* names);
// The names (without '%') in a value that lists instructions or
// computations, `control-predecessors={%a, %b}`: any byte that cannot be in
// a name separates two (spaces, line breaks, commas, braces, comments).
std::vector<absl::string_view> HloValueNames(absl::string_view value);

struct HloModule;

// CalledComputation
//
// The computation that `instruction`'s attribute `attribute` names (body=,
// condition=, calls=, to_apply=...: the first such attribute), by index into
// module.computations; -1 without that attribute or for a name no
// computation has. Looks among the instruction's links (HloModule::callees),
// never up a table of names.
//   while(...), condition=%cond, body=%body; "body"  ->  index of %body
int64_t CalledComputation(const HloModule& module,
                          const HloInstruction& instruction,
                          absl::string_view attribute);

struct HloComputation;

// OperandShape
//
// The shape of `operand` of an instruction of `computation`: the one
// written at the use, else its definition's (HloOperand::index; element N
// of a tuple for `%name#N`); null when neither is known (no index: a module
// read with keep_going past errors). Today's dumps write no
// shape at a use (`fusion(%p, %c)`): this is where its shape comes from.
// O(1). Not owned: the module's (HloModule::shapes).
const Shape* OperandShape(const HloComputation& computation,
                          const HloOperand& operand);

// A computation parameter in a signature: `p0: f32[2,3]`.
struct HloParameter {
  absl::string_view name;
  // Signatures print no layouts; the default one is filled in. Not owned,
  // as instruction shapes (see above); never null in a header read.
  const Shape* shape = nullptr;
};

// `ENTRY %main (p0: f32[2], p1: s32[]) -> f32[2] {`
struct HloComputationHeader {
  size_t offset = 0;
  // Without '%'. A view into the text, or, in a module ReadHloModules
  // collects, into the module's own copy (HloModule::lists).
  absl::string_view name;
  bool entry_marker = false;  // written with `ENTRY`
  // Written inline as an attribute value (`to_apply={ p0 = ... }`): named
  // by the reader as XLA names it (`_`, `_.1`, ...), `offset` at its '{'.
  bool written_inline = false;
  bool has_signature = false;
  std::vector<HloParameter> parameters;
  // When has_signature (else null); not owned, as the parameters' shapes.
  const Shape* result_shape = nullptr;
};

// HloModule::called_by: the kinds of instructions that call a computation
// (hlo/opcode.h, HloCallKindOf), as bits.
enum HloCalledBy : uint8_t {
  kHloCalledByControlFlow = 1,  // a while, call, conditional or async op
  kHloCalledByEmbedded = 2,     // a fusion, reduce, map, sort, ...
};

struct HloComputation {
  HloComputationHeader header;
  std::vector<HloInstruction> instructions;
  // The `ROOT` instruction, or the last one when none says ROOT; -1 for a
  // computation without instructions.
  int64_t root_index = -1;
  // `execution_thread="..."` after the closing brace (raw, with quotes).
  absl::string_view execution_thread;
};

// A table that recent dumps put before the first computation:
//   FileNames
//   1 "/src/train.py"
//   FileLocations
//   1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=2 ...}
struct HloStackTable {
  struct Entry {
    int64_t id = 0;
    absl::string_view value;  // raw: "\"/src/train.py\"" or "{...}"
  };
  absl::string_view kind;  // FileNames, FunctionNames, FileLocations, ...
  std::vector<Entry> entries;
};

// `HloModule name, key=value, ...` plus the tables after it.
struct HloModuleHeader {
  size_t offset = 0;        // of `HloModule`, or of the first computation
  bool has_header = false;  // false: computations without an HloModule line
  absl::string_view name;   // empty without a header
  std::vector<HloAttribute> attributes;  // raw, in order
  // entry_computation_layout={(f32[2]{0}, s32[])->f32[2]{0}}, decoded.
  bool has_entry_computation_layout = false;
  std::vector<Shape> entry_parameter_shapes;
  Shape entry_result_shape;
  std::vector<HloStackTable> stack_tables;
  // input_output_alias={...}, read once by ReadHloModules (empty without
  // one): output index -> (parameter number, index, kind).
  std::vector<HloAliasPair> input_output_alias;
};

// HloListStore
//
// The operand and attribute lists of a module's instructions, one after the
// other in a few large blocks (HloInstruction::operands and ::attributes
// view them): a list is never moved once added, so views stay valid as long
// as the store lives, and adding one allocates nothing but, now and then, a
// block (each twice the last, up to 16,384 items: a block is written whole
// when made, and each part of a text read in parts has its store, so the
// last blocks' unused room is resident; 65,536-item blocks cost 2-5 MiB of
// `memory`'s peak).
//   HloListStore store;
//   HloOperand ops[2] = {{"p"}, {"c"}};
//   absl::Span<HloOperand> copy = store.Add<HloOperand>(ops);  // ops' copy
class HloListStore {
 public:
  // A copy of `items` in the store.
  template <typename T>
  absl::Span<T> Add(absl::Span<const T> items);

  // The blocks that hold its operand lists, each whole (the room not yet
  // used too), in the order they were made: where a caller that no longer
  // views some lists may give their pages back (GiveBackOperandLists).
  std::vector<absl::Span<HloOperand>> OperandBlocks() const;

 private:
  template <typename T>
  struct Blocks {
    std::vector<std::unique_ptr<T[]>> blocks;
    std::vector<size_t> sizes;      // each block's room, in items
    size_t used = 0, capacity = 0;  // of the last block
  };
  template <typename T>
  Blocks<T>& BlocksOf();
  Blocks<HloOperand> operands_;
  Blocks<HloAttribute> attributes_;
  Blocks<char> chars_;  // computation names (ReadHloModules)
};

// One module: a file holds one, or several separated by lines that begin
// with `// -----`.
struct HloModule {
  HloModuleHeader header;
  // In the order the reader visits them (HloVisitor::BeginComputation).
  std::vector<HloComputation> computations;
  // The `ENTRY` computation, or the last top-level one when none says
  // ENTRY.
  int64_t entry_index = -1;
  // Owns the shapes that the instructions and operands point to, each once
  // (shared with other modules that use the same shape text). Copies of the
  // module share them, so pointers stay valid in every copy.
  std::vector<std::shared_ptr<const Shape>> shapes;
  // Own the operand and attribute lists the instructions view, the same
  // way (one store per part of a text read on several threads).
  std::vector<std::shared_ptr<const HloListStore>> lists;
  // The computations instructions call, by index into `computations` (-1
  // for a name no computation has), instruction after instruction: see
  // callees().
  std::vector<int32_t> callee_indices;
  // By computation index, set by ReadHloModules with the links above:
  // where the callees of its instructions begin in callee_indices, one
  // computation after the other (size: computations + 1; see
  // computation_callees), and an OR of HloCalledBy bits for the
  // instructions that call it (0: none does).
  //   %f = ... fusion(...), calls=%g  ->  called_by[g] has Embedded
  std::vector<int32_t> computation_callees_begin;
  std::vector<uint8_t> called_by;
  // The instructions control-predecessors={...} names, by index into the
  // same computation (-1 for a name it does not define), instruction after
  // instruction, each list after its count: see control_predecessors().
  std::vector<int32_t> control_predecessor_indices;
  // How many of its instructions have an opcode the reader did not know
  // (HloOpcode::kUnknown, HloVisitor::UnknownOpcode), counted by
  // ReadHloModules as it reads; -1 when not counted (a module built
  // otherwise).
  int64_t unknown_opcodes = -1;
  // The text the module's views point into, when the module owns it
  // (ReadOwnedHloModules, ReadHloModulesFromFile: a std::string or a mapped
  // file, shared by the modules of one text and their copies); null when
  // the caller keeps the text (ReadHloModules).
  std::shared_ptr<const void> text_owner;
  // The output_to_operand_aliasing={...} of its instructions, decoded once
  // by ReadHloModules (DecodeHloOperandAliasing for a module made
  // otherwise), by the instruction's offset and name, sorted by offset:
  // see operand_aliasing(). One entry per instruction that has one (custom
  // calls, a few fusions): nothing for the others.
  struct OperandAliasing {
    size_t offset = 0;
    absl::string_view name;
    std::vector<HloAliasPair> pairs;
  };
  std::vector<OperandAliasing> operand_aliasing_table;

  // Precondition: entry_index >= 0 (every module read successfully has
  // one).
  const HloComputation& entry() const;
  // Instructions over all computations.
  int64_t instruction_count() const;
  // The computations `instruction` (of this module) calls, by index: one
  // per name of CalledComputationNames(instruction), -1 for an unknown name.
  //   while(...), condition=%cond, body=%body  ->  {index of cond, of body}
  absl::Span<const int32_t> callees(const HloInstruction& instruction) const {
    return absl::MakeConstSpan(callee_indices)
        .subspan(instruction.first_callee, instruction.callee_count);
  }
  // The callees of every instruction of computation `c`, in instruction
  // order: the concatenation of callees(instruction) over them. Empty for a
  // module not linked (computation_callees_begin empty).
  absl::Span<const int32_t> computation_callees(size_t c) const {
    if (c + 1 >= computation_callees_begin.size()) return {};
    return absl::MakeConstSpan(callee_indices)
        .subspan(
            computation_callees_begin[c],
            computation_callees_begin[c + 1] - computation_callees_begin[c]);
  }
  // The pairs of `instruction`'s output_to_operand_aliasing={...} (output
  // index: operand number and index), decoded; empty without one. Found by
  // the instruction's offset and name (a binary search of the few
  // instructions that have one), so a copy of an instruction finds its
  // pairs too.
  //   custom-call(...), output_to_operand_aliasing={{0}: (1, {})}
  //     -> {{{0}, 1, {}, ""}}
  absl::Span<const HloAliasPair> operand_aliasing(
      const HloInstruction& instruction) const;
  // The instructions of its computation that `instruction` names in
  // control-predecessors={...}, by index, in the order written.
  absl::Span<const int32_t> control_predecessors(
      const HloInstruction& instruction) const {
    const int32_t at = instruction.control_predecessors_at;
    if (at < 0 ||
        static_cast<size_t>(at) >= control_predecessor_indices.size()) {
      return {};
    }
    return absl::MakeConstSpan(control_predecessor_indices)
        .subspan(at + 1, control_predecessor_indices[at]);
  }
};

// DecodeHloOperandAliasing
//
// Fills module->operand_aliasing_table from the attributes of every
// instruction that may have output_to_operand_aliasing= (the reader's facts
// say which; all of them for records made otherwise). ReadHloModules does
// it; call it for a module built by hand. O(instructions) plus the values
// read.
void DecodeHloOperandAliasing(HloModule* module);

template <>
inline HloListStore::Blocks<HloOperand>& HloListStore::BlocksOf() {
  return operands_;
}
template <>
inline HloListStore::Blocks<HloAttribute>& HloListStore::BlocksOf() {
  return attributes_;
}
template <>
inline HloListStore::Blocks<char>& HloListStore::BlocksOf() {
  return chars_;
}

template <typename T>
absl::Span<T> HloListStore::Add(absl::Span<const T> items) {
  if (items.empty()) return absl::Span<T>();
  Blocks<T>& b = BlocksOf<T>();
  if (b.capacity - b.used < items.size()) {
    constexpr size_t kFirst = 64, kLargest = size_t{1} << 14;
    size_t size = b.capacity == 0 ? kFirst : std::min(2 * b.capacity, kLargest);
    if (size < items.size()) size = items.size();
    b.blocks.emplace_back(new T[size]);
    b.sizes.push_back(size);
    b.used = 0;
    b.capacity = size;
  }
  T* to = b.blocks.back().get() + b.used;
  std::copy(items.begin(), items.end(), to);
  b.used += items.size();
  return absl::Span<T>(to, items.size());
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_MODULE_H_
