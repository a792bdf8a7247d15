// f64_round_modes: double-precision add/sub/mul/fma with all four IEEE rounding modes:
// add.{rn,rz,rm,rp}.f64 (__dadd_r*), sub (__dsub_r*), mul.{rn,rz,rm,rp}.f64 (__dmul_r*),
// fma.{rn,rz,rm,rp}.f64 (__fma_r*), plus default a+b, a*b+c contraction. Edge inputs cover
// DBL_MAX overflow under directed rounding, signed zeros, denormals, inf and NaN.
extern "C" __global__ void f64_round_modes(const double* a, const double* b, const double* c, double* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i], y = b[i], z = c[i];
        double* o = out + 18 * i;
        o[0]  = __dadd_rn(x, y);
        o[1]  = __dadd_rz(x, y);
        o[2]  = __dadd_ru(x, y);
        o[3]  = __dadd_rd(x, y);
        o[4]  = __dsub_rn(x, z);
        o[5]  = __dsub_rz(x, z);
        o[6]  = __dsub_ru(x, z);
        o[7]  = __dsub_rd(x, z);
        o[8]  = __dmul_rn(x, y);
        o[9]  = __dmul_rz(x, y);
        o[10] = __dmul_ru(x, y);
        o[11] = __dmul_rd(x, y);
        o[12] = __fma_rn(x, y, z);
        o[13] = __fma_rz(x, y, z);
        o[14] = __fma_ru(x, y, z);
        o[15] = __fma_rd(x, y, z);
        o[16] = x * y + z;
        o[17] = -x - 0.1;
    }
}
