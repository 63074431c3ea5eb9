// cute/ops.cc: text-level dispatch of every cute operation.
#include "hlolayout/cute/ops.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composed_ops.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/coord_layout.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/xla_shape.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// The most offsets `offsets` lists (about 8 MB of text).
constexpr int64_t kMaxOffsets = int64_t{1} << 20;

constexpr CuteOpInfo kOps[] = {
    {"coalesce", 1, 2, "coalesce L [PROFILE]",
     "merge modes without changing the function (by mode with PROFILE)"},
    {"filter", 1, 2, "filter L [PROFILE]",
     "coalesce after dropping stride-0 modes"},
    {"composition", 2, 2, "composition A B",
     "R(i) = A(B(i)); B a layout, shape, integer or tiler <...>"},
    {"complement", 1, 2, "complement A [COTARGET]",
     "the layout of the rest of A's codomain up to COTARGET"},
    {"right_inverse", 1, 1, "right_inverse L", "R with L(R(i)) == i"},
    {"left_inverse", 1, 1, "left_inverse L", "R with L(R(L(i))) == L(i)"},
    {"logical_divide", 2, 2, "logical_divide A TILER",
     "((TM,RM),(TN,RN),L,...)"},
    {"zipped_divide", 2, 2, "zipped_divide A TILER", "((TM,TN),(RM,RN,L,...))"},
    {"tiled_divide", 2, 2, "tiled_divide A TILER", "((TM,TN),RM,RN,L,...)"},
    {"flat_divide", 2, 2, "flat_divide A TILER", "(TM,TN,RM,RN,L,...)"},
    {"logical_product", 2, 2, "logical_product A TILER",
     "((M,TM),(N,TN),L,...)"},
    {"zipped_product", 2, 2, "zipped_product A TILER", "((M,N),(TM,TN,L,...))"},
    {"tiled_product", 2, 2, "tiled_product A TILER", "((M,N),TM,TN,L,...)"},
    {"flat_product", 2, 2, "flat_product A TILER", "(M,N,TM,TN,L,...)"},
    {"blocked_product", 2, 2, "blocked_product A B", "((A0,B0),(A1,B1),...)"},
    {"raked_product", 2, 2, "raked_product A B", "((B0,A0),(B1,A1),...)"},
    {"size", 1, 1, "size L", "the number of coordinates"},
    {"cosize", 1, 1, "cosize L", "1 + the largest offset span"},
    {"rank", 1, 1, "rank L", "the number of top-level modes"},
    {"depth", 1, 1, "depth L", "the nesting depth of the shape"},
    {"flatten", 1, 1, "flatten L", "the leaves as one flat layout"},
    {"get", 2, 2, "get L I", "mode I of L (CuTe's layout<I>)"},
    {"make_layout", 2, 2, "make_layout A B", "the concatenation (A,B)"},
    {"crd2idx", 2, 2, "crd2idx L COORD",
     "the offset of a 1-D, flat or hierarchical coordinate"},
    {"idx2crd", 2, 2, "idx2crd L COORD",
     "the natural coordinate of an index in L's shape"},
    {"congruent", 2, 2, "congruent A B", "true when the shapes match as trees"},
    {"compatible", 2, 2, "compatible A B",
     "true when every coordinate of A's shape is one of B's"},
    {"table", 1, 1, "table L", "a rank-2 layout as a grid (print_layout)"},
    {"offsets", 1, 1, "offsets L",
     "[L(0), ..., L(size-1)] as JSON; L a layout, swizzle or composed layout"},
    {"upcast", 2, 2, "upcast L N",
     "L in units of N elements (CuTe's upcast<N>)"},
    {"downcast", 2, 2, "downcast L N",
     "L in units of 1/N element (CuTe's downcast<N>)"},
    {"recast_layout", 3, 3, "recast_layout L OLD NEW",
     "L between element types or widths, e.g. uint8_t half_t, or 8 16"},
    {"tile_to_shape", 2, 3, "tile_to_shape A SHAPE [ORDER]",
     "A repeated to SHAPE, modes filled in ORDER (default column-major)"},
    {"slice", 2, 2, "slice L COORD",
     "the modes of L where COORD has _, e.g. (_,5)"},
    {"slice_and_offset", 2, 2, "slice_and_offset L COORD",
     "(slice, offset of COORD with _ as 0), as CuTe prints the pair"},
    {"identity", 1, 1, "identity SHAPE",
     "make_identity_layout: SHAPE with ScaledBasis strides, (4,4):(1@0,1@1)"},
    {"from_xla", 1, 1, "from_xla SHAPE",
     "an XLA tiled layout as a layout of the logical coordinate, e.g. "
     "'f32[3,5]{1,0:T(2,2)}'"},
};

