// ReadOwnedHloModules and ReadHloModulesFromFile (hlo/reader.h): the
// modules of a text they keep alive themselves.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/util/input_text.h"

namespace hlolayout {
namespace {

// ReadHloModules of `text`, each module keeping `owner` (which holds the
// text) alive.
absl::StatusOr<std::vector<HloModule>> ReadKeeping(
    absl::string_view text, std::shared_ptr<const void> owner,
    const HloReadOptions& options, std::vector<absl::Status>* errors,
    int64_t threads) {
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options, errors, threads);
  if (!modules.ok()) return modules;
  for (HloModule& module : *modules) module.text_owner = owner;
  return modules;
}

}  // namespace

absl::StatusOr<std::vector<HloModule>> ReadOwnedHloModules(
    std::string text, const HloReadOptions& options,
    std::vector<absl::Status>* errors, int64_t threads) {
  // The string itself on the heap: moving a short string copies its bytes
  // (they live inside the object), so only a string that never moves keeps
  // the views valid.
  auto owned = std::make_shared<const std::string>(std::move(text));
  const absl::string_view view(*owned);
  return ReadKeeping(view, std::move(owned), options, errors, threads);
}

absl::StatusOr<std::vector<HloModule>> ReadHloModulesFromFile(
    absl::string_view path, const HloReadOptions& options,
    std::vector<absl::Status>* errors, int64_t threads) {
  absl::StatusOr<std::unique_ptr<InputText>> file = OpenFileText(path);
  if (!file.ok()) return file.status();
  std::shared_ptr<const InputText> owned = std::move(*file);
  HloReadOptions read = options;
  if (read.file_name.empty()) read.file_name = path;
  const absl::string_view view = owned->view();
  return ReadKeeping(view, std::move(owned), read, errors, threads);
}

}  // namespace hlolayout
