// cvt_f2ll_round: float and double -> 64-bit and double -> 32-bit integer conversions in all
// rounding modes: cvt.{rni,rzi,rpi,rmi}.s64.f32 (__float2ll_*), .u64.f32 (__float2ull_*),
// .s64.f64 (__double2ll_*), .u64.f64 (__double2ull_*), .s32.f64 (__double2int_*) and .u32.f64
// (__double2uint_*), with saturation of out-of-range values and NaN -> 0 (NaN -> 0x8000.. for s64).
extern "C" __global__ void cvt_f2ll_round(const float* a, const double* b, long long* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        double d = b[i];
        float xs = x * 1.0e6f;
        double ds = d * 3.0e9;
        long long* o = out + 20 * i;
        o[0]  = __float2ll_rn(x);
        o[1]  = __float2ll_rz(xs);
        o[2]  = __float2ll_ru(xs);
        o[3]  = __float2ll_rd(xs);
        o[4]  = (long long)__float2ull_rn(xs);
        o[5]  = (long long)__float2ull_rz(x);
        o[6]  = (long long)__float2ull_ru(xs);
        o[7]  = (long long)__float2ull_rd(xs);
        o[8]  = __double2ll_rn(d);
        o[9]  = __double2ll_rz(ds);
        o[10] = __double2ll_ru(ds);
        o[11] = __double2ll_rd(ds);
        o[12] = (long long)__double2ull_rn(ds);
        o[13] = (long long)__double2ull_rz(d);
        o[14] = __double2int_rn(ds);
        o[15] = __double2int_rz(ds);
        o[16] = __double2int_ru(d);
        o[17] = __double2int_rd(ds);
        o[18] = (long long)__double2uint_rn(ds);
        o[19] = (long long)__double2uint_rd(ds);
    }
}