absl::StatusOr<std::string> Print(const absl::StatusOr<Layout>& l) {
  if (!l.ok()) return l.status();
  return ToString(*l);
}

// Layouts with ScaledBasis strides (`1@0`, cute/coord_layout.h): the ops
// that take them, and a clear error from the others.
absl::StatusOr<std::string> RunScaledBasis(
    absl::string_view op, absl::Span<const absl::string_view> args) {
  if (op == "composition") {
    if (absl::StrContains(args[0], '@')) {
      return absl::InvalidArgumentError(
          "composition: A with scaled-basis strides is not supported (B may "
          "have them)");
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout a, ParseLayout(args[0]));
    HLOLAYOUT_ASSIGN_OR_RETURN(CoordLayout b, ParseCoordLayout(args[1]));
    return Print(ComposeWithCoordLayout(a, b));
  }
  if (op == "crd2idx" && !absl::StrContains(args[1], '@')) {
    HLOLAYOUT_ASSIGN_OR_RETURN(CoordLayout l, ParseCoordLayout(args[0]));
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple coord, ParseIntTuple(args[1]));
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple crd, EvaluateCoord(l, coord));
    return ToString(crd);
  }
  if ((op == "size" || op == "rank" || op == "depth") && args.size() == 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(CoordLayout l, ParseCoordLayout(args[0]));
    if (op == "size") return absl::StrCat(l.size());
    if (op == "rank") return absl::StrCat(Rank(l.shape()));
    return absl::StrCat(Depth(l.shape()));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      op,
      ": scaled-basis strides (@) are supported only by composition (as B), "
      "crd2idx, size, rank and depth"));
}

// Whether `text` needs the swizzle/composed-layout parser (a layout alone
// goes through ParseLayout, whose messages are the layout's).
bool IsAnyLayoutText(absl::string_view text) {
  return absl::StrContains(text, "Sw") || absl::StrContains(text, " o ") ||
         absl::StrContains(text, "smem_ptr");
}

absl::StatusOr<std::vector<int64_t>> OffsetValues(const AnyLayout& l) {
  if (l.size() > kMaxOffsets) {
    return absl::InvalidArgumentError(absl::StrCat(
        "offsets: ", ToString(l), " has ", l.size(),
        " elements, more than the ", kMaxOffsets, " listed at most"));
  }
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(l.size()));
  for (int64_t i = 0; i < l.size(); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t v, l.TryEvaluate(i));
    out.push_back(v);
  }
  return out;
}

// The offsets as a JSON array, "[0, 2, 1, 3]".
absl::StatusOr<std::string> Offsets(const AnyLayout& l) {
  HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<int64_t> v, OffsetValues(l));
  return AnswerJson(v);
}

absl::StatusOr<std::string> PrintAny(const absl::StatusOr<AnyLayout>& l) {
  if (!l.ok()) return l.status();
  return ToString(*l);
}

// A count or width operand: a positive integer, `_` prefix allowed.
absl::StatusOr<int64_t> ParseCount(absl::string_view op,
                                   absl::string_view text) {
  absl::string_view digits = text;
  if (!digits.empty() && digits[0] == '_') digits.remove_prefix(1);
  int64_t n;
  if (!absl::SimpleAtoi(digits, &n) || n < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": N must be a positive integer, found '", text, "'"));
  }
  return n;
}

// SHAPE and ORDER of tile_to_shape: static, as in every CuTe kernel (a
// plain integer is read as static here).
absl::StatusOr<IntTuple> ParseStaticTuple(absl::string_view text) {
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple t, ParseIntTuple(text));
  return WithTags(t, /*is_static=*/true);
}

absl::StatusOr<DivideKind> DivideKindOf(absl::string_view op) {
  if (op == "logical_divide") return DivideKind::kLogical;
  if (op == "zipped_divide") return DivideKind::kZipped;
  if (op == "tiled_divide") return DivideKind::kTiled;
  if (op == "flat_divide") return DivideKind::kFlat;
  return absl::NotFoundError("");
}

absl::StatusOr<ProductKind> ProductKindOf(absl::string_view op) {
  if (op == "logical_product") return ProductKind::kLogical;
  if (op == "zipped_product") return ProductKind::kZipped;
  if (op == "tiled_product") return ProductKind::kTiled;
  if (op == "flat_product") return ProductKind::kFlat;
  return absl::NotFoundError("");
}

