// cvt_f16_bf16: narrowing f32 -> f16 in every rounding mode (cvt.{rn,rz,rp,rm}.f16.f32 via
// __float2half_rn/rz/ru/rd), f32 -> bf16 via __float2bfloat16_rn/rz/ru/rd (integer bit-trick
// emulation on sm_75; cvt.rn/rz.bf16.f32 on sm_80+; all of cvt.{rn,rz,rp,rm}.bf16.f32,
// cvt.rn.bf16.f64 and cvt.f32.bf16 on sm_90+), packed cvt.rn.f16x2.f32 (__floats2half2_rn) and
// cvt.rn.bf16x2.f32, f64 -> f16 (cvt.rn.f16.f64), and the widening f16/bf16 -> f32 conversions.
// Overflow to inf vs max-finite by mode, denormal f16 results, NaN.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void cvt_f16_bf16(const float* a, const double* b, __half* h, __nv_bfloat16* bh, float* back, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        float xs = x * 1.0e-4f;
        __half* ho = h + 8 * i;
        ho[0] = __float2half_rn(x);
        ho[1] = __float2half_rz(x);
        ho[2] = __float2half_ru(x);
        ho[3] = __float2half_rd(x);
        ho[4] = __float2half_rn(xs);
        ho[5] = __double2half(b[i]);
        __half2 p = __floats2half2_rn(x, xs);
        ho[6] = __low2half(p);
        ho[7] = __high2half(p);
        __nv_bfloat16* bo = bh + 6 * i;
        bo[0] = __float2bfloat16_rn(x);
        bo[1] = __float2bfloat16_rz(x);
        bo[2] = __float2bfloat16_ru(x);
        bo[3] = __float2bfloat16_rd(x);
        __nv_bfloat162 q = __floats2bfloat162_rn(xs, x);
        bo[4] = __low2bfloat16(q);
        bo[5] = __double2bfloat16(b[i]);
        back[2 * i] = __half2float(ho[2]) + __bfloat162float(bo[3]);
        back[2 * i + 1] = __high2float(q);
    }
}
