// i64_u128_carry: 128-bit arithmetic with unsigned __int128: add/sub with carry propagation
// (add.cc/addc chains, IADD3.X), the full 64x64->128 product (mul.lo.u64 + mul.hi.u64), 128-bit
// shifts by a variable amount, and 128-bit comparison; a 4-step multiply-accumulate keeps long
// carry chains live.
extern "C" __global__ void i64_u128_carry(const unsigned long long* a, const unsigned long long* b, const unsigned* s, unsigned long long* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned __int128 x = ((unsigned __int128)a[2 * i + 1] << 64) | a[2 * i];
        unsigned __int128 y = ((unsigned __int128)b[2 * i + 1] << 64) | b[2 * i];
        unsigned k = s[i] & 127u;
        unsigned __int128 r[6];
        r[0] = x + y;
        r[1] = x - y;
        r[2] = (unsigned __int128)a[2 * i] * b[2 * i];
        r[3] = x * y;                                   // low 128 bits of the 256-bit product
        r[4] = x << k;
        unsigned __int128 acc = x;
        for (int t = 0; t < 4; ++t)
            acc = acc * 0x100000001b3ull + (y >> (t * 16));
        r[5] = acc;
        unsigned long long* o = out + 13 * i;
        for (int t = 0; t < 6; ++t) {
            o[2 * t] = (unsigned long long)r[t];
            o[2 * t + 1] = (unsigned long long)(r[t] >> 64);
        }
        o[12] = (x < y ? 1ull : 0ull) | (x == y ? 2ull : 0ull) | ((x >> k) > y ? 4ull : 0ull);
    }
}