// Every op on layouts, swizzles and composed layouts (cute/composed_ops.h).
absl::StatusOr<std::string> RunAny(absl::string_view op,
                                   absl::Span<const absl::string_view> args) {
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout a, ParseAnyLayout(args[0]));
  const bool two = args.size() >= 2;
  if (op == "offsets") return Offsets(a);
  if (op == "size") return absl::StrCat(a.size());
  if (op == "cosize") return absl::StrCat(a.cosize());
  if (op == "rank") return absl::StrCat(a.rank());
  if (op == "depth") return absl::StrCat(a.depth());
  if (op == "table") return PrintTable(a);
  if (op == "crd2idx") {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple coord, ParseIntTuple(args[1]));
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t offset, a.Evaluate(coord));
    return absl::StrCat(offset);
  }
  if (op == "coalesce" || op == "filter") {
    absl::optional<IntTuple> profile;
    if (two) {
      HLOLAYOUT_ASSIGN_OR_RETURN(profile, ParseIntTuple(args[1]));
    }
    return PrintAny(op == "coalesce" ? CoalesceOf(a, profile)
                                     : FilterOf(a, profile));
  }
  if (op == "complement") {
    absl::optional<IntTuple> cotarget;
    if (two) {
      HLOLAYOUT_ASSIGN_OR_RETURN(cotarget, ParseIntTuple(args[1]));
    }
    return Print(ComplementOf(a, cotarget));
  }
  if (op == "right_inverse") return PrintAny(RightInverseOf(a));
  if (op == "left_inverse") return PrintAny(LeftInverseOf(a));
  if (op == "flatten") return PrintAny(FlattenOf(a));
  if (op == "get") {
    int i;
    if (!absl::SimpleAtoi(args[1], &i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("get: mode '", args[1], "' is not a number"));
    }
    return PrintAny(GetMode(a, i));
  }
  if (op == "upcast" || op == "downcast") {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t n, ParseCount(op, args[1]));
    return PrintAny(op == "upcast" ? UpcastOf(a, n) : DowncastOf(a, n));
  }
  if (op == "recast_layout") {
    HLOLAYOUT_ASSIGN_OR_RETURN(int old_bits, SizeofBits(args[1]));
    HLOLAYOUT_ASSIGN_OR_RETURN(int new_bits, SizeofBits(args[2]));
    return PrintAny(RecastLayoutOf(a, old_bits, new_bits));
  }
  if (op == "tile_to_shape") {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple shape, ParseStaticTuple(args[1]));
    absl::optional<IntTuple> order;
    if (args.size() == 3) {
      HLOLAYOUT_ASSIGN_OR_RETURN(order, ParseStaticTuple(args[2]));
    }
    return PrintAny(TileToShapeOf(a, shape, order));
  }
  if (op == "slice" || op == "slice_and_offset") {
    HLOLAYOUT_ASSIGN_OR_RETURN(SliceCoord c, ParseSliceCoord(args[1]));
    HLOLAYOUT_ASSIGN_OR_RETURN(SlicedAnyLayout s, SliceAndOffsetOf(c, a));
    if (op == "slice") return ToString(s.layout);
    return absl::StrCat("(", ToString(s.layout), ",",
                        ToString(IntTuple(s.offset)), ")");
  }
  if (op == "blocked_product" || op == "raked_product") {
    HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout b, ParseAnyLayout(args[1]));
    return PrintAny(op == "blocked_product" ? BlockedProductOf(a, b)
                                            : RakedProductOf(a, b));
  }
  const bool b_is_any = two && IsAnyLayoutText(args[1]);
  if (op == "composition") {
    if (b_is_any) {
      HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout b, ParseAnyLayout(args[1]));
      return PrintAny(Compose(a, b));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Tiler b, ParseTiler(args[1]));
    return PrintAny(Compose(a, b));
  }
  if (absl::StatusOr<DivideKind> kind = DivideKindOf(op); kind.ok()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Tiler b, ParseTiler(args[1]));
    return PrintAny(Divide(*kind, a, b));
  }
  if (absl::StatusOr<ProductKind> kind = ProductKindOf(op); kind.ok()) {
    if (b_is_any) {
      HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout b, ParseAnyLayout(args[1]));
      return PrintAny(Product(*kind, a, b));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Tiler b, ParseTiler(args[1]));
    return PrintAny(Product(*kind, a, b));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      op, ": takes layouts only, not swizzles or composed layouts"));
}

// The ops added with swizzles, which take plain layouts through RunAny too.
bool IsAnyOnlyOp(absl::string_view op) {
  return op == "offsets" || op == "upcast" || op == "downcast" ||
         op == "recast_layout" || op == "tile_to_shape" || op == "slice" ||
         op == "slice_and_offset";
}

