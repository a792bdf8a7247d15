// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: cp.async through cuda_pipeline.h: __pipeline_memcpy_async with 16-byte copies
// (cp.async.cg.shared.global) and 4-byte copies with zero fill for the tail (cp.async.ca with a
// src-size operand), __pipeline_commit (cp.async.commit_group), __pipeline_wait_prior(1/0)
// (cp.async.wait_group) in a double-buffered loop over tiles, consumption after __syncthreads.
#include <cuda_pipeline.h>

#define BS 128
#define TILE (BS * 4)   // u32 elements per tile: one 16-byte copy per thread

extern "C" __global__ void async_cp_async(const unsigned *in, unsigned *out, unsigned n_tiles,
                                          const unsigned *tail, unsigned tail_n, unsigned *tail_out)
{
    __shared__ __align__(16) unsigned buf[2][TILE];
    __shared__ __align__(16) unsigned tbuf[BS];
    unsigned tid = threadIdx.x;
    // Tiles handled by this CTA: blockIdx.x, blockIdx.x + gridDim.x, ...
    unsigned t = blockIdx.x;
    if (t < n_tiles)
        __pipeline_memcpy_async(&buf[0][tid * 4], &in[t * TILE + tid * 4], 16);
    __pipeline_commit();
    for (unsigned it = 0; t < n_tiles; ++it, t += gridDim.x) {
        unsigned nt = t + gridDim.x;
        if (nt < n_tiles)
            __pipeline_memcpy_async(&buf[(it + 1) & 1][tid * 4], &in[nt * TILE + tid * 4], 16);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        const unsigned *b = buf[it & 1];
        for (unsigned k = tid; k < TILE; k += BS)
            out[t * TILE + k] = b[k] ^ (b[(k + 1) % TILE] * 3u) ^ t;
        __syncthreads();
    }
    __pipeline_wait_prior(0);

    // 4-byte copies with zero fill beyond the tail: all threads copy, src clamped in bounds.
    if (blockIdx.x == 0) {
        bool ok = tid < tail_n;
        __pipeline_memcpy_async(&tbuf[tid], &tail[ok ? tid : 0], 4, ok ? 0 : 4);
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        tail_out[tid] = tbuf[tid] + tbuf[BS - 1 - tid];
    }
}
