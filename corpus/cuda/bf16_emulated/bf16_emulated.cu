// bf16_emulated: bfloat16 scalar arithmetic that compiles on every arch: on sm_75 the header
// emulates it through f32 (shift widening, add/mul in f32, round-to-nearest-even narrowing with
// integer bit tricks), on sm_80+ it uses cvt.rn.bf16.f32 and fma.rn.bf16. Covers __hadd, __hsub,
// __hmul, __hdiv (div.approx.f32 with scaling, then rounding; own buffer with a tolerance), __hneg and float<->bf16 round trips.
#include <cuda_bf16.h>
extern "C" __global__ void bf16_emulated(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* out, __nv_bfloat16* quot, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 x = a[i], y = b[i];
        __nv_bfloat16* o = out + 4 * i;
        o[0] = __hadd(x, y);
        o[1] = __hsub(x, y);
        o[2] = __hmul(x, y);
        o[3] = __float2bfloat16(__bfloat162float(__hneg(x)) * 3.0f + 1.0f);
        quot[i] = __hdiv(x, y);
    }
}
