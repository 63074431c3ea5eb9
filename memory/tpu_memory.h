// memory/tpu_memory.h: what a TPU user asks of a module XLA:TPU compiled,
// as one answer for `hlolayout memory`'s text, --json, --html and
// hl.memory(): the memory spaces named as XLA:TPU names them, whether the
// program fits the HBM of the chip and what is left, VMEM against the
// chip's, the HBM heap at its peak, what tile padding costs (ranked by
// bytes and by ratio, with op_name, source line and a layout that pads
// less), per device for SPMD modules.
//
//   HloModule jit_step, is_scheduled=true, num_partitions=8, ...
//   (file module_0004.jit_step.cl_933746096.after_optimizations.txt, with
//    XLA:TPU's module_0004.jit_step.cl_933746096.target_arguments.txt
//    beside it)
//
//   TpuMemoryOptions options;
//   options.target_arguments = *ReadXlaTpuTargetArguments(path);
//   absl::StatusOr<TpuMemory> t = AnswerTpuMemory(module, analysed, options);
//   t->chip;       // "v5e"
//   t->devices;    // 8: every figure is one device's
//   t->fits;       // true
//   TpuMemoryText(*t);      // its text (views/tpu_memory_text.h)
//   AnswerJson(*t);         // the "tpu" object of `memory --json`
//
// Where the figures come from: the model of XLA:TPU's buffer assignment
// (memory/buffer_assignment.h with docs/xla-tpu.md's rules), which is not
// yet XLA:TPU's in every respect; the answer says so (`checked` false).
//
// Preconditions: `analysed` was made from `module` with tpu_buffers (its
// buffer assignment is the model's) and the module outlives the answer's
// making (not the answer: it owns its strings).
#ifndef HLOLAYOUT_MEMORY_TPU_MEMORY_H_
#define HLOLAYOUT_MEMORY_TPU_MEMORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {

struct TpuMemoryOptions {
  // --tpu=: the generation the user says the module was compiled for.
  absl::optional<TpuGeneration> requested;
  // The text of XLA:TPU's *.target_arguments.txt beside the module ("" when
  // there is none), and that file's name for the answer's words.
  std::string target_arguments;
  std::string target_arguments_file;
  // Entries of each list (heap values, padding rankings); 0: all.
  int64_t top = 20;
};

// One memory space: what its allocations hold, against the chip's.
struct TpuMemorySpace {
  int64_t memory_space = 0;
  std::string xla_name;  // XLA:TPU's name: "default", "vmem", ...
  std::string title;     // "HBM", "VMEM", "SMEM", "host memory", "S(6)"
  int64_t allocated_bytes = 0;
  int64_t allocations = 0;
  int64_t parameter_bytes = 0;
  int64_t output_bytes = 0;  // live-out allocations that are not parameters
  int64_t temp_bytes = 0;
  int64_t other_bytes = 0;  // thread-local and constant allocations
  std::optional<int64_t> live_range_peak_bytes;
  std::optional<int64_t> live_range_peak_time;
  // HBM: the HBM XLA:TPU lets a program take on the chip; VMEM: one
  // TensorCore's VMEM. None when the chip or the space's size is not known.
  std::optional<int64_t> capacity_bytes;
  std::optional<int64_t> left_bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuMemorySpace& s) {
    f.Type("TpuMemorySpace",
           "One memory space of an XLA:TPU module: its allocations, its "
           "live-range peak and the chip's size of it.");
    f("memory_space", s.memory_space, "S(n).", FieldOptions().Repr());
    f("xla_name", s.xla_name,
      "XLA:TPU's name of it, as its -memory-usage-report.txt prints it "
      "('default', 'vmem', 'smem', 'hbm', 'host', 'cmem', 'color_6').",
      FieldOptions().Repr());
    f("title", s.title, "'HBM', 'VMEM', 'SMEM', 'host memory' or 'S(n)'.");
    f("allocated_bytes", s.allocated_bytes,
      "The bytes of its allocations (the usage report's Total bytes).",
      FieldOptions().Repr());
    f("allocations", s.allocations, "How many allocations.");
    f("parameter_bytes", s.parameter_bytes, "Entry parameters' allocations.");
    f("output_bytes", s.output_bytes,
      "Live-out allocations that are not parameters.");
    f("temp_bytes", s.temp_bytes, "Temp allocations (the heap's).");
    f("other_bytes", s.other_bytes, "Thread-local and constant allocations.");
    f("live_range_peak_bytes", s.live_range_peak_bytes,
      "The most bytes its values hold at one schedule time (HloLiveRange; "
      "values sharing a buffer counted each), or None.");
    f("live_range_peak_time", s.live_range_peak_time,
      "The first schedule time it is reached, or None.");
    f("capacity_bytes", s.capacity_bytes,
      "HBM: what XLA:TPU lets a program take on the chip; VMEM: one "
      "TensorCore's; None when not known.",
      FieldOptions().Repr());
    f("left_bytes", s.left_bytes, "capacity_bytes - allocated_bytes, or None.");
  }
};

