// cvt_f64_f32: precision conversions between f64 and f32: cvt.{rn,rz,rp,rm}.f32.f64
// (__double2float_rn/rz/ru/rd: overflow to inf vs FLT_MAX by mode, f32 denormal results, NaN
// payload quieting) and exact widening cvt.f64.f32 (denormal f32 inputs become normal f64), plus
// cvt.rni.f64.f64 after widening and a widen-multiply-narrow round trip.
extern "C" __global__ void cvt_f64_f32(const double* a, const float* b, float* outf, double* outd, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double d = a[i];
        float f = b[i];
        double ds = d * 1.0e-300;                   // lands in f32 denormal / underflow range
        float* o = outf + 9 * i;
        o[0] = __double2float_rn(d);
        o[1] = __double2float_rz(d);
        o[2] = __double2float_ru(d);
        o[3] = __double2float_rd(d);
        o[4] = __double2float_rn(ds);
        o[5] = __double2float_rz(ds);
        o[6] = __double2float_ru(ds);
        o[7] = __double2float_rd(ds);
        o[8] = (float)((double)f * 1.0000001);
        outd[2 * i] = (double)f;
        outd[2 * i + 1] = rint((double)f * 0.5);
    }
}
