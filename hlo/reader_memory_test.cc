// The memory ReadHloModules holds while it reads, counted by replacing the
// global operator new and delete in this test binary (alone: the counts
// would slow every other test).
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"

namespace {

std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> peak_bytes{0};

void* Counted(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  const int64_t now = live_bytes += static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void Uncounted(void* p) {
  if (p == nullptr) return;
  live_bytes -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}

}  // namespace

void* operator new(size_t size) { return Counted(size); }
void* operator new[](size_t size) { return Counted(size); }
void operator delete(void* p) noexcept { Uncounted(p); }
void operator delete[](void* p) noexcept { Uncounted(p); }
void operator delete(void* p, size_t) noexcept { Uncounted(p); }
void operator delete[](void* p, size_t) noexcept { Uncounted(p); }

namespace hlolayout {
namespace {

// The most memory held at once while `text` is read, beyond what was held
// before.
int64_t PeakWhileReading(const std::string& text, size_t* modules) {
  const int64_t before = live_bytes.load();
  peak_bytes = before;
  absl::StatusOr<std::vector<HloModule>> read =
      ReadHloModules(text, HloReadOptions(), nullptr, /*threads=*/1);
  const int64_t peak = peak_bytes.load() - before;
  EXPECT_TRUE(read.ok()) << read.status();
  *modules = read.ok() ? read->size() : 0;
  return peak;
}

// Only the first module of a text reserves room for the text's computations
// (one per KB): a reserve in every module made memory grow with the square
// of their number (8,000 modules of 140 bytes held 759 MB).
TEST(HloReaderMemory, ManyModulesHoldMemoryInProportion) {
  std::vector<int64_t> peaks;
  for (const int count : {1000, 4000}) {
    std::string text;
    for (int i = 0; i < count; ++i) {
      absl::StrAppend(&text, "// -----\nHloModule m", i,
                      "\nENTRY e {\n  ROOT p = f32[4]{0} parameter(0)\n}\n");
    }
    size_t modules = 0;
    peaks.push_back(PeakWhileReading(text, &modules));
    EXPECT_EQ(modules, static_cast<size_t>(count));
  }
  // Four times the modules, about four times the memory (1.7 -> 5.4 MB; the
  // reserves made it 9 -> 128 MB).
  EXPECT_LT(peaks[1], 6 * peaks[0]) << peaks[0] << " -> " << peaks[1];
}

}  // namespace
}  // namespace hlolayout