// A value of the HBM heap at its peak.
struct TpuHeapValue {
  std::string name;  // "fusion.3{1}"
  std::string shape;
  int64_t bytes = 0;  // XLA:TPU's size of it
  int64_t offset = 0;
  int64_t start = 0, end = 0;
  std::string op_name;
  std::string source;  // "train.py:12", or ""

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuHeapValue& v) {
    f.Type("TpuHeapValue", "A value in the HBM heap at its peak.");
    f("name", v.name, "The value: instruction and shape index.",
      FieldOptions().Repr());
    f("shape", v.shape, "Its shape, XLA's text.");
    f("bytes", v.bytes, "Its size.", FieldOptions().Repr());
    f("offset", v.offset, "Its offset in its allocation.");
    f("start", v.start, "Its live range's first schedule time.");
    f("end", v.end, "Its live range's last schedule time.");
    f("op_name", v.op_name, "Its instruction's metadata op_name ('' if none).");
    f("source", v.source, "'file:line' of its metadata, '' if none.");
  }
};

struct TpuHeapPeak {
  int64_t allocation = -1;  // the HBM temp allocation holding the heap
  int64_t bytes = 0;        // the most the heap holds at one step
  int64_t heap_bytes = 0;   // the heap's layout
  int64_t time = -1;
  std::string instruction;
  int64_t value_count = 0;
  std::vector<TpuHeapValue> values;  // largest first, at most `top`

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuHeapPeak& h) {
    f.Type("TpuHeapPeak",
           "The HBM heap (the temp allocation's values) at the step it holds "
           "the most.");
    f("allocation", h.allocation, "The allocation that holds the heap.");
    f("bytes", h.bytes, "The most the heap holds at one step.",
      FieldOptions().Repr());
    f("heap_bytes", h.heap_bytes, "The heap's layout (its size).");
    f("time", h.time, "The first schedule time it holds `bytes`.",
      FieldOptions().Repr());
    f("instruction", h.instruction, "The instruction at that time.");
    f("value_count", h.value_count, "How many values it holds then.");
    f("values", h.values, "TpuHeapValues then, largest first (at most top).");
  }
};

// An array that pads: one place of an HBM allocation and the values there.
struct TpuPaddedArray {
  int64_t allocation = 0;
  std::string kind;  // as Allocation.kind
  std::string name;  // its first value
  int64_t values = 1;
  std::string shape;
  int64_t bytes = 0;  // XLA:TPU's size of it
  int64_t logical_bytes = 0;
  int64_t padding_bytes = 0;
  double ratio = 1.0;  // bytes / logical_bytes
  std::string op_name;
  std::string source;
  std::optional<std::string> cheaper_layout;  // the shape in that layout
  std::optional<int64_t> cheaper_bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuPaddedArray& p) {
    f.Type("TpuPaddedArray",
           "An array of an HBM allocation that tile padding makes larger.");
    f("allocation", p.allocation, "The allocation it is in.");
    f("kind", p.kind, "The allocation's kind ('parameter', 'temp', ...).");
    f("name", p.name, "Its first value: instruction and shape index.",
      FieldOptions().Repr());
    f("values", p.values, "How many values share its place and shape.");
    f("shape", p.shape, "Its shape, XLA's text.", FieldOptions().Repr());
    f("bytes", p.bytes, "XLA:TPU's size of it.");
    f("logical_bytes", p.logical_bytes, "Its elements' bytes, unpadded.");
    f("padding_bytes", p.padding_bytes, "bytes - logical_bytes.",
      FieldOptions().Repr());
    f("ratio", p.ratio, "bytes / logical_bytes.",
      FieldOptions().Json(FieldJson::kRound6g));
    f("op_name", p.op_name, "Its instruction's metadata op_name.");
    f("source", p.source, "'file:line' of its metadata, '' if none.");
    f("cheaper_layout", p.cheaper_layout,
      "The same array in a layout XLA:TPU writes that pads less (another "
      "dimension order or a smaller second-minor tile), or None.");
    f("cheaper_bytes", p.cheaper_bytes, "Its size in that layout, or None.");
  }
};

