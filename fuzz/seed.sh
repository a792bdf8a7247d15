#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the project's PTX corpus (ignored by git).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/corpus/ptx_parse"
find "$here/../corpus" -name '*.ptx' -size -64k -exec cp -t "$here/corpus/ptx_parse" {} +
echo "seeded $(ls "$here/corpus/ptx_parse" | wc -l) files"
