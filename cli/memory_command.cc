// `hlolayout memory`: peak memory of scheduled HLO modules, as XLA's
// HloLiveRange computes it (memory/live_range.h).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dump_folder_table.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/allocation_text.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/memory_html.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/json_string.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::cli {
namespace {

// Warns on `err` once per unknown opcode of `text` (with its count, at its
// first use), as `hlolayout report` does (docs/hlo-text.md): the modules
// are analysed with those instructions' shapes as written.
void WarnUnknownOpcodes(absl::string_view text, absl::string_view name,
                        const std::vector<HloModule>& modules,
                        std::ostream& err) {
  struct Unknown {
    absl::string_view opcode;
    int64_t instructions;
    size_t offset;
  };
  std::vector<Unknown> unknown;
  absl::flat_hash_map<absl::string_view, size_t> index;  // into unknown
  for (const HloModule& module : modules) {
    for (const HloComputation& computation : module.computations) {
      for (const HloInstruction& in : computation.instructions) {
        if (in.opcode != HloOpcode::kUnknown) continue;
        auto [it, added] = index.try_emplace(in.opcode_name, unknown.size());
        if (!added) {
          ++unknown[it->second].instructions;
          continue;
        }
        // The caret under the opcode when it is a view into the text.
        const bool in_text = in.opcode_name.data() >= text.data() &&
                             in.opcode_name.data() < text.data() + text.size();
        unknown.push_back(
            {in.opcode_name, 1,
             in_text ? static_cast<size_t>(in.opcode_name.data() - text.data())
                     : in.offset});
      }
    }
  }
  OffsetLocator locator(text);  // the offsets come in text order
  for (const Unknown& u : unknown) {
    err << FormatDiagnostic(
               text, u.offset,
               absl::StrCat(
                   "warning: unknown opcode '", u.opcode, "' (", u.instructions,
                   u.instructions == 1 ? " instruction" : " instructions",
                   ", read with ",
                   u.instructions == 1 ? "its shape" : "their shapes",
                   " as written)"),
               name, &locator)
        << "\n";
  }
}

constexpr absl::string_view kMemoryHelp =
    R"(usage: hlolayout memory [--format=text|xla|xla-buffers|xla-usage] [--json]
                        [--platform=gpu|cpu] [--top=N] [--space=N]
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
  --platform=gpu|cpu    whose buffer assignment (alignment, in-place rules,
                        peak); by default from the file name (sm_..., gpu,
                        cpu) or the module (GPU backend configs and custom
                        calls), GPU when nothing tells. A module that looks
                        like XLA:TPU's (tpu in the file name, or tiled
                        layouts T(...)) gets its live ranges only: XLA:TPU's
                        buffer assignment is not modelled, and this flag
                        applies GPU or CPU rules to it on request
  --json         the same as JSON: per module the peaks, a memory_analysis
                 object (argument_size_in_bytes, output_size_in_bytes,
                 alias_size_in_bytes, temp_size_in_bytes,
                 peak_memory_in_bytes and the host_ ones of S(5)) and the
                 allocations with their values
  --top=N        values listed at the peak (default 20; 0: all)
  --space=N      only memory space N (S(N)) in the text and JSON peaks
  --threads=N    threads reading each file of 8 MB or more, 4 MB or more
                 each (default 0: one per idle core, at most 8; 1: one).
                 The answers are the same whatever N
  --html FILE    one self-contained HTML page ('-' = stdout): per module
                 what XLA will allocate, the temp allocation as a picture
                 (offset against schedule time, one box per value), the
                 live bytes over the schedule with the peak marked, and the
                 values live at the peak
  --help         this text

Modules without is_scheduled=true are refused: their text order is not an
execution order. Operands written %name#N get back the get-tuple-element XLA
folded into them, named name#N, right after name (docs/memory.md).

