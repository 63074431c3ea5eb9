// `hlolayout memory`: peak memory of scheduled HLO modules, as XLA's
// HloLiveRange computes it (memory/live_range.h).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/dump_folder_table.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/cli/json.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/memory_html.h"
#include "hlolayout/parser/hlo_reader.h"

namespace hlolayout::cli {
namespace {

void JsonStr(std::ostream& out, absl::string_view value) {
  std::string text;
  AppendJsonString(&text, value);
  out << text;
}

constexpr absl::string_view kMemoryHelp =
    R"(usage: hlolayout memory [--format=text|xla] [--json] [--top=N]
                        [--space=N] [FILE... | -]

Peak memory of scheduled HLO modules (is_scheduled=true, as XLA writes them
with --xla_dump_to after optimizations), computed as XLA's HloLiveRange does:
the values every instruction defines (aliases such as bitcast,
get-tuple-element, while, tuple elements are not new values; fusion bodies
are not scheduled), the flattened schedule (while condition and body, call
and conditional branches run in place), each value's live range, buffers
shared through loops, conditionals and in-place updates, and the first time
at which the live bytes are largest. Sizes are exact padded bytes (tiles,
L(n), E(n)); tuple index tables count 8 bytes per element.

Text (default): per module the peak bytes, when (logical time, instruction,
op_name), the values live at the peak largest first (bytes, share, padding),
a breakdown by op_name prefix, and the peak of each memory space when there
are several.

flags:
  --format=xla   the text of XLA's own *-live-range.txt dump, its "Stack
                 trace breakdown" tree included, to diff against XLA's file
  --json         the same as JSON
  --top=N        values listed at the peak (default 20; 0: all)
  --space=N      only memory space N (S(N)) in the text and JSON
  --html FILE    one self-contained HTML page ('-' = stdout): per module
                 the live bytes over the schedule as an SVG curve with the
                 peak marked, and the values live at the peak
  --help         this text

Modules without is_scheduled=true are refused: their text order is not an
execution order. Operands written %name#N get back the get-tuple-element XLA
folded into them, named name#N, right after name (docs/memory.md).

examples:
  hlolayout memory module_0021.jit_train_step.sm_9.0a_gpu_after_optimizations.txt
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

void RenderText(const MemoryAnalysis& a, int64_t top, int64_t space,
                std::ostream& out) {
  out << "module " << (a.module_name.empty() ? "(no name)" : a.module_name)
      << ": " << a.schedule_end << " scheduled instructions, "
      << a.values.size() << " values\n";
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

void RenderJson(const MemoryAnalysis& a, int64_t top, int64_t space,
                std::ostream& out) {
  out << "{\"module\": ";
  JsonStr(out, a.module_name);
  out << ", \"schedule_end\": " << a.schedule_end
      << ", \"values\": " << a.values.size() << ", \"replayed_scheduler\": ";
  if (a.replayed_scheduler.empty()) {
    out << "null";
  } else {
    JsonStr(out, a.replayed_scheduler);
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
      JsonStr(out, a.instructions[p.time].name);
      out << ", \"op_name\": ";
      JsonStr(out, a.instructions[p.time].op_name);
    }
    out << ", \"live\": [";
    int64_t shown = 0;
    for (int64_t id : p.values) {
      if (top > 0 && shown >= top) break;
      const LiveValue& v = a.values[id];
      out << (shown++ == 0 ? "" : ", ") << "{\"instruction\": ";
      JsonStr(out, a.instructions[v.instruction].name);
      out << ", \"index\": ";
      JsonStr(out, ShapeIndexString(v.index));
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
  out << "]}";
}

int RunMemory(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args =
      ParseArgs(raw_args, {"json"}, {"format", "top", "space", "html"});
  if (!args.ok()) {
    io.err << "hlolayout memory: " << args.status().message() << "\n";
    return 2;
  }
  if (IsFolderArgument(*args)) {
    return RunDumpFolder("memory", *args, DumpFolderOrder::kPeak, io);
  }
  const std::string format = args->Value("format", "text");
  if (format != "text" && format != "xla") {
    io.err << "hlolayout memory: --format must be text or xla, not '" << format
           << "'\n";
    return 2;
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
            "right}</style></head><body>\n<h1>Peak memory</h1>\n";
  }
  int module_index = 0;
  if (json) io.out << "[";
  bool first = true;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadInput(path, io);
    if (!text.ok()) {
      io.err << "hlolayout memory: " << text.status().message() << "\n";
      return 1;
    }
    HloReadOptions options;
    const std::string name = path == "-" ? "<stdin>" : path;
    options.file_name = name;
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadHloModules(*text, options);
    if (!modules.ok()) {
      io.err << "hlolayout memory: " << modules.status().message() << "\n";
      return 1;
    }
    for (const HloModule& module : *modules) {
      absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(module);
      if (!analysis.ok()) {
        io.err << "hlolayout memory: " << name << ": "
               << analysis.status().message() << "\n";
        return 1;
      }
      if (html) {
        RenderMemoryCurveHtml(*analysis, top, module_index++, page);
      } else if (json) {
        if (!first) io.out << ",\n";
        RenderJson(*analysis, top, space, io.out);
      } else if (format == "xla") {
        io.out << XlaLiveRangeText(*analysis);
      } else {
        if (!first) io.out << "\n";
        RenderText(*analysis, top, space, io.out);
      }
      first = false;
    }
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
  return absl::StrCat(kMemoryHelp,
                      "\nhlolayout memory DIR (default --sort=peak):\n",
                      kDumpFolderHelp);
}

const Command kMemoryCommand = {
    "memory",
    "peak memory of scheduled HLO modules (files or a dump folder)",
    kMemoryHelp,
    RunMemory,
    MemoryHelp,
};

}  // namespace hlolayout::cli
