// i64_addc_asm: explicit carry-flag PTX via inline asm: a 256-bit add as add.cc.u32 + 7x addc.cc.u32
// + addc.u32 (carry out), a 256-bit subtract with sub.cc/subc.cc/subc, 64-bit add.cc.u64/addc.u64,
// and a 32x32 schoolbook multiply step with mad.lo.cc.u32 / madc.hi.cc.u32 / madc.hi.u32.
__device__ __forceinline__ void add256(unsigned r[9], const unsigned x[8], const unsigned y[8])
{
    asm("add.cc.u32  %0, %9, %17;\n\t"
        "addc.cc.u32 %1, %10, %18;\n\t"
        "addc.cc.u32 %2, %11, %19;\n\t"
        "addc.cc.u32 %3, %12, %20;\n\t"
        "addc.cc.u32 %4, %13, %21;\n\t"
        "addc.cc.u32 %5, %14, %22;\n\t"
        "addc.cc.u32 %6, %15, %23;\n\t"
        "addc.cc.u32 %7, %16, %24;\n\t"
        "addc.u32    %8, 0, 0;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]),
          "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]));
}
__device__ __forceinline__ void sub256(unsigned r[9], const unsigned x[8], const unsigned y[8])
{
    asm("sub.cc.u32  %0, %9, %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\t"
        "subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\t"
        "subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\t"
        "subc.u32    %8, 0, 0;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]),
          "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]));
}
extern "C" __global__ void i64_addc_asm(const unsigned* a, const unsigned* b, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x[8], y[8], r[9];
        for (int k = 0; k < 8; ++k) { x[k] = a[8 * i + k]; y[k] = b[8 * i + k]; }
        unsigned* o = out + 24 * i;
        add256(r, x, y);
        for (int k = 0; k < 9; ++k) o[k] = r[k];
        sub256(r, x, y);
        for (int k = 0; k < 9; ++k) o[9 + k] = r[k];
        unsigned long long x64 = ((unsigned long long)x[1] << 32) | x[0];
        unsigned long long y64 = ((unsigned long long)y[1] << 32) | y[0];
        unsigned long long lo, hi;
        asm("add.cc.u64 %0, %2, %3;\n\t"
            "addc.u64   %1, %4, %5;" : "=l"(lo), "=l"(hi) : "l"(x64), "l"(y64), "l"((unsigned long long)x[2]), "l"((unsigned long long)y[2]));
        o[18] = (unsigned)lo;
        o[19] = (unsigned)hi;
        unsigned p0, p1, p2;
        asm("mad.lo.cc.u32  %0, %3, %4, %5;\n\t"
            "madc.hi.cc.u32 %1, %3, %4, %6;\n\t"
            "madc.hi.u32    %2, %3, %5, 0;"
            : "=r"(p0), "=r"(p1), "=r"(p2) : "r"(x[3]), "r"(y[3]), "r"(x[4]), "r"(y[4]));
        o[20] = p0;
        o[21] = p1;
        o[22] = p2;
        o[23] = (unsigned)(hi >> 32);
    }
}
