#include "hlolayout/ttnn/data_type.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"

namespace hlolayout::ttnn {
namespace {

constexpr DataType kAll[] = {
    DataType::kBfloat16, DataType::kFloat32,  DataType::kUint32,
    DataType::kBfloat8B, DataType::kBfloat4B, DataType::kUint8,
    DataType::kUint16,   DataType::kInt32,    DataType::kFp8E4m3,
    DataType::kInt8,
};

}  // namespace

absl::Span<const DataType> AllDataTypes() { return kAll; }

absl::string_view DataTypeName(DataType type) {
  switch (type) {
    case DataType::kBfloat16:
      return "bfloat16";
    case DataType::kFloat32:
      return "float32";
    case DataType::kUint32:
      return "uint32";
    case DataType::kBfloat8B:
      return "bfloat8_b";
    case DataType::kBfloat4B:
      return "bfloat4_b";
    case DataType::kUint8:
      return "uint8";
    case DataType::kUint16:
      return "uint16";
    case DataType::kInt32:
      return "int32";
    case DataType::kFp8E4m3:
      return "fp8_e4m3";
    case DataType::kInt8:
      return "int8";
  }
  return "?";
}

absl::optional<DataType> DataTypeFromName(absl::string_view name) {
  absl::ConsumePrefix(&name, "ttnn.");
  absl::ConsumePrefix(&name, "DataType.");
  const std::string lower = absl::AsciiStrToLower(name);
  for (DataType t : kAll) {
    if (lower == DataTypeName(t)) return t;
  }
  return absl::nullopt;
}

bool IsBlockFloat(DataType type) {
  return type == DataType::kBfloat8B || type == DataType::kBfloat4B;
}

absl::optional<int64_t> RowMajorElementBytes(DataType type) {
  switch (type) {
    case DataType::kBfloat16:
    case DataType::kUint16:
      return 2;
    case DataType::kFloat32:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kBfloat8B:
    case DataType::kBfloat4B:
      return 4;
    case DataType::kUint8:
      return 1;
    case DataType::kFp8E4m3:
    case DataType::kInt8:
      return absl::nullopt;
  }
  return absl::nullopt;
}

}  // namespace hlolayout::ttnn
