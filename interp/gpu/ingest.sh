#!/bin/sh
# ingest.sh RESULTS
#
# Copies the GPU outputs of NVIDIA's -O3 cubins (RESULTS/nv/<kernel>/<buffer>.bin, from
# run_plans.sh) into corpus/gpu/sm_90/<kernel>/ as the hardware goldens, for every plan whose
# status is ok, and records the device line in corpus/gpu/sm_90/DEVICE.
set -eu
RES=$1
DEST=$(cd "$(dirname "$0")/../.." && pwd)/corpus/gpu/sm_90
mkdir -p "$DEST"
n=0
for d in "$RES"/nv/*/; do
    k=$(basename "$d")
    [ "$(cat "$d/status")" = ok ] || { echo "skipped $k: $(cat "$d/status")"; continue; }
    rm -rf "${DEST:?}/$k"
    mkdir -p "$DEST/$k"
    cp "$d"/*.bin "$DEST/$k/"
    n=$((n + 1))
done
head -1 "$RES/device.txt" > "$DEST/DEVICE"
echo "$n kernels' goldens in $DEST"
