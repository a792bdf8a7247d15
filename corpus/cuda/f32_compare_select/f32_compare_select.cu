// f32_compare_select: ordered and unordered single-precision comparisons (setp.{lt,le,gt,ge,eq,ne}
// and the unordered {ltu,geu,neu,equ,nan,num} forms produced by negated comparisons and isnan),
// packed into a bit mask (selp/or chains), and float selects (selp.f32 / fsel) on the predicates,
// including signbit() and isinf()/isfinite() classification.
extern "C" __global__ void f32_compare_select(const float* a, const float* b, unsigned* mask, float* sel, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        unsigned m = 0;
        m |= (x <  y) << 0;
        m |= (x <= y) << 1;
        m |= (x >  y) << 2;
        m |= (x >= y) << 3;
        m |= (x == y) << 4;
        m |= (x != y) << 5;
        m |= (!(x <  y)) << 6;
        m |= (!(x >= y)) << 7;
        m |= (!(x == y) && !(x != y)) << 8;   // always 0 unless NaN semantics are wrong
        m |= (isnan(x)) << 9;
        m |= (isnan(x) || isnan(y)) << 10;
        m |= (!isnan(x) && !isnan(y)) << 11;
        m |= (isinf(x)) << 12;
        m |= (isfinite(y)) << 13;
        m |= (signbit(x) ? 1u : 0u) << 14;
        m |= (x < 0.0f) << 15;
        mask[i] = m;
        sel[3 * i + 0] = x < y ? x : y;
        sel[3 * i + 1] = !(x <= y) ? x - y : y * 2.0f;
        sel[3 * i + 2] = (x == 0.0f) ? y : (x > 1.0f ? 1.0f : x);
    }
}
