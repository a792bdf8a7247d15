// Exercises: many scalar kernel parameters of mixed types and sizes (u8, s8, u16, s16, u32, s32,
// u64, s64, f16 as a struct-like .b8[2] param, f32, f64), their alignment in the parameter
// space, sign/zero extension on load, pointer parameters interleaved with scalars.
#include <cuda_fp16.h>

extern "C" __global__ void param_many_scalars(unsigned char a, signed char b, unsigned short c,
                                              short d, const float *in, unsigned e, int f,
                                              unsigned long long g, long long h, __half hv,
                                              float x, double y, double *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long ints = (long long)a + b * 3 + c * 5 + d * 7 + (long long)e + (long long)f * 11;
    unsigned long long mixed = g ^ (unsigned long long)h ^ ((unsigned long long)ints << 3);
    double v = (double)in[i] * y + (double)x + (double)__half2float(hv);
    out[i * 2] = v;
    out[i * 2 + 1] = (double)(mixed % 100003ull) + (double)(ints + (long long)i);
}
