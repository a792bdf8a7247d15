// bits_count: bit counting and reversal: popc.b32/.b64 (__popc/__popcll), clz.b32/.b64 (__clz/
// __clzll, 32/64 for zero input), __ffs/__ffsll (brev+flo or bfind-based, 0 for zero input),
// bfind.u32/.s32 and bfind.shiftamt via inline PTX, brev.b32/.b64 (__brev/__brevll), and
// __fns (find n-th set bit, fns.b32) with positive and negative offsets.
extern "C" __global__ void bits_count(const unsigned* a, const unsigned long long* b, unsigned* out, unsigned long long* out64, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i];
        unsigned long long y = b[i];
        unsigned* o = out + 12 * i;
        o[0] = __popc(x);
        o[1] = __popcll(y);
        o[2] = __clz(x);
        o[3] = __clzll(y);
        o[4] = __ffs(x);
        o[5] = __ffsll(y);
        o[6] = __brev(x);
        unsigned f0, f1, f2;
        asm("bfind.u32 %0, %1;" : "=r"(f0) : "r"(x));
        asm("bfind.s32 %0, %1;" : "=r"(f1) : "r"(x));
        asm("bfind.shiftamt.u64 %0, %1;" : "=r"(f2) : "l"(y));
        o[7] = f0;
        o[8] = f1;
        o[9] = f2;
        o[10] = __fns(x, i & 31u, 1 + (int)(i % 5u));
        o[11] = __fns(x, 31u - (i & 7u), -1 - (int)(i % 3u));
        out64[i] = __brevll(y);
    }
}
