// bf16_arith2: packed bfloat16 arithmetic on __nv_bfloat162: __hadd2/__hsub2/__hmul2 (add/sub/mul
// .bf16x2 natively on sm_90+, fma.rn.bf16x2 with 1.0/-0.0 operands on sm_80..89), __hfma2
// (fma.rn.bf16x2), __hneg2, __habs2, __hfma2_relu (fma.rn.relu.bf16x2), and scalar __nv_bfloat16
// fma. Edge inputs: ±0, ±inf, NaN, bf16 denormals, max finite. sm_80+ (bf16 arithmetic).
// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
#include <cuda_bf16.h>
extern "C" __global__ void bf16_arith2(const __nv_bfloat162* a, const __nv_bfloat162* b, const __nv_bfloat162* c, __nv_bfloat162* out, __nv_bfloat16* outs, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat162 x = a[i], y = b[i], z = c[i];
        __nv_bfloat162* o = out + 7 * i;
        o[0] = __hadd2(x, y);
        o[1] = __hsub2(x, y);
        o[2] = __hmul2(x, y);
        o[3] = __hfma2(x, y, z);
        o[4] = __hneg2(z);
        o[5] = __habs2(x);
        o[6] = __hfma2_relu(x, z, y);
        __nv_bfloat16 xl = __low2bfloat16(x), yh = __high2bfloat16(y), zl = __low2bfloat16(z);
        outs[2 * i + 0] = __hfma(xl, yh, zl);
        outs[2 * i + 1] = __hadd(__hmul(xl, zl), yh);
    }
}
