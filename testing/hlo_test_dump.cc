#include "hlolayout/testing/hlo_test_dump.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace hlolayout {
namespace {

// A result shape with its sizes worked out by hand (ArraySize: first tile
// only, each tiled dim rounded up to the tile, then L, then E bits).
struct ShapeInfo {
  const char* text;
  int64_t leaves;
  int64_t unbounded;
  int64_t elements;
  int64_t logical;
  int64_t padded;
  int64_t logical_s1;  // the part in S(1)
  int64_t padded_s1;
};

// 8*256 elements, already multiples of (8,128).
constexpr ShapeInfo kA = {
    "bf16[8,256]{1,0:T(8,128)(2,1)}", 1, 0, 2048, 4096, 4096, 0, 0};
// 3 -> 8 and 200 -> 256: 2048 elements of 2 bytes.
constexpr ShapeInfo kB = {
    "bf16[3,200]{1,0:T(8,128)(2,1)}", 1, 0, 600, 1200, 4096, 0, 0};
// 1000 -> 1024.
constexpr ShapeInfo kC = {"f32[1000]{0:T(1024)}", 1, 0, 1000, 4000, 4096, 0, 0};
// 17 -> 24 and 5 -> 128: 3072 elements.
constexpr ShapeInfo kD = {
    "f32[17,5]{1,0:T(8,128)}", 1, 0, 85, 340, 12288, 0, 0};
// 8320 four-bit elements = 4160 bytes; 130 -> 256: 16384 * 4 / 8.
constexpr ShapeInfo kE = {
    "s4[64,130]{1,0:T(64,128)(8,1)E(4)}", 1, 0, 8320, 4160, 8192, 0, 0};
// A rank-0 array under a rank-1 tile fills one tile of 128.
constexpr ShapeInfo kF = {"f32[]{:T(128)}", 1, 0, 1, 4, 512, 0, 0};
constexpr ShapeInfo kG = {"bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
                          1,
                          0,
                          4194304,
                          8388608,
                          8388608,
                          8388608,
                          8388608};
constexpr ShapeInfo kH = {"s32[]", 1, 0, 1, 4, 4, 0, 0};
constexpr ShapeInfo kI = {"pred[7]{0}", 1, 0, 7, 7, 7, 0, 0};
constexpr ShapeInfo kJ = {"f32[5,3]{0,1}", 1, 0, 15, 60, 60, 0, 0};
// 100 -> 512 by the tile, then up to a multiple of L(1024).
constexpr ShapeInfo kK = {
    "u8[100]{0:T(512)L(1024)}", 1, 0, 100, 100, 1024, 0, 0};
// A bounded dim counts at its bound.
constexpr ShapeInfo kL = {
    "bf16[<=16,128]{1,0:T(8,128)(2,1)}", 1, 0, 2048, 4096, 4096, 0, 0};
constexpr ShapeInfo kM = {"f32[?,8]{1,0}", 1, 1, 0, 0, 0, 0, 0};
constexpr ShapeInfo kToken = {"token[]", 0, 0, 0, 0, 0, 0, 0};
// (C, I)
constexpr ShapeInfo kY = {
    "(f32[1000]{0:T(1024)}, pred[7]{0})", 2, 0, 1007, 4007, 4103, 0, 0};
// (H, B, Y): a tuple of tuples.
constexpr ShapeInfo kT = {
    "(s32[], bf16[3,200]{1,0:T(8,128)(2,1)}, (f32[1000]{0:T(1024)}, "
    "pred[7]{0}))",
    4,
    0,
    1608,
    5211,
    8203,
    0,
    0};
// collective-permute-start: (operand, result, u32[], u32[]).
constexpr ShapeInfo kCp = {
    "(f32[1000]{0:T(1024)}, f32[1000]{0:T(1024)}, u32[], u32[])",
    4,
    0,
    2002,
    8008,
    8200,
    0,
    0};
// copy-start into S(1): (destination, source, context).
constexpr ShapeInfo kX = {
    "(bf16[8,256]{1,0:T(8,128)(2,1)S(1)}, bf16[8,256]{1,0:T(8,128)(2,1)}, "
    "u32[])",
    3,
    0,
    4097,
    8196,
    8196,
    4096,
    4096};
constexpr ShapeInfo kA1 = {
    "bf16[8,256]{1,0:T(8,128)(2,1)S(1)}", 1, 0, 2048, 4096, 4096, 4096, 4096};
constexpr ShapeInfo kZ = {"bf16[]", 1, 0, 1, 2, 2, 0, 0};
constexpr ShapeInfo kScalarF32 = {"f32[]", 1, 0, 1, 4, 4, 0, 0};
// (A, C)
constexpr ShapeInfo kR = {
    "(bf16[8,256]{1,0:T(8,128)(2,1)}, f32[1000]{0:T(1024)})",
    2,
    0,
    3048,
    8096,
    8192,
    0,
    0};

// The entry parameters and their unlaid-out signature shapes.
struct Param {
  const char* name;
  const ShapeInfo* shape;
  const char* signature;
};
constexpr Param kParams[] = {
    {"p0", &kA, "bf16[8,256]"},
    {"p1", &kB, "bf16[3,200]"},
    {"p2", &kC, "f32[1000]"},
    {"p3", &kD, "f32[17,5]"},
    {"p4", &kE, "s4[64,130]"},
    {"p5", &kJ, "f32[5,3]"},
    {"p6", &kK, "u8[100]"},
    {"p7", &kL, "bf16[<=16,128]"},
    {"p8", &kH, "s32[]"},
    {"p9", &kI, "pred[7]"},
    {"p10",
     &kG,  // the S(1) variant of a big activation
     "bf16[32,32,4096]"},
    {"p11", &kM, "f32[?,8]"},
};

class Generator {
 public:
  explicit Generator(const HloDumpOptions& options)
      : options_(options), state_(options.seed) {}

  GeneratedHloDump Run() {
    MakePool();
    const int modules = options_.modules < 1 ? 1 : options_.modules;
    const int64_t per_module = options_.target_bytes / modules;
    for (int m = 0; m < modules; ++m) {
      if (m > 0) out_.text += "\n// -----\n\n";
      const size_t start = out_.text.size();
      Module(m, start + per_module);
    }
    return std::move(out_);
  }

