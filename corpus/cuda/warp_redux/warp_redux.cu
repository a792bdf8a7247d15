// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: redux.sync (sm_80+): __reduce_add_sync, __reduce_min_sync / __reduce_max_sync on
// unsigned and signed values, __reduce_and_sync / __reduce_or_sync / __reduce_xor_sync, with the
// full mask and with partial masks inside divergent halves of the warp.
extern "C" __global__ void warp_redux(const unsigned *in, unsigned *out, unsigned n)
{
    const unsigned F = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned x = i < n ? in[i] : 0u;
    int s = (int)x;

    unsigned add = __reduce_add_sync(F, x);
    unsigned umin = __reduce_min_sync(F, x);
    unsigned umax = __reduce_max_sync(F, x);
    int smin = __reduce_min_sync(F, s);
    int smax = __reduce_max_sync(F, s);
    unsigned a = __reduce_and_sync(F, x | 0x01000000u);
    unsigned o = __reduce_or_sync(F, x & 0xf0f0f0f0u);
    unsigned xr = __reduce_xor_sync(F, x);
    unsigned half;
    if (lane < 16)
        half = __reduce_add_sync(0x0000ffffu, x >> 4);
    else
        half = (unsigned)__reduce_max_sync(0xffff0000u, s >> 2);

    if (i < n) {
        unsigned *p = out + i * 9;
        p[0] = add; p[1] = umin; p[2] = umax;
        p[3] = (unsigned)smin; p[4] = (unsigned)smax;
        p[5] = a; p[6] = o; p[7] = xr; p[8] = half;
    }
}
