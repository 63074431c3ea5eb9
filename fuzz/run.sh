#!/usr/bin/env bash
# fuzz/run.sh: builds the libFuzzer harnesses with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer (outside Bazel), then runs each for
# SECONDS seconds on a copy of its seed corpus fuzz/corpus/NAME/, one
# fuzzer per core at a time ($FUZZ_JOBS, default nproc).
#
#   fuzz/run.sh                 # every fuzzer, 60 s each
#   fuzz/run.sh 300 cute        # only cute_fuzzer, 5 minutes
#   FUZZ_BUILD_ONLY=1 fuzz/run.sh
#   FUZZ_OPT=-O0 fuzz/run.sh 10 # builds in half the time, runs 2-12x fewer inputs
#
# Inputs up to $FUZZ_MAX_LEN bytes (default 65536, the harnesses' own limit
# kMaxInputSize in fuzz/fuzz_util.h: long enough for 10000 tile levels,
# which once took cubic memory).
# Work files go to $FUZZ_OUT (default /tmp/hlolayout_fuzz-CHECKSUM, one per
# checkout, CHECKSUM from the checkout's path): objects,
# binaries, the growing corpora (out/corpus/NAME) and crash artifacts
# (out/artifacts/NAME/). Exits non-zero when a fuzzer found a crash, leak,
# UB report, timeout or broken invariant.
set -euo pipefail

