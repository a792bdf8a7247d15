// cvt_i2f_round: integer -> f32 conversions in all rounding modes (inexact for |x| > 2^24):
// cvt.{rn,rz,rp,rm}.f32.s32 (__int2float_*), .f32.u32 (__uint2float_*), .f32.s64 (__ll2float_*),
// .f32.u64 (__ull2float_*), and s16/u8 -> f32 via inline PTX cvt.rn.f32.s16 / cvt.rn.f32.u8.
extern "C" __global__ void cvt_i2f_round(const int* a, const long long* b, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        long long y = b[i];
        float* o = out + 18 * i;
        o[0]  = __int2float_rn(x);
        o[1]  = __int2float_rz(x);
        o[2]  = __int2float_ru(x);
        o[3]  = __int2float_rd(x);
        o[4]  = __uint2float_rn((unsigned)x);
        o[5]  = __uint2float_rz((unsigned)x);
        o[6]  = __uint2float_ru((unsigned)x);
        o[7]  = __uint2float_rd((unsigned)x);
        o[8]  = __ll2float_rn(y);
        o[9]  = __ll2float_rz(y);
        o[10] = __ll2float_ru(y);
        o[11] = __ll2float_rd(y);
        o[12] = __ull2float_rn((unsigned long long)y);
        o[13] = __ull2float_rz((unsigned long long)y);
        o[14] = __ull2float_ru((unsigned long long)y);
        o[15] = __ull2float_rd((unsigned long long)y);
        float f;
        short h = (short)x;
        asm("cvt.rn.f32.s16 %0, %1;" : "=f"(f) : "h"(h)); o[16] = f;
        asm("{ .reg .u8 t; cvt.u8.u32 t, %1; cvt.rn.f32.u8 %0, t; }" : "=f"(f) : "r"((unsigned)x)); o[17] = f;
    }
}
