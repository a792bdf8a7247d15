// i64_arith: 64-bit integer add/sub/mul (add.s64 -> IADD3 with carry pairs, mul.lo.s64 -> IMAD.WIDE
// + IMAD.HI combos), mad.lo.s64, mul.hi.u64 (__umul64hi) and mul.hi.s64 (__mul64hi), 64-bit
// min/max (llmin/llmax/ullmin/ullmax), abs (llabs of a clamped value; raw abs.s64 via inline PTX,
// which wraps for LLONG_MIN), negation and multiplication by 64-bit immediates. Arithmetic is done
// on unsigned long long so wrap-around is defined.
extern "C" __global__ void i64_arith(const long long* a, const long long* b, const unsigned long long* c, unsigned long long* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long sx = a[i], sy = b[i];
        unsigned long long x = (unsigned long long)sx, y = (unsigned long long)sy, z = c[i];
        unsigned long long* o = out + 13 * i;
        o[0]  = x + y;
        o[1]  = x - y;
        o[2]  = x * y;
        o[3]  = x * y + z;
        o[4]  = __umul64hi(x, y);
        o[5]  = (unsigned long long)__mul64hi(sx, sy);
        o[6]  = 0ull - z;
        o[7]  = x * 0x9e3779b97f4a7c15ull + 0x0123456789abcdefull;
        o[8]  = (unsigned long long)llmin(sx, sy);
        o[9]  = (unsigned long long)llmax(sx, (long long)z);
        o[10] = ullmin(x, z) ^ ullmax(y, z);
        o[11] = (unsigned long long)llabs(llmax(sy, -9223372036854775807LL));   // llabs(LLONG_MIN) is UB
        long long ab;
        asm("abs.s64 %0, %1;" : "=l"(ab) : "l"(sx));          // abs.s64 of LLONG_MIN wraps
        o[12] = (unsigned long long)ab;
    }
}
