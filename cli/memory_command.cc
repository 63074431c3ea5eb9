// `hlolayout memory`: peak memory of scheduled HLO modules, as XLA's
// HloLiveRange computes it (memory/live_range.h).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/answers/memory.h"
#include "hlolayout/answers/memory_folder.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dump_folder_table.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/memory_writer.h"
#include "hlolayout/views/tpu_memory_text.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kMemoryHelp =
    R"(usage: hlolayout memory [--format=text|xla|xla-buffers|xla-usage] [--json]
                        [--platform=gpu|cpu|tpu] [--tpu=v4|v5e|v5p|v6e]
                        [--top=N] [--space=N]
                        [--html FILE] [--threads=N]
                        [--xla-creation-order=FILE] [FILE... | -]

What XLA will allocate for scheduled HLO modules (is_scheduled=true, as XLA
writes them with --xla_dump_to after optimizations), and why memory peaks.

Allocations (XLA's buffer assignment): entry parameters, constants and
live-out buffers get allocations of their own, every value of a reducer or
comparator a thread-local one, and every other value is packed into one
temp allocation by XLA's heap simulator (best fit; a step's outputs are
allocated before its dead inputs are freed; alignment 256 bytes on GPU, 64
on CPU); values that must share storage (loops, conditionals, in-place
updates, input_output_alias) share one place. From that come the figures of
compiled.memory_analysis(): argument, output, alias and temp sizes and the
peak (GPU: what is always allocated plus the heap's peak; CPU: parameters,
constants and outputs only).

