// `hlolayout explain`: a shape and its layout in words.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/cli/json.h"
#include "hlolayout/cli/padding_section.h"
#include "hlolayout/layout/describe.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kExplainHelp =
    R"(usage: hlolayout explain [--json] [SHAPE... | - | --file=PATH]

Explains each shape: element type and width, logical dimensions, the
physical dimension order (major to minor), every layout attribute in words,
the memory space, the logical element count and byte size. Tuples are
explained element by element. With no SHAPE, or with '-', reads one shape
per line from standard input (or --file).

flags:
  --json   one JSON document per shape (keys: shape, kind, element_type,
           bit_width, byte_width, dimensions, dynamic_dimensions,
           major_to_minor, attributes, memory_space, memory_space_name,
           elements, bytes; tuples have kind "tuple" and "elements_shapes")
  --file=PATH  read one shape per line from PATH
  --help   this text

example:
  hlolayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}'
)";

// Logical elements (bounded dims at their bound), or -1 if unbounded or too
// large for int64.
int64_t ElementCount(const Shape& shape) {
  int64_t n = 1;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.is_unbounded_dynamic_dimension(i)) return -1;
    if (__builtin_mul_overflow(n, shape.dimension(i), &n)) return -1;
  }
  return n;
}

// Bytes of the elements without tiling padding: ceil(n*E/8) with E(n),
// n*ByteWidth otherwise; -1 when unknown or overflowing.
int64_t LogicalBytes(const Shape& shape, int64_t elements) {
  if (elements < 0) return -1;
  const int64_t e = shape.layout().element_size_in_bits();
  int64_t product;
  if (e != 0) {
    if (__builtin_mul_overflow(elements, e, &product)) return -1;
    return product / 8 + (product % 8 != 0);
  }
  if (__builtin_mul_overflow(elements, ByteWidth(shape.element_type()),
                             &product)) {
    return -1;
  }
  return product;
}

std::string DimsText(const Shape& shape) {
  std::string text = HumanString(shape);
  return text.substr(text.find('['));
}

// Sets *failed when a section it prints is an error.
void ExplainArrayText(const Shape& shape, const std::string& indent,
                      std::string* out, bool* failed) {
  const PrimitiveType type = shape.element_type();
  const int64_t elements = ElementCount(shape);
  const int64_t bytes = LogicalBytes(shape, elements);
  absl::StrAppend(out, indent, "shape:          ", HumanStringWithLayout(shape),
                  "\n");
  absl::StrAppend(out, indent, "element type:   ", PrimitiveTypeName(type),
                  " (", BitWidth(type), " bit", BitWidth(type) == 1 ? "" : "s",
                  ", ", ByteWidth(type), " byte",
                  ByteWidth(type) == 1 ? "" : "s", " unpacked)\n");
  absl::StrAppend(out, indent, "dimensions:     ", DimsText(shape), " (rank ",
                  shape.rank(), shape.is_static() ? "" : ", dynamic", ")\n");
  if (shape.rank() > 0) {
    std::vector<std::string> order;
    for (int64_t d : MajorToMinor(shape.layout())) {
      order.push_back(absl::StrCat(d));
    }
    absl::StrAppend(out, indent, "physical order: ", absl::StrJoin(order, ","),
                    " (logical dimensions, major to minor)\n");
  }
  const std::vector<AttributeDescription> attributes = DescribeLayout(shape);
  if (attributes.empty()) {
    absl::StrAppend(out, indent, "layout:         ", shape.layout().ToString(),
                    " (nothing to say)\n");
  } else {
    absl::StrAppend(out, indent, "layout:         ", shape.layout().ToString(),
                    "\n");
    for (const AttributeDescription& a : attributes) {
      absl::StrAppend(out, indent, "  ", a.text, ": ", a.description, "\n");
    }
  }
  const int64_t space = shape.layout().memory_space();
  absl::StrAppend(out, indent, "memory space:   ", space, " (",
                  MemorySpaceName(space), ")\n");
  absl::StrAppend(out, indent, "elements:       ",
                  elements < 0 ? std::string("unknown (unbounded dimension "
                                             "or int64 overflow)")
                               : absl::StrCat(elements),
                  "\n");
  absl::StrAppend(
      out, indent, "bytes:          ",
      bytes < 0 ? std::string("unknown") : absl::StrCat(bytes),
      shape.layout().element_size_in_bits() != 0
          ? absl::StrCat(" (packed at ", shape.layout().element_size_in_bits(),
                         " bits, before tiling padding)")
          : std::string(" (before tiling padding)"),
      "\n");
  if (!AppendPaddingSection(shape, indent, out)) *failed = true;
}

