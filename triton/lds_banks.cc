#include "hlolayout/triton/lds_banks.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace hlolayout::triton {
namespace {

// Whether the access is one of gfx950's wide reads (64 banks).
bool WideGfx950Read(const CvtTarget& target, int bytes, bool load) {
  return target.name == "hip:gfx950" && load && (bytes == 8 || bytes == 16);
}

// The lane offsets that span the phase holding lane 0: every phase is
// lane 0's phase XOR-shifted by its first lane.
std::vector<int> PhaseSpan(const CvtTarget& target, int lanes, int bytes,
                           bool load) {
  if (load && bytes == 16) {
    // ds_read_b128: lanes 0-3 with 20-23 (32 banks), and with 12-15 and
    // 24-27 too (gfx950's 64).
    if (target.name == "hip:gfx942") return {1, 2, 20};
    if (target.name == "hip:gfx950") return {1, 2, 12, 20};
  }
  const int phase_bytes = BankCount(target, bytes, load) * 4;
  const int per_phase =
      std::max(1, std::min(lanes, phase_bytes / std::max(4, bytes)));
  std::vector<int> span;
  for (int b = 1; b < per_phase; b *= 2) span.push_back(b);
  return span;
}

}  // namespace

int BankCount(const CvtTarget& target, int bytes, bool load) {
  return WideGfx950Read(target, bytes, load) ? 64 : 32;
}

std::vector<std::vector<int>> AccessPhases(const CvtTarget& target, int lanes,
                                           int bytes, bool load) {
  std::vector<int> members = {0};  // the phase of lane 0
  for (int v : PhaseSpan(target, lanes, bytes, load)) {
    const size_t n = members.size();
    for (size_t i = 0; i < n; ++i) members.push_back(members[i] ^ v);
  }
  std::map<int, std::vector<int>> by_first;
  for (int lane = 0; lane < lanes; ++lane) {
    int first = lane;
    for (int m : members) first = std::min(first, lane ^ m);
    by_first[first].push_back(lane);
  }
  std::vector<std::vector<int>> phases;
  for (auto& [first, group] : by_first) phases.push_back(std::move(group));
  return phases;
}

std::pair<int, int64_t> BankWays(const std::vector<int64_t>& addresses,
                                 int bytes, bool load,
                                 const CvtTarget& target) {
  const int banks = BankCount(target, bytes, load);
  const int lanes = static_cast<int>(addresses.size());
  int worst = 1;
  int64_t total = 0;
  for (const std::vector<int>& group :
       AccessPhases(target, lanes, bytes, load)) {
    std::map<int64_t, std::set<int64_t>> words_by_bank;
    for (int lane : group) {
      const int64_t a = addresses[lane];
      for (int64_t w = a / 4; w <= (a + std::max(bytes, 1) - 1) / 4; ++w) {
        words_by_bank[w % banks].insert(w);
      }
    }
    int ways = 1;
    for (const auto& [bank, words] : words_by_bank) {
      ways = std::max(ways, static_cast<int>(words.size()));
    }
    worst = std::max(worst, ways);
    total += ways;
  }
  return {worst, total};
}

}  // namespace hlolayout::triton
