// math_div_sqrt_f32: IEEE-exact single-precision division, reciprocal and square root:
// div.rn.f32 (x/y: MUFU.RCP + Newton fma + slow-path CALL for denormal/huge cases),
// __fdiv_rn/rz/ru/rd (div.{rn,rz,rp,rm}.f32), sqrt.rn.f32 (sqrtf: MUFU.RSQ + fixup + slow path),
// __fsqrt_rz/ru/rd, rcp.rn/rz/rp/rm.f32 (__frcp_rn/rz/ru/rd). All exact, so bit-compared;
// edge inputs exercise 0/0, inf/inf, x/0, denormal quotients, sqrt(-x), sqrt(-0).
extern "C" __global__ void math_div_sqrt_f32(const float* a, const float* b, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float* o = out + 14 * i;
        o[0]  = x / y;
        o[1]  = __fdiv_rn(y, x);
        o[2]  = __fdiv_rz(x, y);
        o[3]  = __fdiv_ru(x, y);
        o[4]  = __fdiv_rd(x, y);
        o[5]  = sqrtf(x);
        o[6]  = __fsqrt_rn(y);
        o[7]  = __fsqrt_rz(x);
        o[8]  = __fsqrt_ru(y);
        o[9]  = __fsqrt_rd(x);
        o[10] = __frcp_rn(x);
        o[11] = __frcp_rz(y);
        o[12] = __frcp_ru(x);
        o[13] = __frcp_rd(y);
    }
}
