// Exercises: structs passed by value as kernel parameters (.param .align N .b8 name[size]) with
// internal padding and mixed field widths (s8, s16, s32, s64, f32, f64, an array), a 16-byte
// aligned vector struct (ld.param.v4), and a struct forwarded by value to a __noinline__ device
// function (by-value .param argument of a call).
struct Params {
    signed char tag;        // offset 0
    short s;                // offset 2
    int scale;              // offset 4
    long long offset;       // offset 8
    float f;                // offset 16
    double d;               // offset 24
    unsigned mask;          // offset 32
    int arr[3];             // offset 36, size 48, align 8
};

struct __align__(16) Vec4 {
    float x, y, z, w;
};

__device__ __noinline__ long long apply(Params p, int v, int k)
{
    long long r = (long long)v * p.scale + p.offset;
    r ^= (long long)(p.tag * p.s);
    r += p.arr[k % 3];
    return (r & (long long)p.mask) | ((long long)(k & 1) << 40);
}

extern "C" __global__ void param_struct_byval(Params p, const int *in, long long *out, Vec4 v,
                                              float *fout, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    out[i] = apply(p, x, (int)i);
    float t = (float)x * 0.001f;
    fout[i] = ((v.x * t + v.y) * t + v.z) * t + v.w + p.f * (float)p.d;
}
