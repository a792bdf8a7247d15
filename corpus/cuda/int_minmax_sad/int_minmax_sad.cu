// int_minmax_sad: 32-bit min/max (min.s32/min.u32/max.*), abs.s32 (abs() on a clamped value, and
// raw abs.s32 via inline PTX where abs(INT_MIN) == INT_MIN),
// sum of absolute differences sad.s32/sad.u32 (__sad/__usad), halving adds __hadd/__rhadd/
// __uhadd/__urhadd (without intermediate overflow), and clamp-by-min/max to scalar bounds.
extern "C" __global__ void int_minmax_sad(const int* a, const int* b, const unsigned* c, int lo, int hi, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        unsigned z = c[i];
        unsigned* o = out + 13 * i;
        o[0]  = (unsigned)min(x, y);
        o[1]  = (unsigned)max(x, y);
        o[2]  = min((unsigned)x, (unsigned)y);
        o[3]  = max((unsigned)x, z);
        o[4]  = (unsigned)abs(max(x, -2147483647));   // abs(INT_MIN) would be UB in C++
        o[5]  = __sad(x, y, z);
        o[6]  = __usad((unsigned)x, (unsigned)y, z);
        o[7]  = (unsigned)__hadd(x, y);
        o[8]  = (unsigned)__rhadd(x, y);
        o[9]  = __uhadd((unsigned)x, z);
        o[10] = __urhadd((unsigned)y, z);
        o[11] = (unsigned)min(max(x, lo), hi);
        int ab;
        asm("abs.s32 %0, %1;" : "=r"(ab) : "r"(y));
        o[12] = (unsigned)ab;
    }
}
