// math_fast_intrinsics: hardware-approximate (MUFU) single-precision intrinsics as used by
// -use_fast_math: __sinf/__cosf (sin.approx.f32 / cos.approx.f32), __expf (ex2.approx after a mul
// by log2 e), exp2f (ex2.approx.f32), __logf/__log2f (lg2.approx.f32), __powf, __fdividef
// (div.approx.f32), rsqrtf (rsqrt.approx.f32), __sincosf, __log10f.
// Inputs are random in moderate ranges; every output buffer carries a tolerance.
extern "C" __global__ void math_fast_intrinsics(const float* a, const float* b, float* trig, float* expo, float* logs, float* divs, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];            // [-8, 8]
        float p = b[i];            // (0.01, 1000]
        trig[3 * i + 0] = __sinf(x);
        trig[3 * i + 1] = __cosf(x);
        float s, c;
        __sincosf(x * 0.5f, &s, &c);
        trig[3 * i + 2] = s * c;
        expo[2 * i + 0] = __expf(x);
        expo[2 * i + 1] = exp2f(x * 1.5f);
        logs[2 * i + 0] = __logf(p);
        logs[2 * i + 1] = __log2f(p) + __log10f(p);
        divs[3 * i + 0] = __fdividef(x, p);
        divs[3 * i + 1] = rsqrtf(p);
        divs[3 * i + 2] = __powf(p, x * 0.25f);
    }
}
