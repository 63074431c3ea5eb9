#!/usr/bin/env bash
# differential/prepare_venvs.sh: makes every differential harness's venv
# (differential/venv.sh) and nothing else, each harness asked in its
# venv-only mode (HLOLAYOUT_VENV_ONLY=1), so that the venvs are the ones the
# harnesses use. .ci/run starts it in the background at its beginning: on a
# clean machine pip's downloads (jaxlib and its CUDA plugin, two Tritons,
# the CuTe DSL) then overlap the build instead of following it. A harness
# that asks for a venv still being made waits for it (venv.sh's lock).
#
#   differential/prepare_venvs.sh          # prints one line per harness
#
# A venv that cannot be made is not an error here: the harness that needs
# it tries again and reports (skipped or failed, differential/verdict.sh).
# Always exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."

prepare() {  # prepare LABEL COMMAND...
  local label="$1" start=$SECONDS rc
  shift
  HLOLAYOUT_VENV_ONLY=1 "$@" </dev/null >/dev/null 2>&1
  rc=$?
  echo "prepare_venvs: ${label}: exit ${rc} in $((SECONDS - start)) s"
}

prepare xla differential/xla/run.sh
prepare xla-gpu differential/xla/run.sh --target gpu
prepare xla-tpu differential/xla/run.sh --target tpu
prepare triton differential/triton/ci.sh
prepare cute_dsl differential/cute_dsl/run.sh
prepare ttnn differential/ttnn/ci.sh
exit 0
