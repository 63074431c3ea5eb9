#include "hlolayout/report/dump_folder.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/module_figures.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/report/report.h"
#include "hlolayout/util/bytes.h"

namespace hlolayout {
namespace {

constexpr absl::string_view kAfterOptimizations = "after_optimizations.txt";
// How much of a .txt file is looked at for an `HloModule` line.
constexpr size_t kProbeBytes = 64 << 10;

// True when the first kProbeBytes of `path` have a line starting with
// "HloModule ".
bool HoldsModule(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  std::string head(kProbeBytes, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file));
  std::fclose(file);
  for (size_t at = head.find("HloModule "); at != std::string::npos;
       at = head.find("HloModule ", at + 1)) {
    if (at == 0 || head[at - 1] == '\n') return true;
  }
  return false;
}

int64_t DefaultThreads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : std::min<int64_t>(cores, 8);
}

// An unknown opcode of one file, located while its text is at hand.
struct FileUnknownOpcode {
  std::string opcode;
  int64_t instructions = 0;
  std::string where;   // "file:L:C"
  std::string source;  // "<line>\n<caret>"
};

// The rows of one file's modules (and its unknown opcodes), or the reader's
// error.
absl::StatusOr<std::vector<DumpFolderRow>> SummarizeFile(
    const DumpFolderFile& file, absl::string_view text, int64_t threads,
    bool analyze_memory, bool keep_going,
    std::vector<FileUnknownOpcode>* unknown, std::vector<std::string>* errors) {
  ReportOptions options;
  options.keep_rows = false;
  options.top_wasters = 0;
  options.threads = threads;
  options.read.file_name = file.name;
  options.read.keep_going = keep_going;
  Report report;
  absl::Status status = AppendReport(text, options, &report);
  if (!status.ok()) return status;
  *errors = std::move(report.errors);
  OffsetLocator locator(text);  // the offsets come in text order
  for (const UnknownOpcode& u : report.unknown_opcodes) {
    const SourceLocation at = locator.Locate(u.offset);
    // The source line and caret, as the reader's diagnostics show them.
    const std::string located =
        FormatDiagnostic(text, u.offset, "-", "", &locator);
    unknown->push_back(
        {std::string(u.opcode), u.instructions,
         absl::StrCat(file.name, ":", at.line, ":", at.column),
         located.substr(std::min(located.size(), located.find('\n') + 1))});
  }
  std::vector<DumpFolderRow> rows;
  for (const ModuleReport& m : report.modules) {
    DumpFolderRow row;
    row.file = file.name;
    row.module = std::string(m.name);
    row.computations = m.totals.computations;
    row.instructions = m.totals.instructions;
    row.buffer_values = m.totals.buffer_values;
    row.buffer_logical_bytes = m.totals.buffer_bytes.logical_bytes;
    row.buffer_padded_bytes = m.totals.buffer_bytes.padded_bytes;
    row.buffer_overflow = m.totals.buffer_bytes.overflow;
    rows.push_back(std::move(row));
  }
  if (!analyze_memory) return rows;
  // Scheduled modules: what XLA allocates and the live-range peak, as
  // memory/ figures them (none when no module is scheduled).
  absl::StatusOr<std::vector<ModuleMemoryFigures>> figures =
      ModuleMemoryFiguresOf(text, options.read);
  if (!figures.ok()) return figures.status();
  if (figures->empty()) return rows;
  if (figures->size() != rows.size()) {
    return absl::InternalError(absl::StrCat(file.name, ": ", figures->size(),
                                            " modules read but ", rows.size(),
                                            " reported"));
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    ModuleMemoryFigures& f = (*figures)[i];
    DumpFolderRow& row = rows[i];
    row.scheduled = f.scheduled;
    row.platform = std::move(f.platform);
    row.allocated_bytes = f.allocated_bytes;
    row.memory_analysis = f.memory_analysis;
    row.peak_bytes = f.peak_bytes;
    row.peak_error = std::move(f.error);
  }
  return rows;
}

}  // namespace

DumpFolderRow DumpFolderRowOf(const ModuleReport& m, const std::string& file) {
  DumpFolderRow row;
  row.file = file;
  row.module = std::string(m.name);
  row.computations = m.totals.computations;
  row.instructions = m.totals.instructions;
  row.buffer_values = m.totals.buffer_values;
  row.buffer_logical_bytes = m.totals.buffer_bytes.logical_bytes;
  row.buffer_padded_bytes = m.totals.buffer_bytes.padded_bytes;
  row.buffer_overflow = m.totals.buffer_bytes.overflow;
  const ModuleMemoryFacts& f = m.memory;
  row.scheduled = f.scheduled;
  row.platform = f.platform;
  if (f.live_ranges != nullptr) row.peak_bytes = f.live_ranges->peak.bytes;
  if (f.memory != nullptr) {
    row.memory_analysis = f.memory->buffers.stats;
    row.allocated_bytes = row.memory_analysis.allocated_bytes();
  }
  row.peak_error = f.error;
  return row;
}

