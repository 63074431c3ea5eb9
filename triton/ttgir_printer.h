// triton/ttgir_printer.h: Triton layouts as TTGIR attribute text, in
// today's `#ttg.` spelling (docs/triton.md, "TTGIR text").
//
//   PrintLayout(Layout(BlockedLayout{{1, 4}, {4, 8}, {4, 1}, {1, 0}}))
//     == "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
//        "warpsPerCTA = [4, 1], order = [1, 0]}>"
//   PrintLinear(l) == "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], "
//                     "warp = [], block = []}>"
//
// ParseLayout(PrintLayout(x)) gives x back. Parents of slice and dot_op
// layouts are printed inline.
#ifndef HLOLAYOUT_TRITON_TTGIR_PRINTER_H_
#define HLOLAYOUT_TRITON_TTGIR_PRINTER_H_

#include <cstdint>
#include <string>

#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

std::string PrintLayout(const Layout& layout);

// PrintLinear
//
// A LinearLayout as `#ttg.linear<{...}>` (every in-dim and its bases, in
// order: Triton reads register, lane, warp, block), or as
// `#ttg.shared_linear<{offset = ..., block = ...}, alignment = N>` when its
// in-dims are offset and block (block left out when it has no bases, as
// Triton prints it). Out-dim sizes are not printed: Triton infers them.
std::string PrintLinear(const LinearLayout& layout, int32_t alignment = 16);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TTGIR_PRINTER_H_
