// `hlolayout verify`: HLO modules checked as XLA's verifier checks them after
// its parser (hlo/verifier.h), beside what the reader itself refuses.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/verifier.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kVerifyHelp =
    R"(usage: hlolayout verify [--all] [--mixed-precision] [FILE... | -]
  --help             this text
  --all              every instruction that breaks a rule (default: the
                     first of each file)
  --mixed-precision  floating-point types may differ between an elementwise
                     instruction and its operands (XLA's
                     allow_mixed_precision)

Reads each file (standard input without one) as `hlolayout report` does,
then checks what only shapes say, as XLA's HloVerifier does after its
parser (docs/hlo-text.md, "The verifier"): elementwise instructions have
their operands' dimensions and the element type the opcode gives, a tuple
is the tuple of its operands' shapes, a get-tuple-element is an element of
its tuple, a parameter is its signature's. Layouts are not compared.
Prints "FILE: N modules verified" and exits 0, or each error with its line,
column and caret on stderr and exits 1.

examples:
  hlolayout verify module_0001.jit_step.sm_9.0a_gpu_after_optimizations.txt
  printf 'HloModule m\nENTRY %%e (p: f32[2]) -> f32[3] {\n  %%p = f32[2]{0} parameter(0)\n  ROOT %%n = f32[3]{0} negate(%%p)\n}\n' | hlolayout verify
)";

// Verifies the modules of one input: 0, or 1 after its errors printed.
int VerifyInput(const std::string& path, bool all, bool mixed, IoContext& io) {
  absl::StatusOr<std::unique_ptr<InputText>> input = OpenInput(path, io);
  if (!input.ok()) {
    io.err << "hlolayout verify: " << input.status().message() << "\n";
    return 1;
  }
  const std::string name = path == "-" ? "<stdin>" : path;
  const absl::string_view text = (*input)->view();
  HloReadOptions read;
  read.file_name = name;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, read);
  if (!modules.ok()) {
    io.err << "hlolayout verify: " << modules.status().message() << "\n";
    return 1;
  }
  HloVerifyOptions options;
  options.file_name = name;
  options.allow_mixed_precision = mixed;
  int64_t errors = 0;
  for (const HloModule& module : *modules) {
    std::vector<absl::Status> found;
    if (all) {
      found = VerifyHloModuleAll(text, module, options);
    } else if (absl::Status s = VerifyHloModule(text, module, options);
               !s.ok()) {
      found.push_back(s);
    }
    for (const absl::Status& s : found) {
      io.err << "hlolayout verify: " << s.message() << "\n";
    }
    errors += static_cast<int64_t>(found.size());
    if (!all && errors > 0) break;
  }
  if (errors > 0) return 1;
  io.out << name << ": " << modules->size()
         << (modules->size() == 1 ? " module" : " modules") << " verified\n";
  return 0;
}

int RunVerify(const std::vector<std::string>& raw_args, IoContext& io) {
  const std::vector<absl::string_view> switches = {"all", "mixed-precision"};
  absl::StatusOr<Args> args = ParseArgs(raw_args, switches, {});
  if (!args.ok()) {
    io.err << "hlolayout verify: " << args.status().message() << "\n";
    return 2;
  }
  std::vector<std::string> paths = args->positional;
  if (paths.empty()) paths.push_back("-");
  int status = 0;
  for (const std::string& path : paths) {
    if (VerifyInput(path, args->Has("all"), args->Has("mixed-precision"), io) !=
        0) {
      status = 1;
    }
  }
  return status;
}

}  // namespace

extern const Command kVerifyCommand;
const Command kVerifyCommand = {
    "verify",
    "check HLO modules as XLA's verifier does after its parser (each "
    "instruction's shape against its operands')",
    kVerifyHelp,
    RunVerify,
};

}  // namespace hlolayout::cli
