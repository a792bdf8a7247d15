// bits_bfe_bfi: bit-field extract/insert: shift-and-mask extraction (recognised as bfe / SHF+LOP3),
// sign-extending field extraction ((x << a) >> b on signed), field insertion with masks, inline
// bfe.u32/bfe.s32/bfe.u64 with run-time position/length (length 0, pos >= 32 edge cases),
// bfi.b32/bfi.b64, and bmsk.clamp/bmsk.wrap (bit-mask generation, sm_70+).
extern "C" __global__ void bits_bfe_bfi(const unsigned* a, const unsigned* b, const unsigned* pl, unsigned* out, unsigned long long* out64, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i];
        unsigned p = pl[i] & 0xffu, l = (pl[i] >> 8) & 0xffu;   // raw position/length (may exceed 32)
        unsigned* o = out + 12 * i;
        o[0] = (x >> 7) & 0x1ffu;
        o[1] = (unsigned)(((int)(x << 9)) >> 23);                  // signed 9-bit field at bit 14
        o[2] = (x & ~(0xffu << 12)) | ((y & 0xffu) << 12);          // insert byte at bit 12
        o[3] = (x >> (p & 31u)) & ((1u << (l & 31u)) - 1u);
        unsigned r;
        asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(p), "r"(l)); o[4] = r;
        asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(p), "r"(l)); o[5] = r;
        asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(y), "r"(x), "r"(p), "r"(l)); o[6] = r;
        asm("bfe.u32 %0, %1, 4, 12;" : "=r"(r) : "r"(x)); o[7] = r;
        asm("bfi.b32 %0, %1, %2, 20, 8;" : "=r"(r) : "r"(y), "r"(x)); o[8] = r;
        asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(p & 63u), "r"(l & 63u)); o[9] = r;
        asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(p), "r"(l)); o[10] = r;
        o[11] = (y & 0xff00ff00u) >> 8 | (x & 0x00ff00ffu) << 8;
        unsigned long long X = ((unsigned long long)y << 32) | x, R;
        asm("bfe.u64 %0, %1, %2, %3;" : "=l"(R) : "l"(X), "r"(p), "r"(l)); out64[2 * i] = R;
        asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(R) : "l"(~X), "l"(X), "r"(p & 63u), "r"(l)); out64[2 * i + 1] = R;
    }
}
