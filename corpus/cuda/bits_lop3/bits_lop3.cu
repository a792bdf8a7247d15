// bits_lop3: three-input boolean functions that ptxas folds into LOP3.LUT: select (a&b)|(~a&c),
// majority, xor3, parity-style chains, and-not/or-not combos, plus explicit lop3.b32 with several
// immediate truth tables via inline PTX (sm_50+), and 64-bit variants (two LOP3s per op).
extern "C" __global__ void bits_lop3(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, unsigned long long* out64, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i], z = c[i];
        unsigned* o = out + 12 * i;
        o[0] = (x & y) | (~x & z);                  // choose (SHA-2 Ch)
        o[1] = (x & y) | (x & z) | (y & z);         // majority (SHA-2 Maj)
        o[2] = x ^ y ^ z;
        o[3] = ~(x | y) & z;
        o[4] = (x ^ y) & ~z;
        o[5] = y ^ (x | ~z);                        // MD5 I
        o[6] = ~(x ^ y ^ z ^ (x & y));
        unsigned r;
        asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[7] = r;
        asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[8] = r;
        asm("lop3.b32 %0, %1, %2, %3, 0x01;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[9] = r;
        asm("lop3.b32 %0, %1, %2, %3, 0x6a;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[10] = r;
        o[11] = ((x << 3) ^ (y >> 5)) & (z | 0x0f0f0f0fu);
        unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)z << 29) ^ x;
        out64[i] = (X & Y) ^ (~X & (Y >> 7)) ^ 0xfedcba9876543210ull;
    }
}
