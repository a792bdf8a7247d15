// Exercises: a sparse switch (cases -5, 1, 7, 100, 1000, 65536, 1 << 30) lowered to a compare
// tree / chain, fallthrough between cases, a default, on signed keys drawn from a fixed pool.
extern "C" __global__ void ctrl_switch_sparse(const int *keys, const int *vals, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int k = keys[i], v = vals[i], r = 0;
    switch (k) {
    case -5: r = -v; break;
    case 1: r = v + 1; break;
    case 7: r += 7;  /* fall through */
    case 100: r += v * 2; break;
    case 1000: r = v >> 2; break;
    case 65536: r = v & 0xff; /* fall through */
    case 1 << 30: r ^= 0x1234; break;
    default: r = k ^ v; break;
    }
    out[i] = r;
}
