// hlo/opcode.h: the opcode of an HLO instruction as a value.
//
//   %s = f32[8]{0} all-reduce-start(f32[8]{0} %x), to_apply=%add
//        -> HloOpcode::kAllReduceStart, written "all-reduce-start"
//   %d = f32[8]{0} custom-call-done(...)
//        -> HloOpcode::kWrappedAsync (XLA reads it as async-done wrapping
//           custom-call: HloAsyncSugarOf)
//   %z = f32[8]{0} frobnicate(...)  -> HloOpcode::kUnknown
//
// The reader (hlo/reader.h) sets HloInstruction::opcode once, so analyses
// switch over an enum instead of comparing strings. The list is XLA's
// HloOpcode list as its HLO text names it (the same opcodes hlo/checks.h
// applies XLA's parser rules to); opcodes of newer XLA versions read as
// kUnknown with their text kept in HloInstruction::opcode_name.
#ifndef HLOLAYOUT_HLO_OPCODE_H_
#define HLOLAYOUT_HLO_OPCODE_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout {

// V(enumerator, text) for every opcode of XLA's HLO text, by text.
#define HLOLAYOUT_HLO_OPCODES(V)                         \
  V(kAbs, "abs")                                         \
  V(kAcos, "acos")                                       \
  V(kAcosh, "acosh")                                     \
  V(kAdd, "add")                                         \
  V(kAddDependency, "add-dependency")                    \
  V(kAfterAll, "after-all")                              \
  V(kAllGather, "all-gather")                            \
  V(kAllGatherDone, "all-gather-done")                   \
  V(kAllGatherStart, "all-gather-start")                 \
  V(kAllReduce, "all-reduce")                            \
  V(kAllReduceDone, "all-reduce-done")                   \
  V(kAllReduceStart, "all-reduce-start")                 \
  V(kAllToAll, "all-to-all")                             \
  V(kAnd, "and")                                         \
  V(kAsin, "asin")                                       \
  V(kAsinh, "asinh")                                     \
  V(kAsyncDone, "async-done")                            \
  V(kAsyncStart, "async-start")                          \
  V(kAsyncUpdate, "async-update")                        \
  V(kAtan, "atan")                                       \
  V(kAtan2, "atan2")                                     \
  V(kAtanh, "atanh")                                     \
  V(kBatchNormGrad, "batch-norm-grad")                   \
  V(kBatchNormInference, "batch-norm-inference")         \
  V(kBatchNormTraining, "batch-norm-training")           \
  V(kBitcast, "bitcast")                                 \
  V(kBitcastConvert, "bitcast-convert")                  \
  V(kBroadcast, "broadcast")                             \
  V(kCall, "call")                                       \
  V(kCbrt, "cbrt")                                       \
  V(kCeil, "ceil")                                       \
  V(kCholesky, "cholesky")                               \
  V(kClamp, "clamp")                                     \
  V(kCollectiveBroadcast, "collective-broadcast")        \
  V(kCollectivePermute, "collective-permute")            \
  V(kCollectivePermuteDone, "collective-permute-done")   \
  V(kCollectivePermuteStart, "collective-permute-start") \
  V(kCollectiveReduce, "collective-reduce")              \
  V(kCompare, "compare")                                 \
  V(kComplex, "complex")                                 \
  V(kConcatenate, "concatenate")                         \
  V(kConditional, "conditional")                         \
  V(kConstant, "constant")                               \
  V(kConvert, "convert")                                 \
  V(kConvolution, "convolution")                         \
  V(kCopy, "copy")                                       \
  V(kCopyDone, "copy-done")                              \
  V(kCopyStart, "copy-start")                            \
  V(kCosh, "cosh")                                       \
  V(kCosine, "cosine")                                   \
  V(kCountLeadingZeros, "count-leading-zeros")           \
  V(kCustomCall, "custom-call")                          \
  V(kDivide, "divide")                                   \
  V(kDomain, "domain")                                   \
  V(kDot, "dot")                                         \
  V(kDynamicReshape, "dynamic-reshape")                  \
  V(kDynamicSlice, "dynamic-slice")                      \
  V(kDynamicUpdateSlice, "dynamic-update-slice")         \
  V(kErf, "erf")                                         \
  V(kExponential, "exponential")                         \
  V(kExponentialMinusOne, "exponential-minus-one")       \
  V(kFft, "fft")                                         \
  V(kFloor, "floor")                                     \
  V(kFusion, "fusion")                                   \
  V(kGather, "gather")                                   \
  V(kGetDimensionSize, "get-dimension-size")             \
  V(kGetTupleElement, "get-tuple-element")               \
  V(kImag, "imag")                                       \
  V(kInfeed, "infeed")                                   \
  V(kIota, "iota")                                       \
  V(kIsFinite, "is-finite")                              \
  V(kLog, "log")                                         \
  V(kLogPlusOne, "log-plus-one")                         \
  V(kLogistic, "logistic")                               \
  V(kMap, "map")                                         \
  V(kMaximum, "maximum")                                 \
  V(kMinimum, "minimum")                                 \
  V(kMulhi, "mulhi")                                     \
  V(kMultiply, "multiply")                               \
  V(kNegate, "negate")                                   \
  V(kNot, "not")                                         \
  V(kOptBarrier, "opt-barrier")                          \
  V(kOr, "or")                                           \
  V(kOutfeed, "outfeed")                                 \
  V(kPad, "pad")                                         \
  V(kParameter, "parameter")                             \
  V(kPartitionId, "partition-id")                        \
  V(kPopcnt, "popcnt")                                   \
  V(kPower, "power")                                     \
  V(kRaggedAllToAll, "ragged-all-to-all")                \
  V(kRaggedDot, "ragged-dot")                            \
  V(kReal, "real")                                       \
  V(kRecv, "recv")                                       \
  V(kRecvDone, "recv-done")                              \
  V(kReduce, "reduce")                                   \
  V(kReducePrecision, "reduce-precision")                \
  V(kReduceScatter, "reduce-scatter")                    \
  V(kReduceWindow, "reduce-window")                      \
  V(kRemainder, "remainder")                             \
  V(kReplicaId, "replica-id")                            \
  V(kReshape, "reshape")                                 \
  V(kReverse, "reverse")                                 \
  V(kRng, "rng")                                         \
  V(kRngBitGenerator, "rng-bit-generator")               \
  V(kRngGetAndUpdateState, "rng-get-and-update-state")   \
  V(kRoundNearestAfz, "round-nearest-afz")               \
  V(kRoundNearestEven, "round-nearest-even")             \
  V(kRsqrt, "rsqrt")                                     \
  V(kScaledDot, "scaled-dot")                            \
  V(kScan, "scan")                                       \
  V(kScatter, "scatter")                                 \
  V(kSelect, "select")                                   \
  V(kSelectAndScatter, "select-and-scatter")             \
  V(kSend, "send")                                       \
  V(kSendDone, "send-done")                              \
  V(kSetDimensionSize, "set-dimension-size")             \
  V(kShiftLeft, "shift-left")                            \
  V(kShiftRightArithmetic, "shift-right-arithmetic")     \
  V(kShiftRightLogical, "shift-right-logical")           \
  V(kShuffle, "shuffle")                                 \
  V(kSign, "sign")                                       \
  V(kSine, "sine")                                       \
  V(kSinh, "sinh")                                       \
  V(kSlice, "slice")                                     \
  V(kSort, "sort")                                       \
  V(kSqrt, "sqrt")                                       \
  V(kStochasticConvert, "stochastic-convert")            \
  V(kSubtract, "subtract")                               \
  V(kTan, "tan")                                         \
  V(kTanh, "tanh")                                       \
  V(kTopk, "topk")                                       \
  V(kTranspose, "transpose")                             \
  V(kTriangularSolve, "triangular-solve")                \
  V(kTuple, "tuple")                                     \
  V(kWhile, "while")                                     \
  V(kXor, "xor")

