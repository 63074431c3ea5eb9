// cli/cute_smem_command.cc: `hlolayout cute smem NAME [--shape S [--order O]]
// [--json]`, on cute/smem_atoms.h and answers/smem_twin.h.
#include "hlolayout/cli/cute_smem_command.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/triton_smem.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/triton_smem_text.h"

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
  std::optional<cute::IntTuple> shape, order;
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
  absl::StatusOr<triton::SmemTwinAnswer> answer;
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
    answer = triton::AnswerNvmmaShared(*nvmma, cute::Flatten(*shape));
  } else {
    answer = triton::AnswerSmemAtom(name, shape, order);
  }
  if (!answer.ok()) return Fail(io, answer.status().message());
  io.out << (json_out ? AnswerJson(*answer) + "\n"
                      : triton::SmemTwinText(*answer));
  return 0;
}

}  // namespace hlolayout::cli
