// A program outside hlolayout that uses it as a library: parses the design
// card's example shape, prints where a few elements live and the buffer's
// padded size. .ci/consumers.sh compares this output with the CLI's
// (`hlolayout index` and the batch op `bytes`).
//
// It includes the headers it uses, and its Bazel target depends on their
// fine-grained targets (a proto among them, whose generated code is built
// from the external repository); `#include "hlolayout/hlolayout.h"` and
// `@hlolayout//:hlolayout_lib` give the whole library instead.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#ifndef CONSUMER_WITHOUT_PROTOBUF
#include "hlolayout/shape/shape_proto.h"
#endif
#include "hlolayout/version.h"

int main() {
  const char* text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
  absl::StatusOr<hlolayout::Shape> shape = hlolayout::ParseShape(text);
  if (!shape.ok()) {
    std::fprintf(stderr, "%s\n", shape.status().ToString().c_str());
    return 1;
  }
  absl::StatusOr<hlolayout::TiledIndexer> indexer =
      hlolayout::TiledIndexer::Create(*shape);
  absl::StatusOr<hlolayout::ArraySizes> sizes =
      hlolayout::ComputeArraySizes(*shape);
  if (!indexer.ok() || !sizes.ok()) {
    std::fprintf(stderr, "%s %s\n", indexer.status().ToString().c_str(),
                 sizes.status().ToString().c_str());
    return 1;
  }
  std::printf("hlolayout %s: %s\n", HLOLAYOUT_VERSION_STRING, text);
  const std::vector<std::vector<int64_t>> indices = {
      {0, 0, 0, 0}, {1, 0, 5, 300}, {3, 0, 17, 129}, {7, 0, 1279, 16383}};
  for (const std::vector<int64_t>& index : indices) {
    absl::StatusOr<int64_t> offset =
        indexer->TryOffsetInElements(index);  // checked
    if (!offset.ok()) {
      std::fprintf(stderr, "%s\n", offset.status().ToString().c_str());
      return 1;
    }
    std::printf(
        "index %lld,%lld,%lld,%lld offset %lld\n",
        static_cast<long long>(index[0]), static_cast<long long>(index[1]),
        static_cast<long long>(index[2]), static_cast<long long>(index[3]),
        static_cast<long long>(*offset));
  }
  std::printf("padded bytes %lld\n",
              static_cast<long long>(sizes->padded_bytes));
#ifndef CONSUMER_WITHOUT_PROTOBUF
  // The shape survives its proto (XLA's ShapeProto bytes).
  absl::StatusOr<hlolayout::Shape> back =
      hlolayout::ShapeFromProtoBytes(hlolayout::ShapeToProtoBytes(*shape));
  if (!back.ok() || !(*back == *shape)) {
    std::fprintf(stderr, "proto round trip failed\n");
    return 1;
  }
#endif
  return 0;
}
