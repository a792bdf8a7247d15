// Exercises: real calls (call.uni) to __noinline__ device functions: many arguments of mixed
// types (u8, u16, u32, u64, f32, f64), a struct returned by value (multiple return registers),
// pointer out-parameters to caller locals (forces a stack frame / local memory), a call chain,
// and calls from divergent code.
struct DivMod {
    int q;
    int r;
    unsigned long long tag;
};

__device__ __noinline__ DivMod divmod(int a, int b)
{
    DivMod d;
    if (b == 0) {
        d.q = 0;
        d.r = a;
    } else {
        d.q = a / b;
        d.r = a % b;
    }
    d.tag = ((unsigned long long)(unsigned)d.q << 32) | (unsigned)d.r;
    return d;
}

__device__ __noinline__ float poly(float x, float c0, float c1, float c2, float c3, int deg)
{
    float r = c3;
    if (deg >= 3) r = r * x + c2;
    if (deg >= 2) r = r * x + c1;
    if (deg >= 1) r = r * x + c0;
    return r;
}

__device__ __noinline__ unsigned long long mix(unsigned a, unsigned long long b, unsigned short c,
                                               unsigned char d, double e, float f)
{
    unsigned long long r = b ^ ((unsigned long long)a << 17);
    r += (unsigned long long)c * 0x10001ull + d;
    r ^= (unsigned long long)(long long)(e * 16.0);
    r += (unsigned long long)(int)(f * 8.0f);
    return r;
}

__device__ __noinline__ void split(int x, int *lo, int *hi)
{
    *lo = x & 0xffff;
    *hi = x >> 16;
}

__device__ __noinline__ int chain(int x, int depth)
{
    DivMod d = divmod(x, depth + 3);
    int lo, hi;
    split(x, &lo, &hi);
    return d.q + d.r * 7 + lo - hi;
}

extern "C" __global__ void call_noinline(const int *a, const int *b, const float *f, int *out,
                                         float *fout, unsigned long long *qout, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    DivMod d = divmod(x, y);
    out[i * 3 + 0] = d.q;
    out[i * 3 + 1] = d.r;
    out[i * 3 + 2] = (i & 1) ? chain(x, (int)(i & 7)) : -chain(y, 2);
    fout[i] = poly(f[i], 1.0f, -0.5f, 0.25f, 0.125f, (int)(i & 3));
    qout[i] = mix((unsigned)x, d.tag, (unsigned short)y, (unsigned char)(x >> 3), (double)f[i] * 0.5,
                  f[i]) ^ d.tag;
}
