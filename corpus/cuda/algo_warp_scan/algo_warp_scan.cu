// Exercises: a block-wide inclusive/exclusive scan built from warp shuffles: Kogge-Stone
// __shfl_up_sync scans with a lane guard, warp totals through shared memory, a second-level
// scan by warp 0, the exclusive result recovered with a shuffle, plus a segmented variant whose
// segment heads come from __ballot_sync and __clz.
extern "C" __global__ void algo_warp_scan(const unsigned *in, const unsigned char *head,
                                          unsigned *incl, unsigned *excl, unsigned *seg,
                                          unsigned n)
{
    const unsigned F = 0xffffffffu;
    __shared__ unsigned wsum[32];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned x = i < n ? in[i] : 0u;

    unsigned v = x;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        unsigned t = __shfl_up_sync(F, v, d);
        if (lane >= d)
            v += t;
    }
    if (lane == 31)
        wsum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        unsigned nw = blockDim.x >> 5;
        unsigned w = lane < nw ? wsum[lane] : 0u;
        for (unsigned d = 1; d < 32; d <<= 1) {
            unsigned t = __shfl_up_sync(F, w, d);
            if (lane >= d)
                w += t;
        }
        if (lane < nw)
            wsum[lane] = w;
    }
    __syncthreads();
    unsigned offset = warp ? wsum[warp - 1] : 0u;
    unsigned inc = v + offset;
    unsigned exc = __shfl_up_sync(F, inc, 1);
    if (lane == 0)
        exc = offset;

    // Segmented inclusive scan within the warp: a segment starts where head[i] != 0 (and at lane 0).
    bool h = (i < n ? head[i] != 0 : true) || lane == 0;
    unsigned heads = __ballot_sync(F, h);
    unsigned start = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
    unsigned s = x;
    for (unsigned d = 1; d < 32; d <<= 1) {
        unsigned t = __shfl_up_sync(F, s, d);
        if (lane >= start + d)
            s += t;
    }
    if (i < n) {
        incl[i] = inc;
        excl[i] = exc;
        seg[i] = s;
    }
}
