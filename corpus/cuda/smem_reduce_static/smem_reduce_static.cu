// Exercises: a static __shared__ array, st.shared/ld.shared, bar.sync (__syncthreads) in a
// strided tree reduction, a partial tail CTA (n not a multiple of the block), per-CTA results.
#define BS 256

extern "C" __global__ void smem_reduce_static(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned s[BS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BS + tid;
    s[tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = BS / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
