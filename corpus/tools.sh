# Sourced by the corpus scripts: sets NV to the root of NVIDIA's tools (the directory holding
# nvidia/cu13/bin/ptxas). PTXAS_RS_NVIDIA_TOOLS wins; otherwise the oracle crate finds or
# installs the pinned wheels (see oracle/src/install.rs).
if [ -n "${PTXAS_RS_NVIDIA_TOOLS:-}" ]; then
  NV=$PTXAS_RS_NVIDIA_TOOLS
else
  NV=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && cargo run -q --release -p oracle --bin nvidia-tools -- root) || {
    echo "cannot find or install NVIDIA's tools" >&2; exit 1; }
fi
if [ -x "$NV/nvidia/cu13/bin/ptxas" ]; then CU=$NV/nvidia/cu13; else CU=$NV; fi
PTXAS=$CU/bin/ptxas
NVCC=$CU/bin/nvcc
NVDISASM=$CU/bin/nvdisasm
CUOBJDUMP=$CU/bin/cuobjdump
CUDA_INC=$CU/include
export PATH="$CU/bin:$PATH"
