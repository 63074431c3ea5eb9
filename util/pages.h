// util/pages.h: whole memory pages given back to the system, and the
// process' resident memory, for code that keeps its peak resident memory
// low under a heap that is never trimmed (cli/heap.cc).
//
//   std::vector<Entry> table(1 << 20);
//   ...                                    // the table's last use
//   DropWholePages(table.data(), table.size() * sizeof(Entry));
//   // still allocated; no longer resident until written again
//
// Linux only; elsewhere DropWholePages does nothing and ResidentBytes
// returns 0.
#ifndef HLOLAYOUT_UTIL_PAGES_H_
#define HLOLAYOUT_UTIL_PAGES_H_

#include <cstddef>
#include <cstdint>

namespace hlolayout {

// Gives back the whole pages inside the `bytes` bytes at `p` (the partial
// pages at either end stay): the memory stays allocated to its owner, and
// what is read from those pages afterwards is zeros. For memory about to be
// freed into a heap that keeps it, or kept unused for a while.
void DropWholePages(void* p, size_t bytes);

// Gives back the whole pages of `v`'s room past its size, for a vector
// reserved for a bound and filled: under the CLI's huge pages the untouched
// end of the last 2 MiB page it wrote is resident too (docs/memory-speed.md,
// "Fewer tables at the peak"). Growing into the room later faults fresh
// pages in, as it would have.
template <typename Vector>
void DropSpareRoom(Vector* v) {
  if (v->capacity() == v->size()) return;
  DropWholePages(v->data() + v->size(),
                 (v->capacity() - v->size()) * sizeof(*v->data()));
}

// Gives back a block about to be freed into a heap that keeps it, in whole
// pages of HeapPageSize() bytes: the parts at either end, in pages the
// block shares with its neighbours, stay resident for the heap's next
// requests. What is read from the pages given back is zeros.
//
// Why not DropWholePages: under a heap backed by 2 MiB pages (cli/heap.cc),
// giving back part of one splits it into 4 KiB pages, and each 4 KiB of it
// written again later is a fault of its own (docs/memory-speed-pages.md).
void DropFreedBlock(void* p, size_t bytes);

// The page size DropFreedBlock gives memory back in: the system's, unless
// the program set another.
size_t HeapPageSize();

// Sets HeapPageSize() (0: the system's again). For a program whose heap is
// backed by huge pages: cli/heap.cc sets 2 MiB. Precondition: 0 or a power
// of two no smaller than the system's page size (checked).
// Thread-safe, but meant to be called once, before the heap is used.
void SetHeapPageSize(size_t bytes);

// This process' resident bytes now (/proc/self/statm); 0 where unknown.
int64_t ResidentBytes();

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_PAGES_H_