enum class HloOpcode : uint8_t {
#define HLOLAYOUT_HLO_OPCODE_ENUMERATOR(e, text) e,
  HLOLAYOUT_HLO_OPCODES(HLOLAYOUT_HLO_OPCODE_ENUMERATOR)
#undef HLOLAYOUT_HLO_OPCODE_ENUMERATOR
  // `<op>-start`, `<op>-update` or `<op>-done` for an <op> without such
  // opcodes of its own (custom-call-start, fusion-done): XLA reads it as
  // async-start/-update/-done wrapping <op>.
  kWrappedAsync,
  // Anything else (an opcode of a newer XLA, a typo).
  kUnknown,
};

// The number of HloOpcode values, kWrappedAsync and kUnknown included: a
// table indexed by opcode has this many entries.
inline constexpr int kHloOpcodeCount =
    static_cast<int>(HloOpcode::kUnknown) + 1;

// HloOpcodeOf
//
// The opcode written `text`: "get-tuple-element" -> kGetTupleElement,
// "custom-call-start" -> kWrappedAsync, "frobnicate" -> kUnknown. One hash
// and one compare for XLA's opcodes.
HloOpcode HloOpcodeOf(absl::string_view text);

// HloOpcodeName
//
// The text XLA writes for `opcode` ("get-tuple-element"); "" for
// kWrappedAsync and kUnknown, whose text is the instruction's own
// (HloInstruction::opcode_name).
absl::string_view HloOpcodeName(HloOpcode opcode);

