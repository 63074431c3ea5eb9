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
// inside the program. Linking heap.cc also replaces the program's operator
// new, to pass large blocks to UnsplitHugePages (below).
//
// Where not: on a virtual machine whose kernel hands the memory it frees
// back to the host (FreePagesGoBackToTheHost), a page written for the first
// time after a pause of a second or two comes back from the host, and
// there a 2 MiB page costs 2 ms a MiB against 0.5 ms in 4 KiB pages (0.1
// against 0.4 back to back; bench/page_touch). A command run once pays that
// for every page it writes: on the machine this tool is measured on,
// `hlolayout memory` on a 75 MB dump took 550 ms with huge pages and 342 ms
// without, run 3 s after the last command (docs/memory-speed-pages.md), and
// 251 against 283 ms back to back. So the heap stays in 4 KiB pages there,
// but keeps what is freed (blocks of up to 32 MiB from the heap, no
// trimming), since each 4 KiB page given back and written again faults
// again: 2-11% faster, at 1-7 MiB more peak. The environment variable
// HLOLAYOUT_HUGE_PAGES=0 leaves the heap to glibc's defaults everywhere, =1
// turns huge pages on everywhere.
//
// For programs only: a library must not change its host's allocator. Not
// thread-safe: call it before any thread starts.
#ifndef HLOLAYOUT_CLI_HEAP_H_
#define HLOLAYOUT_CLI_HEAP_H_

#include <cstddef>
#include <string_view>

namespace hlolayout::cli {

inline constexpr size_t kDefaultHeapReserve = size_t{512} << 20;

// Returns the number of bytes marked for huge pages (0 when none were: not
// glibc, a sanitizer build, HLOLAYOUT_HUGE_PAGES=0, a host that takes freed
// pages back and no HLOLAYOUT_HUGE_PAGES=1, or the heap could not grow by
// `reserve`).
size_t UseHugePagesForTheHeap(size_t reserve = kDefaultHeapReserve);

// Whether this kernel reports the memory it frees to a hypervisor, which
// may take it back (a virtio balloon with free page reporting, read from
// /sys/bus/virtio/drivers/virtio_balloon). False off Linux.
bool FreePagesGoBackToTheHost();

// `features` as sysfs lists a virtio device's ('0' or '1' per feature bit,
// bit 0 first, then a newline): whether bit 5, a balloon's free page
// reporting (VIRTIO_BALLOON_F_REPORTING), is set.
bool BalloonReportsFreePages(std::string_view features);

// For memory just allocated and not yet written: gives back, whole, each
// 2 MiB page of the range UseHugePagesForTheHeap marked that lies inside
// the `bytes` bytes at `p` and is less than half resident. What those pages
// held is lost. The program's operator new calls it for every block of 2
// MiB or more; nothing else needs to. Thread-safe; does nothing outside
// that range, under the sanitizers, or off glibc and Linux.
//
// Why: a huge page of which a part was given back (DropWholePages,
// util/pages.h) keeps a table of 4 KiB pages, and each 4 KiB written there
// again is a fault of its own, at 4-5 times the cost a byte of a huge
// page's fault on the machines this tool is measured on. Given back whole,
// the table goes too (Linux frees it for a call that covers it whole), and
// the first write faults in one huge page (docs/memory-speed-heap.md,
// "Split huge pages made whole").
void UnsplitHugePages(void* p, size_t bytes);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_HEAP_H_
