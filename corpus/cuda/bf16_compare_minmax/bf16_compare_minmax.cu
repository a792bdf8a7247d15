// bf16_compare_minmax: bfloat16 comparisons and min/max: setp.*.bf16 / .bf16x2 (via __heq, __hlt,
// __hgtu, __hbge2, __hisnan), min/max.bf16x2 (__hmax2/__hmin2, NaN-ignoring) and the .NaN forms
// (__hmax2_nan), scalar __hmax/__hmin, bf16 <-> f32 widening (a shift) and compare-and-select in
// f32. Native bf16 min/max/setp on sm_80+/sm_90+; on sm_75 the header emulates them in f32.
#include <cuda_bf16.h>
extern "C" __global__ void bf16_compare_minmax(const __nv_bfloat162* a, const __nv_bfloat162* b, unsigned* mask, __nv_bfloat162* out, float* outf, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat162 x = a[i], y = b[i];
        __nv_bfloat16 xl = __low2bfloat16(x), yl = __low2bfloat16(y);
        unsigned m = 0;
        m |= __heq(xl, yl) << 0;
        m |= __hlt(xl, yl) << 1;
        m |= __hgtu(xl, yl) << 2;
        m |= __hbge2(x, y) << 3;
        m |= __hisnan(__high2bfloat16(x)) << 4;
        m |= __hbltu2(x, y) << 5;
        mask[i] = m;
        __nv_bfloat162* o = out + 4 * i;
        o[0] = __hmax2(x, y);
        o[1] = __hmin2(x, y);
        o[2] = __hmax2_nan(x, y);
        o[3] = __halves2bfloat162(__hmax(xl, yl), __hmin(xl, yl));
        float fx = __bfloat162float(xl), fy = __bfloat162float(__high2bfloat16(y));
        outf[i] = fx > fy ? fx - fy : fy * 0.5f;
    }
}
