// cli/heap.h: the `hlolayout` program's heap, backed by transparent huge
// pages (2 MiB) where the system allows it.
//
//   int main(int argc, char** argv) {
//     hlolayout::cli::UseHugePagesForTheHeap();  // first thing, once
//     ...
//   }
//
// Why: reading a large dump (`hlolayout report` on a 75 MB file) builds some
// tens of MB of shapes and per-module state. With 4 KiB pages each new page
// of that costs a page fault, and on the virtual machines this tool is built
// and measured on a fault costs 6 to 13 us: 7,400 faults were a quarter of
// `report --summary`'s time (docs/report-speed-history.md, "Fourth round").
// Huge pages need 512 times fewer faults.
//
// What it does (glibc only; elsewhere, and under the sanitizers, which
// replace malloc, it does nothing): grows the main heap once by a
// `reserve` of address space (memory is committed only where it is used,
// in 2 MiB steps), marks that range MADV_HUGEPAGE, keeps freed memory in the
// heap (no trimming), serves blocks of up to 32 MiB from the heap rather
// than from their own mappings, and makes every thread allocate from the
// main heap (the report's reading threads allocate little once warm). It is
// what glibc's `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` does, done from
// inside the program. The environment variable HLOLAYOUT_HUGE_PAGES=0 turns
// it off (for measuring; docs/report-speed-history.md).
//
// For programs only: a library must not change its host's allocator. Not
// thread-safe: call it before any thread starts.
#ifndef HLOLAYOUT_CLI_HEAP_H_
#define HLOLAYOUT_CLI_HEAP_H_

#include <cstddef>

namespace hlolayout::cli {

inline constexpr size_t kDefaultHeapReserve = size_t{512} << 20;

// Returns the number of bytes marked for huge pages (0 when nothing was
// done: not glibc, a sanitizer build, HLOLAYOUT_HUGE_PAGES=0, or the heap
// could not grow by `reserve`).
size_t UseHugePagesForTheHeap(size_t reserve = kDefaultHeapReserve);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_HEAP_H_
