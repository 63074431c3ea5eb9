#include "hlolayout/util/record.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/json_string.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout {

bool OmittedIfNone(FieldJson json) {
  return json == FieldJson::kOmitIfNone || json == FieldJson::kIndexOmitIfNone;
}

void RecordSink::OptionalInt(bool present, int64_t value) {
  if (present) {
    Int(value);
  } else {
    None();
  }
}

void RecordSink::OptionalString(bool present, absl::string_view value) {
  if (present) {
    String(value);
  } else {
    None();
  }
}

void RecordSink::IntList(const std::vector<int64_t>& values) {
  BeginList();
  for (int64_t v : values) Int(v);
  EndList();
}

const FieldSpec* RecordJsonWriter::CurrentField() const {
  if (frames_.empty() || frames_.back().spec == nullptr) return nullptr;
  const Frame& f = frames_.back();
  HLOLAYOUT_CHECK(f.field < f.spec->fields.size())
      << f.spec->name << ": more values than fields";
  return &f.spec->fields[f.field];
}

void RecordJsonWriter::NewLine(size_t depth) {
  out_->push_back('\n');
  out_->append(2 * depth, ' ');
}

size_t RecordJsonWriter::Depth() const {
  size_t depth = 0;
  for (const Frame& f : frames_) depth += f.pair ? 0 : 1;
  return depth;
}

void RecordJsonWriter::Close(const char* bracket) {
  const Frame& f = frames_.back();
  if (indented_ && f.wrote && !f.index) NewLine(Depth() - 1);
  out_->append(bracket);
  frames_.pop_back();
  EndValue();
}

bool RecordJsonWriter::BeginValue(bool is_none) {
  if (frames_.empty()) return true;
  Frame& top = frames_.back();
  if (top.spec == nullptr) {
    if (top.pair) {
      if (top.wrote) out_->append(": ");
      top.wrote = true;
      return true;
    }
    if (indented_ && !top.index) {
      if (top.wrote) out_->push_back(',');
      NewLine(Depth());
    } else if (top.item_indent != nullptr) {
      out_->append(top.wrote ? ",\n" : "\n");
      out_->append(top.item_indent);
    } else {
      out_->append(!top.wrote ? "" : top.index ? "," : ", ");
    }
    top.wrote = true;
    return true;
  }
  const FieldSpec& f = *CurrentField();
  if (f.json == FieldJson::kLeftOut || (is_none && OmittedIfNone(f.json))) {
    return false;
  }
  if (indented_) {
    if (top.wrote) out_->push_back(',');
    NewLine(Depth());
  } else if (top.wrote) {
    if (f.key_indent != nullptr) {
      out_->append(",\n");
      out_->append(f.key_indent);
    } else {
      out_->append(", ");
    }
  }
  AppendJsonString(out_, f.key());
  out_->append(": ");
  top.wrote = true;
  return true;
}

void RecordJsonWriter::EndValue() {
  if (!frames_.empty()) ++frames_.back().field;
}

void RecordJsonWriter::BeginRecord(const RecordSpec& spec) {
  if (skipping_ > 0 || !BeginValue(false)) {
    ++skipping_;
    return;
  }
  out_->push_back('{');
  frames_.push_back(Frame{&spec});
}

void RecordJsonWriter::EndRecord() {
  if (skipping_ > 0) {
    if (--skipping_ == 0) EndValue();
    return;
  }
  HLOLAYOUT_CHECK(!frames_.empty() && frames_.back().spec != nullptr)
      << "EndRecord without a record";
  const Frame& f = frames_.back();
  HLOLAYOUT_CHECK(f.field == f.spec->fields.size())
      << f.spec->name << ": " << f.field << " values for "
      << f.spec->fields.size() << " fields";
  Close("}");
}

void RecordJsonWriter::BeginList() {
  const FieldSpec* field = CurrentField();
  if (skipping_ > 0 || !BeginValue(false)) {
    ++skipping_;
    return;
  }
  const bool index =
      field != nullptr && (field->json == FieldJson::kIndex ||
                           field->json == FieldJson::kIndexOmitIfNone);
  const bool pair = !frames_.empty() && frames_.back().pairs;
  const bool pairs = field != nullptr
                         ? field->json == FieldJson::kStringPairs
                         : frames_.empty() && root_ == FieldJson::kStringPairs;
  out_->append(pair ? "" : index ? "\"{" : pairs ? "{" : "[");
  Frame frame{nullptr};
  frame.index = index;
  frame.pair = pair;
  frame.pairs = pairs;
  if (field != nullptr) {
    frame.item_indent = field->item_indent;
    frame.close_after_last_item = field->close_after_last_item;
  }
  frames_.push_back(frame);
}

void RecordJsonWriter::EndList() {
  if (skipping_ > 0) {
    if (--skipping_ == 0) EndValue();
    return;
  }
  HLOLAYOUT_CHECK(!frames_.empty() && frames_.back().spec == nullptr)
      << "EndList without a list";
  const Frame& f = frames_.back();
  if (f.pair) {
    HLOLAYOUT_CHECK(f.wrote) << "a pair without its value";
    frames_.pop_back();
    EndValue();
  } else if (f.pairs) {
    Close("}");
  } else if (f.index) {
    Close("}\"");
  } else if (!indented_ && f.item_indent != nullptr && f.wrote &&
             !f.close_after_last_item) {
    Close("\n]");
  } else {
    Close("]");
  }
}

void RecordJsonWriter::None() {
  if (skipping_ > 0) return;
  if (BeginValue(true)) out_->append("null");
  EndValue();
}

void RecordJsonWriter::Bool(bool value) {
  if (skipping_ > 0) return;
  if (BeginValue(false)) out_->append(value ? "true" : "false");
  EndValue();
}

void RecordJsonWriter::Int(int64_t value) {
  if (skipping_ > 0) return;
  if (BeginValue(false)) absl::StrAppend(out_, value);
  EndValue();
}

void RecordJsonWriter::Double(double value) {
  if (skipping_ > 0) return;
  const FieldSpec* field = CurrentField();
  if (BeginValue(false)) {
    const FieldJson form = field != nullptr ? field->json : FieldJson::kValue;
    if (form == FieldJson::kRound6g) {
      absl::StrAppendFormat(out_, "%.6g", value);
    } else if (form == FieldJson::kFixed4) {
      absl::StrAppendFormat(out_, "%.4f", value);
    } else {
      AppendJsonDouble(out_, value);
    }
  }
  EndValue();
}

void RecordJsonWriter::Absent() {
  if (skipping_ > 0) return;
  CurrentField();  // CHECKs that there is one left
  EndValue();
}

void RecordJsonWriter::String(absl::string_view value) {
  if (skipping_ > 0) return;
  if (BeginValue(false)) AppendJsonString(out_, value);
  EndValue();
}

}  // namespace hlolayout
