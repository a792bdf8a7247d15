#!/usr/bin/env bash
# Regenerates corpus/cuda/<name>/<name>.<arch>.ptx from <name>.cu with the pinned nvcc 13.0.88.
#
#   corpus/regen.sh            # every kernel
#   corpus/regen.sh saxpy ...  # only these kernels
#
# The archs of a kernel default to DEFAULT_ARCHS; a line `// corpus-archs: sm_80 sm_90 ...` in the
# .cu file replaces that list (kernels that need sm_80+ features, sm_90a-only wgmma, ...).
# Extra nvcc flags for one kernel: a line `// corpus-nvcc-flags: -rdc=true ...`.
# nvcc derives internal-linkage symbol names from the source's absolute path, so every kernel is
# compiled from a fixed staging path (/tmp/ptxas-rs-regen/<name>/<name>.cu): the PTX is then the same
# whatever the checkout's location. A lock serialises concurrent runs over the staging directory.
# REGEN_OUT=<dir> writes <dir>/<name>/<name>.<arch>.ptx instead of updating the corpus
# (tests/corpus_regen.rs uses it to check that the committed PTX is what the script produces).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tools.sh"
DEFAULT_ARCHS="sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120"
cd "$here/cuda"
stage=/tmp/ptxas-rs-regen
mkdir -p "$stage"
exec 9>"$stage.lock"
flock 9
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(ls -d */ | tr -d /)
fail=0
for n in "${names[@]}"; do
  cu="$n/$n.cu"
  [ -f "$cu" ] || { echo "no $cu" >&2; fail=1; continue; }
  archs=$(sed -n 's|^// corpus-archs:||p' "$cu" | head -1)
  [ -n "$archs" ] || archs=$DEFAULT_ARCHS
  flags=$(sed -n 's|^// corpus-nvcc-flags:||p' "$cu" | head -1)
  out="${REGEN_OUT:-$here/cuda}/$n"
  mkdir -p "$out"
  rm -f "$out"/*.ptx
  rm -rf "${stage:?}/$n"
  mkdir -p "$stage/$n"
  cp "$cu" "$stage/$n/$n.cu"
  for a in $archs; do
    # shellcheck disable=SC2086
    if ! "$NVCC" -ptx -O3 -arch="$a" -I"$CUDA_INC" -I"$CUDA_INC/cccl" $flags "$stage/$n/$n.cu" -o "$out/$n.$a.ptx"; then
      echo "FAILED: $n for $a" >&2; fail=1
    fi
  done
done
exit $fail
