// cvt_i2d_round: integer -> f64 conversions: exact cvt.rn.f64.s32/.u32 (__int2double_rn,
// __uint2double_rn), and the inexact 64-bit ones in all rounding modes: cvt.{rn,rz,rp,rm}.f64.s64
// (__ll2double_*) and .f64.u64 (__ull2double_*), plus __hiloint2double / __double2hiint /
// __double2loint bit moves (mov.b64 pack/unpack).
extern "C" __global__ void cvt_i2d_round(const long long* a, const int* b, double* out, int* bits, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long x = a[i];
        int y = b[i];
        double* o = out + 11 * i;
        o[0]  = __int2double_rn(y);
        o[1]  = __uint2double_rn((unsigned)y);
        o[2]  = __ll2double_rn(x);
        o[3]  = __ll2double_rz(x);
        o[4]  = __ll2double_ru(x);
        o[5]  = __ll2double_rd(x);
        o[6]  = __ull2double_rn((unsigned long long)x);
        o[7]  = __ull2double_rz((unsigned long long)x);
        o[8]  = __ull2double_ru((unsigned long long)x);
        o[9]  = __ull2double_rd((unsigned long long)x);
        o[10] = __hiloint2double(y, (int)x);
        bits[2 * i] = __double2hiint(o[2]);
        bits[2 * i + 1] = __double2loint(o[8]);
    }
}
