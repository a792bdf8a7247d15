// Exercises: vote.sync.ballot/any/all with full masks, ballots under divergence with partial
// member masks (even/odd lanes), __activemask (activemask.b32), popc of lane-masked ballots
// (warp-level prefix counts), __syncwarp with full and partial masks, a partial last warp's
// predicate via i < n.
extern "C" __global__ void warp_vote(const int *in, unsigned *out, unsigned n)
{
    const unsigned F = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;

    unsigned b1 = __ballot_sync(F, v > 0);
    unsigned b2 = __ballot_sync(F, i < n);
    int any7 = __any_sync(F, v == 7);
    int allge = __all_sync(F, v >= -90);
    __syncwarp();
    unsigned am = __activemask();

    unsigned r;
    if (lane & 1) {
        r = __ballot_sync(0xaaaaaaaau, v & 1);
        __syncwarp(0xaaaaaaaau);
    } else {
        r = __ballot_sync(0x55555555u, (v & 2) != 0) | 1u;
        __syncwarp(0x55555555u);
    }
    unsigned below = (1u << lane) - 1u;
    unsigned rank = __popc(b1 & below);

    if (i < n) {
        unsigned *o = out + i * 7;
        o[0] = b1;
        o[1] = b2;
        o[2] = (unsigned)any7 | ((unsigned)allge << 1);
        o[3] = (am >> lane) & 1u;
        o[4] = r;
        o[5] = rank;
        o[6] = __popc(b1 ^ b2) + (unsigned)__ffs(b1) * 64u + (unsigned)__clz(b1) * 4096u;
    }
}
