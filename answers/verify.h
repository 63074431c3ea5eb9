// answers/verify.h: the answer of `hlolayout verify FILE`: the modules of a
// text read and checked as XLA's HloVerifier checks what shapes say
// (hlo/verifier.h).
//
//   answers::VerifyRequest request;
//   request.file_name = "dump.txt";
//   absl::StatusOr<answers::VerifyAnswer> a =
//       answers::AnswerVerify(text, request);
//   a->modules;        // 1
//   a->errors.empty()  // true: "dump.txt: 1 module verified"
#ifndef HLOLAYOUT_ANSWERS_VERIFY_H_
#define HLOLAYOUT_ANSWERS_VERIFY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout::answers {

// What is asked: the CLI's flags.
struct VerifyRequest {
  // Prefixed to error positions ("dump.txt:3:14: ..."); "" for none.
  std::string file_name;
  // Every error of every module; else the first error only.
  bool all = false;
  // HloVerifyOptions::allow_mixed_precision.
  bool mixed_precision = false;
};

struct VerifyAnswer {
  int64_t modules = 0;  // modules read
  // The verifier's errors ("file:L:C: message\n<line>\n<caret>"), in module
  // and computation order; at most one without request.all.
  std::vector<absl::Status> errors;
};

// AnswerVerify
//
// Reads every module of `text` and verifies them in turn (without
// request.all: up to the first error). Errors: the reader's, located.
absl::StatusOr<VerifyAnswer> AnswerVerify(absl::string_view text,
                                          const VerifyRequest& request);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_VERIFY_H_
