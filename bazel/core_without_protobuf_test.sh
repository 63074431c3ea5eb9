#!/usr/bin/env bash
# CoreWithoutProtobufTest: //:core, the library without protobuf, reaches
# neither protobuf nor a proto target, and has what a pass needs for shapes
# and offsets. $1 is `bazel query 'deps(//:core)'` (bazel/BUILD's genquery).
set -u
deps="$1"
status=0
for forbidden in '@hlolayout_system//:protobuf' '@hlolayout_system//:protoc' \
    '//proto:' '//shape:shape_proto'; do
  if grep -qF "$forbidden" "$deps"; then
    echo "FAIL: //:core depends on $forbidden:"
    grep -F "$forbidden" "$deps" | sed 's/^/  /'
    status=1
  fi
done
for required in '//shape:shape' '//parser:shape_parser' \
    '//index_util:tiled_indexer' '//layout:sizes' '//hlo:reader' \
    '@hlolayout_system//:absl'; do
  if ! grep -qxF "$required" "$deps"; then
    echo "FAIL: //:core lacks $required"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "PASS: $(wc -l <"$deps") targets, no protobuf"
exit "$status"
