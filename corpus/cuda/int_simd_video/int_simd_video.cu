// int_simd_video: SIMD-within-a-register intrinsics on packed bytes/halfwords, which the headers expand
// to inline vabsdiff4.u32 (incl. the .add accumulate form), min.s16x2, max.s32, prmt/lop3/iadd
// sequences: __vadd4, __vsub2, __vabsdiffu4, __vmaxu4, __vmins2,
// __vavgu4, __vcmpgtu4, __vsetges2, __vsadu4, __vaddss4 (signed saturating), __vsubus2 (unsigned
// saturating), __vneg4, and the DPX helpers __viaddmax_s32/__vimax3_s32.
extern "C" __global__ void int_simd_video(const unsigned* a, const unsigned* b, const int* c, unsigned* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i];
        int z = c[i];
        unsigned* o = out + 14 * i;
        o[0]  = __vadd4(x, y);
        o[1]  = __vsub2(x, y);
        o[2]  = __vabsdiffu4(x, y);
        o[3]  = __vmaxu4(x, y);
        o[4]  = __vmins2(x, y);
        o[5]  = __vavgu4(x, y);
        o[6]  = __vcmpgtu4(x, y);
        o[7]  = __vsetges2(x, y);
        o[8]  = __vsadu4(x, y);
        o[9]  = __vaddss4(x, y);
        o[10] = __vsubus2(x, y);
        o[11] = __vneg4(y);
        o[12] = (unsigned)__viaddmax_s32((int)x, (int)y, z);
        o[13] = (unsigned)__vimax3_s32((int)x, (int)y, z);
    }
}
