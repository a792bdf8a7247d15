// bits_funnel: funnel shifts shf.l/shf.r with .wrap (__funnelshift_l/__funnelshift_r: amount
// mod 32) and .clamp (__funnelshift_lc/__funnelshift_rc: amount clamped to 32), 32-bit rotates by
// variable and immediate amounts (shf with both sources equal), and 32-bit shl/shr/shr.s32 by
// amounts >= 32 through inline PTX (clamped: 0 or sign fill).
extern "C" __global__ void bits_funnel(const unsigned* a, const unsigned* b, const unsigned* s, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned lo = a[i], hi = b[i], k = s[i];
        unsigned* o = out + 12 * i;
        o[0] = __funnelshift_l(lo, hi, k);
        o[1] = __funnelshift_r(lo, hi, k);
        o[2] = __funnelshift_lc(lo, hi, k);
        o[3] = __funnelshift_rc(lo, hi, k);
        o[4] = __funnelshift_l(lo, lo, k);          // rotate left
        o[5] = (hi >> 13) | (hi << 19);              // rotate right by immediate
        o[6] = __funnelshift_r(lo, hi, 8);
        o[7] = __funnelshift_lc(hi, lo, 40);
        unsigned r0, r1, r2;
        asm("shl.b32 %0, %1, %2;" : "=r"(r0) : "r"(lo), "r"(k));
        asm("shr.u32 %0, %1, %2;" : "=r"(r1) : "r"(hi), "r"(k));
        asm("shr.s32 %0, %1, %2;" : "=r"(r2) : "r"(hi), "r"(k));
        o[8] = r0;
        o[9] = r1;
        o[10] = r2;
        o[11] = (lo << (k & 31u)) ^ ((unsigned)((int)hi >> (k & 31u)));
    }
}
