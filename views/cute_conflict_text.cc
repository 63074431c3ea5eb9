#include "hlolayout/views/cute_conflict_text.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace hlolayout::cute {
namespace {

std::string Ratio(int64_t a, int64_t b) {
  return absl::StrFormat("%.2fx", b == 0 ? 0.0 : static_cast<double>(a) / b);
}

std::string ShortList(const std::vector<int64_t>& v) {
  std::vector<int64_t> head(v.begin(),
                            v.begin() + std::min<size_t>(v.size(), 12));
  std::string s = absl::StrJoin(head, ",");
  if (v.size() > head.size()) absl::StrAppend(&s, ",... (", v.size(), ")");
  return s;
}

// "0-3,8-11" for banks 0,1,2,3,8,9,10,11.
std::string BankRanges(const std::vector<int>& banks) {
  std::string out;
  for (size_t i = 0; i < banks.size();) {
    size_t j = i;
    while (j + 1 < banks.size() && banks[j + 1] == banks[j] + 1) ++j;
    absl::StrAppend(&out, out.empty() ? "" : ",", banks[i]);
    if (j > i) absl::StrAppend(&out, "-", banks[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string ConflictReportText(const ConflictReport& r, bool all,
                               absl::string_view what) {
  std::ostringstream out;
  out << what << "\n"
      << r.value_bits << "-bit values, " << r.threads_per_phase
      << " threads per phase\n";
  int64_t warps = 0;
  for (const InstructionReport& ir : r.instructions) {
    warps = std::max(warps, ir.warp + 1);
    if (!all && ir.warp != 0) continue;
    out << "warp " << ir.warp << " instruction " << ir.instruction << ": "
        << ir.wavefronts << " wavefronts (ideal " << ir.ideal << ", "
        << Ratio(ir.wavefronts, ir.ideal) << ")\n";
    for (const PhaseReport& p : ir.phases) {
      if (p.collisions.empty()) continue;
      out << "  threads " << p.first_thread << "-" << p.last_thread << ": "
          << p.wavefronts << " wavefronts (ideal " << p.ideal << ")\n";
      // Group the banks by the threads that collide in them.
      std::vector<std::pair<std::vector<int64_t>, std::vector<int>>> groups;
      for (const BankCollision& c : p.collisions) {
        auto it =
            std::find_if(groups.begin(), groups.end(),
                         [&](const auto& g) { return g.first == c.threads; });
        if (it == groups.end()) {
          groups.push_back({c.threads, {c.bank}});
        } else {
          it->second.push_back(c.bank);
        }
      }
      int shown = 0;
      for (const auto& [threads, banks] : groups) {
        if (++shown > 8) {
          out << "    ... " << groups.size() - 8 << " more groups\n";
          break;
        }
        out << "    threads " << ShortList(threads) << " in bank"
            << (banks.size() > 1 ? "s " : " ") << BankRanges(banks) << "\n";
      }
    }
  }
  out << "total: " << r.wavefronts << " wavefronts for an ideal of " << r.ideal
      << " (" << Ratio(r.wavefronts, r.ideal) << ") over "
      << r.instructions.size() << " instruction(s) of " << warps
      << " warp(s)\n";
  return out.str();
}

}  // namespace hlolayout::cute
