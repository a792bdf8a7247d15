// Exercises: atom.global.exch (unique slots, old value stored), an atom.cas retry loop (seeded
// by an atomicOr(p, 0) read), atom.inc/atom.dec with a wrap bound, and returned old values used
// in order-independent ways (sum and max of the tickets of atomicAdd(p, 1) and atomicInc).
extern "C" __global__ void atom_exch_cas_inc_dec(unsigned *slots, unsigned *old_out,
                                                 unsigned *counters, unsigned n, unsigned wrap)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    old_out[i] = atomicExch(&slots[i], i * 3u + 1u);

    unsigned *c = &counters[0];
    unsigned cur = atomicOr(c, 0u);
    unsigned assumed;
    do {
        assumed = cur;
        cur = atomicCAS(c, assumed, assumed + (i & 7u) + 1u);
    } while (cur != assumed);

    atomicInc(&counters[1], wrap);
    atomicDec(&counters[2], wrap);

    unsigned t = atomicAdd(&counters[3], 1u);
    atomicAdd(&counters[4], t);
    atomicMax(&counters[5], t);
    unsigned u = atomicInc(&counters[6], 0xffffffffu);
    atomicXor(&counters[7], u == n - 1 ? 0x5a5a5a5au : 0u);
}