 private:
  bool tpu() const { return options_.style != HloDumpStyle::kClassic; }
  bool small() const { return options_.style == HloDumpStyle::kXlaTpuSmall; }

  // An operand as the style prints it: "f32[] %x" or "%x".
  std::string Operand(absl::string_view shape, absl::string_view name) const {
    return tpu() ? absl::StrCat("%", name) : absl::StrCat(shape, " %", name);
  }
  // How many operand shapes `n` operands put in the text.
  int OperandShapes(int n) const { return tpu() ? 0 : n; }

  uint64_t Next() {  // splitmix64
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // A shape of the varied pool: its text and its sizes, worked out here
  // from the dims, types and first tile the generator chose.
  struct VariedShape {
    std::string text;
    ShapeInfo info = {nullptr, 0, 0, 0, 0, 0, 0, 0};
    std::vector<const VariedShape*> elements;  // tuples: the elements
  };

  static int64_t RoundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

  // An array shape with random type, rank 1..4, dims, minor_to_major, tile
  // and memory space, sized by XLA's ArraySize rule (first tile only).
  VariedShape RandomArray() {
    struct Type {
      const char* name;
      int64_t bytes;
    };
    static constexpr Type kTypes[] = {{"f32", 4},  {"bf16", 2}, {"s32", 4},
                                      {"f16", 2},  {"u8", 1},   {"s8", 1},
                                      {"pred", 1}, {"u32", 4},  {"f64", 8}};
    static constexpr int64_t kDims[] = {
        1,   2,   3,   4,    8,    16,   32,   64,   96, 128, 256,
        384, 512, 768, 1024, 1536, 2048, 3072, 4096, 50, 1000};
    const Type& type = kTypes[Next() % (sizeof(kTypes) / sizeof(kTypes[0]))];
    const int rank = 1 + static_cast<int>(Next() % 4);
    std::vector<int64_t> dims;
    int64_t elements = 1;
    for (int d = 0; d < rank; ++d) {
      int64_t dim = Next() % 3 == 0
                        ? 1 + static_cast<int64_t>(Next() % 700)
                        : kDims[Next() % (sizeof(kDims) / sizeof(kDims[0]))];
      while (elements * dim > (int64_t{1} << 26) && dim > 1) dim /= 2;
      dims.push_back(dim);
      elements *= dim;
    }
    std::vector<int64_t> minor_to_major;
    for (int d = rank - 1; d >= 0; --d) minor_to_major.push_back(d);
    if (Next() % 4 == 0) {  // a transposed layout
      for (int d = rank - 1; d > 0; --d) {
        std::swap(minor_to_major[d], minor_to_major[Next() % (d + 1)]);
      }
    }
    // The first tile (dims from major to minor) and the text of all tiles.
    std::vector<int64_t> tile;
    std::string tiles;
    // TPU dumps tile every array.
    switch (tpu() ? 1 + Next() % 2 : Next() % 3) {
      case 0:
        break;
      case 1:
        tile = {8, 128};
        tiles = type.bytes == 2   ? "T(8,128)(2,1)"
                : type.bytes == 1 ? "T(8,128)(4,1)"
                                  : "T(8,128)";
        break;
      default:
        tile = {rank == 1 ? int64_t{1024} : int64_t{128}};
        tiles = rank == 1 ? "T(1024)" : "T(128)";
        break;
    }
    const bool s1 = Next() % (tpu() ? 8 : 16) == 0;
    int64_t padded_elements = elements;
    if (!tile.empty()) {
      const size_t k = tile.size();
      padded_elements = 1;
      for (size_t d = 0; d < k; ++d) {
        const int64_t size =
            d < static_cast<size_t>(rank) ? dims[minor_to_major[d]] : 1;
        padded_elements *= RoundUp(size, tile[k - 1 - d]);
      }
      for (size_t d = k; d < static_cast<size_t>(rank); ++d) {
        padded_elements *= dims[minor_to_major[d]];
      }
    }
    VariedShape v;
    v.text = absl::StrCat(type.name, "[", absl::StrJoin(dims, ","), "]{",
                          absl::StrJoin(minor_to_major, ","));
    if (!tiles.empty() || s1) {
      absl::StrAppend(&v.text, ":", tiles, s1 ? "S(1)" : "");
    }
    v.text += "}";
    v.info.leaves = 1;
    v.info.elements = elements;
    v.info.logical = elements * type.bytes;
    v.info.padded = padded_elements * type.bytes;
    if (s1) {
      v.info.logical_s1 = v.info.logical;
      v.info.padded_s1 = v.info.padded;
    }
    return v;
  }

  // A tuple of pool arrays (and sometimes of a pair), as XLA prints it, with
  // `/*index=5*/` before the sixth element.
  // `arity` 0: 2 to 7 elements.
  VariedShape RandomTuple(const std::vector<VariedShape>& arrays,
                          int arity = 0) {
    VariedShape v;
    if (arity == 0) arity = 2 + static_cast<int>(Next() % 6);
    v.text = "(";
    for (int e = 0; e < arity; ++e) {
      if (e > 0) v.text += ", ";
      if (e > 0 && e % 5 == 0) absl::StrAppend(&v.text, "/*index=", e, "*/");
      const VariedShape* element = &arrays[Next() % arrays.size()];
      if (Next() % 8 == 0 && !nested_.empty()) {
        element = &nested_[Next() % nested_.size()];
      }
      v.elements.push_back(element);
      v.text += element->text;
      const ShapeInfo& i = element->info;
      v.info.leaves += i.leaves;
      v.info.elements += i.elements;
      v.info.logical += i.logical;
      v.info.padded += i.padded;
      v.info.logical_s1 += i.logical_s1;
      v.info.padded_s1 += i.padded_s1;
    }
    v.text += ")";
    return v;
  }

  // The varied shapes: options_.distinct_shapes of them, three quarters
  // arrays and one quarter tuples, every text different.
  void MakePool() {
    const int64_t total = options_.distinct_shapes;
    if (total <= 0) return;
    absl::flat_hash_set<std::string> texts;
    const int64_t arrays = total - total / 4;
    while (static_cast<int64_t>(arrays_.size()) < arrays) {
      VariedShape v = RandomArray();
      if (texts.insert(v.text).second) arrays_.push_back(std::move(v));
    }
    // A few pairs to nest inside tuples.
    // Reserved: a pair may hold an earlier pair, by address.
    nested_.reserve(16);
    for (int i = 0; i < 16; ++i) nested_.push_back(RandomTuple(arrays_, 2));
    while (static_cast<int64_t>(arrays_.size() + tuples_.size()) < total) {
      VariedShape v = RandomTuple(arrays_);
      if (texts.insert(v.text).second) tuples_.push_back(std::move(v));
    }
  }

  // Half of the picks come from a hot few (the shapes of a layer that
  // repeats), half from the whole pool.
  const VariedShape& PickArray() {
    // TPU style: a quarter from the hot few.
    const size_t hot = arrays_.size() < 64 ? arrays_.size() : 64;
    const bool from_hot = Next() % (tpu() ? 4 : 2) == 0;
    return arrays_[from_hot ? Next() % hot : Next() % arrays_.size()];
  }
  const VariedShape& PickTuple() {
    const size_t hot = tuples_.size() < 16 ? tuples_.size() : 16;
    return tuples_[Next() % 2 == 0 ? Next() % hot : Next() % tuples_.size()];
  }

  // Counts one instruction with result `shape` (null: no shape) and
  // `operand_shapes` shapes among its operands.
  void Count(const ShapeInfo* shape, int operand_shapes) {
    ++out_.instructions;
    out_.shapes += operand_shapes;
    if (shape == nullptr) {
      ++out_.instructions_without_shape;
      return;
    }
    ++out_.shapes;
    out_.array_leaves += shape->leaves;
    out_.unbounded_leaves += shape->unbounded;
    out_.elements += shape->elements;
    out_.logical_bytes += shape->logical;
    out_.padded_bytes += shape->padded;
    out_.logical_bytes_s1 += shape->logical_s1;
    out_.padded_bytes_s1 += shape->padded_s1;
  }

  std::string Metadata(absl::string_view op_type, int64_t i) {
    if (tpu()) return TpuMetadata(op_type, i);
    return absl::StrCat(
        "metadata={op_type=\"", op_type,
        "\" op_name=\"jit(train_step)/jit(main)/jvp(transformer)/layer_",
        i % 96, "/", op_type, "\" source_file=\"/src/model/layers.py\" ",
        "source_line=", 40 + Next() % 900, " stack_frame_id=", 1 + i % 3, "}");
  }

  void Module(int m, size_t end) {
    ++out_.modules;
    std::string& t = out_.text;
    absl::StrAppend(&t, "HloModule jit_train_step_", m,
                    ", is_scheduled=true, entry_computation_layout={(");
    for (size_t p = 0; p < sizeof(kParams) / sizeof(kParams[0]); ++p) {
      if (p > 0) t += ", ";
      if (p > 0 && p % 5 == 0) absl::StrAppend(&t, "/*index=", p, "*/");
      t += kParams[p].shape->text;
      ++out_.shapes;
    }
    absl::StrAppend(&t, ")->", kR.text,
                    "}, allow_spmd_sharding_propagation_to_output={true}, "
                    "frontend_attributes={fingerprint_before_lhs=\"8c3e5a\"}"
                    "\n\n");
    ++out_.shapes;
    if (tpu()) {
      TpuTables();
    } else {
      t +=
          "FileNames\n1 \"/src/model/train.py\"\n2 \"/src/model/layers.py\"\n\n"
          "FunctionNames\n1 \"train_step\"\n2 \"dense\"\n\n"
          "FileLocations\n"
          "1 {file_name_id=1 function_name_id=1 line=42 end_line=42 column=8 "
          "end_column=40}\n"
          "2 {file_name_id=2 function_name_id=2 line=88 end_line=90 column=4 "
          "end_column=12}\n\n"
          "StackFrames\n1 {file_location_id=1 parent_frame_id=0}\n"
          "2 {file_location_id=2 parent_frame_id=1}\n"
          "3 {file_location_id=2 parent_frame_id=2}\n\n";
    }
    SharedComputations();

    std::string entry;
    absl::StrAppend(&entry, "ENTRY %main.", m, " (");
    for (size_t p = 0; p < sizeof(kParams) / sizeof(kParams[0]); ++p) {
      if (p > 0) entry += ", ";
      absl::StrAppend(&entry, kParams[p].name, ": ", kParams[p].signature);
      ++out_.shapes;
    }
    absl::StrAppend(&entry, ") -> (bf16[8,256], f32[1000]) {\n");
    out_.shapes += 1;
    ++out_.computations;
    for (size_t p = 0; p < sizeof(kParams) / sizeof(kParams[0]); ++p) {
      absl::StrAppend(&entry, "  %", kParams[p].name, " = ",
                      kParams[p].shape->text, " parameter(", p, "), ",
                      "sharding={replicated}, ",
                      Metadata("parameter", static_cast<int64_t>(p)), "\n");
      Count(kParams[p].shape, 0);
    }
    absl::StrAppend(&entry, "  %zero = f32[] constant(0)\n");
    Count(&kScalarF32, 0);
    for (int64_t i = 0; t.size() + entry.size() < end; ++i) {
      Block(i, &t, &entry);
    }
    absl::StrAppend(&entry, "  ROOT %tuple.final = ", kR.text, " tuple(",
                    Operand("bf16[8,256]{1,0:T(8,128)(2,1)}", "p0"), ", ",
                    Operand("f32[1000]{0:T(1024)}", "p2"), ")\n}\n");
    Count(&kR, OperandShapes(2));
    t += entry;
  }

  void SharedComputations() {
    std::string& t = out_.text;
    t += "%add.clone (x.1: f32[], y.1: f32[]) -> f32[] {\n"
         "  %x.1 = f32[] parameter(0)\n"
         "  %y.1 = f32[] parameter(1)\n"
         "  ROOT %add.2 = f32[] add(";
    absl::StrAppend(&t, Operand("f32[]", "x.1"), ", ", Operand("f32[]", "y.1"),
                    ")\n}\n\n");
    out_.shapes += 3;  // signature
    Count(&kScalarF32, 0);
    Count(&kScalarF32, 0);
    Count(&kScalarF32, OperandShapes(2));
    ++out_.computations;

    // TPU style: every while and conditional has computations of its own,
    // as XLA's FlattenCallGraph leaves them (TpuBlock writes them).
    if (!tpu()) ControlFlowComputations("", &t);
  }

  // A while loop's condition and body and a conditional's two branches,
  // their computation and instruction names ending in `suffix`.
  void ControlFlowComputations(absl::string_view suffix, std::string* out) {
    std::string& t = *out;
    const std::string arg1 = absl::StrCat("arg.1", suffix);
    const std::string gte = absl::StrCat("gte.c", suffix);
    const std::string limit = absl::StrCat("limit", suffix);
    absl::StrAppend(
        &t, "%while_cond", suffix, " (", arg1, ": ", kT.text, ") -> pred[] {\n",
        "  %", arg1, " = ", kT.text, " parameter(0)\n", "  %", gte,
        " = s32[] get-tuple-element(", Operand(kT.text, arg1), "), index=0\n",
        "  %", limit, " = s32[] constant(8)\n", "  ROOT %lt", suffix,
        " = pred[] compare(", Operand("s32[]", gte), ", ",
        Operand("s32[]", limit), "), direction=LT\n}\n\n");
    out_.shapes += 2;
    Count(&kT, 0);
    Count(&kH, OperandShapes(1));
    Count(&kH, 0);
    static constexpr ShapeInfo kPredScalar = {"pred[]", 1, 0, 1, 1, 1, 0, 0};
    Count(&kPredScalar, OperandShapes(2));
    ++out_.computations;

    // No ROOT: the last instruction is the root, as XLA accepts.
    const std::string arg2 = absl::StrCat("arg.2", suffix);
    absl::StrAppend(&t, "%while_body", suffix, " (", arg2, ": ", kT.text,
                    ") -> ", kT.text, " {\n", "  %", arg2, " = ", kT.text,
                    " parameter(0)\n", "  %next", suffix, " = ", kT.text,
                    " opt-barrier(", Operand(kT.text, arg2), ")\n}\n\n");
    out_.shapes += 2;
    Count(&kT, 0);
    Count(&kT, OperandShapes(1));
    ++out_.computations;

    for (int b = 0; b < 2; ++b) {
      const std::string a = absl::StrCat("a.", b, suffix);
      absl::StrAppend(&t, "%branch_", b, suffix, " (", a, ": bf16[3,200]) -> ",
                      "bf16[3,200] {\n  %", a, " = ", kB.text,
                      " parameter(0)\n  ROOT %r.", b, suffix, " = ", kB.text,
                      b == 0 ? " negate(" : " abs(", Operand(kB.text, a),
                      ")\n}\n\n");
      out_.shapes += 2;
      Count(&kB, 0);
      Count(&kB, OperandShapes(1));
      ++out_.computations;
    }
  }

  void Block(int64_t i, std::string* fused, std::string* entry) {
    if (tpu()) {
      if (small()) {
        TpuSmallBlock(i, fused, entry);
      } else {
        TpuBlock(i, fused, entry);
      }
      return;
    }
    const std::string a = kA.text;
    const std::string b = kB.text;
    // The fused computation the block's fusion calls.
    absl::StrAppend(
        fused, "%fused_computation.", i, " (param_0.", i,
        ": bf16[8,256], param_1.", i, ": bf16[3,200]) -> bf16[8,256] {\n",
        "  %param_0.", i, " = ", a, " parameter(0)\n", "  %param_1.", i, " = ",
        b, " parameter(1)\n", "  %constant.f", i, " = bf16[] constant(0.5)\n",
        "  %broadcast.f", i, " = ", a, " broadcast(bf16[] %constant.f", i,
        "), dimensions={}\n", "  ROOT %multiply.f", i, " = ", a, " multiply(",
        a, " %param_0.", i, ", ", a, " %broadcast.f", i, "), ",
        Metadata("mul", i), "\n}\n\n");
    ++out_.computations;
    out_.shapes += 3;
    Count(&kA, 0);
    Count(&kB, 0);
    Count(&kZ, 0);
    Count(&kA, 1);
    Count(&kA, 2);

    std::string& e = *entry;
    absl::StrAppend(
        &e, "  %fusion.", i, " = ", a, " fusion(", a, " %p0, ", b,
        " %p1), kind=kLoop, calls=%fused_computation.", i, ", ",
        Metadata("add", i),
        ", backend_config={\"outer_dimension_partitions\":[],"
        "\"flag_configs\":[],\"scoped_memory_configs\":[],"
        "\"used_scoped_memory_configs\":[{\"memory_space\":\"1\","
        "\"offset\":\"0\",\"size\":\"",
        4096 + Next() % 65536,
        "\"}],\"output_chunk_bound_config\":{\"output_chunk_bound\":[\"1\"]},"
        "\"estimated_cycles\":\"",
        Next() % 100000, "\"}\n");
    Count(&kA, 2);
    absl::StrAppend(&e, "  %inner.", i, " = ", kY.text, " tuple(", kC.text,
                    " %p2, ", kI.text, " %p9)\n");
    Count(&kY, 2);
    absl::StrAppend(&e, "  %tuple.", i, " = ", kT.text, " tuple(s32[] %p8, ", b,
                    " %p1, ", kY.text, " %inner.", i, ")\n");
    Count(&kT, 3);
    absl::StrAppend(&e, "  %get-tuple-element.", i, " = ", b,
                    " get-tuple-element(", kT.text, " %tuple.", i,
                    "), index=1\n");
    Count(&kB, 1);
    absl::StrAppend(
        &e, "  %custom-call.", i, " = ", kD.text, " custom-call(", kD.text,
        " %p3, ", a, " %fusion.", i,
        "), custom_call_target=\"tpu_custom_call\", "
        "sharding={devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}, ",
        "backend_config=\"{\\\"custom_call_config\\\": {\\\"body\\\": "
        "\\\"TUzvUgFNTElSdHJ1bmsA\\\"}, \\\"flags\\\": [1, 2]}\"\n");
    Count(&kD, 2);
    absl::StrAppend(&e, "  %collective-permute-start.", i, " = ", kCp.text,
                    " collective-permute-start(", kC.text, " %p2), ",
                    "channel_id=", i + 1,
                    ", source_target_pairs={{0,1},{1,2},{2,3},{3,0}}, "
                    "backend_config={\"is_sync\":false}\n");
    Count(&kCp, 1);
    absl::StrAppend(&e, "  %collective-permute-done.", i, " = ", kC.text,
                    " collective-permute-done(", kCp.text,
                    " %collective-permute-start.", i, ")\n");
    Count(&kC, 1);
    absl::StrAppend(&e, "  %copy-start.", i, " = ", kX.text, " copy-start(", a,
                    " %p0), cross_program_prefetch_index=0\n");
    Count(&kX, 1);
    absl::StrAppend(&e, "  %copy-done.", i, " = ", kA1.text, " copy-done(",
                    kX.text, " %copy-start.", i, ")\n");
    Count(&kA1, 1);
    absl::StrAppend(&e, "  %constant.", i, " = ", kJ.text,
                    " constant({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, "
                    "{ 10, 11, 12 }, { 13, 14, 15 } })\n");
    Count(&kJ, 0);
    absl::StrAppend(&e, "  %negate.", i, " = ", kE.text, " negate(", kE.text,
                    " %p4)\n");
    Count(&kE, 1);
    absl::StrAppend(&e, "  %reduce.", i, " = ", kF.text, " reduce(", kC.text,
                    " %p2, f32[] %zero), dimensions={0}, to_apply=%add.clone, ",
                    Metadata("reduce_sum", i), "\n");
    Count(&kF, 2);
    absl::StrAppend(&e, "  %bitcast.", i, " = ", kK.text, " bitcast(", kK.text,
                    " %p6)\n");
    Count(&kK, 1);
    absl::StrAppend(&e, "  %slice.", i, " = ", kL.text, " slice(", kL.text,
                    " %p7), slice={[0:16], [0:128]}\n");
    Count(&kL, 1);
    absl::StrAppend(&e, "  %custom-call.dyn.", i, " = ", kM.text,
                    " custom-call(", kM.text,
                    " %p11), custom_call_target=\"Sharding\"\n");
    Count(&kM, 1);
    absl::StrAppend(&e, "  %after-all.", i, " = token[] after-all()\n");
    Count(&kToken, 0);
    // No result shape: the reader infers it from the operands' (XLA's
    // parser does the same).
    absl::StrAppend(&e, "  %add.", i, " = add(%fusion.", i, ", %fusion.", i,
                    ")\n");
    Count(&kA, 0);
    absl::StrAppend(&e, "  %while.", i, " = ", kT.text, " while(", kT.text,
                    " %tuple.", i,
                    "), condition=%while_cond, body=%while_body, "
                    "backend_config={\"known_trip_count\":{\"n\":\"8\"}}\n");
    Count(&kT, 1);
    absl::StrAppend(&e, "  %conditional.", i, " = ", b,
                    " conditional(s32[] %p8, ", b, " %p1, ", b,
                    " %get-tuple-element.", i,
                    "), branch_computations={%branch_0, %branch_1}\n");
    Count(&kB, 3);
    absl::StrAppend(&e, "  %copy.", i, " = ", kG.text, " copy(", kG.text,
                    " %p10)\n");
    Count(&kG, 1);
    if (!arrays_.empty()) VariedLines(i, &e);
  }

  // Instructions on shapes of the varied pool: thousands of distinct shape
  // texts, as real dumps have.
  void VariedLines(int64_t i, std::string* entry) {
    std::string& e = *entry;
    const VariedShape& a = PickArray();
    const VariedShape& b = PickArray();
    const VariedShape& c = PickArray();
    // Operand shapes are those of the operands' definitions (XLA refuses
    // others); the varied ones come in through results.
    (void)c;
    absl::StrAppend(&e, "  %convert.v", i, " = ", a.text, " convert(", kA.text,
                    " %fusion.", i, "), ", Metadata("convert", i), "\n");
    Count(&a.info, 1);
    absl::StrAppend(&e, "  %fusion.v", i, " = ", b.text, " fusion(", kA.text,
                    " %p0, ", a.text, " %convert.v", i,
                    "), kind=kOutput, calls=%fused_computation.", i, ", ",
                    Metadata("dot_general", i),
                    ", backend_config={\"flag_configs\":[],"
                    "\"estimated_cycles\":\"",
                    Next() % 100000, "\"}\n");
    Count(&b.info, 2);
    const VariedShape& t = PickTuple();
    for (size_t k = 0; k < t.elements.size(); ++k) {
      absl::StrAppend(&e, "  %element.v", i, ".", k, " = ", t.elements[k]->text,
                      " custom-call(", a.text, " %convert.v", i,
                      "), custom_call_target=\"split\"\n");
      Count(&t.elements[k]->info, 1);
    }
    absl::StrAppend(&e, "  %tuple.v", i, " = ", t.text, " tuple(");
    for (size_t k = 0; k < t.elements.size(); ++k) {
      if (k > 0) e += ", ";
      absl::StrAppend(&e, t.elements[k]->text, " %element.v", i, ".", k);
    }
    e += ")\n";
    Count(&t.info, static_cast<int>(t.elements.size()));
    absl::StrAppend(&e, "  %get-tuple-element.v", i, " = ", t.elements[0]->text,
                    " get-tuple-element(", t.text, " %tuple.v", i,
                    "), index=0\n");
    Count(&t.elements[0]->info, 1);
  }

  // The XLA TPU style (HloDumpStyle::kXlaTpu).

  // One of `n` names, picked at random.
  template <size_t n>
  const char* Pick(const char* const (&names)[n]) {
    return names[Next() % n];
  }

  // The module's source tables, sized like a large model's: about one stack
  // frame per 10 KB of dump.
  void TpuTables() {
    std::string& t = out_.text;
    const int64_t per_module =
        options_.target_bytes / (options_.modules < 1 ? 1 : options_.modules);
    const int64_t files = std::max<int64_t>(8, per_module / 400000);
    const int64_t functions = std::max<int64_t>(16, per_module / 50000);
    const int64_t locations = std::max<int64_t>(32, per_module / 15000);
    frames_ = std::max<int64_t>(32, per_module / 10000);
    static constexpr const char* kDirs[] = {
        "/opt/venv/lib/python3.11/site-packages/flax/linen/",
        "/opt/venv/lib/python3.11/site-packages/jax/_src/",
        "/workspace/maxtext/MaxText/layers/", "/workspace/maxtext/MaxText/"};
    t += "FileNames\n";
    for (int64_t k = 1; k <= files; ++k) {
      absl::StrAppend(&t, k, " \"", Pick(kDirs), "module_", k, ".py\"\n");
    }
    static constexpr const char* kFunctions[] = {
        "Transformer.__call__", "Decoder.__call__",      "MlpBlock.__call__",
        "Attention.__call__",   "DenseGeneral.__call__", "train_step",
        "_dot_general",         "apply_rotary_embedding"};
    t += "\nFunctionNames\n";
    for (int64_t k = 1; k <= functions; ++k) {
      absl::StrAppend(&t, k, " \"", Pick(kFunctions), "_", k, "\"\n");
    }
    t += "\nFileLocations\n";
    for (int64_t k = 1; k <= locations; ++k) {
      const uint64_t line = 20 + Next() % 2000;
      absl::StrAppend(&t, k, " {file_name_id=", 1 + Next() % files,
                      " function_name_id=", 1 + Next() % functions,
                      " line=", line, " end_line=", line + Next() % 3,
                      " column=", Next() % 40, " end_column=", 40 + Next() % 40,
                      "}\n");
    }
    t += "\nStackFrames\n";
    for (int64_t k = 1; k <= frames_; ++k) {
      absl::StrAppend(&t, k, " {file_location_id=", 1 + Next() % locations,
                      " parent_frame_id=", k == 1 ? 1 : 1 + Next() % (k - 1),
                      "}\n");
    }
    t += "\n";
  }

  // `metadata={...}` as XLA writes it for a JAX program on TPU.
  std::string TpuMetadata(absl::string_view op_type, int64_t i) {
    static constexpr const char* kScopes[] = {
        "jit(train_step)/jit(main)/transpose(jvp(Transformer))",
        "jit(train_step)/jit(main)/jvp(Transformer)",
        "jit(train_step)/jit(main)/while/body/remat(checkpoint)"};
    static constexpr const char* kModules[] = {"mlp/wi_0",
                                               "mlp/wo",
                                               "self_attention/query",
                                               "self_attention/out",
                                               "pre_self_attention_layer_norm",
                                               "logits_dense"};
    static constexpr const char* kFiles[] = {
        "/opt/venv/lib/python3.11/site-packages/flax/linen/linear.py",
        "/workspace/maxtext/MaxText/layers/attentions.py",
        "/workspace/maxtext/MaxText/layers/linears.py",
        "/opt/venv/lib/python3.11/site-packages/jax/_src/numpy/lax_numpy.py"};
    return absl::StrCat("metadata={op_type=\"", op_type, "\" op_name=\"",
                        Pick(kScopes), "/decoder/layers_", i % 96, "/",
                        Pick(kModules), "/", op_type, "\" source_file=\"",
                        Pick(kFiles), "\" source_line=", 20 + Next() % 2000,
                        " stack_frame_id=", 1 + Next() % frames_, "}");
  }

  // A TPU fusion's backend config.
  std::string TpuFusionConfig() {
    return absl::StrCat(
        "backend_config={\"flag_configs\":[],\"scoped_memory_configs\":[],"
        "\"indices_config\":{\"index_known_bits\":[]},"
        "\"compute_type\":\"COMPUTE_TYPE_DEFAULT\","
        "\"device_type\":\"DEVICE_TYPE_INVALID\","
        "\"used_scoped_memory_configs\":[{\"memory_space\":\"1\","
        "\"offset\":\"0\",\"size\":\"",
        4096 + Next() % 4194304,
        "\"}],\"output_chunk_bound_config\":{\"output_chunk_bound\":[\"1\",\"",
        1 + Next() % 8,
        "\",\"8\"]},\"aliasing_operands\":{\"lists\":[]},"
        "\"estimated_cycles\":\"",
        Next() % 1000000,
        "\",\"convolution_algorithm_config\":{\"emitter\":"
        "\"EmitAllBatchInSublanes\"}}");
  }

  std::string TpuFrontendAttributes(int64_t i) {
    return absl::StrCat(
        "frontend_attributes={_xla_compute_type=\"dense\","
        "_scheduling_group_id=\"",
        i % 1000, "\"}");
  }

  // A Mosaic kernel's custom call config: a quoted JSON string holding the
  // kernel's serialized body (base64, a few hundred bytes).
  std::string TpuCustomCallConfig() {
    static constexpr char kBase64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string body;
    const int length = 256 + static_cast<int>(Next() % 512);
    for (int k = 0; k < length; ++k) body += kBase64[Next() % 64];
    return absl::StrCat(
        "backend_config=\"{\\\"custom_call_config\\\": {\\\"body\\\": \\\"",
        body,
        "\\\", \\\"serialization_format\\\": 1, \\\"needs_layout_passes\\\": "
        "true}, \\\"implicit_sharding\\\": {\\\"type\\\": \\\"MANUAL\\\"}}\"");
  }

  // A tuple instruction `name` of shape `t` whose array elements are
  // `array_operand` and whose tuple elements are tuple instructions written
  // before it (name.0, name.1, ...), so that every operand has the
  // structure of its element, as in a module XLA wrote.
  void TpuTuple(const VariedShape& t, const std::string& name,
                const std::string& array_operand, std::string* entry) {
    std::vector<std::string> operands;
    for (size_t k = 0; k < t.elements.size(); ++k) {
      if (t.elements[k]->elements.empty()) {
        operands.push_back(array_operand);
      } else {
        const std::string inner = absl::StrCat(name, ".", k);
        TpuTuple(*t.elements[k], inner, array_operand, entry);
        operands.push_back("%" + inner);
      }
    }
    absl::StrAppend(entry, "  %", name, " = ", t.text, " tuple(",
                    absl::StrJoin(operands, ", "), ")\n");
    Count(&t.info, 0);
  }

  // The block of Block() in the TPU style: the same instructions and
  // shapes, operands without shapes, and every line annotated.
  // HloDumpStyle::kXlaTpuSmall: a fused computation of 3 to 6 lines and
  // the fusion that calls it.
  void TpuSmallBlock(int64_t i, std::string* fused, std::string* entry) {
    const std::string a = kA.text;
    const std::string b = kB.text;
    const int middle = static_cast<int>(Next() % 4);  // 0 to 3 lines
    std::string& f = *fused;
    absl::StrAppend(&f, "%fused_computation.", i, " (param_0.", i,
                    ": bf16[8,256], param_1.", i,
                    ": bf16[3,200]) -> bf16[8,256] {\n", "  %param_0.", i,
                    " = ", a, " parameter(0)\n");
    Count(&kA, 0);
    absl::StrAppend(&f, "  %param_1.", i, " = ", b, " parameter(1)\n");
    Count(&kB, 0);
    std::string last = absl::StrCat("%param_0.", i);
    if (middle >= 1) {
      absl::StrAppend(&f, "  %constant.f", i, " = bf16[] constant(0.5)\n");
      Count(&kZ, 0);
    }
    if (middle >= 2) {
      absl::StrAppend(&f, "  %broadcast.f", i, " = ", a,
                      " broadcast(%constant.f", i, "), dimensions={}, ",
                      Metadata("broadcast_in_dim", i), "\n");
      Count(&kA, 0);
      last = absl::StrCat("%broadcast.f", i);
    }
    if (middle >= 3) {
      absl::StrAppend(&f, "  %negate.f", i, " = ", a, " negate(", last, "), ",
                      Metadata("neg", i), "\n");
      Count(&kA, 0);
      last = absl::StrCat("%negate.f", i);
    }
    absl::StrAppend(&f, "  ROOT %multiply.f", i, " = ", a,
                    " multiply(%param_0.", i, ", ", last, "), ",
                    Metadata("mul", i), "\n}\n\n");
    Count(&kA, 0);
    ++out_.computations;
    out_.shapes += 3;  // the signature
    absl::StrAppend(entry, "  %fusion.", i, " = ", a,
                    " fusion(%p0, %p1), kind=kLoop, calls=%fused_computation.",
                    i, ", ", Metadata("add", i),
                    ", backend_config={\"flag_configs\":[],"
                    "\"estimated_cycles\":\"",
                    Next() % 100000, "\"}\n");
    Count(&kA, 0);
  }

  void TpuBlock(int64_t i, std::string* fused, std::string* entry) {
    const std::string a = kA.text;
    const std::string b = kB.text;
    absl::StrAppend(
        fused, "%fused_computation.", i, " (param_0.", i,
        ": bf16[8,256], param_1.", i, ": bf16[3,200]) -> bf16[8,256] {\n",
        "  %param_0.", i, " = ", a, " parameter(0)\n", "  %param_1.", i, " = ",
        b, " parameter(1)\n", "  %constant.f", i, " = bf16[] constant(0.5)\n",
        "  %broadcast.f", i, " = ", a, " broadcast(%constant.f", i,
        "), dimensions={}, ", Metadata("broadcast_in_dim", i), "\n",
        "  ROOT %multiply.f", i, " = ", a, " multiply(%param_0.", i,
        ", %broadcast.f", i, "), ", Metadata("mul", i), "\n}\n\n");
    ++out_.computations;
    out_.shapes += 3;
    Count(&kA, 0);
    Count(&kB, 0);
    Count(&kZ, 0);
    Count(&kA, 0);
    Count(&kA, 0);

    const std::string suffix = absl::StrCat(".", i);
    ControlFlowComputations(suffix, fused);

    std::string& e = *entry;
    absl::StrAppend(&e, "  %fusion.", i, " = ", a,
                    " fusion(%p0, %p1), kind=kLoop, calls=%fused_computation.",
                    i, ", ", TpuFrontendAttributes(i), ", ", Metadata("add", i),
                    ", ", TpuFusionConfig(), "\n");
    Count(&kA, 0);
    absl::StrAppend(&e, "  %inner.", i, " = ", kY.text, " tuple(%p2, %p9), ",
                    Metadata("pjit", i), "\n");
    Count(&kY, 0);
    absl::StrAppend(&e, "  %tuple.", i, " = ", kT.text,
                    " tuple(%p8, %p1, %inner.", i, ")\n");
    Count(&kT, 0);
    absl::StrAppend(&e, "  %get-tuple-element.", i, " = ", b,
                    " get-tuple-element(%tuple.", i, "), index=1, ",
                    Metadata("while", i), "\n");
    Count(&kB, 0);
    // Plain instructions take a shape of the varied pool when there is one:
    // the text and the sizes to count.
    auto varied = [&](const ShapeInfo& fixed) {
      if (arrays_.empty()) {
        return std::make_pair(std::string(fixed.text), &fixed);
      }
      const VariedShape& v = PickArray();
      return std::make_pair(v.text, &v.info);
    };
    const auto custom = varied(kD);
    absl::StrAppend(&e, "  %custom-call.", i, " = ", custom.first,
                    " custom-call(%p3, %fusion.", i,
                    "), custom_call_target=\"tpu_custom_call\", "
                    "operand_layout_constraints={",
                    kD.text, ", ", a, "}, ", Metadata("pallas_call", i), ", ",
                    TpuCustomCallConfig(), "\n");
    // The reader counts no shapes inside attributes.
    Count(custom.second, 0);
    absl::StrAppend(&e, "  %collective-permute-start.", i, " = ", kCp.text,
                    " collective-permute-start(%p2), channel_id=", i + 1,
                    ", source_target_pairs={{0,1},{1,2},{2,3},{3,0}}, ",
                    Metadata("ppermute", i),
                    ", backend_config={\"flag_configs\":[],"
                    "\"barrier_config\":{\"barrier_type\":\"CUSTOM\","
                    "\"id\":\"",
                    i % 64,
                    "\"},\"collective_algorithm_config\":{\"emitter\":"
                    "\"RotatedPincerEmitter\",\"strategy\":"
                    "\"UNI_DIRECTIONAL1D_RING_STRATEGY\"}}\n");
    Count(&kCp, 0);
    absl::StrAppend(&e, "  %collective-permute-done.", i, " = ", kC.text,
                    " collective-permute-done(%collective-permute-start.", i,
                    "), ", Metadata("ppermute", i), "\n");
    Count(&kC, 0);
    absl::StrAppend(&e, "  %copy-start.", i, " = ", kX.text,
                    " copy-start(%p0), cross_program_prefetch_index=0, ",
                    Metadata("copy", i),
                    ", backend_config={\"flag_configs\":[],"
                    "\"scoped_memory_configs\":[],\"compute_type\":"
                    "\"COMPUTE_TYPE_DEFAULT\",\"device_type\":"
                    "\"DEVICE_TYPE_INVALID\",\"used_scoped_memory_configs\":[]}"
                    "\n");
    Count(&kX, 0);
    absl::StrAppend(&e, "  %copy-done.", i, " = ", kA1.text,
                    " copy-done(%copy-start.", i, "), ", Metadata("copy", i),
                    "\n");
    Count(&kA1, 0);
    absl::StrAppend(&e, "  %constant.", i, " = ", kJ.text,
                    " constant({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, "
                    "{ 10, 11, 12 }, { 13, 14, 15 } }), ",
                    Metadata("constant", i), "\n");
    Count(&kJ, 0);
    absl::StrAppend(&e, "  %negate.", i, " = ", kE.text, " negate(%p4), ",
                    Metadata("neg", i), "\n");
    Count(&kE, 0);
    absl::StrAppend(
        &e, "  %reduce.", i, " = ", kF.text,
        " reduce(%p2, %zero), dimensions={0}, to_apply=%add.clone, ",
        TpuFrontendAttributes(i), ", ", Metadata("reduce_sum", i), "\n");
    Count(&kF, 0);
    const auto bitcast = varied(kK);
    absl::StrAppend(&e, "  %bitcast.", i, " = ", bitcast.first,
                    " bitcast(%p6), ", Metadata("reshape", i), "\n");
    Count(bitcast.second, 0);
    absl::StrAppend(&e, "  %slice.", i, " = ", kL.text,
                    " slice(%p7), slice={[0:16], [0:128]}, ",
                    Metadata("slice", i), "\n");
    Count(&kL, 0);
    absl::StrAppend(&e, "  %custom-call.dyn.", i, " = ", kM.text,
                    " custom-call(%p11), custom_call_target=\"Sharding\", ",
                    "sharding={devices=[4,1,2]<=[2,4]T(1,0) "
                    "last_tile_dim_replicate}, ",
                    Metadata("sharding_constraint", i), "\n");
    Count(&kM, 0);
    absl::StrAppend(&e, "  %after-all.", i, " = token[] after-all()\n");
    Count(&kToken, 0);
    // XLA prints every result shape: no shapeless instruction here.
    absl::StrAppend(&e, "  %add.", i, " = ", a, " add(%fusion.", i,
                    ", %fusion.", i, "), ", Metadata("add", i), "\n");
    Count(&kA, 0);
    absl::StrAppend(&e, "  %while.", i, " = ", kT.text, " while(%tuple.", i,
                    "), condition=%while_cond", suffix, ", body=%while_body",
                    suffix, ", ", Metadata("while", i),
                    ", backend_config={\"known_trip_count\":{\"n\":\"8\"}}\n");
    Count(&kT, 0);
    absl::StrAppend(&e, "  %conditional.", i, " = ", b,
                    " conditional(%p8, %p1, %get-tuple-element.", i,
                    "), branch_computations={%branch_0", suffix, ", %branch_1",
                    suffix, "}, ", Metadata("cond", i), "\n");
    Count(&kB, 0);
    const auto copy = varied(kG);
    absl::StrAppend(&e, "  %copy.", i, " = ", copy.first, " copy(%p10), ",
                    Metadata("copy", i), ", ", TpuFusionConfig(), "\n");
    Count(copy.second, 0);
    if (arrays_.empty()) return;
    const VariedShape& va = PickArray();
    const VariedShape& vb = PickArray();
    absl::StrAppend(&e, "  %convert.v", i, " = ", va.text, " convert(%fusion.",
                    i, "), ", Metadata("convert_element_type", i), "\n");
    Count(&va.info, 0);
    absl::StrAppend(&e, "  %fusion.v", i, " = ", vb.text,
                    " fusion(%p0, %convert.v", i,
                    "), kind=kOutput, calls=%fused_computation.", i, ", ",
                    TpuFrontendAttributes(i), ", ", Metadata("dot_general", i),
                    ", ", TpuFusionConfig(), "\n");
    Count(&vb.info, 0);
    const VariedShape& t = PickTuple();
    TpuTuple(t, absl::StrCat("tuple.v", i), absl::StrCat("%convert.v", i), &e);
    absl::StrAppend(&e, "  %get-tuple-element.v", i, " = ", t.elements[0]->text,
                    " get-tuple-element(%tuple.v", i, "), index=0\n");
    Count(&t.elements[0]->info, 0);
  }

  const HloDumpOptions& options_;
  uint64_t state_;
  GeneratedHloDump out_;
  std::vector<VariedShape> arrays_;
  std::vector<VariedShape> nested_;
  std::vector<VariedShape> tuples_;
  int64_t frames_ = 3;  // stack frames in the module's table
};

}  // namespace

GeneratedHloDump GenerateHloDump(const HloDumpOptions& options) {
  return Generator(options).Run();
}

}  // namespace hlolayout
