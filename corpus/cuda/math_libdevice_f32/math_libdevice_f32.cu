// math_libdevice_f32: full-accuracy single-precision libdevice functions. Bit-exact buffer: sinf,
// cosf (Cody-Waite + Payne-Hanek reduction for huge arguments, a local-memory table loop),
// logf, log2f, atan2f (pure fma/div code). Toleranced buffer (their expansion uses ex2.approx or
// rcp.approx internally): expf, exp2f, tanhf, erff, powf. Edge inputs: ±0, ±inf, NaN, denormals,
// FLT_MAX (huge-argument trig reduction).
extern "C" __global__ void math_libdevice_f32(const float* a, const float* b, float* exact, float* approx, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float* e = exact + 5 * i;
        e[0] = sinf(x);
        e[1] = cosf(x);
        e[2] = logf(x);
        e[3] = log2f(y);
        e[4] = atan2f(x, y);
        float* p = approx + 5 * i;
        p[0] = expf(y);
        p[1] = exp2f(x);
        p[2] = tanhf(y);
        p[3] = erff(x);
        p[4] = powf(fabsf(y), x);
    }
}
