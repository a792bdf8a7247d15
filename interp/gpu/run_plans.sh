#!/bin/sh
# run_plans.sh PLANS OUT [RUNNER]
#
# Runs every launch plan PLANS/<set>/<kernel> (written by the ignored test
# `gpu_golden::write_gpu_plans`) on the GPU with cuda_runner, 8 at a time, each in its own
# process with a 60 s limit, writing OUT/<set>/<kernel>/{<buffer>.bin,status} and OUT/device.txt
# (GPU name and driver version). Builds cuda_runner from the C source beside this script when
# RUNNER is not given (needs only a C compiler; libcuda.so.1 is opened at run time).
set -u
PLANS=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
RUNNER=${3:-}
if [ -z "$RUNNER" ]; then
    RUNNER=/tmp/cuda_runner
    cc -O1 -o "$RUNNER" "$(dirname "$0")/cuda_runner.c" -ldl || exit 1
fi
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > "$OUT/device.txt" 2>&1
(cd "$PLANS" && find . -mindepth 2 -maxdepth 2 -type d | sed 's|^\./||' | sort) > "$OUT/jobs.txt"
xargs -P 8 -I{} sh -c 'mkdir -p "$2/$4"; timeout 60 "$3" "$1/$4" "$2/$4" 2>/dev/null || [ -s "$2/$4/status" ] || echo "timeout or crash" > "$2/$4/status"' \
    _ "$PLANS" "$OUT" "$RUNNER" {} < "$OUT/jobs.txt"
while read -r j; do printf '%s %s\n' "$j" "$(cat "$OUT/$j/status" 2>/dev/null || echo missing)"; done < "$OUT/jobs.txt" > "$OUT/summary.txt"
grep -c ' ok$' "$OUT/summary.txt" | sed 's/$/ plans ran ok/'
grep -v ' ok$' "$OUT/summary.txt"
exit 0
