// Exercises: divergent if/else inside a warp keyed on the lane id and on data, nested
// divergence, a divergent loop trip count, reconvergence before warp-synchronous ballots,
// signed division/remainder in one branch only.
extern "C" __global__ void ctrl_divergence(const int *in, int *out, unsigned *ballots, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int x = i < n ? in[i] : 0;
    int r;
    if (lane & 1) {
        if (x > 0) {
            r = x * 3;
            if (lane & 2)
                r ^= 0x55;
            else
                r -= 7;
        } else {
            r = -x + (int)lane;
        }
    } else if (lane < 16) {
        r = 0;
        for (int k = 0; k < (int)(lane & 7) + (x & 3) + 1; ++k)
            r += x >> k;
    } else {
        if (x % 3 == 0)
            r = x / 3;
        else if (x % 3 == 1 || x % 3 == -1)
            r = x % 5 - 100;
        else
            r = x * x;
    }
    unsigned b = __ballot_sync(0xffffffffu, r > 0);
    if (i < n) {
        out[i] = r;
        if (lane == 0)
            ballots[i >> 5] = b;
    }
}
