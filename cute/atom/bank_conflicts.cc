// cute/atom/bank_conflicts.cc: the bank model of bank_conflicts.h.
#include "hlolayout/cute/atom/bank_conflicts.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {

namespace {

int ThreadsPerPhase(int64_t bits_per_thread) {
  if (bits_per_thread <= 32) return 32;
  const int64_t p = 1024 / bits_per_thread;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(32, p)));
}

// The atom threads that give addresses on the shared-memory side: those whose
// coordinate is 0 in every stride-0 mode of the side's thread mode.
std::vector<bool> Participants(const Layout& side_bits, int64_t atom_threads) {
  std::vector<bool> out(static_cast<size_t>(atom_threads), true);
  if (!side_bits.shape().is_tuple()) return out;
  const Layout thr = side_bits.mode(0);
  const std::vector<int64_t> shape = Flatten(thr.shape());
  const std::vector<int64_t> stride = Flatten(thr.stride());
  for (int64_t a = 0; a < atom_threads; ++a) {
    int64_t rest = a;
    for (size_t k = 0; k < shape.size(); ++k) {
      const int64_t digit = k + 1 == shape.size() ? rest : rest % shape[k];
      rest = k + 1 == shape.size() ? 0 : rest / shape[k];
      if (stride[k] == 0 && digit != 0) out[static_cast<size_t>(a)] = false;
    }
  }
  return out;
}

absl::StatusOr<std::vector<InstructionAccess>> Accesses(
    const Layout& tv, int64_t rows, int64_t cols, int64_t per_instruction,
    int64_t atom_threads, const std::vector<bool>& participates,
    const SmemLayout& smem) {
  if (!tv.shape().is_tuple() || tv.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a (thread, value) layout, found ", StaticText(tv)));
  }
  const int64_t threads = tv.mode(0).size();
  const int64_t values = tv.mode(1).size();
  if (tv.size() > kMaxAccessValues) {
    return absl::InvalidArgumentError(
        absl::StrCat(threads, " threads x ", values,
                     " values are too many (at most ", kMaxAccessValues, ")"));
  }
  if (per_instruction < 1 || values % per_instruction != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a thread's ", values, " values do not split into instructions of ",
        per_instruction));
  }
  const int64_t instructions = values / per_instruction;
  std::vector<InstructionAccess> out;
  for (int64_t w = 0; w * 32 < threads; ++w) {
    for (int64_t i = 0; i < instructions; ++i) {
      InstructionAccess ia;
      ia.warp = w;
      ia.instruction = i;
      for (int64_t t = 32 * w; t < std::min(threads, 32 * w + 32); ++t) {
        if (!participates[static_cast<size_t>(t % atom_threads)]) continue;
        ThreadAccess ta;
        ta.thread = t;
        for (int64_t v = i * per_instruction; v < (i + 1) * per_instruction;
             ++v) {
          const int64_t k = tv(t + threads * v);
          if (k < 0 || k >= rows * cols) {
            return absl::InvalidArgumentError(
                absl::StrCat("thread ", t, " value ", v, " maps to index ", k,
                             ", outside the ", rows, "x", cols, " tile"));
          }
          absl::StatusOr<int64_t> off =
              smem.Offset(k % rows, k / rows, rows, cols);
          if (!off.ok()) return off.status();
          ta.offsets.push_back(*off);
        }
        ia.threads.push_back(std::move(ta));
      }
      out.push_back(std::move(ia));
    }
  }
  return out;
}

}  // namespace

SmemLayout SmemLayout::Plain(Layout layout) { return Any(std::move(layout)); }

SmemLayout SmemLayout::Any(AnyLayout layout) {
  std::string description = ToString(layout);
  return Function(
      [layout](int64_t m, int64_t n, int64_t rows,
               int64_t cols) -> absl::StatusOr<int64_t> {
        // The element offset of (m, n) in the layout that defines the domain.
        const bool byte_swizzle = layout.is_composed() &&
                                  layout.composed().offset().is_smem_ptr() &&
                                  layout.composed().outer().is_swizzle();
        const AnyLayout& domain =
            byte_swizzle ? layout.composed().inner() : layout;
        absl::StatusOr<int64_t> e;
        const IntTuple shape = domain.shape();
        if (shape.is_tuple() && Rank(shape) >= 2 && *Size(shape[0]) >= rows &&
            *Size(shape[1]) >= cols) {
          std::vector<IntTuple> coord = {m, n};
          for (int r = 2; r < Rank(shape); ++r) coord.push_back(0);
          e = domain.Evaluate(IntTuple::Tuple(std::move(coord)));
        } else if (domain.size() < rows * cols) {
          return absl::InvalidArgumentError(absl::StrCat(
              "the shared-memory layout has ", domain.size(),
              " elements, fewer than the ", rows, "x", cols, " tile"));
        } else {
          e = domain.TryEvaluate(m + rows * n);
        }
        if (!e.ok() || !byte_swizzle) return e;
        const int bits = layout.composed().offset().smem_bits();
        if (bits % 8 != 0 || *e < 0 || *e > (INT64_MAX / bits)) {
          return absl::InvalidArgumentError(
              absl::StrCat("element offset ", *e, " of ", bits,
                           "-bit elements has no byte address to swizzle"));
        }
        const int64_t byte = layout.composed().outer().swizzle()(*e * bits / 8);
        return byte * 8 / bits;
      },
      std::move(description));
}

