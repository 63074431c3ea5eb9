// cli/cute_smem_command.cc: `hlolayout cute smem NAME [--shape S [--order O]]
// [--json]`, on cute/smem_atoms.h and triton/smem_twin.h.
#include "hlolayout/cli/cute_smem_command.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/types/optional.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/smem_twin.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::cli {

const absl::string_view kCuteSmemHelp =
    "usage: hlolayout cute smem NAME [--shape S [--order O]] [--json]\n"
    "\n"
    "A GMMA/UMMA shared-memory atom by its CuTe name, tiled to shape S with\n"
    "tile_to_shape (modes filled in order O, CuTe's Step; default\n"
    "column-major), and the Triton #ttg.nvmma_shared layout that is the same\n"
    "function on that memdesc shape (checked element by element), or none.\n"
    "NAME may instead be a #ttg.nvmma_shared<{...}> attribute (with --shape):\n"
    "then the answer is the CuTe atom, shape and order of its twin.\n"
    "\n"
    "  Layout          CuTe's print: the swizzle acts on byte addresses and\n"
    "                  smem_ptr[Nb](unset) marks the unset pointer\n"
    "  LayoutElements  the same function in element offsets (CuTe's\n"
    "                  as_position_independent_swizzle_layout)\n"
    "  Triton          the twin attribute and its memdesc shape, or none\n"
    "\n"
    "Names: GMMA::Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom<T> and _Bits,\n"
    "UMMA:: the same and Layout_MN_SW128_32B_Atom<T>, and\n"
    "GMMA::Layout_SW128_Atom<T, GMMA::Major::K>; T half_t, bfloat16_t, float,\n"
    "tfloat32_t, int8_t, float_e4m3_t, ... S and O as (64,64) or 64,64\n"
    "(static, as in a kernel).\n"
    "\n"
    "examples:\n"
    "  hlolayout cute smem 'GMMA::Layout_K_SW128_Atom<half_t>' --shape 128,64\n"
    "  hlolayout cute smem 'GMMA::Layout_MN_SW64_Atom<float>' --shape 64,64 "
    "\\\n"
    "      --order 2,1 --json\n"
    "  hlolayout cute smem '#ttg.nvmma_shared<{swizzlingByteWidth = 128,\n"
    "      transposed = false, elementBitWidth = 16}>' --shape 64,64\n";

namespace {

// "64,64", "(64,64)", "[64, 64]" or "(_64,_64)" as a static tuple.
absl::StatusOr<cute::IntTuple> ParseStaticShape(absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  std::string wrapped;
  if (absl::ConsumePrefix(&t, "[")) {
    if (!absl::ConsumeSuffix(&t, "]")) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape '", text, "' has no closing ']'"));
    }
    wrapped = absl::StrCat("(", t, ")");
  } else if (absl::StartsWith(t, "(")) {
    wrapped = std::string(t);
  } else {
    wrapped = absl::StrCat("(", t, ")");
  }
  absl::StatusOr<cute::IntTuple> tuple = cute::ParseIntTuple(wrapped);
  if (!tuple.ok()) return tuple.status();
  return cute::WithTags(*tuple, /*is_static=*/true);
}

void WriteTwin(JsonWriter& json, const triton::NvmmaTwin* twin) {
  json.Key("Triton");
  if (twin == nullptr) {
    json.String("none");
  } else {
    json.String(twin->attr);
    json.Key("MemdescShape").IntArray(twin->memdesc_shape);
  }
}

int Fail(IoContext& io, absl::string_view message, int code = 1) {
  io.err << "hlolayout cute smem: " << message << "\n";
  return code;
}

}  // namespace

