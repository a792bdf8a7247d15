// int_arith: 32-bit integer add/sub/mul/mad (add.s32, sub.s32, mul.lo.s32, mad.lo.s32 -> IMAD),
// negation, multiplication by immediates (strength-reduced to shifts/lea/IMAD), wrap-around on
// overflow (computed on unsigned to stay UB-free) and a dot-product style mad chain.
extern "C" __global__ void int_arith(const int* a, const int* b, const unsigned* c, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = (unsigned)a[i], y = (unsigned)b[i], z = c[i];
        unsigned* o = out + 8 * i;
        o[0] = x + y;
        o[1] = x - y;
        o[2] = x * y;
        o[3] = x * y + z;
        o[4] = 0u - x;
        o[5] = x * 9u + y * 0x10001u - z * 3u;
        o[6] = (x + 0x7fffffffu) * (y | 1u);
        unsigned acc = z;
        for (unsigned k = 0; k < 4; ++k)
            acc = acc * (x + k) + (y ^ k);
        o[7] = acc;
    }
}
