// Exercises: block-wide scans in shared memory: an inclusive Hillis-Steele scan with double
// buffering (ping-pong index), an exclusive Blelloch work-efficient scan (up-sweep, clear,
// down-sweep) over 2 elements per thread, per-block totals of 512-element segments, partial and empty trailing blocks.
#define BS 256

extern "C" __global__ void algo_block_scan(const unsigned *in, unsigned *incl, unsigned *excl,
                                           unsigned *totals, unsigned n)
{
    __shared__ unsigned hs[2][BS];
    __shared__ unsigned bl[2 * BS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BS + tid;
    unsigned x = i < n ? in[i] : 0u;

    int cur = 0;
    hs[0][tid] = x;
    __syncthreads();
    for (unsigned off = 1; off < BS; off <<= 1) {
        unsigned v = hs[cur][tid];
        if (tid >= off)
            v += hs[cur][tid - off];
        hs[cur ^ 1][tid] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (i < n)
        incl[i] = hs[cur][tid];

    unsigned base = blockIdx.x * 2 * BS;
    bl[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0u;
    bl[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0u;
    unsigned off = 1;
    for (unsigned d = BS; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            unsigned ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1;
            bl[bi] += bl[ai];
        }
        off <<= 1;
    }
    if (tid == 0) {
        totals[blockIdx.x] = bl[2 * BS - 1];
        bl[2 * BS - 1] = 0;
    }
    for (unsigned d = 1; d < 2 * BS; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (tid < d) {
            unsigned ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1;
            unsigned t = bl[ai];
            bl[ai] = bl[bi];
            bl[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n)
        excl[base + 2 * tid] = bl[2 * tid];
    if (base + 2 * tid + 1 < n)
        excl[base + 2 * tid + 1] = bl[2 * tid + 1];
}
