// fuzz/proto_fuzzer.cc: ShapeFromProtoBytes, LayoutFromProto and
// ProgramShapeFromProto on arbitrary bytes. On success: write the proto
// back, read it again and require the same shape; the printed text of the
// shape must parse (unvalidated readers aside) to the same shape; arrays
// get their sizes and indexer built.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/stubs/logging.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/proto/xla_data.pb.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape_proto.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Invalid UTF-8 in string fields is logged by protobuf on every input.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size > kMaxInputSize) return 0;
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);

  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(bytes);
  CheckError(shape.status(), bytes);
  if (shape.ok()) {
    const std::string written = ShapeToProtoBytes(*shape);
    absl::StatusOr<Shape> again = ShapeFromProtoBytes(written);
    if (!again.ok()) {
      Fail("written proto does not read back", again.status().message(),
           HumanStringWithLayout(*shape));
    }
    if (!(*again == *shape)) {
      Fail("proto round trip changed the shape", HumanStringWithLayout(*shape),
           HumanStringWithLayout(*again));
    }
    if (ShapeToProtoBytes(*again) != written) {
      Fail("proto bytes not stable", HumanStringWithLayout(*shape));
    }
    // A shape read from a proto was validated: its text must parse, and
    // print the same. (Text cannot tell an empty scalar layout from none,
    // so the shapes themselves are not compared.)
    const std::string printed = HumanStringWithLayout(*shape);
    ShapeParseOptions options;
    options.fill_missing_layouts = false;
    absl::StatusOr<Shape> parsed = ParseShape(printed, options);
    if (!parsed.ok()) {
      Fail("validated proto shape prints text that does not parse", printed,
           parsed.status().message());
    }
    if (HumanStringWithLayout(*parsed) != printed) {
      Fail("proto shape and its parsed text differ", printed,
           HumanStringWithLayout(*parsed));
    }
    if (shape->IsArray()) {
      absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(*shape);
      CheckError(sizes.status(), printed);
      absl::StatusOr<TiledIndexer> indexer = TiledIndexer::Create(*shape);
      CheckError(indexer.status(), printed);
    }
  }

  proto::LayoutProto layout_proto;
  if (layout_proto.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<Layout> layout = LayoutFromProto(layout_proto);
    CheckError(layout.status(), bytes);
    if (layout.ok()) {
      absl::StatusOr<Layout> again = LayoutFromProto(LayoutToProto(*layout));
      if (!again.ok() || !(*again == *layout)) {
        Fail("layout proto round trip", bytes);
      }
    }
  }

  proto::ProgramShapeProto program_proto;
  if (program_proto.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<ProgramShape> program = ProgramShapeFromProto(program_proto);
    CheckError(program.status(), bytes);
    if (program.ok()) {
      absl::StatusOr<ProgramShape> again =
          ProgramShapeFromProto(ProgramShapeToProto(*program));
      if (!again.ok()) Fail("program shape proto round trip", bytes);
    }
  }
  return 0;
}
