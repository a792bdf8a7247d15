// Exercises: a bitonic sort of 512 keys per CTA in shared memory (2 keys per thread), nested
// loops over stage/step with a __syncthreads per step, compare-exchange with data-dependent
// direction, padding of the partial last segment with 0xffffffff sentinels.
#define BS 256
#define SEG (2 * BS)

extern "C" __global__ void algo_bitonic_sort(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned s[SEG];
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * SEG;
    for (unsigned k = tid; k < SEG; k += BS)
        s[k] = base + k < n ? in[base + k] : 0xffffffffu;
    __syncthreads();
    for (unsigned size = 2; size <= SEG; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            unsigned lo = 2 * tid - (tid & (stride - 1));
            unsigned hi = lo + stride;
            bool up = (lo & size) == 0;
            unsigned a = s[lo], b = s[hi];
            if ((a > b) == up) {
                s[lo] = b;
                s[hi] = a;
            }
            __syncthreads();
        }
    }
    for (unsigned k = tid; k < SEG; k += BS)
        if (base + k < n)
            out[base + k] = s[k];
}