int RunCuteSmem(const std::vector<std::string>& args, IoContext& io) {
  absl::StatusOr<Args> parsed = ParseArgs(args, {"json"}, {"shape", "order"});
  if (!parsed.ok()) return Fail(io, parsed.status().message(), 2);
  if (parsed->positional.size() != 1) {
    return Fail(io, "takes one NAME (hlolayout cute smem --help)", 2);
  }
  const bool json_out = parsed->Has("json");
  absl::optional<cute::IntTuple> shape, order;
  if (parsed->Has("shape")) {
    absl::StatusOr<cute::IntTuple> s =
        ParseStaticShape(parsed->Value("shape", ""));
    if (!s.ok())
      return Fail(io, absl::StrCat("--shape: ", s.status().message()), 2);
    shape = *s;
  }
  if (parsed->Has("order")) {
    if (!shape) return Fail(io, "--order needs --shape", 2);
    absl::StatusOr<cute::IntTuple> o =
        ParseStaticShape(parsed->Value("order", ""));
    if (!o.ok())
      return Fail(io, absl::StrCat("--order: ", o.status().message()), 2);
    order = *o;
  }
  const std::string& name = parsed->positional[0];
  JsonWriter json;
  json.BeginObject();
  std::string text;
  if (absl::StartsWith(name, "#")) {
    // Triton -> CuTe.
    absl::StatusOr<triton::Layout> l = triton::ParseLayout(name);
    if (!l.ok()) return Fail(io, l.status().message());
    const triton::NvmmaSharedLayout* nvmma =
        l->get<triton::NvmmaSharedLayout>();
    if (nvmma == nullptr) {
      return Fail(
          io, absl::StrCat("'", name, "' is not a #ttg.nvmma_shared layout"));
    }
    if (!shape || cute::Rank(*shape) != 2 || order) {
      return Fail(io, "a Triton layout needs --shape D0,D1 (and no --order)",
                  2);
    }
    std::vector<int64_t> dims = cute::Flatten(*shape);
    absl::StatusOr<absl::optional<triton::CuteSmemTwin>> twin =
        triton::CuteTwinOf(*nvmma, dims);
    if (!twin.ok()) return Fail(io, twin.status().message());
    json.Key("Triton").String(triton::NvmmaAttr(*nvmma));
    json.Key("MemdescShape").IntArray(dims);
    if (!twin->has_value()) {
      json.Key("Atom").String("none");
      text =
          absl::StrCat("Triton: ", triton::NvmmaAttr(*nvmma), "\nAtom: none\n");
    } else {
      const triton::CuteSmemTwin& t = **twin;
      const std::string layout = cute::ToString(t.tile.layout);
      const std::string elements = cute::ToString(t.tile.elements);
      json.Key("Atom").String(t.atom);
      json.Key("Shape").String(cute::ToString(t.shape));
      json.Key("Order").String(t.order ? cute::ToString(*t.order) : "none");
      json.Key("Layout").String(layout);
      json.Key("LayoutElements").String(elements);
      text = absl::StrCat(
          "Atom: ", t.atom, "\nShape: ", cute::ToString(t.shape),
          "\nOrder: ", t.order ? cute::ToString(*t.order) : "none",
          "\nLayout: ", layout, "\nLayoutElements: ", elements, "\n");
    }
  } else {
    absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(name);
    if (!atom.ok()) return Fail(io, atom.status().message());
    absl::StatusOr<cute::SmemTile> tile =
        cute::TileSmemAtom(*atom, shape, order);
    if (!tile.ok()) return Fail(io, tile.status().message());
    absl::StatusOr<absl::optional<triton::NvmmaTwin>> twin =
        triton::NvmmaTwinOf(*atom, *tile);
    if (!twin.ok()) return Fail(io, twin.status().message());
    const std::string layout = cute::ToString(tile->layout);
    const std::string elements = cute::ToString(tile->elements);
    json.Key("Layout").String(layout);
    json.Key("LayoutElements").String(elements);
    WriteTwin(json, twin->has_value() ? &**twin : nullptr);
    text =
        absl::StrCat("Layout: ", layout, "\nLayoutElements: ", elements,
                     "\nTriton: ", twin->has_value() ? (*twin)->attr : "none");
    if (twin->has_value()) {
      absl::StrAppend(&text, " on memdesc shape [",
                      absl::StrJoin((*twin)->memdesc_shape, ", "), "]");
    }
    text += "\n";
  }
  json.EndObject();
  io.out << (json_out ? json.str() + "\n" : text);
  return 0;
}

}  // namespace hlolayout::cli
