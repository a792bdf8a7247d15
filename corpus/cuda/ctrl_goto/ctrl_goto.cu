// Exercises: an irreducible control-flow graph (a two-block cycle entered at either block via
// goto), xorshift/LCG state updates, a bounded iteration count, plus a backward goto loop.
extern "C" __global__ void ctrl_goto(const unsigned *in, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i], s = 0, it = 0;
    if (x & 1)
        goto B;
A:
    s += x & 0xffu;
    x = x * 1103515245u + 12345u;
    if (++it > 24)
        goto done;
    if (x & 0x100u)
        goto B;
    goto A;
B:
    s ^= x >> 7;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    if (++it > 24)
        goto done;
    if (x & 2u)
        goto A;
    goto B;
done:
    unsigned k = 0, t = s;
again:
    t = (t >> 1) ^ (-(t & 1u) & 0xedb88320u);
    if (++k < (x & 15u) + 1u)
        goto again;
    out[i * 2] = s ^ (it << 24);
    out[i * 2 + 1] = t;
}