std::string DumpFolderRow::allocated_text() const {
  if (allocated_bytes >= 0) {
    return absl::StrCat(ShortBytes(allocated_bytes), " (", platform, ")");
  }
  if (platform == "tpu") return "n/a (tpu)";
  return scheduled ? "error" : "not scheduled";
}

std::string DumpFolderRow::peak_text() const {
  if (peak_bytes >= 0) return ShortBytes(peak_bytes);
  return scheduled ? "error" : "not scheduled";
}

double DumpFolderRow::expansion() const {
  if (buffer_logical_bytes == 0) return 1.0;
  return static_cast<double>(buffer_padded_bytes) /
         static_cast<double>(buffer_logical_bytes);
}

absl::StatusOr<DumpFolderListing> ListDumpFolder(const std::string& folder) {
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot read folder '", folder,
                                            "': ", std::strerror(errno)));
  }
  struct Entry {
    std::string name;
    bool regular = false;
    bool directory = false;
    int64_t bytes = 0;
  };
  std::vector<Entry> entries;
  while (const dirent* d = readdir(dir)) {
    const std::string name = d->d_name;
    if (name == "." || name == "..") continue;
    Entry e;
    e.name = name;
    struct stat st = {};
    if (stat((folder + "/" + name).c_str(), &st) == 0) {
      e.regular = S_ISREG(st.st_mode);
      e.directory = S_ISDIR(st.st_mode);
      e.bytes = static_cast<int64_t>(st.st_size);
    }
    entries.push_back(std::move(e));
  }
  closedir(dir);
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.name < b.name; });

  bool any_after = false;
  for (const Entry& e : entries) {
    if (e.regular && absl::EndsWith(e.name, kAfterOptimizations)) {
      any_after = true;
    }
  }
  DumpFolderListing listing;
  listing.folder = folder;
  for (const Entry& e : entries) {
    const std::string path = folder + "/" + e.name;
    std::string reason;
    if (e.directory) {
      reason = "a folder (subfolders are not read)";
    } else if (!e.regular) {
      reason = "not a regular file";
    } else if (!absl::EndsWith(e.name, ".txt")) {
      reason = "not a .txt file";
    } else if (any_after && !absl::EndsWith(e.name, kAfterOptimizations)) {
      reason =
          "not *after_optimizations.txt (the folder has such files: only "
          "they are read)";
    } else if (!HoldsModule(path)) {
      reason = "no HloModule line in its first 64 KiB: not a module";
    }
    if (reason.empty()) {
      listing.files.push_back({path, e.name, e.bytes});
    } else {
      listing.skipped.push_back({e.name, std::move(reason)});
    }
  }
  return listing;
}