SECONDS_EACH="${1:-60}"
shift || true
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# One work folder per checkout: two checkouts fuzzing at once must not link
# each other's objects.
OUT="${FUZZ_OUT:-${TMPDIR:-/tmp}/hlolayout_fuzz-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)}"
CXX="${CXX_FUZZ:-clang++}"
JOBS="${FUZZ_JOBS:-$(nproc)}"
# -O1 (the default): at -O0 the library builds in half the time, but each
# harness runs 2-12x fewer inputs a second (measured on 10 s runs).
OPT="${FUZZ_OPT:--O1}"
case "$OPT" in -O0 | -O1 | -O2 | -O3) ;; *) echo "fuzz: FUZZ_OPT must be -O0..-O3" >&2; exit 2 ;; esac
ALL=(shape_parser proto cute grid hlo_reader memory relayout triton ttnn)
if [[ $# -gt 0 ]]; then NAMES=("$@"); else NAMES=("${ALL[@]}"); fi

SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
# Sources include "hlolayout/<folder>/<file>.h": $OUT/include/hlolayout is a
# link to the repository; the generated proto code is under
# $OUT/gen/hlolayout/proto/ (and includes itself as "proto/xla_data.pb.h").
CXXFLAGS=(-std=c++17 "$OPT" -gline-tables-only -fno-omit-frame-pointer "${SAN[@]}"
  -I"$OUT/include" -I"$OUT/gen" -I"$OUT/gen/hlolayout")
ABSL_LIBS="$(pkg-config --libs absl_statusor absl_status absl_strings \
  absl_str_format absl_hash absl_raw_hash_set absl_flat_hash_map \
  absl_inlined_vector absl_synchronization absl_cord)"

# Objects and the archive are kept per optimization level.
OBJ="$OUT/obj$OPT"
LIB="$OUT/libhlolayout$OPT.a"
mkdir -p "$OUT/include" "$OUT/gen/hlolayout" "$OBJ" "$OUT/bin"
ln -sfn "$ROOT" "$OUT/include/hlolayout"

# The generated proto code, replaced only when it changed: a fresh
# xla_data.pb.h would be newer than every object that includes it.
mkdir -p "$OUT/gen.new"
protoc --proto_path="$ROOT" --cpp_out="$OUT/gen.new" "$ROOT/proto/xla_data.proto"
mkdir -p "$OUT/gen/hlolayout/proto"
for f in xla_data.pb.h xla_data.pb.cc; do
  if ! cmp -s "$OUT/gen.new/proto/$f" "$OUT/gen/hlolayout/proto/$f"; then
    mv "$OUT/gen.new/proto/$f" "$OUT/gen/hlolayout/proto/$f"
  fi
done
rm -rf "$OUT/gen.new"

# The library: the sources of the Bazel libraries whose headers the
# harnesses include and of all they depend on (`bazel query`; 184 of the
# library's 232 sources on 2026-11-28), built once into an archive (so each
# fuzzer links only what it uses). A header is named by its path, which
# Bazel resolves to its package ("cute/atom/internal/tv_algebra.h" is
# //cute/atom:internal/tv_algebra.h).
mapfile -t HEADERS < <(grep -ho '#include "hlolayout/[^"]*\.h"' "$ROOT"/fuzz/*.cc "$ROOT"/fuzz/*.h |
  sed -e 's|^#include "hlolayout/||' -e 's|"$||' | grep -v '^fuzz/\|^proto/' | sort -u)
query="kind('source file', deps(kind(cc_library, rdeps(//..., set(${HEADERS[*]}), 1))))"
if ! labels=$(cd "$ROOT" && ./bazelw query --noshow_progress "$query" 2>"$OUT/query.log" </dev/null); then
  echo "fuzz: bazel query of the harnesses' sources failed:" >&2
  tail -n 5 "$OUT/query.log" >&2
  exit 2
fi
SOURCES=("$OUT/gen/hlolayout/proto/xla_data.pb.cc")
while IFS= read -r label; do
  package="${label#//}"
  package="${package%%:*}"
  path="$package/${label#*:}"
  case "$path" in
    *_test.cc) ;;
    *.cc) SOURCES+=("$ROOT/$path") ;;
  esac
done < <(grep '^//' <<<"$labels")
# A source's object: its path under the repository with '/' as '_'.
object_of() {
  echo "$OBJ/$(tr / _ <<<"${1#"$ROOT"/}").o"
}
# Whether the object of `src` is missing or older than the source or one of
# the files it included when it was compiled (the compiler's -MMD list
# beside it, OBJ.d; no list: compiled before lists were kept), or one of
# those is gone.
stale() {
  local src="$1" obj
  obj=$(object_of "$src")
  [[ -f "$obj" && -f "$obj.d" && ! "$src" -nt "$obj" ]] || return 0
  local dep
  # "OBJ: SRC A.h B.h \" over several lines: every word after the colon.
  for dep in $(sed -e '1s/^[^:]*://' -e 's/\\$//' "$obj.d"); do
    [[ ! -e "$dep" || "$dep" -nt "$obj" ]] && return 0
  done
  return 1
}
export -f object_of stale
export CXX ROOT OBJ
export CXXFLAGS_STR="${CXXFLAGS[*]}"
compiled="$OUT/compiled.list"
: >"$compiled"
export compiled
printf '%s\n' "${SOURCES[@]}" |
  xargs -P "$JOBS" -I{} bash -c \
    'read -ra F <<<"$CXXFLAGS_STR"; src="{}"; obj=$(object_of "$src");
     if stale "$src"; then
       "$CXX" "${F[@]}" -fsanitize=fuzzer-no-link -MMD -MF "$obj.d" -c "$src" -o "$obj" || exit 255;
       echo "$src" >>"$compiled";
     fi'
echo "fuzz: compiled $(wc -l <"$compiled") of ${#SOURCES[@]} library sources (the rest were up to date)" >&2
rm -f "$LIB"
objects=()
for src in "${SOURCES[@]}"; do objects+=("$(object_of "$src")"); done
ar rcs "$LIB" "${objects[@]}"

export CXXFLAGS_STR LIB ABSL_LIBS OUT
printf '%s\n' "${NAMES[@]}" |
  xargs -P "$JOBS" -I{} bash -c \
    'read -ra F <<<"$CXXFLAGS_STR"; echo "fuzz: linking {}_fuzzer" >&2;
     "$CXX" "${F[@]}" -fsanitize=fuzzer "$ROOT/fuzz/{}_fuzzer.cc" \
       "$LIB" $ABSL_LIBS -lprotobuf -lpthread -o "$OUT/bin/{}_fuzzer" ||
       exit 255'
[[ -n "${FUZZ_BUILD_ONLY:-}" ]] && exit 0

# Runs one fuzzer; its exit status is the fuzzer's. Detects leaks, reports
# UB as a crash, allows a second per input at most, but for shape_parser:
# the largest tiled layout the library answers (1000 tile levels of
# `f32[16]{0:T(2)(2)...}`, 3 KB; docs/indexing.md, "Limit") takes it 1.5-1.8
# s under the sanitizers on a 2-core VM (0.4 s for `hlolayout index` built
# -c opt), and its model is built twice per input; it gets 5 s.
run_one() {
  local name="$1"
  local corpus="$OUT/corpus/$name" artifacts="$OUT/artifacts/$name"
  local timeout=1
  [[ "$name" == shape_parser ]] && timeout=5
  mkdir -p "$corpus" "$artifacts"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$OUT/bin/${name}_fuzzer" -max_total_time="$SECONDS_EACH" \
    -timeout="$timeout" \
    -max_len="${FUZZ_MAX_LEN:-65536}" \
    -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" "$ROOT/fuzz/corpus/$name" >"$OUT/${name}.log" 2>&1
}

# $JOBS fuzzers at a time (each uses one core, all run as long), reported
# in order.
failed=()
for i in "${!NAMES[@]}"; do
  name="${NAMES[$i]}"
  echo "fuzz: running ${name}_fuzzer for ${SECONDS_EACH}s (log $OUT/${name}.log)" >&2
  rm -f "$OUT/${name}.rc"
  touch "$OUT/${name}.start"  # artifacts newer than this are this run's
  (
    status=0
    run_one "$name" || status=$?
    echo "$status" >"$OUT/${name}.rc"
  ) &
  if (((i + 1) % JOBS == 0)); then wait; fi
done
wait
for name in "${NAMES[@]}"; do
  log="$OUT/${name}.log"
  if [[ "$(cat "$OUT/${name}.rc" 2>/dev/null)" == 0 ]]; then
    echo -n "fuzz: ${name}_fuzzer: " >&2
    grep -E '^stat::number_of_executed_units|^Done' "$log" | tr '\n' ' ' >&2
    echo >&2
  else
    echo "fuzz: ${name}_fuzzer FAILED; artifacts in $OUT/artifacts/$name, log $log" >&2
    grep -E 'ERROR|runtime error|INVARIANT|SUMMARY' "$log" | head -5 >&2 || true
    # This run's inputs (the first 2 KB of each, in base64), so that a run
    # elsewhere (CI) can be replayed: `base64 -d >input` from the lines,
    # then `$OUT/bin/NAME_fuzzer input` after FUZZ_BUILD_ONLY=1 fuzz/run.sh.
    while IFS= read -r artifact; do
      echo "fuzz: ${name} input $(basename "$artifact"), $(wc -c <"$artifact") bytes, base64:" >&2
      head -c 2048 "$artifact" | base64 | sed 's/^/fuzz:   /' >&2
    done < <(find "$OUT/artifacts/$name" -type f -newer "$OUT/${name}.start")
    failed+=("$name")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#NAMES[@]} fuzzers ran clean" >&2
