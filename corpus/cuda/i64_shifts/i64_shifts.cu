// i64_shifts: 64-bit shifts by variable amounts (shl.b64, shr.u64, shr.s64 -> SHF.L/R.U64/S64 pairs
// on 32-bit halves), 64-bit rotates written as shift-or (recognised as funnel shifts), shifts by
// amounts >= 64 through inline PTX (PTX clamps the amount: result 0 or sign fill), and 32-bit
// shifts of 64-bit values by immediates (mov.b64 split/pack).
extern "C" __global__ void i64_shifts(const unsigned long long* a, const unsigned* s, unsigned long long* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = a[i];
        long long sx = (long long)x;
        unsigned raw = s[i];
        unsigned k = raw & 63u;
        unsigned long long* o = out + 10 * i;
        o[0] = x << k;
        o[1] = x >> k;
        o[2] = (unsigned long long)(sx >> k);
        o[3] = (x << k) | (x >> ((64u - k) & 63u));        // rotate left (k == 0 handled by masking)
        o[4] = (x >> k) | (x << ((64u - k) & 63u));        // rotate right
        unsigned long long r0, r1, r2;
        asm("shl.b64 %0, %1, %2;" : "=l"(r0) : "l"(x), "r"(raw));   // raw may exceed 63
        asm("shr.u64 %0, %1, %2;" : "=l"(r1) : "l"(x), "r"(raw));
        asm("shr.s64 %0, %1, %2;" : "=l"(r2) : "l"(x), "r"(raw));
        o[5] = r0;
        o[6] = r1;
        o[7] = r2;
        o[8] = (x << 32) | (x >> 32);
        o[9] = (unsigned long long)(sx >> 40) + (x << 7);
    }
}
