// f32_minmax_sign: min.f32/max.f32 (fminf/fmaxf: a NaN operand yields the other operand),
// min/max with NaN propagation via inline PTX min.NaN.f32/max.NaN.f32 (sm_80+ only, so guarded by
// __CUDA_ARCH__), abs.f32 (fabsf), copysignf (lop3/bit ops on the sign), negation, and the
// ±0 ordering of min/max.
extern "C" __global__ void f32_minmax_sign(const float* a, const float* b, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float* o = out + 8 * i;
        o[0] = fminf(x, y);
        o[1] = fmaxf(x, y);
        o[2] = fabsf(x);
        o[3] = copysignf(x, y);
        o[4] = -fabsf(y);
        o[5] = fmaxf(fminf(x, 1.0f), -1.0f);    // clamp to [-1,1]
#if __CUDA_ARCH__ >= 800
        float mn, mx;
        asm("min.NaN.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y));
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(mx) : "f"(x), "f"(y));
        o[6] = mn;
        o[7] = mx;
#else
        o[6] = (x != x || y != y) ? __int_as_float(0x7fffffff) : fminf(x, y);
        o[7] = (x != x || y != y) ? __int_as_float(0x7fffffff) : fmaxf(x, y);
#endif
    }
}
