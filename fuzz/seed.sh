#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ (ignored by git): ptx_parse from the project's PTX corpus;
# compile_diff with random byte strings (its generator turns any bytes into a kernel, and
# libFuzzer would otherwise start from tiny inputs, which give tiny kernels).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/corpus/ptx_parse"
find "$here/../corpus" -name '*.ptx' -size -64k -exec cp -t "$here/corpus/ptx_parse" {} +
echo "seeded $(ls "$here/corpus/ptx_parse" | wc -l) files for ptx_parse"
mkdir -p "$here/corpus/compile_diff"
for i in $(seq 1 32); do
  head -c 2048 /dev/urandom > "$here/corpus/compile_diff/random-$i"
done
echo "seeded $(ls "$here/corpus/compile_diff" | wc -l) files for compile_diff"
