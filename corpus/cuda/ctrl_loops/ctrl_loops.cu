// Exercises: a counted loop with a runtime trip count, a data-dependent loop partially unrolled
// by #pragma unroll 4 (remainder handling), a fully unrolled constant loop (funnel-shift
// rotates), a nested loop kept rolled by #pragma unroll 1 with a variable inner bound, a
// do/while with a two-condition exit.
extern "C" __global__ void ctrl_loops(const unsigned *in, unsigned *out, unsigned n, unsigned trips)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i];

    unsigned a = 0;
    for (unsigned k = 0; k < trips; ++k)
        a = a * 31u + (x >> (k & 15));

    unsigned b = 0;
#pragma unroll 4
    for (unsigned k = 0; k < (x & 63u); ++k)
        b += k * x + (b >> 3);

    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k)
        c ^= __funnelshift_l(x, x, k * 3) + (unsigned)k;

    unsigned d = 0;
#pragma unroll 1
    for (unsigned r = 0; r < 4; ++r)
#pragma unroll 1
        for (unsigned s = 0; s <= r + (x & 3u); ++s)
            d += r * 7u + s * (x >> 28);

    unsigned e = x, cnt = 0;
    do {
        e = e / 3u + 1u;
        ++cnt;
    } while (e > 10u && cnt < 40u);

    unsigned *o = out + i * 5;
    o[0] = a;
    o[1] = b;
    o[2] = c;
    o[3] = d;
    o[4] = e | (cnt << 16);
}
