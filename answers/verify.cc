#include "hlolayout/answers/verify.h"

#include <vector>

#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/verifier.h"

namespace hlolayout::answers {

absl::StatusOr<VerifyAnswer> AnswerVerify(absl::string_view text,
                                          const VerifyRequest& request) {
  HloReadOptions read;
  read.file_name = request.file_name;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, read);
  if (!modules.ok()) return modules.status();
  HloVerifyOptions options;
  options.file_name = request.file_name;
  options.allow_mixed_precision = request.mixed_precision;
  VerifyAnswer answer;
  answer.modules = static_cast<int64_t>(modules->size());
  for (const HloModule& module : *modules) {
    if (request.all) {
      for (absl::Status& s : VerifyHloModuleAll(text, module, options)) {
        answer.errors.push_back(std::move(s));
      }
    } else if (absl::Status s = VerifyHloModule(text, module, options);
               !s.ok()) {
      answer.errors.push_back(std::move(s));
      break;
    }
  }
  return answer;
}

}  // namespace hlolayout::answers
