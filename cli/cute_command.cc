// `hlolayout cute OP ARGS...`: CuTe's layout algebra from the shell, and
// the batch op `cute<TAB>OP<TAB>ARG1[<TAB>ARG2]`. The logic lives in
// //cute:ops; this file only adapts it to the CLI.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "hlolayout/answers/cute_algebra.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/cute_atom_command.h"
#include "hlolayout/cli/cute_smem_command.h"
#include "hlolayout/cli/picture_commands.h"

namespace hlolayout::cli {
namespace {

// The subcommands beside the ops and the atoms' (cli/cute_atom_command.cc).
struct OtherSub {
  absl::string_view name;
  absl::string_view summary;
  const absl::string_view* help;
  int (*run)(const std::vector<std::string>& args, IoContext& io);
};
const OtherSub kOtherSubs[] = {
    {"smem",
     "NAME [--shape S]: a GMMA/UMMA shared-memory atom tiled, its Triton twin",
     &kCuteSmemHelp, RunCuteSmem},  // cli/cute_smem_command.cc
    {"draw", "L | --tv THR VAL --tile M,N: a picture of a layout",
     &kCuteDrawHelp, RunCuteDraw},  // cli/picture_commands.cc
};

// Every subcommand, in the order the help lists them.
std::vector<std::string> CuteSubcommands() {
  std::vector<std::string> out;
  for (const answers::CuteOpInfo& op : answers::CuteOps())
    out.emplace_back(op.name);
  for (const std::string& name : CuteAtomSubcommandNames()) out.push_back(name);
  for (const OtherSub& s : kOtherSubs) out.emplace_back(s.name);
  return out;
}

absl::string_view CuteHelp() {
  static const std::string* help = [] {
    std::string text =
        "usage: hlolayout cute OP ARG1 [ARG2 [ARG3]]\n"
        "\n"
        "CuTe's layout algebra with run-time checks. Layouts are written in\n"
        "CuTe's notation: (6,2):(8,2), ((2,2),3):((24,2),8), 12:1, the rank-1\n"
        "(4):(1), (); a shape alone means compact column-major strides.\n"
        "Integers written _8 are static, plain ones dynamic, and results\n"
        "print as CuTe prints them: (_8,_8):(_8,_1). Swizzles Sw<3,4,3> and\n"
        "composed layouts Sw<3,4,3> o _0 o (_8,_64):(_64,_1) are read too.\n"
        "Tilers are <3:4, 8:2>, CuTe's (_3:_4,_8:_2), a shape (3,8) or an\n"
        "integer. A failed precondition prints one sentence naming the\n"
        "operation, the layouts, the mode and the condition (exit status 1).\n"
        "\n"
        "ops:\n";
    for (const answers::CuteOpInfo& op : answers::CuteOps()) {
      absl::StrAppendFormat(&text, "  %-30s %s\n", op.usage, op.summary);
    }
    absl::StrAppend(&text,
                    "\natoms, shared memory and pictures (hlolayout cute SUB "
                    "--help):\n",
                    CuteAtomSubcommandSummaries());
    for (const OtherSub& s : kOtherSubs) {
      absl::StrAppendFormat(&text, "  %-30s %s\n", s.name, s.summary);
    }
    absl::StrAppend(
        &text,
        "\n"
        "examples:\n"
        "  hlolayout cute composition '(6,2):(8,2)' '(4,3):(3,1)'\n"
        "      -> ((2,2),3):((24,2),8)\n"
        "  hlolayout cute composition '(12,(4,8)):(59,(13,1))' '<3:4, 8:2>'\n"
        "      -> (3,(2,4)):(236,(26,1))\n"
        "  hlolayout cute complement _4:_2 _24          -> (_2,_3):(_1,_8)\n"
        "  hlolayout cute logical_divide '(2,4,3):(4,1,8)' 4:2\n"
        "      -> (4,(2,3)):(1,(4,8))\n"
        "  hlolayout cute blocked_product '(2,2):(1,2)' 3:1\n"
        "      -> ((2,3),(2,_1)):((1,4),(2,_0))\n"
        "  hlolayout cute offsets 'Sw<1,0,1> o _0 o (_2,_2):(_2,_1)'\n"
        "      -> [0, 3, 1, 2]\n"
        "  hlolayout cute table '(2,3):(3,1)'           (a grid of offsets)\n"
        "  hlolayout cute smem 'GMMA::Layout_K_SW128_Atom<half_t>' --shape "
        "128,64\n"
        "      (a shared-memory atom tiled, and its Triton twin; see\n"
        "      hlolayout cute smem --help)\n"
        "  hlolayout cute draw '(4,(2,2)):(2,(1,8))'    (a picture; see\n"
        "      hlolayout cute draw --help, also --tv THR VAL --tile M,N)\n"
        "  printf 'cute\\tcoalesce\\t(2,(1,6)):(1,(6,2))\\n' | hlolayout "
        "batch\n"
        "      -> 12:1\n");
    return new std::string(std::move(text));
  }();
  return *help;
}

int RunCute(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    io.err << "hlolayout cute: missing OP (hlolayout cute --help lists them)\n";
    return 2;
  }
  const OtherSub* other = nullptr;
  for (const OtherSub& s : kOtherSubs) {
    if (args[0] == s.name) other = &s;
  }
  const bool atom = IsCuteAtomSubcommand(args[0]);
  const answers::CuteOpInfo* op = answers::FindCuteOp(args[0]);
  if (other == nullptr && !atom && op == nullptr) {
    if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
      io.out << CuteHelp();
      return 0;
    }
    return UnknownSubcommand(io.err, "cute", "op", args[0], CuteSubcommands());
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string& a : rest) {  // has_subcommands: --help is ours
    if (a == "--") break;
    if (a == "--help" || a == "-h") {
      io.out << (other != nullptr ? *other->help
                 : atom           ? CuteAtomSubcommandHelp(args[0])
                                  : CuteHelp());
      return 0;
    }
  }
  if (other != nullptr) return other->run(rest, io);
  if (atom) return RunCuteAtomSubcommand(args, io);
  // The algebra's ops take no flags.
  absl::StatusOr<Args> parsed = ParseArgs(rest, {}, {});
  if (!parsed.ok()) {
    io.err << "hlolayout cute " << args[0] << ": " << parsed.status().message()
           << "\n";
    return 2;
  }
  std::vector<absl::string_view> operands(parsed->positional.begin(),
                                          parsed->positional.end());
  absl::StatusOr<std::string> result =
      answers::AnswerCuteOp({args[0], operands});
  if (!result.ok()) {
    io.err << "hlolayout cute " << args[0] << ": " << result.status().message()
           << "\n";
    const int n = static_cast<int>(operands.size());
    return n < op->min_args || n > op->max_args ? 2 : 1;
  }
  io.out << *result;
  if (result->empty() || result->back() != '\n') io.out << "\n";
  return 0;
}

absl::StatusOr<std::string> BatchCute(absl::Span<const absl::string_view> args,
                                      BatchCache& /*cache*/) {
  absl::StatusOr<std::string> result =
      answers::AnswerCuteOp({args[0], args.subspan(1)});
  if (!result.ok()) return result.status();
  // `table` answers several lines; a batch answer is one line.
  std::string line = *std::move(result);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return absl::StrReplaceAll(line, {{"\n", " | "}});
}

}  // namespace

extern const Command kCuteCommand;
const Command kCuteCommand = {
    "cute",
    "CuTe layout algebra: composition, complement, divides, products, ...",
    CuteHelp(),
    RunCute,
    /*help_builder=*/nullptr,
    /*has_subcommands=*/true,
    CuteSubcommands,
};

extern const BatchOp kCuteBatchOp;
const BatchOp kCuteBatchOp = {
    "cute", 2, 4,
    "cute<TAB>OP<TAB>ARG1[<TAB>ARG2[<TAB>ARG3]] -> the printed layout",
    BatchCute};

}  // namespace hlolayout::cli
