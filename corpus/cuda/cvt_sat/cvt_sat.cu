// cvt_sat: saturating conversions: __saturatef (cvt.sat.f32.f32 / FMUL.SAT-style clamp to [0,1],
// NaN -> 0), add.sat.f32 / mul.sat.f32 / fma.rn.sat.f32 via inline PTX, cvt.rni.sat.s8.f32 and
// cvt.rzi.sat.u16.f32 (float -> narrow int), cvt.rni.sat.f32.f32, and the explicit .sat on
// float -> s32/u32 conversions (cvt.rpi.sat.s32.f32, cvt.rmi.sat.u32.f32).
extern "C" __global__ void cvt_sat(const float* a, const float* b, float* outf, int* outi, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float* o = outf + 6 * i;
        o[0] = __saturatef(x);
        float r;
        asm("cvt.sat.f32.f32 %0, %1;" : "=f"(r) : "f"(y)); o[1] = r;
        asm("add.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[2] = r;
        asm("mul.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[3] = r;
        asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(0.25f)); o[4] = r;
        asm("cvt.rni.sat.f32.f32 %0, %1;" : "=f"(r) : "f"(x * 0.5f)); o[5] = r;
        int* q = outi + 4 * i;
        int t;
        asm("{ .reg .s8 s; cvt.rni.sat.s8.f32 s, %1; cvt.s32.s8 %0, s; }" : "=r"(t) : "f"(x)); q[0] = t;
        asm("{ .reg .u16 s; cvt.rzi.sat.u16.f32 s, %1; cvt.u32.u16 %0, s; }" : "=r"(t) : "f"(y * 1000.0f)); q[1] = t;
        asm("cvt.rpi.sat.s32.f32 %0, %1;" : "=r"(t) : "f"(y)); q[2] = t;
        asm("cvt.rmi.sat.u32.f32 %0, %1;" : "=r"(t) : "f"(x)); q[3] = t;
    }
}
