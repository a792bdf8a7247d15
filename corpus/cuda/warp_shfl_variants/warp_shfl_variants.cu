// Exercises: shfl.sync.idx/up/down/bfly on 32-bit ints, floats, 64-bit ints and doubles (split
// into two shuffles), sub-warp widths (c operand of shfl: width 16 and 8), runtime lane/delta
// operands, out-of-range up/down shifts returning the caller's own value.
extern "C" __global__ void warp_shfl_variants(const unsigned *ai, const float *af, const double *ad,
                                              unsigned *oi, float *of, double *od, unsigned n, int k)
{
    const unsigned F = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned x = i < n ? ai[i] : 0u;
    float f = i < n ? af[i] : 0.0f;
    double d = i < n ? ad[i] : 0.0;
    unsigned long long q = ((unsigned long long)x << 32) | (x * 0x9e3779b9u);

    unsigned r0 = __shfl_sync(F, x, (lane * 7 + k) & 31);
    unsigned r1 = __shfl_up_sync(F, x, 3);
    unsigned r2 = __shfl_down_sync(F, x, 5);
    unsigned r3 = __shfl_xor_sync(F, x, 0x11);
    unsigned r4 = __shfl_sync(F, x, k, 16);
    unsigned r5 = __shfl_up_sync(F, x, 2, 8);
    unsigned r6 = __shfl_down_sync(F, x, k & 7, 8);
    unsigned long long q1 = __shfl_xor_sync(F, q, 6);

    float g0 = __shfl_sync(F, f, 31 - lane);
    float g1 = __shfl_xor_sync(F, f, 1);
    float g2 = __shfl_down_sync(F, f, 1, 16);

    double e0 = __shfl_sync(F, d, (lane + k) & 31);
    double e1 = __shfl_up_sync(F, d, 1);
    double e2 = __shfl_xor_sync(F, d, 16);

    if (i < n) {
        unsigned *o = oi + i * 9;
        o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; o[6] = r6;
        o[7] = (unsigned)q1; o[8] = (unsigned)(q1 >> 32);
        of[i * 3 + 0] = g0;
        of[i * 3 + 1] = g1;
        of[i * 3 + 2] = g2;
        od[i * 3 + 0] = e0;
        od[i * 3 + 1] = e1;
        od[i * 3 + 2] = e2;
    }
}