Live ranges (XLA's HloLiveRange): the values every instruction defines, the
flattened schedule, each value's live range, and the first time at which
the live bytes are largest. Sizes are exact padded bytes (tiles, L(n),
E(n)); tuple index tables count 8 bytes per element.

The figures, exactly:
  XLA will allocate   arguments + temp + outputs - aliases: the bytes of
                      XLA's allocations for one run, as compiled.
                      memory_analysis() gives them (argument_size_in_bytes
                      + temp_size_in_bytes + output_size_in_bytes -
                      alias_size_in_bytes; constants and thread-local
                      allocations count nowhere, as in XLA)
  memory_analysis() peak
                      XLA's peak_memory_in_bytes. GPU: what is always
                      allocated (the largest value of each parameter,
                      constant and output allocation) + the most the temp
                      heap holds at one step; CPU: parameters, constants
                      and outputs only
  live-range peak     at XLA's peak step, the sum of the sizes of the values
                      live there. It counts values, not allocations, so it
                      is neither a lower nor an upper bound of what XLA
                      allocates. It is above it where values share one
                      buffer (a loop's state, a conditional's result, an
                      in-place update and the operand it writes over): each
                      value counts, and at the step where one value hands
                      the buffer to the next both count (jit_scan_cond: the
                      copy that enters the loop and the loop body's
                      parameter are one 128 KiB buffer, counted twice at step
                      8: a peak of 384.1 KiB where XLA allocates 257.8 KiB).
                      It is below it where allocations outlive values:
                      parameters and outputs are allocated for the whole
                      run, while the values in them live part of it, and
                      the heap's packing and alignment leave gaps
                      (jit_mlp_step: a peak of 21.0 MiB, 26.6 MiB allocated)

Text (default): per module what XLA will allocate (arguments + temp +
outputs - aliases) with the memory_analysis() figures and the live-range
peak beside them, the allocations by kind; then the live-range peak: when
(logical time, instruction, op_name), the values live there largest first
(bytes, share, padding), a breakdown by op_name prefix, and the peak of
each memory space when there are several.

flags:
  --format=xla          the text of XLA's *-live-range.txt dump, its "Stack
                        trace breakdown" tree included
  --format=xla-buffers  the text of XLA's *-buffer-assignment.txt; its
                        value ids (<ID name>) follow the order XLA created
                        the computations in, which the text does not hold
                        and is guessed from the names: on some modules (SPMD
                        reducer clones, derived computations; the list is
                        differential/xla/value_id_modules.txt) the ids, the
                        order of value lines and of equal-size usage lines
                        differ from XLA's while every allocation, size and
                        offset matches; not for diffing ids unless
                        --xla-creation-order gives that order
                        (docs/memory.md, "Value ids")
  --format=xla-usage    the text of XLA's *-memory-usage-report.txt (the
                        same caveat for equal-size lines)
  --xla-creation-order=FILE
                        XLA's value ids from the order XLA created the
                        module's computations in, which the text does not
                        hold: FILE names each computation once, a line each
                        (as HloModule::computations() of the compiled module
                        lists them; differential/xla records it); without
                        it that order is guessed (XLA:CPU: from the names;
                        XLA:GPU: from its pipeline's passes)
  --platform=gpu|cpu|tpu
                        whose buffer assignment (alignment, in-place rules,
                        peak); by default from the file name (sm_..., gpu,
                        cpu, tpu) or the module (tiled layouts T(...): TPU;
                        GPU backend configs and custom calls), GPU when
                        nothing tells
  --tpu=v4|v5e|v5p|v6e  the chip an XLA:TPU module was compiled for, when
                        the dump does not say: XLA:TPU names it in the
                        *.target_arguments.txt it writes beside the module
                        (read when there; a --tpu that disagrees is an
                        error); a module with values in S(3) is v4's
  --json         the same as JSON: per module the peaks, a memory_analysis
                 object (argument_size_in_bytes, output_size_in_bytes,
                 alias_size_in_bytes, temp_size_in_bytes,
                 peak_memory_in_bytes and the host_ ones of S(5)) and the
                 allocations with their values
  --top=N        values listed at the peak (default 20; 0: all)
  --space=N      only memory space N (S(N)) in the text and JSON peaks
  --threads=N    threads reading each file of 8 MB or more, 4 MB or more
                 each (default 0: one per idle core, at most 8; 1: one);
                 with 2 or more, a module of 32,768 instructions or more
                 outside fused computations is also analysed on two. The
                 answers are the same whatever N
  --html FILE    one self-contained HTML page ('-' = stdout): per module
                 what XLA will allocate, the temp allocation as a picture
                 (offset against schedule time, one box per value), the
                 live bytes over the schedule with the peak marked, and the
                 values live at the peak
  --help         this text

Modules without is_scheduled=true are refused: their text order is not an
execution order. Operands written %name#N get back the get-tuple-element XLA
folded into them, named name#N, right after name (docs/memory.md).

XLA:TPU modules (docs/xla-tpu.md): per memory space as XLA:TPU names them
(HBM "default", VMEM "vmem", SMEM "smem", ...), what the allocations hold;
whether the program fits the HBM XLA:TPU lets a program take on the chip
(v4 30.75 GiB, v5e 15.75 GiB, v5p 95.74 GiB, v6e 31.25 GiB, as its
out-of-memory message says) and what is left; VMEM against one
TensorCore's (v4 16 MiB, v5e 128 MiB, v5p 64 MiB, v6e 128 MiB); the HBM
heap at its peak; what tile padding costs (ranked by bytes and by ratio,
with op_name, source line and a layout that pads less); each memory
space's live-range peak, never their sum. SPMD modules: every figure is
one device's. The figures come from the model of XLA:TPU's buffer
assignment, which is not yet XLA:TPU's in every respect: the text says so.
--format=xla, xla-buffers and xla-usage give the model's three files.

XLA:TPU's own *-buffer-assignment.txt, given alone, is read instead of
modelled: the same answer (spaces, fit, tile padding) from the allocations
XLA:TPU made, without the heap peak (the file does not say when values
live); --json gives it as one object.

examples:
  hlolayout memory module_0021.jit_train_step.sm_9.0a_gpu_after_optimizations.txt
  hlolayout memory --format=xla-buffers dump.txt | diff - dump-buffer-assignment.txt
      (the value ids may differ where the computations' creation order is
      guessed wrong; --xla-creation-order=FILE makes them XLA's)
  hlolayout memory --format=xla dump.txt | diff - dump-live-range.txt
  hlolayout memory --tpu=v5e module_0001.jit_f.cl_1.after_optimizations.txt
  hlolayout memory --tpu=v5e module_0001.jit_f.cl_1.after_optimizations-buffer-assignment.txt
)";

// The modules of a file when the process exits after the command
// (IoContext::exits_after): the exit frees them at once. Reachable from
// here, so no leak checker counts them.
void KeepUntilExit(std::vector<HloModule> modules) {
  static auto* const kept = new std::vector<std::vector<HloModule>>;
  kept->push_back(std::move(modules));
}

// The names of --xla-creation-order's file, one a line (blank lines and
// lines starting with '#' skipped); false when it cannot be read.
bool ReadCreationOrder(const std::string& path,
                       std::vector<std::string>& names) {
  std::ifstream in(path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
      line.pop_back();
    }
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return true;
}

// The flags of `memory` on files: what to print and how.
struct MemoryFlags {
  MemoryForm format = MemoryForm::kText;  // --format's
  absl::optional<XlaPlatform> requested;
  absl::optional<TpuGeneration> tpu;  // --tpu's
  std::vector<std::string> creation_order;
  int64_t top = 20, space = -1, threads = 0;
};

// Reads the flags into `f`: 0, or 2 after a usage error printed.
int ParseMemoryFlags(const Args& a, MemoryFlags& f, IoContext& io) {
  const Args* args = &a;
  const std::string format = args->Value("format", "text");
  const absl::optional<MemoryForm> form = MemoryFormNamed(format);
  if (!form.has_value()) {
    io.err << "hlolayout memory: --format must be text, xla, xla-buffers or "
              "xla-usage, not '"
           << format << "'\n";
    return 2;
  }
  f.format = *form;
  const std::string platform_text = args->Value("platform", "");
  if (!platform_text.empty()) {
    f.requested = answers::MemoryPlatformNamed(platform_text);
    if (!f.requested.has_value()) {
      io.err << "hlolayout memory: --platform must be gpu, cpu or tpu, not '"
             << platform_text << "'\n";
      return 2;
    }
  }
  if (args->Has("tpu")) {
    const std::string name = args->Value("tpu", "");
    f.tpu = TpuGenerationNamed(name);
    if (!f.tpu.has_value()) {
      io.err << "hlolayout memory: --tpu must be v4, v5e, v5p or v6e, not '"
             << name << "'\n";
      return 2;
    }
  }
  if (args->Has("xla-creation-order") &&
      !ReadCreationOrder(args->Value("xla-creation-order", ""),
                         f.creation_order)) {
    io.err << "hlolayout memory: cannot read --xla-creation-order file '"
           << args->Value("xla-creation-order", "") << "'\n";
    return 2;
  }
  const std::string top_text = args->Value("top", "20");
  if (!absl::SimpleAtoi(top_text, &f.top) || f.top < 0) {
    io.err << "hlolayout memory: --top must be a number >= 0, not '" << top_text
           << "'\n";
    return 2;
  }
  if (args->Has("space")) {
    const std::string s = args->Value("space", "");
    if (!absl::SimpleAtoi(s, &f.space) || f.space < 0) {
      io.err << "hlolayout memory: --space must be a number >= 0, not '" << s
             << "'\n";
      return 2;
    }
  }
  const std::string threads_text = args->Value("threads", "0");
  if (!absl::SimpleAtoi(threads_text, &f.threads) || f.threads < 0 ||
      f.threads > 256) {
    io.err << "hlolayout memory: --threads must be a number from 0 to 256, "
              "not '"
           << threads_text << "'\n";
    return 2;
  }
  return 0;
}

// Writes the HTML page `page` to `target` ('-': standard output): 0, or 1
// after an error printed.
int WriteMemoryPage(const std::string& target, const std::string& page,
                    IoContext& io) {
  if (target == "-") {
    io.out << page;
    return 0;
  }
  std::ofstream file(target);
  file << page;
  if (!file) {
    io.err << "hlolayout memory: cannot write " << target << "\n";
    return 1;
  }
  return 0;
}

// The request of the flags for the file at `path` (its reading options:
// answers/memory.h's MemoryReadOptions, as hl.memory() reads).
answers::MemoryRequest FileRequest(const std::string& path,
                                   const MemoryFlags& flags) {
  answers::MemoryRequest request;
  request.top = flags.top;
  request.space = flags.space;
  request.platform = flags.requested;
  request.tpu = flags.tpu;
  request.xla_creation_order = flags.creation_order;
  request.threads = static_cast<int>(flags.threads);
  request.file_name = path == "-" ? "<stdin>" : path;
  return request;
}

// XLA:TPU's own *-buffer-assignment.txt (answers::AnswerXlaTpuBufferFile):
// the TPU answer from the allocations XLA:TPU made. 0, or 1 after an error
// printed.
int RunXlaBufferFile(const answers::MemoryRequest& request,
                     absl::string_view text, bool json, IoContext& io) {
  absl::StatusOr<answers::ModuleMemory> m =
      answers::AnswerXlaTpuBufferFile(text, request);
  if (!m.ok()) {
    io.err << "hlolayout memory: " << m.status().message() << "\n";
    return 1;
  }
  if (json) {
    io.out << "[" << AnswerJson(*m) << "]\n";
    return 0;
  }
  io.out << request.file_name << ": " << m->allocations->size()
         << " allocations, " << m->value_count << " values\n"
         << TpuMemoryText(*m->tpu);
  return 0;
}

// Writes the answer for the file at `path` (its text `text`) with
// `writer`: 0, or 1 after an error printed.
int WriteMemoryFile(const std::string& path, const InputText& text,
                    const MemoryFlags& flags, MemoryWriter& writer,
                    std::ostream& out, IoContext& io) {
  DumpTextOptions options =
      answers::MemoryReadOptions(FileRequest(path, flags));
  // A mapped file's pages go back once the module is read, on a thread of
  // their own (4 ms for 75 MB) while the analysis goes on; joined before
  // the file is unmapped.
  std::thread releasing;
  options.text_read = [&text, &releasing] {
    try {
      releasing = std::thread([&text] { text.ReleasePages(); });
    } catch (const std::system_error&) {
      text.ReleasePages();
    }
  };
  // And what the reading has passed, as it goes (from its threads).
  options.text_passed = [&text](size_t begin, size_t end) {
    text.ReleasePages(begin, end);
  };
  std::vector<HloModule> modules;
  const absl::Status status = writer.WriteText(
      text.view(), options, out, io.err, io.exits_after ? &modules : nullptr);
  if (releasing.joinable()) releasing.join();
  if (!status.ok()) {
    io.err << "hlolayout memory: " << status.message() << "\n";
    return 1;
  }
  if (io.exits_after) KeepUntilExit(std::move(modules));
  return 0;
}

// `memory DIR`: the folder's flags -> answers::MemoryFolderRequest ->
// answers::AnswerMemoryFolder -> the table's view (views/dump_folder_text.h,
// through PrintDumpFolderTable). Exit status as RunDumpFolder.
int RunMemoryFolder(const Args& args, IoContext& io) {
  DumpFolderFlags flags;
  if (int status = ParseDumpFolderFlags("memory", args,
                                        DumpFolderOrder::kAllocated, flags, io);
      status != 0) {
    return status;
  }
  answers::MemoryFolderRequest request;
  request.folder = args.positional[0];
  request.path = ResolveUserPath(request.folder);
  request.threads = flags.threads;
  request.keep_going = flags.keep_going;
  request.order = flags.order;
  absl::StatusOr<answers::MemoryFolderAnswer> answer =
      answers::AnswerMemoryFolder(request, MappedDumpFileOpener(io));
  if (!answer.ok()) {
    io.err << "hlolayout memory: " << answer.status().message() << "\n";
    return 1;
  }
  return PrintDumpFolderTable("memory", request.folder, answer->table,
                              flags.json, io);
}

int RunMemory(const std::vector<std::string>& raw_args, IoContext& io) {
  // A folder's flags (--sort, --threads, ...) are accepted here and checked
  // by RunMemoryFolder; given files, they are a usage error that says so.
  const std::vector<absl::string_view> switches = {"json"};
  const std::vector<absl::string_view> valued = {
      "format",   "top",     "space", "html",
      "platform", "threads", "tpu",   "xla-creation-order"};
  absl::StatusOr<Args> args =
      ParseArgs(raw_args, WithDumpFolderFlags(switches, true),
                WithDumpFolderFlags(valued, false));
  if (!args.ok()) {
    io.err << "hlolayout memory: " << args.status().message() << "\n";
    return 2;
  }
  if (IsFolderArgument(*args)) return RunMemoryFolder(*args, io);
  std::vector<absl::string_view> own = switches;
  own.insert(own.end(), valued.begin(), valued.end());
  if (absl::Status s = CheckNoFolderOnlyFlags("memory", *args, own); !s.ok()) {
    io.err << "hlolayout memory: " << s.message() << "\n";
    return 2;
  }
  if (args->Has("json") && args->Has("html")) {
    io.err << "hlolayout memory: --json and --html cannot be combined\n";
    return 2;
  }
  MemoryFlags flags;
  if (int status = ParseMemoryFlags(*args, flags, io); status != 0) {
    return status;
  }
  std::vector<std::string> paths = args->positional;
  if (paths.empty()) paths.push_back("-");
  // XLA:TPU's own buffer-assignment file, given alone (the input is read
  // once: standard input cannot be read twice).
  absl::StatusOr<std::unique_ptr<InputText>> first =
      absl::UnknownError("not opened");
  if (paths.size() == 1) {
    first = OpenInput(paths[0], io);
    const answers::MemoryRequest request = FileRequest(paths[0], flags);
    if (first.ok() && answers::IsXlaTpuBufferFile((*first)->view(), request)) {
      if (args->Has("html") || flags.format != MemoryForm::kText) {
        io.err << "hlolayout memory: " << paths[0]
               << " is XLA's buffer-assignment file: --html and --format "
                  "take a module's dump\n";
        return 2;
      }
      return RunXlaBufferFile(request, (*first)->view(), args->Has("json"), io);
    }
  }
  MemoryWriterOptions writer_options;
  writer_options.form = args->Has("html")   ? MemoryForm::kHtml
                        : args->Has("json") ? MemoryForm::kJson
                                            : flags.format;
  writer_options.top = flags.top;
  writer_options.space = flags.space;
  writer_options.tpu = flags.tpu;
  MemoryWriter writer(writer_options);
  // JSON is one document: held back until every file is read, so that a
  // refusal leaves nothing on stdout (not a lone '[').
  std::ostringstream held;
  std::ostream& out = writer_options.form == MemoryForm::kJson ? held : io.out;
  out << writer.Start();
  for (const std::string& path : paths) {
    // Mapped, not copied (cli/input.h).
    absl::StatusOr<std::unique_ptr<InputText>> input =
        paths.size() == 1 ? std::move(first) : OpenInput(path, io);
    if (!input.ok()) {
      io.err << "hlolayout memory: " << input.status().message() << "\n";
      return 1;
    }
    if (int status = WriteMemoryFile(path, **input, flags, writer, out, io);
        status != 0) {
      return status;
    }
  }
  const std::string end = writer.Finish();
  if (writer_options.form == MemoryForm::kHtml) {
    return WriteMemoryPage(args->Value("html", "-"), end, io);
  }
  out << end;
  if (&out == &held) io.out << held.str();
  return 0;
}

}  // namespace

extern const Command kMemoryCommand;
std::string MemoryHelp() {
  return absl::StrCat(
      kMemoryHelp, "\nhlolayout memory DIR (default --sort=allocated):\n",
      kDumpFolderHelp,
      "Flags for a folder: --json, --summary (the table is the summary; no "
      "effect),\n--threads=N and --sort=KEY, with the keys of `hlolayout "
      "report --help`:\norder|file, name|module, padded, buffers, padding, "
      "expansion, instructions,\nallocated or peak.\n");
}

const Command kMemoryCommand = {
    "memory",
    "what XLA will allocate for scheduled HLO modules (buffer assignment, "
    "memory_analysis()) and the live-range peak (files or a dump folder)",
    kMemoryHelp,
    RunMemory,
    MemoryHelp,
};

}  // namespace hlolayout::cli
