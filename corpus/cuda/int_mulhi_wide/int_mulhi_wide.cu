// int_mulhi_wide: high halves and widening products of 32-bit integers: mul.hi.u32 (__umulhi),
// mul.hi.s32 (__mulhi), mul.wide.u32/mul.wide.s32 (64-bit product of 32-bit values),
// mad.wide.u32/s32 (widened product plus a 64-bit addend), and 24-bit multiplies
// (mul24.lo via __mul24/__umul24).
extern "C" __global__ void int_mulhi_wide(const int* a, const int* b, const long long* c, unsigned* out32, unsigned long long* out64, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        long long z = c[i];
        out32[4 * i + 0] = __umulhi((unsigned)x, (unsigned)y);
        out32[4 * i + 1] = (unsigned)__mulhi(x, y);
        out32[4 * i + 2] = (unsigned)__mul24(x, y);
        out32[4 * i + 3] = __umul24((unsigned)x, (unsigned)y);
        out64[4 * i + 0] = (unsigned long long)(unsigned)x * (unsigned)y;
        out64[4 * i + 1] = (unsigned long long)((long long)x * (long long)y);
        out64[4 * i + 2] = (unsigned long long)(unsigned)x * (unsigned)y + (unsigned long long)z;
        out64[4 * i + 3] = (unsigned long long)((long long)x * (long long)y) + (unsigned long long)z;
    }
}
