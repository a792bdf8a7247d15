// bits_prmt: byte permutes: prmt.b32 (__byte_perm) with immediate selectors 0x3210 (identity),
// 0x0123 (byte swap), 0x5410/0x7632 (halfword packs), 0x4444 (broadcast), 0x8880 / 0x9910
// (sign-replicating selector bits), a run-time selector, and the special modes .f4e, .b4e, .rc8,
// .ecl, .ecr, .rc16 via inline PTX.
extern "C" __global__ void bits_prmt(const unsigned* a, const unsigned* b, const unsigned* sel, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i], s = sel[i];
        unsigned* o = out + 14 * i;
        o[0] = __byte_perm(x, y, 0x3210);
        o[1] = __byte_perm(x, y, 0x0123);
        o[2] = __byte_perm(x, y, 0x5410);
        o[3] = __byte_perm(x, y, 0x7632);
        o[4] = __byte_perm(x, y, 0x4444);
        o[5] = __byte_perm(x, y, 0x8880);
        o[6] = __byte_perm(x, y, 0x9910);
        o[7] = __byte_perm(x, y, s);
        unsigned r;
        asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[8] = r;
        asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[9] = r;
        asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[10] = r;
        asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[11] = r;
        asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[12] = r;
        asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[13] = r;
    }
}