SmemLayout SmemLayout::Function(
    std::function<absl::StatusOr<int64_t>(int64_t, int64_t, int64_t, int64_t)>
        offset,
    std::string description) {
  SmemLayout s;
  s.offset_ = std::move(offset);
  s.description_ = std::move(description);
  return s;
}

absl::StatusOr<ConflictReport> CountConflicts(
    const std::vector<InstructionAccess>& accesses, int value_bits) {
  if (value_bits < 1 || value_bits > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("value width ", value_bits, " bits is outside 1..1024"));
  }
  ConflictReport report;
  report.value_bits = value_bits;
  struct Touch {
    int64_t word;
    int64_t thread;
  };
  std::vector<Touch> touches;
  for (const InstructionAccess& ia : accesses) {
    int64_t bits = 0;
    for (const ThreadAccess& ta : ia.threads) {
      bits = std::max<int64_t>(
          bits, static_cast<int64_t>(ta.offsets.size()) * value_bits);
    }
    const int per_phase = ThreadsPerPhase(bits);
    report.threads_per_phase = std::max(report.threads_per_phase, per_phase);
    InstructionReport ir;
    ir.warp = ia.warp;
    ir.instruction = ia.instruction;
    ir.wavefronts = 0;
    ir.ideal = 0;
    for (size_t p = 0; p < ia.threads.size(); p += per_phase) {
      const size_t end = std::min(ia.threads.size(), p + per_phase);
      touches.clear();
      for (size_t k = p; k < end; ++k) {
        const ThreadAccess& ta = ia.threads[k];
        for (int64_t off : ta.offsets) {
          if (off < 0 || off > (INT64_MAX - value_bits) / value_bits) {
            return absl::InvalidArgumentError(
                absl::StrCat("thread ", ta.thread, " accesses element offset ",
                             off, ", not a shared-memory address"));
          }
          const int64_t first = off * value_bits / kBankBits;
          const int64_t last = (off * value_bits + value_bits - 1) / kBankBits;
          for (int64_t word = first; word <= last; ++word) {
            touches.push_back({word, ta.thread});
          }
        }
      }
      std::sort(touches.begin(), touches.end(),
                [](const Touch& a, const Touch& b) {
                  return a.word % kBanks != b.word % kBanks
                             ? a.word % kBanks < b.word % kBanks
                         : a.word != b.word ? a.word < b.word
                                            : a.thread < b.thread;
                });
      PhaseReport pr;
      pr.first_thread = ia.threads[p].thread;
      pr.last_thread = ia.threads[end - 1].thread;
      int64_t distinct = 0;
      int64_t worst = 0;
      for (size_t a = 0; a < touches.size();) {
        const int bank = static_cast<int>(touches[a].word % kBanks);
        size_t b = a;
        BankCollision c;
        c.bank = bank;
        while (b < touches.size() && touches[b].word % kBanks == bank) {
          if (c.words.empty() || c.words.back() != touches[b].word) {
            c.words.push_back(touches[b].word);
          }
          c.threads.push_back(touches[b].thread);
          ++b;
        }
        distinct += static_cast<int64_t>(c.words.size());
        worst = std::max<int64_t>(worst, static_cast<int64_t>(c.words.size()));
        if (c.words.size() > 1) {
          std::sort(c.threads.begin(), c.threads.end());
          c.threads.erase(std::unique(c.threads.begin(), c.threads.end()),
                          c.threads.end());
          pr.collisions.push_back(std::move(c));
        }
        a = b;
      }
      pr.wavefronts = std::max<int64_t>(1, worst);
      pr.ideal = std::max<int64_t>(1, (distinct + kBanks - 1) / kBanks);
      ir.wavefronts += pr.wavefronts;
      ir.ideal += pr.ideal;
      ir.phases.push_back(std::move(pr));
    }
    report.wavefronts += ir.wavefronts;
    report.ideal += ir.ideal;
    report.instructions.push_back(std::move(ir));
  }
  return report;
}

absl::StatusOr<std::vector<InstructionAccess>> TiledCopyAccesses(
    const TiledCopy& copy, Side side, const SmemLayout& smem) {
  const std::vector<int64_t> extent = copy.tile_extent();
  if (extent.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("bank conflicts need a rank-2 tile; Tiler_MN has ",
                     extent.size(), " modes"));
  }
  const bool src = side == Side::kSource;
  const CopyAtom& atom = copy.atom;
  const int64_t atom_threads = atom.op.thr_id.size();
  const std::vector<bool> participates =
      Participants(src ? atom.op.src_bits : atom.op.dst_bits, atom_threads);
  return Accesses(src ? copy.layout_s_tv : copy.layout_d_tv, extent[0],
                  extent[1], src ? atom.num_val_src() : atom.num_val_dst(),
                  atom_threads, participates, smem);
}

absl::StatusOr<std::vector<InstructionAccess>> TvAccesses(
    const Layout& tv, int64_t rows, int64_t cols, int64_t vector,
    const SmemLayout& smem) {
  if (rows < 1 || cols < 1) {
    return absl::InvalidArgumentError("the tile needs positive extents");
  }
  return Accesses(tv, rows, cols, vector, 1, {true}, smem);
}

absl::StatusOr<ConflictReport> SmemConflicts(const TiledCopy& copy, Side side,
                                             const SmemLayout& smem) {
  absl::StatusOr<std::vector<InstructionAccess>> a =
      TiledCopyAccesses(copy, side, smem);
  if (!a.ok()) return a.status();
  return CountConflicts(*a, copy.atom.value_bits);
}

}  // namespace hlolayout::cute
