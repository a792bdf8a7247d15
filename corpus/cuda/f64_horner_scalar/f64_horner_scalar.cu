// f64_horner_scalar: f64 scalar parameters (ld.param.f64), fma.rn.f64 chains with 64-bit
// immediates (Horner evaluation), a loop-carried Kahan-style compensated sum (add/sub ordering must
// not be reassociated), and f64 mixed with f32 (cvt.f64.f32 / cvt.rn.f32.f64).
extern "C" __global__ void f64_horner_scalar(double scale, double offset, const double* x, const float* y, double* out, float* outf, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double t = x[i];
        double p = 1.0 / 5040.0;
        p = fma(p, t, 1.0 / 720.0);
        p = fma(p, t, 1.0 / 120.0);
        p = fma(p, t, 1.0 / 24.0);
        p = fma(p, t, 1.0 / 6.0);
        p = fma(p, t, 0.5);
        p = fma(p, t, 1.0);
        p = fma(p, t, 1.0);
        double sum = 0.0, comp = 0.0;
        for (int k = 1; k <= 8; ++k) {
            double term = scale * t / (double)k + offset;   // IEEE division by a loop value
            double yk = term - comp;
            double s = sum + yk;
            comp = (s - sum) - yk;
            sum = s;
        }
        out[2 * i] = p;
        out[2 * i + 1] = sum;
        outf[i] = (float)(p * (double)y[i]);
    }
}