struct TpuPadding {
  // What padding costs in HBM at the heap's peak: the padding of the
  // value that sets each allocation of its own, and of the heap's values
  // at its peak.
  int64_t bytes = 0;
  int64_t own_bytes = 0;
  // None when the heap's values at its peak are not known (XLA:TPU's own
  // buffer-assignment file does not say when values live).
  std::optional<int64_t> heap_bytes = 0;
  int64_t arrays = 0;  // arrays that pad, in every HBM allocation
  int64_t ratio_floor_bytes = 4096;
  std::vector<TpuPaddedArray> by_bytes;  // most padding first
  std::vector<TpuPaddedArray> by_ratio;  // of those padding ratio_floor_bytes
                                         // or more, highest ratio first

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuPadding& p) {
    f.Type("TpuPadding", "What tile padding costs in HBM.");
    f("bytes", p.bytes,
      "Padding at the heap's peak: own_bytes + heap_bytes (own_bytes when "
      "heap_bytes is None).",
      FieldOptions().Repr());
    f("own_bytes", p.own_bytes,
      "Padding of the values that set the size of allocations of their "
      "own (parameters, outputs, constants, thread-local).");
    f("heap_bytes", p.heap_bytes,
      "Padding of the heap's values at its peak; None when not known "
      "(XLA:TPU's own buffer-assignment file does not say when values "
      "live).");
    f("arrays", p.arrays, "Arrays that pad, in every HBM allocation.");
    f("ratio_floor_bytes", p.ratio_floor_bytes,
      "by_ratio ranks arrays padding at least this many bytes.");
    f("by_bytes", p.by_bytes, "TpuPaddedArrays, most padding first.");
    f("by_ratio", p.by_ratio, "TpuPaddedArrays, highest ratio first.");
  }
};

struct TpuMemory {
  std::optional<std::string> chip;  // "v5e", or None when not known
  std::string chip_from;            // why: "--tpu", the file, ...
  int64_t devices = 1;
  std::string figures_from;  // "the model of XLA:TPU's buffer assignment"
  bool checked = false;
  std::vector<TpuMemorySpace> spaces;
  int64_t hbm_bytes = 0;  // HBM allocated (spaces' S(0))
  std::optional<int64_t> hbm_limit_bytes;
  std::optional<bool> fits;
  std::optional<int64_t> hbm_left_bytes;
  std::vector<std::string> fits_on;  // the generations whose limit holds it
  std::optional<TpuHeapPeak> heap_peak;
  TpuPadding padding;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TpuMemory& t) {
    f.Type("TpuMemory",
           "What an XLA:TPU module takes of the chip it was compiled for: "
           "per memory space, whether it fits, the HBM heap at its peak and "
           "what tile padding costs. Per device for SPMD modules.");
    f("chip", t.chip, "'v4', 'v5e', 'v5p' or 'v6e'; None when not known.",
      FieldOptions().Repr());
    f("chip_from", t.chip_from,
      "Where the chip comes from: '--tpu', XLA:TPU's target_arguments file, "
      "or the module's memory spaces; '' when not known.");
    f("devices", t.devices,
      "Devices one run spans (num_partitions x replica_count): every figure "
      "is one device's.",
      FieldOptions().Repr());
    f("figures_from", t.figures_from,
      "What the figures come from: the model of XLA:TPU's buffer "
      "assignment, or XLA:TPU's own files.");
    f("checked", t.checked,
      "Whether the figures are XLA:TPU's (its own files) rather than the "
      "model's, which is not yet XLA:TPU's in every respect.");
    f("spaces", t.spaces, "TpuMemorySpaces, by memory space.");
    f("hbm_bytes", t.hbm_bytes, "HBM allocated (S(0)'s allocated_bytes).",
      FieldOptions().Repr());
    f("hbm_limit_bytes", t.hbm_limit_bytes,
      "The HBM XLA:TPU lets a program take on the chip, or None.");
    f("fits", t.fits,
      "hbm_bytes <= hbm_limit_bytes; None when the chip is not known.",
      FieldOptions().Repr());
    f("hbm_left_bytes", t.hbm_left_bytes,
      "hbm_limit_bytes - hbm_bytes, or None.");
    f("fits_on", t.fits_on, "The generations whose HBM limit holds hbm_bytes.");
    f("heap_peak", t.heap_peak, "TpuHeapPeak, or None without a heap.");
    f("padding", t.padding, "TpuPadding.");
  }
};

// The answer for one XLA:TPU module. Errors: --tpu names another
// generation than XLA:TPU's target_arguments file.
absl::StatusOr<TpuMemory> AnswerTpuMemory(const HloModule& module,
                                          const DumpModuleMemory& analysed,
                                          const TpuMemoryOptions& options);

struct XlaBufferFile;  // memory/xla_buffer_file.h

// The answer for XLA:TPU's own *-buffer-assignment.txt, read by
// ReadXlaBufferAssignment: the same spaces, fit and tile padding, from the
// allocations XLA:TPU made (`checked` true, `figures_from` names the file).
// The file does not say when values live: no heap peak, no live-range
// peaks, no op_name or source line; `devices` is 1 (the file is one
// device's). The chip: options' target_arguments, else --tpu, else v4 when
// a value lives in S(3). Errors: as AnswerTpuMemory's.
absl::StatusOr<TpuMemory> AnswerTpuMemoryOfXlaFile(
    const XlaBufferFile& file, const TpuMemoryOptions& options);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_TPU_MEMORY_H_