namespace {

// What one file of a dump folder gave.
struct FileResult {
  std::vector<DumpFolderRow> rows;
  std::vector<FileUnknownOpcode> unknown;
  std::vector<std::string> errors;  // keep_going
  std::string error;
  bool done = false;
};

// Reads every file of `listing` on up to `options.threads` threads, the
// largest first, no more bytes open at once than the largest file (a file
// larger than that budget's half is read alone, by all threads). Results
// in the listing's order; the most bytes open at once in `max_in_flight`.
std::vector<FileResult> SummarizeFiles(const DumpFolderListing& listing,
                                       const DumpFolderOptions& options,
                                       const DumpFileOpener& open,
                                       int64_t* max_in_flight_out) {
  const size_t n = listing.files.size();
  // Largest first; the budget is the largest file.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return listing.files[a].bytes > listing.files[b].bytes;
  });
  const int64_t budget =
      n == 0 ? 0 : std::max<int64_t>(1, listing.files[order[0]].bytes);
  const int64_t threads =
      options.threads > 0 ? options.threads : DefaultThreads();
  std::vector<FileResult> results(n);
  std::mutex mu;
  std::condition_variable changed;
  size_t next = 0;
  int64_t in_flight = 0;
  int64_t max_in_flight = 0;

  auto worker = [&] {
    std::unique_lock<std::mutex> lock(mu);
    while (next < n) {
      const DumpFolderFile& file = listing.files[order[next]];
      if (in_flight > 0 && in_flight + file.bytes > budget) {
        changed.wait(lock);
        continue;
      }
      const size_t index = order[next++];
      in_flight += file.bytes;
      max_in_flight = std::max(max_in_flight, in_flight);
      lock.unlock();
      // A file larger than half the budget is (nearly) alone: all threads
      // read it.
      const int64_t file_threads = file.bytes * 2 > budget ? threads : 1;
      FileResult& result = results[index];
      absl::StatusOr<std::unique_ptr<DumpFileText>> text = open(file);
      if (!text.ok()) {
        result.error = std::string(text.status().message());
      } else {
        absl::StatusOr<std::vector<DumpFolderRow>> rows = SummarizeFile(
            file, (*text)->text(), file_threads, options.analyze_memory,
            options.keep_going, &result.unknown, &result.errors);
        if (rows.ok()) {
          result.rows = std::move(*rows);
        } else {
          result.error = std::string(rows.status().message());
        }
      }
      result.done = true;
      if (text.ok()) text->reset();  // unmapped before the next file
      lock.lock();
      in_flight -= file.bytes;
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  const int64_t extra = std::min<int64_t>(threads, static_cast<int64_t>(n)) - 1;
  for (int64_t t = 0; t < extra; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  *max_in_flight_out = max_in_flight;
  return results;
}

// The warning of an unknown opcode over the folder, `first` its first use.
std::string UnknownOpcodeWarning(const DumpFolderUnknownOpcode& u,
                                 const FileUnknownOpcode& first) {
  constexpr size_t kFilesNamed = 5;
  std::string in_files;
  if (u.files.size() > 1) {
    in_files = absl::StrCat(" in ", u.files.size(), " files: ");
    for (size_t f = 0; f < u.files.size() && f < kFilesNamed; ++f) {
      absl::StrAppend(&in_files, f > 0 ? ", " : "", u.files[f]);
    }
    if (u.files.size() > kFilesNamed) {
      absl::StrAppend(&in_files, " and ", u.files.size() - kFilesNamed,
                      " more");
    }
    in_files += ";";
  } else {
    in_files = ",";
  }
  return absl::StrCat(first.where, ": warning: unknown opcode '", u.opcode,
                      "' (", u.instructions,
                      u.instructions == 1 ? " instruction" : " instructions",
                      in_files, " read with ",
                      u.instructions == 1 ? "its shape" : "their shapes",
                      " as written)\n", first.source);
}

// Unknown opcodes: one per name over the files, located at the first use
// in the first file (by name) that has it.
void GatherUnknownOpcodes(const DumpFolderListing& listing,
                          const std::vector<FileResult>& results,
                          DumpFolderTable& table) {
  std::vector<const FileUnknownOpcode*> firsts;
  absl::flat_hash_map<absl::string_view, size_t> index;  // opcode -> entry
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].error.empty()) continue;
    for (const FileUnknownOpcode& u : results[i].unknown) {
      auto [at, added] = index.try_emplace(u.opcode, firsts.size());
      if (added) {
        table.unknown_opcodes.push_back({u.opcode, 0, {}, ""});
        firsts.push_back(&u);
      }
      DumpFolderUnknownOpcode& entry = table.unknown_opcodes[at->second];
      entry.instructions += u.instructions;
      entry.files.push_back(listing.files[i].name);
    }
  }
  for (size_t k = 0; k < table.unknown_opcodes.size(); ++k) {
    DumpFolderUnknownOpcode& u = table.unknown_opcodes[k];
    u.warning = UnknownOpcodeWarning(u, *firsts[k]);
  }
}

}  // namespace

DumpFolderTable SummarizeDumpFolder(const DumpFolderListing& listing,
                                    const DumpFolderOptions& options,
                                    const DumpFileOpener& open) {
  DumpFolderTable table;
  table.folder = listing.folder;
  table.skipped = listing.skipped;
  int64_t max_in_flight = 0;
  std::vector<FileResult> results =
      SummarizeFiles(listing, options, open, &max_in_flight);
  for (size_t i = 0; i < results.size(); ++i) {
    FileResult& r = results[i];
    if (!r.error.empty()) {
      table.failed.push_back({listing.files[i].name, std::move(r.error)});
      continue;
    }
    ++table.files_read;
    for (DumpFolderRow& row : r.rows) table.rows.push_back(std::move(row));
    for (std::string& e : r.errors) table.errors.push_back(std::move(e));
  }
  table.max_bytes_in_flight = max_in_flight;
  GatherUnknownOpcodes(listing, results, table);
  return table;
}

absl::Status NoModuleFilesError(absl::string_view folder) {
  return absl::InvalidArgumentError(absl::StrCat(
      folder,
      ": no module files: expected *after_optimizations.txt files (as "
      "--xla_dump_to writes them) or .txt files with an HloModule line in "
      "their first 64 KiB"));
}

const absl::string_view kSortKeyList =
    "order|file, name|module, padded, buffers, padding, expansion, "
    "instructions, allocated or peak";