absl::StatusOr<std::string> Run(absl::string_view op,
                                absl::Span<const absl::string_view> args) {
  if (op == "identity") {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple shape, ParseIntTuple(args[0]));
    HLOLAYOUT_ASSIGN_OR_RETURN(CoordLayout l, IdentityCoordLayout(shape));
    return ToString(l);
  }
  for (absl::string_view arg : args) {
    if (absl::StrContains(arg, '@')) return RunScaledBasis(op, args);
  }
  if (IsAnyOnlyOp(op) || IsAnyLayoutText(args[0]) ||
      (args.size() > 1 && IsAnyLayoutText(args[1]))) {
    return RunAny(op, args);
  }
  if (op == "from_xla") {
    HLOLAYOUT_ASSIGN_OR_RETURN(hlolayout::Shape shape,
                               hlolayout::ParseShape(args[0]));
    return Print(XlaShapeToCute(shape));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout a, ParseLayout(args[0]));
  const bool two = args.size() == 2;
  if (op == "coalesce" || op == "filter") {
    const bool coalesce = op == "coalesce";
    if (!two) return ToString(coalesce ? Coalesce(a) : Filter(a));
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple profile, ParseIntTuple(args[1]));
    return Print(coalesce ? Coalesce(a, profile) : Filter(a, profile));
  }
  if (op == "complement") {
    if (!two) return Print(Complement(a));
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple cotarget, ParseIntTuple(args[1]));
    return Print(Complement(a, cotarget));
  }
  if (op == "right_inverse") return ToString(RightInverse(a));
  if (op == "left_inverse") return Print(LeftInverse(a));
  if (op == "size") return absl::StrCat(a.size());
  if (op == "cosize") return absl::StrCat(a.cosize());
  if (op == "rank") return absl::StrCat(a.rank());
  if (op == "depth") return absl::StrCat(a.depth());
  if (op == "flatten") return ToString(FlattenLayout(a));
  if (op == "table") return PrintTable(a);
  if (op == "get") {
    int i;
    if (!absl::SimpleAtoi(args[1], &i) || i < 0 || i >= a.rank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "get: mode '", args[1], "' is not in 0..", a.rank() - 1));
    }
    return ToString(a.mode(i));
  }
  if (op == "crd2idx" || op == "idx2crd") {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple coord, ParseIntTuple(args[1]));
    if (op == "crd2idx") {
      HLOLAYOUT_ASSIGN_OR_RETURN(int64_t offset, a.Evaluate(coord));
      return absl::StrCat(offset);
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple crd, IdxToCrd(coord, a.shape()));
    return ToString(crd);
  }
  if (op == "make_layout" || op == "congruent" || op == "compatible" ||
      op == "blocked_product" || op == "raked_product") {
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout b, ParseLayout(args[1]));
    if (op == "make_layout") return Print(MakeLayout({a, b}));
    if (op == "congruent") return Congruent(a, b) ? "true" : "false";
    if (op == "compatible") return Compatible(a, b) ? "true" : "false";
    if (op == "blocked_product") return Print(BlockedProduct(a, b));
    return Print(RakedProduct(a, b));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(Tiler b, ParseTiler(args[1]));
  if (op == "composition") return Print(Composition(a, b));
  if (op == "logical_divide") return Print(LogicalDivide(a, b));
  if (op == "zipped_divide") return Print(ZippedDivide(a, b));
  if (op == "tiled_divide") return Print(TiledDivide(a, b));
  if (op == "flat_divide") return Print(FlatDivide(a, b));
  if (op == "logical_product") return Print(LogicalProduct(a, b));
  if (op == "zipped_product") return Print(ZippedProduct(a, b));
  if (op == "tiled_product") return Print(TiledProduct(a, b));
  if (op == "flat_product") return Print(FlatProduct(a, b));
  return absl::InternalError(absl::StrCat("cute op '", op, "' not wired"));
}

}  // namespace

absl::Span<const CuteOpInfo> CuteOps() { return kOps; }

const CuteOpInfo* FindCuteOp(absl::string_view name) {
  for (const CuteOpInfo& info : kOps) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

absl::StatusOr<std::vector<int64_t>> CuteOffsets(absl::string_view layout) {
  if (absl::StrContains(layout, '@')) {
    return RunScaledBasis("offsets", {layout}).status();
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout a, ParseAnyLayout(layout));
  return OffsetValues(a);
}

absl::StatusOr<std::string> RunCuteOp(
    absl::string_view op, absl::Span<const absl::string_view> args) {
  const CuteOpInfo* info = FindCuteOp(op);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown cute op '", op, "'"));
  }
  const int n = static_cast<int>(args.size());
  if (n < info->min_args || n > info->max_args) {
    const std::string count =
        info->min_args == info->max_args
            ? absl::StrCat(info->min_args)
            : absl::StrCat(info->min_args, " or ", info->max_args);
    return absl::InvalidArgumentError(
        absl::StrCat(op, " takes ", count, " operand",
                     info->max_args == 1 ? "" : "s", ": ", info->usage));
  }
  return Run(op, args);
}

}  // namespace hlolayout::cute
