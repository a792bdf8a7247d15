// Exercises: warp-level reductions of float and double: butterfly (shfl.bfly) sums and max,
// a shfl.down tree into lane 0, double shuffles split into 2x32-bit, warp-uniform stores by
// lane 0 plus per-lane results of the butterfly (every lane holds the same value).
__device__ __forceinline__ float warp_sum_bfly(float v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

extern "C" __global__ void warp_reduce_fp(const float *xf, const double *xd, float *outf,
                                          double *outd, unsigned n)
{
    const unsigned F = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned warp = i >> 5;
    float f = i < n ? xf[i] : 0.0f;
    double d = i < n ? xd[i] : 0.0;

    float s_bfly = warp_sum_bfly(f);
    float m = f;
#pragma unroll
    for (int k = 16; k > 0; k >>= 1)
        m = fmaxf(m, __shfl_xor_sync(F, m, k));
    float s_tree = f;
    for (int k = 16; k > 0; k >>= 1)
        s_tree += __shfl_down_sync(F, s_tree, k);
    double sd = d;
#pragma unroll
    for (int k = 1; k < 32; k <<= 1)
        sd += __shfl_xor_sync(F, sd, k);
    double md = d;
    for (int k = 16; k > 0; k >>= 1)
        md = fmin(md, __shfl_down_sync(F, md, k));

    if (lane == 0) {
        outf[warp * 3 + 0] = s_bfly;
        outf[warp * 3 + 1] = m;
        outf[warp * 3 + 2] = s_tree;
        outd[warp * 2 + 0] = sd;
        outd[warp * 2 + 1] = md;
    }
}
