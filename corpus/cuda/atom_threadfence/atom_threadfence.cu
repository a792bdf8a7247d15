// Exercises: the "last block" grid reduction: per-CTA shared tree sums, __threadfence()
// (membar.gl / fence.sc.gpu) before an atomicInc ticket, a __shared__ flag broadcast, volatile
// (ld.volatile) reads of the other CTAs' partials in a fixed order, so the total is independent
// of which CTA finishes last.
#define BS 128

extern "C" __global__ void atom_threadfence(const unsigned *in, unsigned *partials,
                                            unsigned *counter, unsigned *result, unsigned n)
{
    __shared__ unsigned s[BS];
    __shared__ bool is_last;
    unsigned tid = threadIdx.x;
    unsigned acc = 0;
    for (unsigned i = blockIdx.x * BS + tid; i < n; i += gridDim.x * BS)
        acc += in[i] * (i | 1u);
    s[tid] = acc;
    __syncthreads();
    for (unsigned st = BS / 2; st > 0; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid == 0) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(counter, gridDim.x);
        is_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last) {
        volatile unsigned *vp = partials;
        unsigned t = 0;
        for (unsigned b = tid; b < gridDim.x; b += BS)
            t = t * 31u + vp[b];
        s[tid] = t;
        __syncthreads();
        if (tid == 0) {
            unsigned total = 0, mix = 0;
            for (unsigned b = 0; b < gridDim.x; ++b) {
                total += vp[b];
                mix = mix * 7u + vp[b];
            }
            result[0] = total;
            result[1] = mix;
            result[2] = s[1] ^ s[gridDim.x - 1];
        }
    }
}
