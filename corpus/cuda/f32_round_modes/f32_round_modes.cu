// f32_round_modes: explicit IEEE rounding modes on single precision:
// add.{rn,rz,rm,rp}.f32 (__fadd_r*), sub via __fsub_r*, mul.{rn,rz,rm,rp}.f32 (__fmul_r*),
// fma.{rn,rz,rm,rp}.f32 (__fmaf_r*). Edge inputs exercise overflow to inf vs FLT_MAX under
// directed rounding, signed zeros of exact cancellation under rm, and denormal results.
extern "C" __global__ void f32_round_modes(const float* a, const float* b, const float* c, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        float* o = out + 16 * i;
        o[0]  = __fadd_rn(x, y);
        o[1]  = __fadd_rz(x, y);
        o[2]  = __fadd_ru(x, y);
        o[3]  = __fadd_rd(x, y);
        o[4]  = __fsub_rn(x, z);
        o[5]  = __fsub_rz(x, z);
        o[6]  = __fsub_ru(x, z);
        o[7]  = __fsub_rd(x, z);
        o[8]  = __fmul_rn(x, y);
        o[9]  = __fmul_rz(x, y);
        o[10] = __fmul_ru(x, y);
        o[11] = __fmul_rd(x, y);
        o[12] = __fmaf_rn(x, y, z);
        o[13] = __fmaf_rz(x, y, z);
        o[14] = __fmaf_ru(x, y, z);
        o[15] = __fmaf_rd(x, y, z);
    }
}
