// int_saturate_clamp: saturating and clamping integer expressions: add.sat.s32 via inline PTX,
// unsigned saturating add/sub written as compare+select (and as carry tests), clamping s32 into
// s8/u8/s16 ranges with min/max, cvt.sat.s8.s32 / cvt.sat.u16.s32 via inline PTX, and sign
// replication by arithmetic shift (x >> 31) for branchless abs/saturation.
extern "C" __global__ void int_saturate_clamp(const int* a, const int* b, int* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        int* o = out + 10 * i;
        int s;
        asm("add.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y));
        o[0] = s;
        unsigned us = ux + uy;
        o[1] = (int)(us < ux ? 0xffffffffu : us);              // unsigned saturating add
        o[2] = (int)(ux > uy ? ux - uy : 0u);                 // unsigned saturating sub
        o[3] = min(max(x, -128), 127);                        // clamp to s8
        o[4] = min(max(x, 0), 255);                           // clamp to u8
        o[5] = min(max(y, -32768), 32767);                    // clamp to s16
        int c8, c16;
        asm("cvt.sat.s8.s32 %0, %1;" : "=r"(c8) : "r"(x));
        asm("cvt.sat.u16.s32 %0, %1;" : "=r"(c16) : "r"(y));
        o[6] = c8;
        o[7] = c16;
        int sign = x >> 31;
        o[8] = (int)(((ux ^ (unsigned)sign) - (unsigned)sign) >> 1);  // |x| / 2 branchless
        long long wide = (long long)x + (long long)y;
        o[9] = wide > 2147483647LL ? 2147483647 : (wide < -2147483648LL ? (-2147483647 - 1) : (int)wide);
    }
}
