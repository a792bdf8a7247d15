// Minimal CUDA declarations for clang's CUDA mode without NVIDIA's headers (-nocudainc
// -nocudalib): the attributes and the special registers the wild-corpus kernels use.
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline))

__device__ static inline unsigned tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
__device__ static inline unsigned tid_y() { return __nvvm_read_ptx_sreg_tid_y(); }
__device__ static inline unsigned ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
__device__ static inline unsigned ctaid_y() { return __nvvm_read_ptx_sreg_ctaid_y(); }
__device__ static inline unsigned ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }
__device__ static inline unsigned gid_x() { return ctaid_x() * ntid_x() + tid_x(); }
__device__ static inline void sync() { __syncthreads(); }
