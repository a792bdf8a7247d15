// f32_arith: basic single-precision elementwise arithmetic with default rounding:
// add.f32, sub.f32, mul.f32, fma.rn.f32 (contracted a*b+c), neg.f32, and an un-contracted
// mul+add pair (__fmul_rn/__fadd_rn) next to a contracted one. Inputs hold edge values
// (±0, ±inf, NaN, denormals, FLT_MAX) so non-ftz denormal and special-value handling is exercised.
extern "C" __global__ void f32_arith(const float* a, const float* b, const float* c, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        float* o = out + 6 * i;
        o[0] = x + y;
        o[1] = x - y;
        o[2] = x * y;
        o[3] = x * y + z;                       // contracted to fma.rn
        o[4] = __fadd_rn(__fmul_rn(x, y), z);   // not contracted: mul then add
        o[5] = -(x - z) * 0.5f + y * 3.0f;      // immediates, negation
    }
}
