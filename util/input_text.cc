#include "hlolayout/util/input_text.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hlolayout {

std::string ResolveUserPath(absl::string_view path) {
  const char* base = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || base == nullptr || *base == '\0') {
    return std::string(path);
  }
  return absl::StrCat(base, "/", path);
}

absl::StatusOr<std::string> ReadFileText(absl::string_view path) {
  const std::string resolved = ResolveUserPath(path);
  std::FILE* file = std::fopen(resolved.c_str(), "rb");
  if (file == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  // A directory opens, and seeking its end gave a size of 2^63 bytes to
  // reserve (an abort): say what it is instead.
  struct stat st = {};
  const bool known = fstat(fileno(file), &st) == 0;
  if (known && S_ISDIR(st.st_mode)) {
    std::fclose(file);
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read '", path, "': ", std::strerror(EISDIR)));
  }
  std::string text;
  if (known && S_ISREG(st.st_mode) && std::fseek(file, 0, SEEK_END) == 0) {
    const long size = std::ftell(file);
    if (size > 0) text.reserve(static_cast<size_t>(size));
    std::rewind(file);
  }
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    text.append(buffer, n);
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    return absl::DataLossError(absl::StrCat("cannot read '", path, "'"));
  }
  return text;
}

namespace {

// Mapped inputs alive now. A file cut short by another process while it is
// mapped makes the next read of a lost page raise SIGBUS; while any input
// is mapped, that signal ends the program with a message and exit status 1
// instead of a crash (the memory is gone, there is nothing to go back to).
std::atomic<int> live_maps{0};
std::atomic<bool> handler_installed{false};

void OnSigbus(int signal) {
  if (live_maps.load() > 0) {
    static const char kMessage[] =
        "hlolayout: error: an input file was cut short by another process "
        "while it was read\n";
    ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    (void)ignored;
    _exit(1);
  }
  // Not ours: the default action (a crash with a core).
  std::signal(signal, SIG_DFL);
  raise(signal);
}

void GuardMappedInputs() {
  if (handler_installed.exchange(true)) return;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = OnSigbus;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, nullptr);
}

}  // namespace

InputText::~InputText() {
  if (map_base_ != nullptr) munmap(map_base_, map_len_);
  if (file_map_) live_maps.fetch_sub(1);
}

void InputText::ReleasePages() const {
  // A private read-only mapping of a file: the pages come back from the
  // file when read again (an anonymous one, ReadDescriptor's, would come
  // back zeroed).
  if (file_map_) madvise(map_base_, map_len_, MADV_DONTNEED);
}

void InputText::ReleasePages(size_t begin, size_t end) const {
  if (!file_map_ || begin >= end || end > size_) return;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t from =
      (reinterpret_cast<uintptr_t>(map_) + begin + page - 1) & ~(page - 1);
  const uintptr_t to = (reinterpret_cast<uintptr_t>(map_) + end) & ~(page - 1);
  if (to > from)
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

std::unique_ptr<InputText> InputText::MapFile(int fd, int64_t offset) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || offset < 0 ||
      st.st_size <= offset) {
    return nullptr;
  }
  const int64_t page = sysconf(_SC_PAGESIZE);
  const int64_t base = offset / page * page;
  const size_t len = static_cast<size_t>(st.st_size - base);
  // A file under 8 MB is read by one thread: its pages are mapped here, all
  // at once. A larger one is read in parts on several threads (hlo/reader.h),
  // each of which maps the pages of its part as it reads them: mapping 75 MB
  // here took 25 ms before any thread started (report --summary of the 75 MB
  // dumps on two threads: 3-12% faster without; one thread: the same).
  constexpr size_t kMapAllBelow = size_t{8} << 20;
  const int flags =
      len < kMapAllBelow ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE;
  void* map = mmap(nullptr, len, PROT_READ, flags, fd, base);
  if (map == MAP_FAILED) return nullptr;
  GuardMappedInputs();
  live_maps.fetch_add(1);
  auto text = std::make_unique<InputText>();
  text->map_base_ = map;
  text->map_len_ = len;
  text->file_map_ = true;
  text->map_ = static_cast<const char*>(map) + (offset - base);
  text->size_ = static_cast<size_t>(st.st_size - offset);
  return text;
}

// Everything left on `fd` (a pipe, a terminal), read into an anonymous
// mapping that mremap grows in place or moves without copying: the peak is
// the input's size (a std::string doubling its capacity held the old and
// the new buffer at once, twice the input).
absl::StatusOr<std::unique_ptr<InputText>> InputText::ReadDescriptor(int fd) {
#if defined(__linux__)
  size_t cap = size_t{1} << 20;
  void* buf = mmap(nullptr, cap, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED) {
    return absl::ResourceExhaustedError("cannot read standard input");
  }
  auto text = std::make_unique<InputText>();
  text->map_base_ = buf;
  text->map_len_ = cap;
  size_t size = 0;
  while (true) {
    if (size == cap) {
      void* grown = mremap(buf, cap, 2 * cap, MREMAP_MAYMOVE);
      if (grown == MAP_FAILED) {
        return absl::ResourceExhaustedError(
            absl::StrCat("standard input is larger than the memory available (",
                         size, " bytes read)"));
      }
      buf = grown;
      cap *= 2;
      text->map_base_ = buf;
      text->map_len_ = cap;
    }
    const ssize_t n = read(fd, static_cast<char*>(buf) + size, cap - size);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::DataLossError(
          absl::StrCat("cannot read standard input: ", std::strerror(errno)));
    }
    size += static_cast<size_t>(n);
  }
  text->map_ = static_cast<const char*>(buf);
  text->size_ = size;
  return text;
#else
  std::string bytes;
  char block[1 << 16];
  ssize_t n;
  while ((n = read(fd, block, sizeof(block))) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::DataLossError(
          absl::StrCat("cannot read standard input: ", std::strerror(errno)));
    }
    bytes.append(block, static_cast<size_t>(n));
  }
  return std::make_unique<InputText>(std::move(bytes));
#endif
}

absl::StatusOr<std::unique_ptr<InputText>> OpenFileText(
    absl::string_view path) {
  const std::string resolved = ResolveUserPath(path);
  const int fd = open(resolved.c_str(), O_RDONLY);
  if (fd < 0) {
    return absl::NotFoundError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  std::unique_ptr<InputText> text = InputText::MapFile(fd, 0);
  close(fd);
  if (text != nullptr) return text;
  absl::StatusOr<std::string> bytes = ReadFileText(path);
  if (!bytes.ok()) return bytes.status();
  return std::make_unique<InputText>(*std::move(bytes));
}

}  // namespace hlolayout
