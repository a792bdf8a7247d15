#!/usr/bin/env bash
# Records NVIDIA ptxas's diagnostics for the error corpus.
#
#   corpus/errors/record.sh            # every <name>.ptx in this directory
#   corpus/errors/record.sh a b.ptx    # only these (with or without .ptx)
#
# Line 1 of each <name>.ptx is `// ptxas-args: <args>`. From inside corpus/errors this runs
#   "$PTXAS" <args> <name>.ptx -o "$tmpdir/out.cubin"
# requires exit code 255 and an empty stdout, and writes stderr verbatim to <name>.stderr.
# A file that ptxas accepts (or that exits with another code) is reported and makes the script fail.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../tools.sh"
cd "$here"
tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"' EXIT
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(ls -- *.ptx | LC_ALL=C sort)
fi
fail=0 n=0
for f in "${names[@]}"; do
  f=${f%.ptx}.ptx
  name=${f%.ptx}
  if [ ! -f "$f" ]; then echo "$name: no such file" >&2; fail=1; continue; fi
  first=$(head -n 1 -- "$f" | tr -d '\r')
  case "$first" in
    "// ptxas-args:"*) args=${first#"// ptxas-args:"} ;;
    *) echo "$name: line 1 is not '// ptxas-args: ...'" >&2; fail=1; continue ;;
  esac
  rm -f "$tmpdir/out.cubin"
  read -ra argv <<<"$args"   # whitespace-separated, no quoting or globbing
  "$PTXAS" "${argv[@]}" "$f" -o "$tmpdir/out.cubin" >"$tmpdir/stdout" 2>"$tmpdir/stderr"
  rc=$?
  if [ "$rc" -ne 255 ]; then
    echo "$name: ptxas exited with $rc (expected 255); not an error case" >&2
    sed 's/^/    /' "$tmpdir/stderr" >&2
    rm -f "$name.stderr"; fail=1; continue
  fi
  if [ -s "$tmpdir/stdout" ]; then
    echo "$name: ptxas wrote to stdout" >&2; rm -f "$name.stderr"; fail=1; continue
  fi
  if [ ! -s "$tmpdir/stderr" ]; then
    echo "$name: ptxas failed without a diagnostic" >&2; rm -f "$name.stderr"; fail=1; continue
  fi
  cp "$tmpdir/stderr" "$name.stderr"
  n=$((n + 1))
done
echo "recorded $n file(s)" >&2
exit $fail
