#!/usr/bin/env bash
# .ci/consumers.sh: uses hlolayout the three ways a project can, and checks
# each program prints what the CLI says:
#   1. examples/consumer/bazel: a separate Bazel workspace (hlolayout_deps());
#   2. the top CMakeLists.txt built with Ninja (-j2) and installed into a
#      temporary prefix, then examples/consumer/cmake (find_package);
#   3. a plain g++ build of the same program with pkg-config's flags;
#   4. `pip install .` into a virtual environment of Debian's python3 (the
#      in-tree build backend, reusing step 2's CMake build folder), then
#      the same answers from `import hlolayout`;
#   5. examples/consumer/own-abseil: a Bazel workspace that brings its own
#      Abseil (hlolayout_deps(absl = "@com_google_absl")), of another
#      version than Debian's: Abseil's source tree from a PyPI sdist
#      (examples/consumer/own-abseil/abseil-source.txt), kept under
#      ~/.cache/hlolayout/. Besides the output, ldd and nm must show that
#      the program links that Abseil only (no Debian libabsl, no symbol of
#      Debian's inline namespace) and no protobuf (it uses the core).
#      Where pip cannot reach the package index this step says "skipped"
#      (differential/verdict.sh); where it can, a failure to fetch fails.
# The expected output comes from the Bazel-built CLI (`hlolayout index` and
# the batch op `bytes`); the installed CLI must agree too.
#
# Work folders are under ${HLOLAYOUT_CONSUMERS_TMP:-/tmp/hlolayout-consumers},
# one per clone (by path), kept between runs so that Ninja rebuilds only what
# changed; Bazel reuses the disk cache of ~/.bazelrc.
# Prints one line per step with its time; exits non-zero if any step fails.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

key=$(printf '%s' "$ROOT" | md5sum | cut -c1-12)
WORK="${HLOLAYOUT_CONSUMERS_TMP:-/tmp/hlolayout-consumers}/$key"
mkdir -p "$WORK"
PREFIX="$WORK/prefix"
SHAPE='bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}'
INDICES=(0,0,0,0 1,0,5,300 3,0,17,129 7,0,1279,16383)
failures=0

step() {  # step NAME COMMAND...: runs it, logs to $WORK/NAME.log, times it
  local name="$1"
  shift
  local start=$SECONDS
  if "$@" >"$WORK/$name.log" 2>&1; then
    echo "consumers: $name ok ($((SECONDS - start))s)"
  else
    echo "consumers: $name FAILED ($((SECONDS - start))s); last lines of $WORK/$name.log:"
    tail -n 20 "$WORK/$name.log" | sed 's/^/  /'
    failures=$((failures + 1))
    return 1
  fi
}

expected_from() {  # expected_from CLI: the consumers' output, by the CLI
  local cli="$1" version
  version=$("$cli" --version) || return 1
  echo "$version: $SHAPE"
  for index in "${INDICES[@]}"; do
    echo "index $index offset $("$cli" index "$SHAPE" "$index")" || return 1
  done
  echo "padded bytes $(printf 'bytes\t%s\n' "$SHAPE" | "$cli" batch)"
}

compare() {  # compare NAME FILE: FILE must equal the expected output
  if diff -u "$WORK/expected.txt" "$2" >"$WORK/$1.diff"; then
    echo "consumers: $1 output matches the CLI"
  else
    echo "consumers: $1 output differs from the CLI:"
    sed 's/^/  /' "$WORK/$1.diff"
    failures=$((failures + 1))
  fi
}

# The CLI built by Bazel gives the expected output.
if step cli ./bazelw build //:hlolayout </dev/null; then
  cli="$(./bazelw info bazel-bin 2>/dev/null </dev/null)/cli/hlolayout"
  expected_from "$cli" >"$WORK/expected.txt" || failures=$((failures + 1))
fi

# 1. Bazel consumer (its server is shut down afterwards to free memory).
bazel_consumer() (
  cd examples/consumer/bazel &&
    ../../../bazelw build --nosandbox_debug --symlink_prefix=/ //:offsets </dev/null &&
    "$(../../../bazelw info bazel-bin 2>/dev/null </dev/null)/offsets" \
      >"$WORK/bazel.out"
  local status=$?
  ../../../bazelw shutdown </dev/null
  return $status
)
step bazel bazel_consumer && compare bazel "$WORK/bazel.out"

# 2. CMake: configure (once), build, install, then the consumer project.
cmake_install() {
  rm -rf "$PREFIX"
  cmake -S . -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG= -DCMAKE_INSTALL_PREFIX="$PREFIX" &&
    cmake --build "$WORK/build" -j2 &&
    cmake --install "$WORK/build"
}
cmake_consumer() {
  cmake -S examples/consumer/cmake -B "$WORK/consumer-cmake" -G Ninja \
    -DCMAKE_PREFIX_PATH="$PREFIX" &&
    cmake --build "$WORK/consumer-cmake" -j2 &&
    "$WORK/consumer-cmake/offsets" >"$WORK/cmake.out"
}
if step cmake-install cmake_install; then
  expected_from "$PREFIX/bin/hlolayout" >"$WORK/installed-cli.out"
  compare installed-cli "$WORK/installed-cli.out"
  step cmake cmake_consumer && compare cmake "$WORK/cmake.out"

  # 3. pkg-config and a plain g++.
  pkgconfig_consumer() {
    local flags
    flags=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs hlolayout) &&
      echo "g++ -o offsets main.cc $flags" &&
      g++ -o "$WORK/offsets-pc" examples/consumer/cmake/main.cc $flags &&
      "$WORK/offsets-pc" >"$WORK/pkg-config.out"
  }
  step pkg-config pkgconfig_consumer && compare pkg-config "$WORK/pkg-config.out"

  # 4. pip install . (offline: --no-index; NumPy comes from Debian).
  pip_consumer() {
    rm -rf "$WORK/venv" &&
      /usr/bin/python3 -m venv --system-site-packages "$WORK/venv" &&
      HLOLAYOUT_CMAKE_BUILD_DIR="$WORK/build" \
        "$WORK/venv/bin/pip" install --no-index --no-cache-dir . &&
      (cd "$WORK" && "$WORK/venv/bin/python" - "$SHAPE" "${INDICES[@]}" \
        >"$WORK/pip.out" <<'PY'
import sys
import hlolayout as hl
shape = sys.argv[1]
print("hlolayout %s: %s" % (hl.__version__, shape))
indexer = hl.Indexer(shape)
for text in sys.argv[2:]:
    index = tuple(int(v) for v in text.split(","))
    print("index %s offset %d" % (text, indexer.offset(index)))
print("padded bytes %d" % hl.parse_shape(shape).sizes()["padded_bytes"])
PY
      )
  }
  step pip pip_consumer && compare pip "$WORK/pip.out"
