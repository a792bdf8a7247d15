// cvt_f16_int: half <-> integer conversions in all rounding modes: cvt.{rni,rzi,rpi,rmi}.s32.f16
// (__half2int_*), .u32.f16 (__half2uint_*), .s16.f16 (__half2short_rn), .s64.f16 (__half2ll_rz),
// and int -> half cvt.{rn,rz,rp,rm}.f16.s32 (__int2half_*), .f16.u32 (__uint2half_rn),
// .f16.s16 (__short2half_rd), .f16.u64 (__ull2half_ru) — large integers overflow to inf or
// 65504 by mode; NaN -> 0 and ±inf saturate. Also __half_as_ushort / __ushort_as_half bit moves.
#include <cuda_fp16.h>
extern "C" __global__ void cvt_f16_int(const __half* a, const int* b, int* outi, __half* outh, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half x = a[i];
        int y = b[i];
        int* o = outi + 9 * i;
        o[0] = __half2int_rn(x);
        o[1] = __half2int_rz(x);
        o[2] = __half2int_ru(x);
        o[3] = __half2int_rd(x);
        o[4] = (int)__half2uint_rn(x);
        o[5] = (int)__half2uint_rd(x);
        o[6] = (int)__half2short_rn(x);
        o[7] = (int)__half2ll_rz(x);
        o[8] = (int)__half_as_ushort(x) ^ 0x8000;
        __half* h = outh + 8 * i;
        h[0] = __int2half_rn(y);
        h[1] = __int2half_rz(y);
        h[2] = __int2half_ru(y);
        h[3] = __int2half_rd(y);
        h[4] = __uint2half_rn((unsigned)y);
        h[5] = __short2half_rd((short)y);
        h[6] = __ull2half_ru((unsigned long long)(long long)y);
        h[7] = __ushort_as_half((unsigned short)(y >> 8));
    }
}
