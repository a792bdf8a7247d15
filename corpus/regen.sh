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
# REGEN_ARCHS="sm_80 ..." regenerates only those of each kernel's archs (the others are left alone).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tools.sh"
DEFAULT_ARCHS="sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120"
cd "$here/cuda"
stage=/tmp/ptxas-rs-regen
mkdir -p "$stage"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(ls -d */ | tr -d /)
fail=0
for n in "${names[@]}"; do
  cu="$n/$n.cu"
  [ -f "$cu" ] || { echo "no $cu" >&2; fail=1; continue; }
  archs=$(sed -n 's|^// corpus-archs:||p' "$cu" | head -1)
  [ -n "$archs" ] || archs=$DEFAULT_ARCHS
  if [ -n "${REGEN_ARCHS:-}" ]; then
    archs=$(for a in $archs; do case " $REGEN_ARCHS " in *" $a "*) echo "$a" ;; esac; done)
    [ -n "$archs" ] || continue
  fi
  flags=$(sed -n 's|^// corpus-nvcc-flags:||p' "$cu" | head -1)
  out="${REGEN_OUT:-$here/cuda}/$n"
  mkdir -p "$out"
  # One kernel's staging directory at a time (a lock per kernel: runs for different kernels
  # proceed in parallel).
  exec 9>"$stage/$n.lock"
  flock 9
  if [ -n "${REGEN_ARCHS:-}" ]; then
    for a in $archs; do rm -f "$out/$n.$a.ptx"; done
  else
    rm -f "$out"/*.ptx
  fi
  rm -rf "${stage:?}/$n"
  mkdir -p "$stage/$n"
  cp "$cu" "$stage/$n/$n.cu"
  # The archs of one kernel compile in parallel (REGEN_JOBS at a time, default: the cores);
  # each nvcc writes its own output file and its own temporaries.
  export NVCC CUDA_INC flags stage n out
  # shellcheck disable=SC2016,SC2086
  if ! printf '%s\n' $archs | xargs -P "${REGEN_JOBS:-$(nproc)}" -I{} bash -c \
      '"$NVCC" -ptx -O3 -arch={} -I"$CUDA_INC" -I"$CUDA_INC/cccl" $flags "$stage/$n/$n.cu" -o "$out/$n.{}.ptx" || { echo "FAILED: $n for {}" >&2; exit 1; }'; then
    fail=1
  fi
  exec 9>&-
done
exit $fail
