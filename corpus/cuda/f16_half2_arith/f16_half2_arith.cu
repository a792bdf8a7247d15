// f16_half2_arith: packed half-precision arithmetic on __half2: add.f16x2 (__hadd2), sub.f16x2
// (__hsub2), mul.f16x2 (__hmul2), fma.rn.f16x2 (__hfma2), the .sat forms (__hadd2_sat,
// __hfma2_sat), neg.f16x2 (__hneg2), abs.f16x2 (__habs2), plus scalar __half add/mul/fma and
// __hfma_relu (sm_80+, fma.rn.relu). Edge inputs: ±0, ±inf, NaN, f16 denormals, 65504.
#include <cuda_fp16.h>
extern "C" __global__ void f16_half2_arith(const __half2* a, const __half2* b, const __half2* c, __half2* out, __half* outs, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 x = a[i], y = b[i], z = c[i];
        __half2* o = out + 8 * i;
        o[0] = __hadd2(x, y);
        o[1] = __hsub2(x, y);
        o[2] = __hmul2(x, y);
        o[3] = __hfma2(x, y, z);
        o[4] = __hadd2_sat(x, z);
        o[5] = __hfma2_sat(x, z, y);
        o[6] = __hneg2(x);
        o[7] = __habs2(y);
        __half xl = __low2half(x), yh = __high2half(y), zl = __low2half(z);
        outs[3 * i + 0] = __hadd(xl, yh);
        outs[3 * i + 1] = __hmul(xl, zl);
#if __CUDA_ARCH__ >= 800
        outs[3 * i + 2] = __hfma_relu(xl, yh, zl);
#else
        outs[3 * i + 2] = __hfma(xl, yh, zl);
#endif
    }
}