void ExplainText(const Shape& shape, const std::string& path,
                 const std::string& indent, std::string* out, bool* failed) {
  if (shape.IsTuple()) {
    absl::StrAppend(out, indent, path.empty() ? "" : path + " ", "tuple of ",
                    shape.tuple_size(), " element",
                    shape.tuple_size() == 1 ? "" : "s", ": ",
                    HumanStringWithLayout(shape), "\n");
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      ExplainText(
          shape.tuple_shape(i),
          absl::StrCat(
              path.empty() ? "{" : path.substr(0, path.size() - 1) + ",", i,
              "}"),
          indent + "  ", out, failed);
    }
    return;
  }
  if (!path.empty()) absl::StrAppend(out, indent, "element ", path, ":\n");
  if (shape.IsBuffer()) {
    absl::StrAppend(out, indent, "buffer holding:\n");
    ExplainArrayText(shape.buffer_shape(), indent + "  ", out, failed);
    return;
  }
  if (shape.IsToken() || shape.IsOpaque()) {
    absl::StrAppend(out, indent, "shape:          ", HumanString(shape), " (",
                    shape.IsToken()
                        ? "a token orders side effects; it has no data"
                        : "an opaque value of unknown size",
                    ")\n");
    return;
  }
  ExplainArrayText(shape, indent, out, failed);
}

void ExplainJson(const Shape& shape, JsonWriter& json, bool* failed) {
  json.BeginObject();
  json.Key("shape").String(HumanStringWithLayout(shape));
  if (shape.IsTuple()) {
    json.Key("kind").String("tuple");
    json.Key("elements_shapes").BeginArray();
    for (const Shape& element : shape.tuple_shapes())
      ExplainJson(element, json, failed);
    json.EndArray();
    json.EndObject();
    return;
  }
  if (shape.IsBuffer()) {
    json.Key("kind").String("buffer");
    json.Key("buffer_shape");
    ExplainJson(shape.buffer_shape(), json, failed);
    json.EndObject();
    return;
  }
  if (!shape.IsArray()) {
    json.Key("kind").String(PrimitiveTypeName(shape.element_type()));
    json.EndObject();
    return;
  }
  const PrimitiveType type = shape.element_type();
  const int64_t elements = ElementCount(shape);
  const int64_t bytes = LogicalBytes(shape, elements);
  json.Key("kind").String("array");
  json.Key("element_type").String(PrimitiveTypeName(type));
  json.Key("bit_width").Int(BitWidth(type));
  json.Key("byte_width").Int(ByteWidth(type));
  json.Key("rank").Int(shape.rank());
  json.Key("dimensions").BeginArray();
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.is_unbounded_dynamic_dimension(i)) {
      json.Null();
    } else {
      json.Int(shape.dimension(i));
    }
  }
  json.EndArray();
  json.Key("dynamic_dimensions").BeginArray();
  for (bool d : shape.dynamic_dimensions()) json.Bool(d);
  json.EndArray();
  json.Key("minor_to_major").IntArray(shape.layout().minor_to_major());
  json.Key("major_to_minor").IntArray(MajorToMinor(shape.layout()));
  json.Key("layout").String(shape.layout().ToString());
  json.Key("attributes").BeginArray();
  for (const AttributeDescription& a : DescribeLayout(shape)) {
    json.BeginObject();
    json.Key("key").String(a.key);
    json.Key("text").String(a.text);
    json.Key("description").String(a.description);
    json.EndObject();
  }
  json.EndArray();
  json.Key("memory_space").Int(shape.layout().memory_space());
  json.Key("memory_space_name")
      .String(MemorySpaceName(shape.layout().memory_space()));
  json.Key("elements");
  elements < 0 ? json.Null() : json.Int(elements);
  json.Key("bytes");
  bytes < 0 ? json.Null() : json.Int(bytes);
  if (!WritePaddingJson(shape, json)) *failed = true;
  json.EndObject();
}

int RunExplain(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json"}, {"file"});
  if (!args.ok()) {
    io.err << "hlolayout explain: " << args.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::vector<std::string>> texts =
      ShapeArguments(args->positional, args->Value("file", ""), io);
  if (!texts.ok()) {
    io.err << "hlolayout explain: " << texts.status().message() << "\n";
    return texts.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  int status = 0;
  bool first = true;
  for (const std::string& text : *texts) {
    absl::StatusOr<Shape> shape = ParseShape(text);
    if (!shape.ok()) {
      io.err << "hlolayout explain: " << shape.status().message() << "\n";
      status = 1;
      continue;
    }
    // A section that could not be computed (it prints its error in place)
    // makes the exit status 1, as a shape that does not parse does.
    bool failed = false;
    if (args->Has("json")) {
      JsonWriter json(/*pretty=*/true);
      ExplainJson(*shape, json, &failed);
      io.out << json.str() << "\n";
    } else {
      std::string out;
      ExplainText(*shape, "", "", &out, &failed);
      io.out << (first ? "" : "\n") << out;
    }
    if (failed) status = 1;
    first = false;
  }
  return status;
}

}  // namespace

extern const Command kExplainCommand;
const Command kExplainCommand = {
    "explain",
    "explain a shape and its layout in words (--json for machines)",
    kExplainHelp,
    RunExplain,
};

}  // namespace hlolayout::cli
