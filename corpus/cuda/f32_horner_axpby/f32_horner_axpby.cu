// f32_horner_axpby: f32 scalar kernel parameters (ld.param.f32) combined with a dependent fma chain
// (Horner evaluation of a degree-7 polynomial with immediate coefficients) and a loop-carried
// axpby accumulation; exercises fma with immediate operands and register reuse across iterations.
extern "C" __global__ void f32_horner_axpby(float alpha, float beta, const float* x, const float* y, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = x[i];
        float p = 0.0078125f;
        p = fmaf(p, t, -0.03125f);
        p = fmaf(p, t, 0.125f);
        p = fmaf(p, t, -0.25f);
        p = fmaf(p, t, 0.5f);
        p = fmaf(p, t, -1.0f);
        p = fmaf(p, t, 1.5f);
        p = fmaf(p, t, 3.0f);
        float acc = y[i];
        for (int k = 0; k < 5; ++k)
            acc = alpha * acc + beta * (t + (float)k);
        out[2 * i] = p;
        out[2 * i + 1] = acc;
    }
}
