// triton/lds_banks.h: the hardware's bank model of a shared-memory access
// (docs/triton-smem.md, "Banks and phases"): which lanes of a warp one
// access phase serves, how many 4-byte banks that phase sees, and how many
// wavefronts an instruction whose lanes give `addresses` then takes.
//
//   CvtTarget t = *CvtTargetNamed("hip:gfx942");
//   AccessPhases(t, 64, 16, /*load=*/true)[0]
//       // {0, 1, 2, 3, 20, 21, 22, 23}: ds_read_b128's first phase
//   BankWays(addresses, 16, /*load=*/true, t)  // {worst ways, wavefronts}
//
// The rule (docs/triton-smem.md, "Banks and phases"). NVIDIA: 32 banks; a
// phase holds as many consecutive lanes as fill them (the whole warp up to
// 4 bytes a lane, half warps at 8, quarter warps at 16). gfx90a and
// gfx942: 32 banks, consecutive lanes filling them (ds_write_b128: 8),
// except gfx942's ds_read_b128, whose phases are the lanes equal in lane
// bits 3 and 5 and in bit 2 XOR bit 4 (0-3 with 20-23, 4-7 with 16-19,
// ...). gfx950: ds_read_b64 and ds_read_b128 see 64 banks (32 consecutive
// lanes; for b128 16 lanes, equal in lane bit 5 and in bits 2 XOR 3 XOR 4:
// 0-3, 12-15, 20-23 and 24-27, ...), every other access 32 banks as on
// gfx942. In a phase a bank serves one 4-byte word at a time and lanes
// reaching the same word share it; the phase takes as many wavefronts as
// the most distinct words one bank holds.
#ifndef HLOLAYOUT_TRITON_LDS_BANKS_H_
#define HLOLAYOUT_TRITON_LDS_BANKS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "hlolayout/triton/cvt_target.h"

namespace hlolayout::triton {

// BankCount
//
// The 4-byte banks one phase of an access of `bytes` bytes per lane sees
// on `target` (`load` for reads).
int BankCount(const CvtTarget& target, int bytes, bool load);

// AccessPhases
//
// The lanes of a warp of `lanes` lanes that `target` serves together for
// an access of `bytes` bytes per lane, phase by phase (each in lane order,
// the phases in the order of their first lane).
std::vector<std::vector<int>> AccessPhases(const CvtTarget& target, int lanes,
                                           int bytes, bool load);

// BankWays
//
// The wavefronts of one instruction on `target`: `addresses` holds one byte
// address per lane of a warp, each lane moving `bytes` bytes; `load` for
// reads. Returns {worst ways of a phase, total wavefronts}.
std::pair<int, int64_t> BankWays(const std::vector<int64_t>& addresses,
                                 int bytes, bool load, const CvtTarget& target);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LDS_BANKS_H_
