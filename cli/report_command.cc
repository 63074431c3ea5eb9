// `hlolayout report`: memory and padding report of HLO dumps (the files XLA
// writes with --xla_dump_to).
#include <cstdint>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dump_folder_table.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/report/report.h"
#include "hlolayout/views/allocation_text.h"
#include "hlolayout/views/html.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kReportHelp =
    R"(usage: hlolayout report [--json] [--summary] [--sort=KEY] [--top=N]
                        [--keep-going] [--threads=N] [--example]
                        [--html FILE] [--html-rows=N] [FILE... | DIR | -]

Reads HLO module text (module_*.after_optimizations.txt from --xla_dump_to,
several modules per file split by '// -----' lines are fine) and reports,
for every instruction of every computation: opcode, shape with layout,
memory space (S(n): hbm, vmem, host, sN; 'mixed' for tuples across spaces),
logical bytes, padded bytes (every tile level, L(n) tail alignment, E(n)
packing) and the expansion factor; then totals per module and per memory
space, and the top padding wasters with the reason (which dimension is not a
multiple of which tile). A padding waster is a buffer, listed once however
many instructions name it (a loop's state is its initial value, the loop,
the body's parameter and result, and the get-tuple-elements and tuples
that pass it on): by the value defined first, with the other values that
take its place ("also defined by") and its other names ("aliases"), as
XLA's alias analysis groups them (docs/memory.md).

Two totals per module and per memory space. The headline, "buffers", is
the bytes of the values the module defines, by XLA's dataflow rules: a
bitcast, get-tuple-element, while, call, conditional, opt-barrier, domain,
add-dependency or *-done result is an alias and adds nothing, a tuple adds
only its index table (8 bytes per element), parameters of while bodies,
called computations and branches alias the caller's operands, and nothing
inside fusion bodies or reducers is a module buffer. The table marks each
row: new, part (some indices new), alias, fused. The second total, "all
instruction results", counts the result of every instruction of every
computation (aliases and fused internals again); there bytes of a
tuple-shaped instruction are the sum over its array leaves. Bounded dims (<=N) count at their
bound; leaves with unbounded dims (?) are not sized and are counted apart.
Sums that would pass INT64_MAX stop there and are marked as overflow.

With no FILE reads standard input; with no arguments at all, reports a small
dump built into the binary. An input without a module (empty, or comments
only) is an error. A dump folder (DIR) gives one table of its modules (see
below); every flag applies to files, globs and folders alike.

