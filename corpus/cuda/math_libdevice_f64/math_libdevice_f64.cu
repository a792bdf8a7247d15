// math_libdevice_f64: full-accuracy double-precision libdevice functions. Bit-exact buffer: sin,
// cos (Payne-Hanek for huge arguments), exp (pure fma polynomial + scaling by integer exponent
// manipulation), atan2. Toleranced buffer (expansions use rcp.approx.ftz.f64 / ex2.approx
// seeds): log, pow, tanh. Edge inputs: ±0, ±inf, NaN, denormals, DBL_MAX.
extern "C" __global__ void math_libdevice_f64(const double* a, const double* b, double* exact, double* approx, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i], y = b[i];
        double* e = exact + 4 * i;
        e[0] = sin(x);
        e[1] = cos(y);
        e[2] = exp(y);
        e[3] = atan2(y, x);
        double* p = approx + 3 * i;
        p[0] = log(x);
        p[1] = pow(fabs(y), x * 0.125);
        p[2] = tanh(y);
    }
}
