#include "hlolayout/views/dump_folder_text.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/report/dump_folder_record.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/json_string.h"
#include "hlolayout/util/record.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout {

std::string DumpFolderTableJson(const DumpFolderTable& table,
                                absl::string_view extra) {
  std::string out;
  RecordJsonWriter writer(&out);
  EmitValue(DumpFolderAnswerOf(table), writer);
  out.pop_back();  // the closing brace, after `extra`
  out.append(extra.data(), extra.size());
  out += "}\n";
  return out;
}

std::string DumpFolderTableText(const DumpFolderTable& table) {
  std::string out = absl::StrCat(
      "dump folder ", table.folder, ": ", table.rows.size(),
      table.rows.size() == 1 ? " module" : " modules", " in ", table.files_read,
      table.files_read == 1 ? " file" : " files", ", ", table.skipped.size(),
      " skipped",
      table.failed.empty() ? ""
                           : absl::StrCat(", ", table.failed.size(), " failed"),
      "\n");
  if (!table.rows.empty()) {
    std::vector<std::vector<std::string>> cells = {
        {"module", "instructions", "buffers", "padding", "expansion",
         "XLA allocates", "live-range peak", "file"}};
    int64_t instructions = 0, logical = 0, padded = 0;
    for (const DumpFolderRow& r : table.rows) {
      cells.push_back(
          {r.module.empty() ? "(no name)" : r.module,
           absl::StrCat(r.instructions),
           ShortBytes(r.buffer_padded_bytes) + (r.buffer_overflow ? "+" : ""),
           ShortBytes(r.padding_bytes()),
           absl::StrFormat("%.2fx", r.expansion()), r.allocated_text(),
           r.peak_text(), r.file});
      instructions += r.instructions;
      logical += r.buffer_logical_bytes;
      padded += r.buffer_padded_bytes;
    }
    std::vector<size_t> width(cells[0].size(), 0);
    for (const auto& row : cells) {
      for (size_t c = 0; c < row.size(); ++c) {
        width[c] = std::min(std::max(width[c], row[c].size()), kMaxColumnWidth);
      }
    }
    for (const auto& row : cells) {
      for (size_t c = 0; c < row.size(); ++c) {
        const std::string& cell = row[c];
        const std::string pad(width[c] - std::min(width[c], cell.size()), ' ');
        // Names left-aligned, figures right-aligned; no trailing blanks.
        const bool text = c == 0 || c + 1 == row.size();
        if (c > 0) out += "  ";
        if (c + 1 == row.size()) {
          out += cell;
        } else {
          out += text ? cell + pad : pad + cell;
        }
      }
      out += "\n";
    }
    for (const DumpFolderRow& r : table.rows) {
      if (r.peak_error.empty()) continue;
      absl::StrAppend(&out, "no peak for ",
                      r.module.empty() ? "(no name)" : r.module, " (", r.file,
                      "): ", r.peak_error, "\n");
    }
    absl::StrAppend(&out, "all modules: ", instructions,
                    " instructions, buffers ", ShortBytes(padded), " padded (",
                    ShortBytes(logical), " logical), padding ",
                    ShortBytes(padded - logical), "\n");
  }
  if (!table.skipped.empty()) {
    // By reason, with the first few names.
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const SkippedDumpFile& s : table.skipped) {
      by_reason[s.reason].push_back(s.name);
    }
    absl::StrAppend(&out, "skipped ", table.skipped.size(),
                    table.skipped.size() == 1 ? " file:\n" : " files:\n");
    for (const auto& [reason, names] : by_reason) {
      absl::StrAppend(&out, "  ", names.size(), " ", reason, ": ");
      const size_t shown = std::min<size_t>(names.size(), 3);
      for (size_t i = 0; i < shown; ++i) {
        absl::StrAppend(&out, i > 0 ? ", " : "", names[i]);
      }
      if (names.size() > shown) {
        absl::StrAppend(&out, ", ... (", names.size() - shown, " more)");
      }
      out += "\n";
    }
  }
  for (const FailedDumpFile& f : table.failed) {
    absl::StrAppend(&out, "failed: ", f.name, ": ", f.error, "\n");
  }
  return out;
}

void WriteFolderReport(const Report& report, const DumpFolderTable& table,
                       int64_t top, bool json, std::ostream& out) {
  std::vector<std::pair<size_t, const PaddingWaster*>> wasters;
  for (size_t i = 0; i < report.modules.size(); ++i) {
    for (const PaddingWaster& w : report.modules[i].top_wasters) {
      wasters.emplace_back(i, &w);
    }
  }
  std::stable_sort(
      wasters.begin(), wasters.end(), [](const auto& a, const auto& b) {
        return a.second->bytes.wasted_bytes() > b.second->bytes.wasted_bytes();
      });
  if (static_cast<int64_t>(wasters.size()) > top) {
    wasters.resize(static_cast<size_t>(top));
  }
  auto module_name = [&](size_t i) {
    return report.modules[i].name.empty() ? std::string("(no name)")
                                          : std::string(report.modules[i].name);
  };
  if (json) {
    std::ostringstream extra;
    extra << ", \"top_padding_wasters\": [";
    for (size_t k = 0; k < wasters.size(); ++k) {
      const size_t i = wasters[k].first;
      std::ostringstream where;
      where << "\"module\": ";
      WriteJsonString(where, report.modules[i].name);
      where << ", \"file\": ";
      WriteJsonString(where, table.rows[i].file);
      extra << (k == 0 ? "\n  " : ",\n  ");
      RenderWasterJson(*wasters[k].second, where.str(), extra);
    }
    extra << (wasters.empty() ? "]" : "\n]");
    out << DumpFolderTableJson(table, extra.str());
    return;
  }
  out << DumpFolderTableText(table);
  out << "top padding wasters over the folder (buffers, each once, with "
         "their other names):\n";
  if (wasters.empty()) out << "  (no padding)\n";
  int rank = 0;
  for (const auto& [i, w] : wasters) {
    RenderWasterText(*w, ++rank,
                     absl::StrCat(w->computation, " of ", module_name(i), " (",
                                  table.rows[i].file, ")"),
                     out);
  }
}

}  // namespace hlolayout
