// f16_compare_minmax: half-precision comparisons and min/max: setp.*.f16 (__heq, __hlt, __hgeu,
// __hne, __hisnan), packed setp.*.f16x2 (__hble2, __hbgtu2) and set.*.f16x2 masks (__hlt2,
// __hequ2), min/max.f16 and .f16x2 (__hmin/__hmax/__hmax2, NaN-ignoring) and __hmax_nan/
// __hmin2_nan (min.NaN/max.NaN), selects on __half2, and half<->float widening compares.
#include <cuda_fp16.h>
extern "C" __global__ void f16_compare_minmax(const __half2* a, const __half2* b, unsigned* mask, __half2* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 x = a[i], y = b[i];
        __half xl = __low2half(x), yl = __low2half(y);
        unsigned m = 0;
        m |= __heq(xl, yl) << 0;
        m |= __hlt(xl, yl) << 1;
        m |= __hgeu(xl, yl) << 2;
        m |= __hne(xl, yl) << 3;
        m |= __hisnan(xl) << 4;
        m |= __hble2(x, y) << 5;
        m |= __hbgtu2(x, y) << 6;
        m |= (__half2float(xl) < __half2float(__high2half(y))) << 7;
        m |= __hisinf(__high2half(x)) != 0 ? (1u << 8) : 0u;
        mask[i] = m;
        __half2* o = out + 6 * i;
        o[0] = __hlt2(x, y);
        o[1] = __hequ2(x, y);
        o[2] = __hmax2(x, y);
        o[3] = __hmin2(x, y);
        o[4] = __halves2half2(__hmax(xl, yl), __hmin(xl, yl));
#if __CUDA_ARCH__ >= 800
        o[5] = __hmin2_nan(x, y);
#else
        o[5] = __hgt2(x, y);
#endif
    }
}
