#!/usr/bin/env python3
"""Which page drops make a run fault memory in 4 KiB at a time, or again.

Replays, 2 MiB region by region, what the kernel does with the heap's
huge pages in one run, from a trace of its page faults and its madvise
calls, and charges each 4 KiB fault to the drop that split its region:

  HLOLAYOUT_HUGE_PAGES=1 perf record -g -e syscalls:sys_enter_madvise \\
      -e exceptions:page_fault_user -o /tmp/faults.data \\
      .build/bin/cli/hlolayout memory --threads=2 DUMP
  python3 bench/fault_regions.py /tmp/faults.data

(HLOLAYOUT_HUGE_PAGES=1: where the host takes freed memory back, the CLI
leaves its heap in 4 KiB pages unless told; cli/heap.h.)

The model (Linux 6.x, transparent huge pages on madvise):
- The range the CLI marks MADV_HUGEPAGE (cli/heap.cc) is the heap. A
  fault in one of its 2 MiB regions that has no page table maps a whole
  huge page (one fault); a fault in a region that has one maps 4 KiB.
- MADV_DONTNEED over a whole huge page unmaps it; over part of one, splits
  it into a page table of 512 entries and unmaps those in the range.
- A page table stays when its last entry is unmapped, unless one
  MADV_DONTNEED call of 2 MiB or more covers its whole region (page table
  reclaim, CONFIG_PT_RECLAIM): memory written there again comes back 4 KiB
  at a time.
The replay's huge-page count can be checked against the difference of
thp_fault_alloc in /proc/vmstat around the run.

It also gives the memory the run wrote again after giving it back (a
fault in a region a drop emptied, or in a page a drop unmapped), which
costs a fresh page each time: charged to the code that gave the pages
back and to the code that wrote them again, when the trace has call
chains (`perf record -g`), else to the drop's size.
"""

import collections
import re
import subprocess
import sys

HUGE = 2 << 20
PAGE = 4096
MADV_DONTNEED = 4
MADV_HUGEPAGE = 14


# Frames that name no caller of interest: the helpers that give pages back
# and allocate.
HELPERS = ("DropWholePages", "DropSpareRoom", "Release", "UnsplitHugePages",
           "operator new", "ScratchPool", "ScratchAllocator<", "malloc",
           "madvise", "memset", "memmove", "memcpy")


def site(frames):
  """The first frame of `frames` (innermost first) in hlolayout's code
  that is not a helper, without its arguments; '?' without one."""
  for frame in frames:
    if "hlolayout" in frame and not any(h in frame for h in HELPERS):
      return re.sub(r"\(.*", "", frame.split(None, 1)[-1])[-60:]
  return "?"


def events(data):
  """(time, kind, address, length, advice, site), in time order."""
  out = subprocess.run(
      ["perf", "script", "-i", data, "-F", "time,event,trace,ip,sym"],
      capture_output=True, text=True, check=True).stdout
  found = []
  frames = []  # the call chain of found[-1], innermost first

  def close():
    if found:
      found[-1] = found[-1][:5] + (site(frames),)
    frames.clear()

  for line in out.splitlines():
    m = re.search(r"([\d.]+): +syscalls:sys_enter_madvise: start: (0x[0-9a-f]+),"
                  r" len_in: (0x[0-9a-f]+), behavior: (0x[0-9a-f]+)", line)
    if m:
      close()
      found.append((float(m.group(1)), "madvise", int(m.group(2), 16),
                    int(m.group(3), 16), int(m.group(4), 16), "?"))
      continue
    m = re.search(r"([\d.]+): .*page_fault_user.*address=(0x[0-9a-f]+)", line)
    if m:
      close()
      found.append((float(m.group(1)), "fault", int(m.group(2), 16), 0, 0,
                    "?"))
      continue
    if line.strip():
      frames.append(line.strip())
  close()
  found.sort(key=lambda e: e[0])
  return found


def main():
  if len(sys.argv) != 2:
    sys.exit(__doc__)
  heap_begin = heap_end = None
  # region -> "huge" (a huge page maps it) or the set of its mapped pages
  # (it has a page table); absent: neither.
  state = {}
  split_by = {}  # region -> what gave it a page table
  # region -> "all" once a huge page mapped it, else the pages ever mapped
  ever = {}
  dropped_by = {}  # region -> the site of the last drop in it
  huge = small = first_bytes = 0
  charged = collections.Counter()
  again_by_dropper = collections.Counter()
  again_by_writer = collections.Counter()
  for _, kind, address, length, advice, where in events(sys.argv[1]):
    if kind == "madvise":
      if advice == MADV_HUGEPAGE:
        heap_begin, heap_end = address, address + length
      if advice != MADV_DONTNEED:
        continue
      begin = (address + PAGE - 1) // PAGE * PAGE
      end = (address + length) // PAGE * PAGE
      for region in range(begin // HUGE, (end - 1) // HUGE + 1):
        lo, hi = max(begin, region * HUGE), min(end, region * HUGE + HUGE)
        whole = lo == region * HUGE and hi == region * HUGE + HUGE
        mapped = state.get(region)
        if mapped is None:
          continue
        drop = "a drop of %d bytes" % length
        if where != "?":
          drop += " (%s)" % where
        dropped_by[region] = drop
        if mapped == "huge":
          if whole:
            del state[region]
            continue
          mapped = set(range(HUGE // PAGE))
          state[region] = mapped
          split_by[region] = drop
        for page in range((lo - region * HUGE) // PAGE,
                          (hi - region * HUGE) // PAGE):
          mapped.discard(page)
        if not mapped and whole and length >= HUGE:
          del state[region]  # page table reclaim
      continue
    if heap_begin is None or not heap_begin <= address < heap_end:
      continue
    region = address // HUGE
    mapped = state.get(region)
    page = (address - region * HUGE) // PAGE
    if mapped is None:
      if region * HUGE >= heap_begin and region * HUGE + HUGE <= heap_end:
        state[region] = "huge"
        huge += 1
        written = HUGE
      else:
        state[region] = {page}
        split_by[region] = "the edge of the huge-page range"
        small += 1
        written = PAGE
    elif mapped != "huge" and page not in mapped:
      mapped.add(page)
      small += 1
      charged[split_by[region]] += 1
      written = PAGE
    else:
      continue
    # What of the memory written was mapped before (and given back since).
    before = ever.get(region, set())
    if written == HUGE:
      again = HUGE if before == "all" else len(before) * PAGE
      ever[region] = "all"
    else:
      again = PAGE if before == "all" or page in before else 0
      if before != "all":
        ever[region] = before | {page}
    first_bytes += written - again
    if again:
      again_by_dropper[dropped_by.get(region, "?")] += again
      again_by_writer[where] += again
  mib = 1 << 20
  print("huge-page faults %d, 4 KiB faults %d in the heap" % (huge, small))
  print("4 KiB faults in regions split before, by what split them:")
  for what, count in charged.most_common(12):
    print("  %6d  %s" % (count, what))
  print("memory written for the first time %.1f MiB, again after it was "
        "given back %.1f MiB" %
        (first_bytes / mib, sum(again_by_dropper.values()) / mib))
  for title, table in (("given back by", again_by_dropper),
                       ("written again by", again_by_writer)):
    print("written again, MiB, %s:" % title)
    for what, count in table.most_common(12):
      print("  %6.1f  %s" % (count / mib, what))


if __name__ == "__main__":
  main()
