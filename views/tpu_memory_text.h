// views/tpu_memory_text.h: the text of memory/tpu_memory.h's answer, as
// `hlolayout memory` prints it for an XLA:TPU module (and the HTML page's
// words for its lists).
#ifndef HLOLAYOUT_VIEWS_TPU_MEMORY_TEXT_H_
#define HLOLAYOUT_VIEWS_TPU_MEMORY_TEXT_H_

#include <string>

#include "hlolayout/memory/tpu_memory.h"

namespace hlolayout {

// The lines `hlolayout memory` prints for it (each ending in a newline):
//
//   XLA:TPU v5e (from module_0001.target_arguments.txt), 8 devices (SPMD):
//   every figure is one device's
//   figures: the model of XLA:TPU's buffer assignment, rules learned from
//   XLA:TPU's own files and checked against its compiles (docs/xla-tpu.md);
//   VMEM offsets not modelled
//   HBM (S(0), XLA:TPU's "default"): 139.50 KiB (142,848 bytes) in 20
//   allocations; fits the 15.75 GiB XLA:TPU lets a program take on a v5e:
//   15.75 GiB left
//   ...
std::string TpuMemoryText(const TpuMemory& t);

// What the lists of `t` cover, in words: "8 of 30" when top cut them.
// (For the HTML face, which shows the same lists.)
std::string TpuPaddedArrayText(const TpuPaddedArray& p);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_TPU_MEMORY_TEXT_H_
