// Exercises: branch-free selects (selp / predicated moves), min/max/abs idioms, clamping,
// predicated stores into an output whose untouched elements keep their initial values, a
// conditional accumulation the compiler if-converts, float selects with NaN operands.
extern "C" __global__ void ctrl_predicated(const int *a, const int *b, const float *f, int *out,
                                           float *fout, int *sparse, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    float g = f[i];
    int mx = x > y ? x : y;
    int mn = x < y ? x : y;
    long long ad = (long long)x - y;
    int absd = (int)(ad < 0 ? -ad : ad);
    int cl = x < -1000 ? -1000 : (x > 1000 ? 1000 : x);
    unsigned acc = 0;
    if (x & 1) acc += (unsigned)y;
    if (y & 2) acc -= (unsigned)(x >> 1);
    if ((x ^ y) < 0) acc ^= 0x7fu;
    out[i * 5 + 0] = mx;
    out[i * 5 + 1] = mn;
    out[i * 5 + 2] = absd;
    out[i * 5 + 3] = cl;
    out[i * 5 + 4] = (int)acc;
    float sel = g > 0.0f ? g : (g < -1.0f ? -1.0f : g * 0.5f);
    fout[i] = (g != g) ? 123.0f : sel;
    if ((x & 7) == 3)
        sparse[i] = x ^ y;
}