examples:
  hlolayout memory module_0021.jit_train_step.sm_9.0a_gpu_after_optimizations.txt
  hlolayout memory --format=xla-buffers dump.txt | diff - dump-buffer-assignment.txt
      (the value ids may differ where the computations' creation order is
      guessed wrong; --xla-creation-order=FILE makes them XLA's)
  hlolayout memory --format=xla dump.txt | diff - dump-live-range.txt
)";

std::string Percent(int64_t part, int64_t whole) {
  if (whole == 0) return "0.0%";
  return absl::StrFormat(
      "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// "jit(f)/while/body/add" -> "jit(f)/while/body".
absl::string_view OpNamePrefix(absl::string_view op_name) {
  const size_t slash = op_name.rfind('/');
  return slash == absl::string_view::npos ? op_name : op_name.substr(0, slash);
}

// `m` null: an XLA:TPU module, whose allocations are not modelled.
void RenderText(const MemoryAnalysis& a, const ModuleMemory* m, int64_t top,
                int64_t space, std::ostream& out) {
  out << "module " << (a.module_name.empty() ? "(no name)" : a.module_name)
      << ": " << a.schedule_end << " scheduled instructions, "
      << a.values.size() << " values\n";
  if (m != nullptr) {
    out << XlaAllocationText(*m)
        << AllocationSizesText(ExplainAllocationSizes(*m), top);
  } else {
    out << TpuAllocationText(a);
  }
  std::vector<const MemoryPeak*> peaks;
  if (space < 0) {
    peaks.push_back(&a.peak);
    if (a.space_peaks.size() > 1) {
      for (const MemoryPeak& p : a.space_peaks) peaks.push_back(&p);
    }
  } else {
    for (const MemoryPeak& p : a.space_peaks) {
      if (p.memory_space == space) peaks.push_back(&p);
    }
    if (peaks.empty()) out << "  no values in memory space " << space << "\n";
  }
  for (const MemoryPeak* p : peaks) {
    const std::string where =
        p->memory_space < 0
            ? std::string("all memory")
            : absl::StrCat(MemorySpaceKey(p->memory_space), " (",
                           MemorySpaceName(p->memory_space), ")");
    out << "peak of " << where << ": " << p->bytes << " bytes at time "
        << p->time;
    if (p->time < static_cast<int64_t>(a.instructions.size())) {
      const ScheduledInstruction& at = a.instructions[p->time];
      out << ", " << at.name << " in " << at.computation;
      if (!at.op_name.empty()) out << " (" << at.op_name << ")";
    }
    out << "\n  values live at the peak (" << p->values.size() << "):\n";
    int64_t shown = 0;
    for (int64_t id : p->values) {
      if (top > 0 && shown++ >= top) {
        out << "    ... " << (p->values.size() - top) << " more\n";
        break;
      }
      const LiveValue& v = a.values[id];
      out << "    " << a.instructions[v.instruction].name
          << ShapeIndexString(v.index) << "  "
          << (v.shape != nullptr ? v.shape->ToString(true) : "") << "  "
          << v.bytes << " B  " << Percent(v.bytes, p->bytes);
      if (v.bytes > v.logical_bytes && !v.shape->IsTuple()) {
        out << "  padding " << (v.bytes - v.logical_bytes) << " B";
      }
      out << "  live " << v.start << "-" << v.end << "\n";
    }
    std::map<std::string, int64_t> by_prefix;
    for (int64_t id : p->values) {
      const LiveValue& v = a.values[id];
      absl::string_view op = a.instructions[v.instruction].op_name;
      by_prefix[op.empty() ? std::string("(no op_name)")
                           : std::string(OpNamePrefix(op))] += v.bytes;
    }
    std::vector<std::pair<std::string, int64_t>> sorted(by_prefix.begin(),
                                                        by_prefix.end());
    std::stable_sort(
        sorted.begin(), sorted.end(),
        [](const auto& x, const auto& y) { return x.second > y.second; });
    out << "  by op_name prefix:\n";
    for (const auto& entry : sorted) {
      out << "    " << entry.first << ": " << entry.second << " B ("
          << Percent(entry.second, p->bytes) << ")\n";
    }
  }
}

void SizingValueJson(const SizingValue& v, std::ostream& out) {
  out << "{\"name\": ";
  WriteJsonString(out, v.name);
  out << ", \"shape\": ";
  WriteJsonString(out, v.shape != nullptr ? v.shape->ToString(true) : "");
  out << ", \"bytes\": " << v.bytes << ", \"offset\": " << v.offset;
  if (v.start >= 0) out << ", \"start\": " << v.start << ", \"end\": " << v.end;
  out << "}";
}

// The heap's peak step and the values in the heap then (`top` of them; 0:
// all), as the "heap" object's last members.
void HeapPeakJson(const HeapPeakSizing& h, int64_t top, std::ostream& out) {
  out << ", \"peak_time\": " << h.time << ", \"peak_instruction\": ";
  WriteJsonString(out, h.instruction);
  out << ", \"peak_value_count\": " << h.values.size()
      << ", \"peak_values\": [";
  for (size_t k = 0; k < h.values.size(); ++k) {
    if (top > 0 && static_cast<int64_t>(k) >= top) break;
    if (k > 0) out << ", ";
    SizingValueJson(h.values[k], out);
  }
  out << "], \"peak_alignment_bytes\": " << h.alignment_bytes;
}

void RenderAllocationsJson(const BufferAssignment& b,
                           const AllocationSizes& sizes, int64_t top,
                           std::ostream& out) {
  const XlaMemoryStats& s = b.stats;
  out << ", \"platform\": \"" << XlaPlatformName(b.platform)
      << "\", \"memory_analysis\": {\"argument_size_in_bytes\": "
      << s.argument_size_in_bytes
      << ", \"output_size_in_bytes\": " << s.output_size_in_bytes
      << ", \"alias_size_in_bytes\": " << s.alias_size_in_bytes
      << ", \"temp_size_in_bytes\": " << s.temp_size_in_bytes
      << ", \"peak_memory_in_bytes\": " << s.peak_memory_in_bytes
      << ", \"host_argument_size_in_bytes\": " << s.host_argument_size_in_bytes
      << ", \"host_output_size_in_bytes\": " << s.host_output_size_in_bytes
      << ", \"host_alias_size_in_bytes\": " << s.host_alias_size_in_bytes
      << ", \"host_temp_size_in_bytes\": " << s.host_temp_size_in_bytes
      << "}, \"allocated_bytes\": " << s.allocated_bytes()
      << ", \"heap\": {\"size\": " << b.heap_size
      << ", \"offset\": " << b.heap_offset << ", \"peak\": " << b.heap_peak
      << ", \"alignment\": " << b.alignment;
  HeapPeakJson(sizes.heap, top, out);
  out << "}, \"rounding_bytes\": " << sizes.rounding_bytes
      << ", \"allocations\": [";
  // Each allocation of its own: the names of the values that set its size.
  std::vector<const OwnAllocationSizing*> own_of(b.allocations.size(), nullptr);
  for (const OwnAllocationSizing& o : sizes.own) {
    if (o.allocation >= 0 &&
        o.allocation < static_cast<int64_t>(own_of.size())) {
      own_of[o.allocation] = &o;
    }
  }
  for (size_t k = 0; k < b.allocations.size(); ++k) {
    const BufferAllocation& x = b.allocations[k];
    out << (k == 0 ? "" : ", ") << "{\"index\": " << x.index
        << ", \"size\": " << x.size << ", \"color\": " << x.color
        << ", \"kind\": \""
        << (x.is_parameter      ? "parameter"
            : x.is_constant     ? "constant"
            : x.is_thread_local ? "thread-local"
            : x.maybe_live_out  ? "output"
                                : "temp")
        << "\"";
    if (x.is_parameter) {
      out << ", \"parameter_number\": " << x.parameter_number
          << ", \"parameter_index\": ";
      WriteJsonString(out, ShapeIndexString(x.parameter_index));
      out << ", \"parameter_aliased\": "
          << (x.parameter_aliased ? "true" : "false");
    }
    out << ", \"maybe_live_out\": " << (x.maybe_live_out ? "true" : "false");
    const std::vector<SizingValue>* set_by =
        static_cast<int64_t>(k) == sizes.heap.allocation ? &sizes.heap.values
        : own_of[k] != nullptr                           ? &own_of[k]->values
                                                         : nullptr;
    out << ", \"size_set_by\": [";
    for (size_t j = 0; set_by != nullptr && j < set_by->size(); ++j) {
      if (j > 0) out << ", ";
      WriteJsonString(out, (*set_by)[j].name);
    }
    out << "], \"values\": [";
    for (size_t j = 0; j < x.values.size(); ++j) {
      const AssignedValue& v = x.values[j];
      out << (j == 0 ? "" : ", ") << "{\"id\": " << v.id << ", \"name\": ";
      WriteJsonString(out, v.name);
      out << ", \"index\": ";
      WriteJsonString(out, ShapeIndexString(v.index));
      out << ", \"shape\": ";
      WriteJsonString(out, v.shape != nullptr ? v.shape->ToString(true) : "");
      out << ", \"offset\": " << v.offset << ", \"size\": " << v.size;
      if (v.start >= 0)
        out << ", \"start\": " << v.start << ", \"end\": " << v.end;
      out << "}";
    }
    out << "]}";
  }
  out << "]";
}

// `m` null: an XLA:TPU module, whose allocations are not modelled.
void RenderJson(const MemoryAnalysis& a, const ModuleMemory* m, int64_t top,
                int64_t space, std::ostream& out) {
  out << "{\"module\": ";
  WriteJsonString(out, a.module_name);
  out << ", \"schedule_end\": " << a.schedule_end
      << ", \"values\": " << a.values.size() << ", \"replayed_scheduler\": ";
  if (a.replayed_scheduler.empty()) {
    out << "null";
  } else {
    WriteJsonString(out, a.replayed_scheduler);
  }
  out << ", \"peaks\": [";
  bool first = true;
  auto peak = [&](const MemoryPeak& p) {
    out << (first ? "" : ", ") << "{\"memory_space\": ";
    if (p.memory_space < 0) {
      out << "null";
    } else {
      out << p.memory_space;
    }
    out << ", \"bytes\": " << p.bytes << ", \"time\": " << p.time;
    if (p.time < static_cast<int64_t>(a.instructions.size())) {
      out << ", \"instruction\": ";
      WriteJsonString(out, a.instructions[p.time].name);
      out << ", \"op_name\": ";
      WriteJsonString(out, a.instructions[p.time].op_name);
    }
    out << ", \"live\": [";
    int64_t shown = 0;
    for (int64_t id : p.values) {
      if (top > 0 && shown >= top) break;
      const LiveValue& v = a.values[id];
      out << (shown++ == 0 ? "" : ", ") << "{\"instruction\": ";
      WriteJsonString(out, a.instructions[v.instruction].name);
      out << ", \"index\": ";
      WriteJsonString(out, ShapeIndexString(v.index));
      out << ", \"bytes\": " << v.bytes
          << ", \"logical_bytes\": " << v.logical_bytes
          << ", \"start\": " << v.start << ", \"end\": " << v.end << "}";
    }
    out << "]}";
    first = false;
  };
  if (space < 0) peak(a.peak);
  for (const MemoryPeak& p : a.space_peaks) {
    if (space < 0 || p.memory_space == space) peak(p);
  }
  out << "]";
  if (m != nullptr) {
    RenderAllocationsJson(m->buffers, ExplainAllocationSizes(*m), top, out);
  } else {
    out << ", \"platform\": \"tpu\", \"memory_analysis\": null";
  }
  out << "}";
}

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

int RunMemory(const std::vector<std::string>& raw_args, IoContext& io) {
  // A folder's flags (--sort, --threads, ...) are accepted here and checked
  // by RunDumpFolder; given files, they are a usage error that says so.
  const std::vector<absl::string_view> switches = {"json"};
  const std::vector<absl::string_view> valued = {"format",
                                                 "top",
                                                 "space",
                                                 "html",
                                                 "platform",
                                                 "threads",
                                                 "xla-creation-order"};
  absl::StatusOr<Args> args =
      ParseArgs(raw_args, WithDumpFolderFlags(switches, true),
                WithDumpFolderFlags(valued, false));
  if (!args.ok()) {
    io.err << "hlolayout memory: " << args.status().message() << "\n";
    return 2;
  }
  if (IsFolderArgument(*args)) {
    return RunDumpFolder("memory", *args, DumpFolderOrder::kAllocated, io);
  }
  std::vector<absl::string_view> own = switches;
  own.insert(own.end(), valued.begin(), valued.end());
  if (absl::Status s = CheckNoFolderOnlyFlags("memory", *args, own); !s.ok()) {
    io.err << "hlolayout memory: " << s.message() << "\n";
    return 2;
  }
  const std::string format = args->Value("format", "text");
  if (format != "text" && format != "xla" && format != "xla-buffers" &&
      format != "xla-usage") {
    io.err << "hlolayout memory: --format must be text, xla, xla-buffers or "
              "xla-usage, not '"
           << format << "'\n";
    return 2;
  }
  const std::string platform_text = args->Value("platform", "");
  if (!platform_text.empty() && platform_text != "gpu" &&
      platform_text != "cpu") {
    io.err << "hlolayout memory: --platform must be gpu or cpu, not '"
           << platform_text << "'\n";
    return 2;
  }
  std::vector<std::string> creation_order;
  if (args->Has("xla-creation-order") &&
      !ReadCreationOrder(args->Value("xla-creation-order", ""),
                         creation_order)) {
    io.err << "hlolayout memory: cannot read --xla-creation-order file '"
           << args->Value("xla-creation-order", "") << "'\n";
    return 2;
  }
  absl::optional<XlaPlatform> requested;
  if (!platform_text.empty()) {
    requested = platform_text == "gpu" ? XlaPlatform::kGpu : XlaPlatform::kCpu;
  }
  int64_t top = 20, space = -1;
  const std::string top_text = args->Value("top", "20");
  if (!absl::SimpleAtoi(top_text, &top) || top < 0) {
    io.err << "hlolayout memory: --top must be a number >= 0, not '" << top_text
           << "'\n";
    return 2;
  }
  if (args->Has("space")) {
    const std::string s = args->Value("space", "");
    if (!absl::SimpleAtoi(s, &space) || space < 0) {
      io.err << "hlolayout memory: --space must be a number >= 0, not '" << s
             << "'\n";
      return 2;
    }
  }
  int64_t threads = 0;
  const std::string threads_text = args->Value("threads", "0");
  if (!absl::SimpleAtoi(threads_text, &threads) || threads < 0 ||
      threads > 256) {
    io.err << "hlolayout memory: --threads must be a number from 0 to 256, "
              "not '"
           << threads_text << "'\n";
    return 2;
  }
  std::vector<std::string> paths = args->positional;
  if (paths.empty()) paths.push_back("-");
  const bool json = args->Has("json");
  const bool html = args->Has("html");
  std::ostringstream page;
  if (html) {
    page << "<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            "<title>hlolayout memory</title><style>body{font-family:sans-serif;"
            "margin:2em}table{border-collapse:collapse}td,th{border:1px solid "
            "#ccc;padding:2px 6px;font-size:13px}td:nth-child(n+3){text-align:"
            "right}</style></head><body>\n<h1>What XLA will allocate, and "
            "the peak</h1>\n";
  }
  int module_index = 0;
  if (json) io.out << "[";
  bool first = true;
  for (const std::string& path : paths) {
    // Mapped, not copied (cli/input.h).
    absl::StatusOr<std::unique_ptr<InputText>> input = OpenInput(path, io);
    if (!input.ok()) {
      io.err << "hlolayout memory: " << input.status().message() << "\n";
      return 1;
    }
    const absl::string_view text = (*input)->view();
    HloReadOptions options;
    const std::string name = path == "-" ? "<stdin>" : path;
    options.file_name = name;
    // A large text is read in parts on `threads` threads (the same
    // modules; hlo/reader.h).
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadHloModules(text, options, nullptr, threads);
    if (!modules.ok()) {
      io.err << "hlolayout memory: " << modules.status().message() << "\n";
      return 1;
    }
    if (modules->empty()) {
      io.err << "hlolayout memory: " << NoHloModuleError(text, name).message()
             << "\n";
      return 1;
    }
    WarnUnknownOpcodes(text, name, *modules, io.err);
    for (const HloModule& module : *modules) {
      if (absl::Status entry = CheckEntryComputationLayout(text, module, name);
          !entry.ok()) {
        io.err << "hlolayout memory: " << entry.message() << "\n";
        return 1;
      }
      const DumpPlatform platform = ChooseDumpPlatform(module, name, requested);
      if (format == "xla" && !html && !json && platform == DumpPlatform::kTpu) {
        // XLA:TPU's live-range dump: the live ranges only (no value ids).
        absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(module);
        if (!analysis.ok()) {
          io.err << "hlolayout memory: " << name << ": "
                 << analysis.status().message() << "\n";
          return 1;
        }
        io.out << XlaLiveRangeText(*analysis);
        continue;
      }
      if (platform == DumpPlatform::kTpu &&
          (format == "xla-buffers" || format == "xla-usage")) {
        io.err << "hlolayout memory: " << name
               << ": looks like an XLA:TPU module (tiled layouts), whose "
                  "buffer assignment is not modelled; --platform=gpu|cpu "
                  "applies those platforms' rules\n";
        return 1;
      }
      absl::StatusOr<DumpModuleMemory> analysed =
          AnalyzeDumpModule(module, platform, creation_order);
      if (!analysed.ok()) {
        io.err << "hlolayout memory: " << name << ": "
               << analysed.status().message() << "\n";
        return 1;
      }
      // `memory` null: XLA:TPU, the live ranges only.
      const ModuleMemory* memory =
          analysed->has_allocations() ? &analysed->memory : nullptr;
      const MemoryAnalysis& live_ranges = analysed->live_ranges();
      if (html) {
        if (memory != nullptr) {
          RenderModuleMemoryHtml(*memory, top, module_index++, page, &module);
        } else {
          page << "<p>" << draw::XmlEscape(TpuAllocationText(live_ranges))
               << "</p>\n";
          RenderMemoryCurveHtml(live_ranges, top, module_index++, page);
        }
      } else if (json) {
        if (!first) io.out << ",\n";
        RenderJson(live_ranges, memory, top, space, io.out);
      } else if (format == "xla") {
        // BufferLiveRange by XLA's value ids, as XLA lists it.
        io.out << XlaLiveRangeText(live_ranges, ValuesByXlaId(memory->buffers));
      } else if (format == "xla-buffers") {
        io.out << XlaBufferAssignmentText(memory->buffers);
      } else if (format == "xla-usage") {
        io.out << XlaMemoryUsageReportText(memory->buffers);
      } else {
        if (!first) io.out << "\n";
        RenderText(live_ranges, memory, top, space, io.out);
      }
      first = false;
    }
    if (io.exits_after) KeepUntilExit(*std::move(modules));
  }
  if (json) io.out << "]\n";
  if (html) {
    page << "</body></html>\n";
    const std::string target = args->Value("html", "-");
    if (target == "-") {
      io.out << page.str();
    } else {
      std::ofstream file(target);
      file << page.str();
      if (!file) {
        io.err << "hlolayout memory: cannot write " << target << "\n";
        return 1;
      }
    }
  }
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
