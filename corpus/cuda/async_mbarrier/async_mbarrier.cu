// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: a plain mbarrier used as a split arrive/wait CTA barrier (sm_80+ forms):
// mbarrier.init.shared.b64 with the thread count, mbarrier.arrive.shared.b64 returning a state
// token, a spin on mbarrier.test_wait.shared.b64 with that token, independent work between
// arrive and wait, three rounds reusing the barrier (phase flips), mbarrier.inval at the end.
#define BS 128

__device__ __forceinline__ unsigned long long mbar_arrive(unsigned bar)
{
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(bar) : "memory");
    return st;
}

__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned long long st)
{
    unsigned ok;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok)
                     : "r"(bar), "l"(st)
                     : "memory");
    } while (!ok);
}

extern "C" __global__ void async_mbarrier(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned s[2][BS];
    __shared__ __align__(8) unsigned long long mbar;
    unsigned tid = threadIdx.x;
    unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
    if (tid == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(BS) : "memory");
    __syncthreads();

    unsigned i = blockIdx.x * BS + tid;
    unsigned v = i < n ? in[i] : 0u;
    unsigned local = 0;
    for (int round = 0; round < 3; ++round) {
        s[round & 1][tid] = v;
        unsigned long long st = mbar_arrive(bar);
        local = local * 33u + (v >> (round * 5));   // overlapped independent work
        mbar_wait(bar, st);
        v = v + s[round & 1][(tid + 1 + round * 7) % BS] * (unsigned)(round + 1);
    }
    if (i < n)
        out[i] = v ^ local;
    __syncthreads();
    if (tid == 0)
        asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(bar) : "memory");
}
