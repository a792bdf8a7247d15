// i64_divrem: 64-bit signed and unsigned division/remainder by run-time divisors (div.u64/rem.u64/
// div.s64/rem.s64: ptxas emits a fast path when both operands fit 32 bits and a CALL to the 64-bit
// division subroutine otherwise), and by constants (/10, /1000000007, %3, signed /-9 and /16 ->
// 64-bit mul.hi sequences). Zero divisors and LLONG_MIN / -1 are replaced by defined values.
extern "C" __global__ void i64_divrem(const long long* a, const long long* b, long long* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long x = a[i], y = b[i];
        unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
        long long* o = out + 10 * i;
        if (uy != 0) {
            o[0] = (long long)(ux / uy);
            o[1] = (long long)(ux % uy);
        } else {
            o[0] = -1;
            o[1] = x;
        }
        bool bad = (y == 0) || (x == (-9223372036854775807LL - 1) && y == -1);
        o[2] = bad ? 0x5a5a5a5a5a5a5a5aLL : x / y;
        o[3] = bad ? 0x3c3c3c3c3c3c3c3cLL : x % y;
        unsigned long long small = (uy & 0xffffull) + 1ull;       // 32-bit fast path
        o[4] = (long long)(ux / small);
        o[5] = (long long)(ux / 10ull);
        o[6] = (long long)(ux % 1000000007ull);
        o[7] = (long long)(ux % 3ull);
        o[8] = x / -9;
        o[9] = x / 16 + x % 16;
    }
}
