// Exercises: a 256-bin byte histogram: per-CTA privatised bins in shared memory (shared
// atom/red.add), zero-initialisation and flush loops strided by blockDim, a grid-stride input
// loop reading u8 through 32-bit words (with a byte tail), global atomicAdd of the per-CTA bins.
#define BINS 256

extern "C" __global__ void algo_histogram(const unsigned char *data, unsigned *hist, unsigned n)
{
    __shared__ unsigned sh[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        sh[b] = 0;
    __syncthreads();
    unsigned nw = n / 4;
    const unsigned *words = reinterpret_cast<const unsigned *>(data);
    for (unsigned w = blockIdx.x * blockDim.x + threadIdx.x; w < nw; w += gridDim.x * blockDim.x) {
        unsigned v = words[w];
        atomicAdd(&sh[v & 0xffu], 1u);
        atomicAdd(&sh[(v >> 8) & 0xffu], 1u);
        atomicAdd(&sh[(v >> 16) & 0xffu], 1u);
        atomicAdd(&sh[v >> 24], 1u);
    }
    if (blockIdx.x == 0)
        for (unsigned k = nw * 4 + threadIdx.x; k < n; k += blockDim.x)
            atomicAdd(&sh[data[k]], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        if (sh[b])
            atomicAdd(&hist[b], sh[b]);
}
