// Exercises: a data-dependent while loop (Collatz steps) with a step bound, heavy intra-warp
// divergence in trip counts and in the odd/even branch, 64-bit arithmetic in the loop,
// loop-carried max.
extern "C" __global__ void ctrl_collatz(const unsigned *start, unsigned *steps,
                                        unsigned long long *peak, unsigned n, unsigned max_steps)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long v = start[i];
    unsigned long long pk = v;
    unsigned s = 0;
    while (v > 1 && s < max_steps) {
        if (v & 1)
            v = 3 * v + 1;
        else
            v >>= 1;
        pk = v > pk ? v : pk;
        ++s;
    }
    steps[i] = s;
    peak[i] = pk;
}
