// corpus-archs: sm_90a
// Exercises: Hopper warpgroup MMA through inline PTX (sm_90a only): wgmma.fence,
// wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 with both operands read from shared memory
// through 64-bit matrix descriptors (no swizzle; K-major core matrices of 8 rows x 16 bytes,
// leading-dimension offset = K-direction stride, stride offset = M/N-direction stride), the
// scale-d predicate (first step overwrites, second accumulates), wgmma.commit_group /
// wait_group, fence.proxy.async.shared::cta between generic-proxy smem stores and the async
// proxy. One 64x8 output tile per CTA of 128 threads (one warpgroup). Tolerance: accumulation.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned long long smem_desc(unsigned addr, unsigned lbo, unsigned sbo)
{
    return (unsigned long long)((addr & 0x3ffffu) >> 4) |
           ((unsigned long long)((lbo & 0x3ffffu) >> 4) << 16) |
           ((unsigned long long)((sbo & 0x3ffffu) >> 4) << 32);
}

// A: per CTA 64x32 row-major f16; Bt: per CTA 8x32 row-major f16 (B = 32x8, K-major);
// C: per CTA 64x8 row-major f32.
extern "C" __global__ void tc_wgmma(const __half *A, const __half *Bt, float *C)
{
    // A core matrix (mb, kb) at kb*1024 + mb*128 bytes; B core matrix kb at kb*128 bytes.
    __shared__ __align__(128) __half sA[64 * 32];
    __shared__ __align__(128) __half sB[8 * 32];
    int tid = threadIdx.x;
    const __half *Ab = A + blockIdx.x * 64 * 32;
    const __half *Bb = Bt + blockIdx.x * 8 * 32;
    for (int e = tid; e < 64 * 32; e += 128) {
        int m = e >> 5, k = e & 31;
        sA[((k >> 3) * 1024 + (m >> 3) * 128 + (m & 7) * 16 + (k & 7) * 2) >> 1] = Ab[e];
    }
    for (int e = tid; e < 8 * 32; e += 128) {
        int n = e >> 5, k = e & 31;
        sB[((k >> 3) * 128 + n * 16 + (k & 7) * 2) >> 1] = Bb[e];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    unsigned a_base = (unsigned)__cvta_generic_to_shared(sA);
    unsigned b_base = (unsigned)__cvta_generic_to_shared(sB);
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        unsigned long long da = smem_desc(a_base + s * 2048, 1024, 128);
        unsigned long long db = smem_desc(b_base + s * 256, 128, 1024);
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                     "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                     "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n\t}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "l"(da), "l"(db), "r"(s)
                     : "memory");
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");

    int warp = tid >> 5, lane = tid & 31;
    int row = warp * 16 + (lane >> 2), col = (lane & 3) * 2;
    float *Cb = C + blockIdx.x * 64 * 8;
    Cb[row * 8 + col] = d0;
    Cb[row * 8 + col + 1] = d1;
    Cb[(row + 8) * 8 + col] = d2;
    Cb[(row + 8) * 8 + col + 1] = d3;
}