flags:
  --json         the same data as JSON (keys: modules[].name,
                 entry_computation, totals{computations, instructions,
                 instructions_without_shape, buffer_values,
                 buffer_logical_bytes, buffer_padded_bytes, array_leaves,
                 unsized_array_leaves, array_leaf_logical_bytes,
                 array_leaf_padded_bytes, padding_bytes, expansion,
                 overflow}, memory_spaces[], top_padding_wasters[],
                 instructions[]; errors[])
  --summary      totals and memory spaces only (with --json too)
  --sort=KEY     the order of the table (keys below; default: as in the
                 file, and for a folder most buffer bytes first)
  --top=N        padding wasters per module (default 10); a folder adds
                 the N largest of all its modules after its table
  --keep-going   report each bad instruction on standard error and go on
                 with the next line; exit status 1 at the end
  --threads=N    with --summary (and a folder's table), threads reading
                 each file of 8 MB or more, 4 MB or more each (default 0:
                 one per idle core, at most 8; 1: one); the full report
                 reads each file once, whole. The report is the same
                 whatever N
  --example      report the built-in example dump
  --html FILE    write one self-contained HTML page instead ('-' = stdout):
                 it leads with what XLA will allocate per module (the
                 live-range peak where that is not modelled; for a folder
                 the folder's table), under it each scheduled module's
                 live bytes over the schedule with XLA's peak marked and
                 the values live there, XLA's heap drawn and its boxes
                 named (docs/memory.md; other modules: why not); then the
                 top padding wasters with pictures of their tiles
                 (docs/pictures.md) and sortable, filterable tables
  --html-rows=N  instructions in the page's table (default 5000, those
                 with the most padded bytes; the page says when it caps)
  --help         this text

examples:
  hlolayout report
  hlolayout report --sort=padded module_0021.jit_train_step.after_optimizations.txt
  hlolayout report --summary --json dumps/*.after_optimizations.txt
  hlolayout report --html report.html dumps/*.after_optimizations.txt
  hlolayout report --html report.html dumps       # the whole dump folder
)";

// A small dump as XLA writes them for a TPU: a loop fusion on padded bf16
// tiles, a while loop and a conditional, an S(1) (VMEM) prefetch, tuples.
constexpr char kExampleDump[] =
    R"(HloModule jit_train_step, is_scheduled=true, entry_computation_layout={(bf16[8,200]{1,0:T(8,128)(2,1)}, f32[3,1000]{1,0:T(8,128)}, s32[]{:T(128)})->(bf16[8,200]{1,0:T(8,128)(2,1)}, f32[3,1000]{1,0:T(8,128)})}

%fused_computation (param_0: bf16[8,200], param_1: bf16[8,200]) -> bf16[8,200] {
  %param_0 = bf16[8,200]{1,0:T(8,128)(2,1)} parameter(0)
  %param_1 = bf16[8,200]{1,0:T(8,128)(2,1)} parameter(1)
  ROOT %add.1 = bf16[8,200]{1,0:T(8,128)(2,1)} add(bf16[8,200]{1,0:T(8,128)(2,1)} %param_0, bf16[8,200]{1,0:T(8,128)(2,1)} %param_1), metadata={op_type="add" op_name="jit(train_step)/add" source_file="train.py" source_line=12}
}

%cond (state: (s32[], f32[3,1000])) -> pred[] {
  %state = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) parameter(0)
  %i = s32[]{:T(128)} get-tuple-element((s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) %state), index=0
  %limit = s32[]{:T(128)} constant(10)
  ROOT %lt = pred[]{:T(128)} compare(s32[]{:T(128)} %i, s32[]{:T(128)} %limit), direction=LT
}

%body (state.1: (s32[], f32[3,1000])) -> (s32[], f32[3,1000]) {
  %state.1 = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) parameter(0)
  %i.1 = s32[]{:T(128)} get-tuple-element((s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) %state.1), index=0
  %one = s32[]{:T(128)} constant(1)
  %next = s32[]{:T(128)} add(s32[]{:T(128)} %i.1, s32[]{:T(128)} %one)
  %acc = f32[3,1000]{1,0:T(8,128)} get-tuple-element((s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) %state.1), index=1
  %scaled = f32[3,1000]{1,0:T(8,128)} multiply(f32[3,1000]{1,0:T(8,128)} %acc, f32[3,1000]{1,0:T(8,128)} %acc)
  ROOT %tuple.1 = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) tuple(s32[]{:T(128)} %next, f32[3,1000]{1,0:T(8,128)} %scaled)
}

%on_true (x: bf16[8,200]) -> bf16[8,200] {
  ROOT %x = bf16[8,200]{1,0:T(8,128)(2,1)} parameter(0)
}

%on_false (y: bf16[8,200]) -> bf16[8,200] {
  %y = bf16[8,200]{1,0:T(8,128)(2,1)} parameter(0)
  ROOT %neg = bf16[8,200]{1,0:T(8,128)(2,1)} negate(bf16[8,200]{1,0:T(8,128)(2,1)} %y)
}

ENTRY %main (w: bf16[8,200], acc.0: f32[3,1000], step: s32[]) -> (bf16[8,200], f32[3,1000]) {
  %w = bf16[8,200]{1,0:T(8,128)(2,1)} parameter(0), sharding={replicated}
  %acc.0 = f32[3,1000]{1,0:T(8,128)} parameter(1)
  %step = s32[]{:T(128)} parameter(2)
  %copy-start = (bf16[8,200]{1,0:T(8,128)(2,1)S(1)}, bf16[8,200]{1,0:T(8,128)(2,1)}, u32[]{:S(2)}) copy-start(bf16[8,200]{1,0:T(8,128)(2,1)} %w)
  %copy-done = bf16[8,200]{1,0:T(8,128)(2,1)S(1)} copy-done((bf16[8,200]{1,0:T(8,128)(2,1)S(1)}, bf16[8,200]{1,0:T(8,128)(2,1)}, u32[]{:S(2)}) %copy-start)
  %fusion = bf16[8,200]{1,0:T(8,128)(2,1)} fusion(bf16[8,200]{1,0:T(8,128)(2,1)S(1)} %copy-done, bf16[8,200]{1,0:T(8,128)(2,1)} %w), kind=kLoop, calls=%fused_computation, backend_config={"flag_configs":[],"scoped_memory_configs":[],"estimated_cycles":"1532"}
  %zero = s32[]{:T(128)} constant(0)
  %init = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) tuple(s32[]{:T(128)} %zero, f32[3,1000]{1,0:T(8,128)} %acc.0)
  %while = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) while((s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) %init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"10"}}
  %even = pred[]{:T(128)} compare(s32[]{:T(128)} %step, s32[]{:T(128)} %zero), direction=EQ
  %select = bf16[8,200]{1,0:T(8,128)(2,1)} conditional(pred[]{:T(128)} %even, bf16[8,200]{1,0:T(8,128)(2,1)} %fusion, bf16[8,200]{1,0:T(8,128)(2,1)} %fusion), true_computation=%on_true, false_computation=%on_false
  %result = f32[3,1000]{1,0:T(8,128)} get-tuple-element((s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) %while), index=1
  ROOT %out = (bf16[8,200]{1,0:T(8,128)(2,1)}, f32[3,1000]{1,0:T(8,128)}) tuple(bf16[8,200]{1,0:T(8,128)(2,1)} %select, f32[3,1000]{1,0:T(8,128)} %result)
}
)";

// The flags of `report` as given, checked: the same for files, globs and
// folders.
struct ReportFlags {
  SortKey sort;
  ReportOptions options;
  bool summary = false;
  bool json = false;
  bool html = false;
  std::string html_path;
  HtmlOptions page;
};

// 0, or the exit status of a usage error (its message written).
int ParseReportFlags(const Args& args, ReportFlags* flags, IoContext& io) {
  const std::string prefix = "hlolayout report: ";
  const std::string sort = args.Value("sort", "order");
  if (!ParseSortKey(sort, &flags->sort)) {
    io.err << prefix << "--sort must be " << kSortKeyList << ", not '" << sort
           << "'\n";
    return 2;
  }
  ReportOptions& options = flags->options;
  const std::string top = args.Value("top", "10");
  if (!absl::SimpleAtoi(top, &options.top_wasters) || options.top_wasters < 0) {
    io.err << prefix << "--top must be a number >= 0, not '" << top << "'\n";
    return 2;
  }
  const std::string threads = args.Value("threads", "0");
  if (!absl::SimpleAtoi(threads, &options.threads) || options.threads < 0 ||
      options.threads > 256) {
    io.err << prefix << "--threads must be a number from 0 to 256, not '"
           << threads << "'\n";
    return 2;
  }
  const std::string cap = args.Value("html-rows", "5000");
  if (!absl::SimpleAtoi(cap, &flags->page.max_rows) ||
      flags->page.max_rows < 0) {
    io.err << prefix << "--html-rows must be a number >= 0, not '" << cap
           << "'\n";
    return 2;
  }
  flags->summary = args.Has("summary");
  flags->json = args.Has("json");
  flags->html = args.Has("html");
  flags->html_path = args.Value("html", "-");
  if (flags->html && flags->json) {
    io.err << prefix << "--html and --json do not go together\n";
    return 2;
  }
  // The page needs the modules read whole (their analyses); --summary
  // only leaves its instruction table out.
  options.keep_rows = !flags->summary || flags->html;
  if (flags->summary && !flags->html) options.top_wasters = 0;  // not shown
  if (flags->summary && !flags->html && flags->sort.needs_analysis) {
    io.err << prefix << "--sort=" << sort
           << " orders modules by their memory analysis, which --summary "
              "leaves out\n";
    return 2;
  }
  options.read.keep_going = args.Has("keep-going");
  flags->page.summary = flags->summary;
  flags->page.top_wasters = options.top_wasters;
  return 0;
}

// `report DIR`: the folder's table (the summary of a folder), or with
// --html or --top the modules read whole (RunFolderReport).
int RunReportFolder(const Args& args, const ReportFlags& flags, IoContext& io) {
  if (!flags.html && !args.Has("top")) {
    Args table = args;
    table.values.erase("html-rows");  // as for files: only with --html
    return RunDumpFolder("report", table, DumpFolderOrder::kBuffers, io);
  }
  const std::string folder = args.positional[0];
  absl::StatusOr<DumpFolderListing> listing =
      ListDumpFolder(ResolveUserPath(folder));
  if (!listing.ok()) {
    io.err << "hlolayout report: " << listing.status().message() << "\n";
    return 1;
  }
  listing->folder = folder;  // as the user wrote it
  SortKey sort = flags.sort;
  if (!args.Has("sort")) ParseSortKey("buffers", &sort);
  HtmlOptions page = flags.page;
  page.inputs = {folder};
  ReportOptions options = flags.options;
  options.keep_rows = true;  // the wasters and the page need the modules
  return RunFolderReport(args, *listing, options, sort,
                         flags.html ? &page : nullptr, flags.html_path, io);
}

int RunReport(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(
      raw_args,
      WithDumpFolderFlags({"json", "summary", "keep-going", "example"}, true),
      WithDumpFolderFlags({"sort", "top", "html", "html-rows", "threads"},
                          false));
  if (!args.ok()) {
    io.err << "hlolayout report: " << args.status().message() << "\n";
    return 2;
  }
  ReportFlags flags;
  if (int status = ParseReportFlags(*args, &flags, io); status != 0) {
    return status;
  }
  if (args->Has("example") && !args->positional.empty()) {
    io.err << "hlolayout report: --example takes no FILE or folder\n";
    return 2;
  }
  if (IsFolderArgument(*args)) return RunReportFolder(*args, flags, io);

  // The texts stay alive while the report (views into them) is used; files
  // are mapped, not copied.
  std::vector<std::unique_ptr<InputText>> texts;
  std::vector<std::string> names;
  if (raw_args.empty() || args->Has("example")) {
    texts.push_back(std::make_unique<InputText>(std::string(kExampleDump)));
    names.push_back("example");
  } else {
    std::vector<std::string> paths = args->positional;
    if (paths.empty()) paths.push_back("-");  // mapped when it is a file
    for (const std::string& path : paths) {
      absl::StatusOr<std::unique_ptr<InputText>> text = OpenInput(path, io);
      if (!text.ok()) {
        io.err << "hlolayout report: " << text.status().message() << "\n";
        return 1;
      }
      texts.push_back(*std::move(text));
      names.push_back(path == "-" ? "<stdin>" : path);
    }
  }

  Report report;
  ReportOptions& options = flags.options;
  for (size_t i = 0; i < texts.size(); ++i) {
    options.read.file_name = names[i];
    const size_t errors_before = report.errors.size();
    const size_t unknown_before = report.unknown_opcodes.size();
    absl::Status status = AppendReport(texts[i]->view(), options, &report);
    if (!status.ok()) {
      io.err << "hlolayout report: " << status.message() << "\n";
      return 1;
    }
    for (size_t e = errors_before; e < report.errors.size(); ++e) {
      io.err << report.errors[e] << "\n";
    }
    // Warnings, once per unknown opcode of the text (docs/hlo-text.md).
    for (size_t u = unknown_before; u < report.unknown_opcodes.size(); ++u) {
      io.err << report.unknown_opcodes[u].first << "\n";
    }
  }
  SortModules(flags.sort.modules, &report);
  SortRows(flags.sort.rows, &report);
  const int status = report.errors.empty() ? 0 : 1;
  if (flags.html) {  // views/html.h
    flags.page.inputs = names;
    const int written =
        WriteHtmlReport(report, flags.page, flags.html_path, io);
    return written != 0 ? written : status;
  }
  RenderOptions render;
  render.summary = flags.summary;
  if (flags.summary && !flags.json) {
    // The full report leads each module with what XLA will allocate
    // (views/report_render.h, ModuleLeadText); --summary, which reads without
    // keeping the modules, says where to find it.
    render.module_heads.resize(
        report.modules.size(),
        "  what XLA will allocate: left out by --summary (it reads without "
        "keeping the module); `hlolayout memory FILE` gives it\n");
  }
  if (flags.json) {
    RenderReportJson(report, render, io.out);
  } else {
    RenderReportText(report, render, io.out);
  }
  return status;
}

}  // namespace

extern const Command kReportCommand;
std::string ReportHelp() {
  return absl::StrCat(
      kReportHelp, "\n", kSortKeysHelp,
      "\nhlolayout report DIR (default --sort=buffers):\n", kDumpFolderHelp,
      "Flags for a folder: all of report's: --json, --summary (the table is "
      "the\nsummary), --keep-going, --threads=N and --sort=KEY order the "
      "table; --top=N\nreads the modules whole and lists the N largest "
      "padding wasters of the\nfolder after it; --html FILE and "
      "--html-rows=N write the page of the whole\nfolder, led by its "
      "table. These two read every module file whole and keep\nthem "
      "(memory grows with the folder, as for a glob of its files).\n");
}

const Command kReportCommand = {
    "report",
    "memory and padding report of HLO dumps (--xla_dump_to files or folder)",
    kReportHelp,
    RunReport,
    ReportHelp,
};

}  // namespace hlolayout::cli
