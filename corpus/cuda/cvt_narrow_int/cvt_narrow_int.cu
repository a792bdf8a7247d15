// cvt_narrow_int: integer width changes: truncating casts s32 -> s8/u8/s16/u16 followed by
// sign/zero extension (cvt.s8.s32 / cvt.u16.u32 / cvt.s32.s8, or bfe/prmt/shift pairs after
// optimisation), 64 -> 32 truncation (cvt.u32.u64), s32 -> s64 / u32 -> u64 extension, 8/16-bit
// loads and stores (ld.global.s8/u16, st.global.u8/u16), and cvt.sat.s16.s64 / cvt.sat.u8.s32
// via inline PTX.
extern "C" __global__ void cvt_narrow_int(const int* a, const signed char* b, const unsigned short* c, const long long* d,
                                          signed char* o8, unsigned short* o16, int* o32, long long* o64, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        signed char sb = b[i];
        unsigned short us = c[i];
        long long w = d[i];
        o8[2 * i] = (signed char)x;
        o8[2 * i + 1] = (signed char)(sb + (signed char)us);
        o16[2 * i] = (unsigned short)x;
        o16[2 * i + 1] = (unsigned short)(us * 3u + (unsigned)sb);
        int* q = o32 + 6 * i;
        q[0] = (int)(signed char)x;
        q[1] = (int)(unsigned char)x;
        q[2] = (int)(short)(x >> 4);
        q[3] = (int)sb * (int)us;
        int t;
        asm("cvt.sat.u8.s32 %0, %1;" : "=r"(t) : "r"(x)); q[4] = t;
        asm("{ .reg .s16 h; cvt.sat.s16.s64 h, %1; cvt.s32.s16 %0, h; }" : "=r"(t) : "l"(w)); q[5] = t;
        o64[2 * i] = (long long)x + (long long)(unsigned)x;
        o64[2 * i + 1] = (long long)(int)w + (long long)(unsigned)(w >> 32);
    }
}
