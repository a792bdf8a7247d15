// corpus-archs: sm_90 sm_100 sm_120
// Exercises: bulk asynchronous copies global -> shared (TMA without tensor maps) in inline PTX:
// mbarrier.init.shared::cta.b64, fence.mbarrier_init, mbarrier.arrive.expect_tx,
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, a spin on
// mbarrier.try_wait.parity.shared::cta.b64 over two phases (parity 0 then 1, the barrier being
// reused for a second copy), mbarrier.inval before exit.
#define WORDS 1024   // 4 KB per copy

__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
    unsigned ok;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!ok);
}

__device__ __forceinline__ void bulk_load(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("{\n\t.reg .b64 st;\n\t"
                 "mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}"
                 :
                 : "r"(bar), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :
                 : "r"(dst), "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

extern "C" __global__ void async_bulk_mbarrier(const unsigned *in, unsigned *out)
{
    __shared__ __align__(128) unsigned buf[WORDS];
    __shared__ __align__(8) unsigned long long mbar;
    unsigned tid = threadIdx.x;
    unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
    unsigned dst = (unsigned)__cvta_generic_to_shared(buf);
    const unsigned *src = in + blockIdx.x * 2 * WORDS;

    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    // Phase 0: first 4 KB.
    if (tid == 0)
        bulk_load(dst, src, WORDS * 4, bar);
    mbar_wait(bar, 0);
    unsigned acc = 0;
    for (unsigned k = tid; k < WORDS; k += blockDim.x)
        acc += buf[k] * (k + 1u);
    unsigned first = buf[(tid * 37u) % WORDS];
    __syncthreads();   // everyone is done reading buf before it is overwritten

    // Phase 1: second 4 KB into the same buffer, same barrier.
    if (tid == 0)
        bulk_load(dst, src + WORDS, WORDS * 4, bar);
    mbar_wait(bar, 1);
    for (unsigned k = tid; k < WORDS; k += blockDim.x)
        acc ^= buf[k] + k;
    out[blockIdx.x * blockDim.x + tid] = acc;
    out[gridDim.x * blockDim.x + blockIdx.x * blockDim.x + tid] = first + buf[(tid * 53u) % WORDS];
    __syncthreads();
    if (tid == 0)
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
