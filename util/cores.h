// util/cores.h: how many threads are worth starting now.
//
//   const int64_t threads = IdleCores(8);  // 2 on a quiet 2-core machine,
//                                          // 1 while another program runs
//
// A reading split over more threads than there are idle cores waits for
// cores: on a machine whose cores are all busy, two threads read a dump more
// slowly than one (docs/report-speed-history.md). Reading on more threads gives
// the same answers, so the default can follow the machine.
#ifndef HLOLAYOUT_UTIL_CORES_H_
#define HLOLAYOUT_UTIL_CORES_H_

#include <cstdint>
#include <functional>

namespace hlolayout {

// The cores this process may run on (its CPU affinity) that are not running
// something else now, at least 1 and at most `at_most`. On Linux, from the
// runnable count of /proc/loadavg (this thread included), read up to
// kRunnableReads times kRunnablePauseMicros apart while it shows fewer idle
// cores than wanted: the least count read wins, so processes runnable for a
// fraction of a millisecond (a pipeline's others, starting) are not taken
// for another program (IdleCoresRead). Elsewhere, or when /proc cannot be
// read: the cores the system has. Costs one read of /proc/loadavg on an
// idle machine, about half a millisecond on a busy one: callers ask only
// when the work is large enough to split.
int64_t IdleCores(int64_t at_most);

// The threads worth starting for work that splits into `parts` (a text's
// parts of a few MB, say): `requested` when above 0, else IdleCores, and
// never more than `parts` or `at_most` when idle cores decide. 1 when the
// work does not split, without reading the machine's load.
//
//   ThreadsForParts(/*requested=*/0, /*parts=*/18, /*at_most=*/8)  // 2 on
//                                             // a quiet 2-core machine
int64_t ThreadsForParts(int64_t requested, int64_t parts, int64_t at_most);

inline constexpr int kRunnableReads = 5;
inline constexpr int kRunnablePauseMicros = 100;

// What IdleCores computes from `cores` (may run on) and `runnable` (threads
// runnable on the system, the caller's included): exposed for tests.
int64_t IdleCoresOf(int64_t cores, int64_t runnable, int64_t at_most);

// What IdleCores computes from `cores` and the counts `read_runnable`
// returns (a negative count: it could not read; then `cores`, at most
// `at_most`): it reads at most kRunnableReads times, calling `pause` between
// two reads, and stops at the first read that leaves min(cores, at_most)
// cores idle. With min(cores, at_most) <= 1 it does not read. Exposed for
// tests.
int64_t IdleCoresRead(int64_t cores, int64_t at_most,
                      const std::function<int64_t()>& read_runnable,
                      const std::function<void()>& pause);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_CORES_H_