fi

# 5. A consumer with its own Abseil (Bazel, @hlolayout//:core).
ABSEIL_CACHE="${HLOLAYOUT_CACHE_DIR:-$HOME/.cache/hlolayout}/own-abseil"
abseil_requirements=examples/consumer/own-abseil/abseil-source.txt

# Prints the folder of Abseil's sources (with a WORKSPACE file), fetching
# and unpacking them once per pinned sdist; exit 77 when pip cannot get it.
abseil_source() {
  local key dir tmp sdist
  key=$(sha256sum <"$abseil_requirements" | cut -c1-12) && [ -n "$key" ] ||
    return 1
  dir="$ABSEIL_CACHE/$key"
  if [ -f "$dir/abseil-cpp/WORKSPACE" ]; then
    echo "$dir/abseil-cpp"
    return 0
  fi
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  tmp=$(mktemp -d) || return 1
  if ! timeout 900 python3 -m pip download --disable-pip-version-check \
      --no-deps --no-binary :all: --require-hashes -r "$abseil_requirements" \
      -d "$tmp" >&2; then
    rm -rf "$tmp"
    return 77
  fi
  sdist=$(ls "$tmp"/*.tar.gz) &&
    tar -xzf "$sdist" -C "$dir" --strip-components=2 --wildcards \
      '*/third_party/abseil-cpp/*' &&
    echo 'workspace(name = "com_google_absl")' >"$dir/abseil-cpp/WORKSPACE" ||
    { rm -rf "$tmp" "$dir"; return 1; }
  rm -rf "$tmp"
  echo "$dir/abseil-cpp"
}

inline_namespace() {  # inline_namespace OPTIONS_H: Abseil's inline namespace
  sed -n 's/^#define ABSL_OPTION_INLINE_NAMESPACE_NAME \([a-z0-9_]*\)$/\1/p' "$1"
}

own_abseil_consumer() (
  local src ours debian bin namespaces
  src=$(abseil_source) || return $?
  ours=$(inline_namespace "$src/absl/base/options.h")
  debian=$(inline_namespace /usr/include/absl/base/options.h)
  echo "Abseil: $src (namespace $ours); Debian's: $debian"
  if [ -z "$ours" ] || [ "$ours" = "$debian" ]; then
    echo "not an Abseil of another version than Debian's"
    return 1
  fi
  cd examples/consumer/own-abseil || return 1
  local override="--override_repository=com_google_absl=$src"
  ../../../bazelw build --nosandbox_debug --symlink_prefix=/ "$override" \
    //:offsets </dev/null &&
    bin="$(../../../bazelw info "$override" bazel-bin 2>/dev/null </dev/null)/offsets" &&
    "$bin" >"$WORK/own-abseil.out"
  local status=$?
  ../../../bazelw shutdown </dev/null
  [ "$status" -eq 0 ] || return "$status"
  # One Abseil, the consumer's: no shared Abseil or protobuf, and every
  # Abseil symbol in the consumer's inline namespace.
  ldd "$bin"
  if ldd "$bin" | grep -E 'libabsl|libprotobuf'; then
    echo "links a shared Abseil or protobuf (above)"
    return 1
  fi
  namespaces=$(nm -C "$bin" | grep -oE 'absl::[a-z0-9_]+::' | sort | uniq -c)
  echo "Abseil namespaces in the program:"
  echo "$namespaces"
  if ! grep -q "absl::$ours::" <<<"$namespaces" ||
      grep -q "absl::$debian::" <<<"$namespaces"; then
    echo "expected absl::$ours:: symbols only, and none of absl::$debian::"
    return 1
  fi
)
own_abseil_start=$SECONDS
own_abseil_consumer >"$WORK/own-abseil.log" 2>&1
own_abseil_rc=$?
if [ "$own_abseil_rc" -eq 77 ] &&
    [ "$(source differential/verdict.sh && package_index_reachable)" != yes ]; then
  echo "consumers: own-abseil skipped: pip cannot reach the package index for Abseil's sources ($((SECONDS - own_abseil_start))s)"
elif [ "$own_abseil_rc" -eq 0 ]; then
  echo "consumers: own-abseil ok ($((SECONDS - own_abseil_start))s): $(grep -m1 '^Abseil:' "$WORK/own-abseil.log")"
  compare own-abseil "$WORK/own-abseil.out"
else
  echo "consumers: own-abseil FAILED ($((SECONDS - own_abseil_start))s); last lines of $WORK/own-abseil.log:"
  tail -n 20 "$WORK/own-abseil.log" | sed 's/^/  /'
  failures=$((failures + 1))
fi

echo "consumers: $failures failures"
[ "$failures" -eq 0 ]
