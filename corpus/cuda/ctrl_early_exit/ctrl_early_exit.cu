// Exercises: early return (before and after a store), continue and break inside a loop,
// a nested loop left with goto, guarded wrap-around indexing; threads of a warp leave at
// different points.
extern "C" __global__ void ctrl_early_exit(const int *in, int *out, unsigned n, int limit)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    if (x == 0) {
        out[i] = -1;
        return;
    }
    int acc = 0;
    for (unsigned k = 0; k < 64; ++k) {
        int v = in[(i + k) % n];
        if (v < 0)
            continue;
        if (v > limit)
            break;
        acc += v;
    }
    if (acc > 2000) {
        out[i] = 2000;
        return;
    }
    int found = -1;
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c)
            if (in[(i + (unsigned)(r * 8 + c)) % n] == x + 1) {
                found = r * 8 + c;
                goto done;
            }
done:
    out[i] = acc * 100 + found;
}
