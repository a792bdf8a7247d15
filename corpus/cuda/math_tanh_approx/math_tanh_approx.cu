// math_tanh_approx: MUFU-based approximate transcendental PTX instructions via inline asm:
// tanh.approx.f32 (sm_75+), tanh.approx.f16x2 and ex2.approx.f16x2 (sm_75+), ex2.approx.ftz.f32,
// lg2.approx.f32, sin/cos.approx.ftz.f32, rcp.approx.f32, rsqrt.approx.f32, sqrt.approx.f32 and
// rcp.approx.ftz.f64. Every output carries a tolerance.
extern "C" __global__ void math_tanh_approx(const float* a, const unsigned* h, float* outf, unsigned* outh, double* outd, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];                 // [-6, 6]
        float r;
        float* o = outf + 9 * i;
        asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); o[0] = r;
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[1] = r;
        asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(fabsf(x) + 0.5f)); o[2] = r;
        asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[3] = r;
        asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[4] = r;
        asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x + 7.0f)); o[5] = r;
        asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x + 7.0f)); o[6] = r;
        asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x + 7.0f)); o[7] = r;
        o[8] = tanhf(x * 0.5f) * 0.5f;  // libdevice tanhf for comparison
        unsigned hv = h[i], t2, e2;        // a packed pair of f16 values
        asm("tanh.approx.f16x2 %0, %1;" : "=r"(t2) : "r"(hv));
        asm("ex2.approx.f16x2 %0, %1;" : "=r"(e2) : "r"(hv));
        outh[2 * i] = t2;
        outh[2 * i + 1] = e2;
        double d;
        asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"((double)x + 7.0));
        outd[i] = d;
    }
}