// HloCallKindOf
//
// How an instruction with `caller` runs the computations it names, as
// XLA's call graph tells them apart (CallContext):
//   while(...), body=%b            -> kControlFlow (%b runs as a sequence)
//   fusion(...), calls=%fused      -> kEmbedded (%fused is part of it)
//   reduce(...), to_apply=%add     -> kEmbedded
enum class HloCallKind : uint8_t {
  kControlFlow,  // while, call, conditional, async-start/update/done
  kEmbedded,     // fusion, reduce, map, sort, scatter, all-reduce, ...
};
HloCallKind HloCallKindOf(HloOpcode caller);

// What `-start`, `-update` or `-done` sugar stands for.
struct HloAsyncSugar {
  int stage = -1;             // 0 start, 1 update, 2 done; -1: not sugar
  absl::string_view wrapped;  // the wrapped opcode's text ("custom-call")
};

// HloAsyncSugarOf
//
// For `text` that XLA reads as an asynchronous wrapper written as sugar
// ("custom-call-start" -> {0, "custom-call"}); {-1, ""} for every other text
// (also "async-start" and the opcodes with start/done pairs of their own,
// all-reduce-start, copy-done, ...).
HloAsyncSugar HloAsyncSugarOf(absl::string_view text);

// UnknownOpcodeWarning
//
// What the readers' callers say of an opcode this library does not know:
// "warning: unknown opcode 'x' (2 instructions, read with their shapes as
// written)" (hlolayout report and memory, located by their callers).
std::string UnknownOpcodeWarning(absl::string_view opcode,
                                 int64_t instructions);

// HloOpcodeName(opcode) ("get-tuple-element"), or "(unknown opcode)" and
// "(wrapped async)" for the two opcodes without a text of their own.
// AbslStringify as for Shape (shape/shape.h).
inline absl::string_view HloOpcodePrintName(HloOpcode opcode) {
  if (opcode == HloOpcode::kUnknown) return "(unknown opcode)";
  if (opcode == HloOpcode::kWrappedAsync) return "(wrapped async)";
  return HloOpcodeName(opcode);
}
template <typename Sink>
void AbslStringify(Sink& sink, HloOpcode opcode) {
  sink.Append(HloOpcodePrintName(opcode));
}
inline std::ostream& operator<<(std::ostream& out, HloOpcode opcode) {
  return out << HloOpcodePrintName(opcode);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_OPCODE_H_
