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

// This process' resident bytes now (/proc/self/statm); 0 where unknown.
int64_t ResidentBytes();

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_PAGES_H_