const absl::string_view kSortKeysHelp =
    R"(Sort keys (--sort=KEY), one set for files, globs and folders:
  key            a file's instructions          a folder's modules
  order, file    text order (files' default)    file name
  name, module   computation, instruction       module name
  padded         most padded bytes first        most buffer bytes first
  buffers        most buffer bytes (buffer B)   most buffer bytes first
                 first                          (report DIR's default)
  padding        most padding bytes first       most padding first
  expansion      largest expansion first        largest expansion first
  instructions   modules with the most          most instructions first
                 instructions first
  allocated      modules by what XLA allocates  most allocated first
                 (not with --summary)           (memory DIR's default)
  peak           modules by live-range peak     largest peak first
                 (not with --summary)
Keys of the last three order the modules of files; their instructions
stay in text order.
)";

bool ParseSortKey(absl::string_view name, SortKey* key) {
  struct Entry {
    absl::string_view name;
    RowOrder rows;
    ModuleOrder modules;
    DumpFolderOrder folder;
    ModuleOrder folder_modules;
  };
  static constexpr Entry kKeys[] = {
      {"order", RowOrder::kText, ModuleOrder::kText, DumpFolderOrder::kFile,
       ModuleOrder::kText},
      {"file", RowOrder::kText, ModuleOrder::kText, DumpFolderOrder::kFile,
       ModuleOrder::kText},
      {"name", RowOrder::kName, ModuleOrder::kText, DumpFolderOrder::kModule,
       ModuleOrder::kName},
      {"module", RowOrder::kName, ModuleOrder::kText, DumpFolderOrder::kModule,
       ModuleOrder::kName},
      {"padded", RowOrder::kPaddedBytes, ModuleOrder::kText,
       DumpFolderOrder::kBuffers, ModuleOrder::kBuffers},
      {"buffers", RowOrder::kBufferBytes, ModuleOrder::kText,
       DumpFolderOrder::kBuffers, ModuleOrder::kBuffers},
      {"padding", RowOrder::kPaddingBytes, ModuleOrder::kText,
       DumpFolderOrder::kPadding, ModuleOrder::kPadding},
      {"expansion", RowOrder::kExpansion, ModuleOrder::kText,
       DumpFolderOrder::kExpansion, ModuleOrder::kExpansion},
      {"instructions", RowOrder::kText, ModuleOrder::kInstructions,
       DumpFolderOrder::kInstructions, ModuleOrder::kInstructions},
      {"allocated", RowOrder::kText, ModuleOrder::kAllocated,
       DumpFolderOrder::kAllocated, ModuleOrder::kAllocated},
      {"peak", RowOrder::kText, ModuleOrder::kPeak, DumpFolderOrder::kPeak,
       ModuleOrder::kPeak},
  };
  for (const Entry& e : kKeys) {
    if (e.name != name) continue;
    key->rows = e.rows;
    key->modules = e.modules;
    key->folder = e.folder;
    key->folder_modules = e.folder_modules;
    key->needs_analysis =
        e.modules == ModuleOrder::kAllocated || e.modules == ModuleOrder::kPeak;
    return true;
  }
  return false;
}

bool ParseDumpFolderOrder(absl::string_view name, DumpFolderOrder* order) {
  SortKey key;
  if (!ParseSortKey(name, &key)) return false;
  *order = key.folder;
  return true;
}

void SortDumpFolderRows(DumpFolderOrder order,
                        std::vector<DumpFolderRow>* rows) {
  auto by = [&](auto key) {
    std::stable_sort(rows->begin(), rows->end(),
                     [&](const DumpFolderRow& a, const DumpFolderRow& b) {
                       return key(a) > key(b);
                     });
  };
  switch (order) {
    case DumpFolderOrder::kFile:
      std::stable_sort(rows->begin(), rows->end(),
                       [](const DumpFolderRow& a, const DumpFolderRow& b) {
                         return a.file < b.file;
                       });
      break;
    case DumpFolderOrder::kModule:
      std::stable_sort(rows->begin(), rows->end(),
                       [](const DumpFolderRow& a, const DumpFolderRow& b) {
                         return a.module < b.module;
                       });
      break;
    case DumpFolderOrder::kInstructions:
      by([](const DumpFolderRow& r) { return r.instructions; });
      break;
    case DumpFolderOrder::kBuffers:
      by([](const DumpFolderRow& r) { return r.buffer_padded_bytes; });
      break;
    case DumpFolderOrder::kPadding:
      by([](const DumpFolderRow& r) { return r.padding_bytes(); });
      break;
    case DumpFolderOrder::kExpansion:
      by([](const DumpFolderRow& r) { return r.expansion(); });
      break;
    case DumpFolderOrder::kAllocated:
      by([](const DumpFolderRow& r) { return r.allocated_bytes; });
      break;
    case DumpFolderOrder::kPeak:
      by([](const DumpFolderRow& r) { return r.peak_bytes; });
      break;
  }
}

}  // namespace hlolayout
