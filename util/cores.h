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

namespace hlolayout {

// The cores this process may run on (its CPU affinity) that are not running
// something else at this moment (Linux: the runnable count of
// /proc/loadavg, this thread included), at least 1 and at most `at_most`.
// Elsewhere, or when /proc cannot be read: the cores the system has.
int64_t IdleCores(int64_t at_most);

// What IdleCores computes from `cores` (may run on) and `runnable` (threads
// runnable on the system, the caller's included): exposed for tests.
int64_t IdleCoresOf(int64_t cores, int64_t runnable, int64_t at_most);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_CORES_H_
