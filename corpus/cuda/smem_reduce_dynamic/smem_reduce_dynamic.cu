// Exercises: dynamic shared memory (extern __shared__, sized by the launch), two arrays carved
// out of it, a grid-stride accumulation loop, a float sum and an fmaxf tree reduction with
// __syncthreads, blockDim-dependent loop bounds. The reduction order is fixed, so the float
// results are bit-exact.
#include <math_constants.h>

extern "C" __global__ void smem_reduce_dynamic(const float *in, float *sum_out, float *max_out,
                                               unsigned n)
{
    extern __shared__ float sh[];
    float *ssum = sh;
    float *smax = sh + blockDim.x;
    unsigned tid = threadIdx.x;
    float acc = 0.0f, mx = -CUDART_INF_F;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) {
        float v = in[i];
        acc += v;
        mx = fmaxf(mx, v);
    }
    ssum[tid] = acc;
    smax[tid] = mx;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            ssum[tid] += ssum[tid + stride];
            smax[tid] = fmaxf(smax[tid], smax[tid + stride]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        sum_out[blockIdx.x] = ssum[0];
        max_out[blockIdx.x] = smax[0];
    }
}
