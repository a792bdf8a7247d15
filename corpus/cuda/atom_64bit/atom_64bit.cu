// Exercises: 64-bit global atomics: atom/red .u64 add, .u64 and .s64 min/max, .b64 and/or/xor,
// atom.exch.b64 into unique slots (old value kept), an atom.cas.b64 loop implementing an order-independent
// multiply (of odd factors, mod 2^64), and 64-bit tickets whose sum and max are recorded.
extern "C" __global__ void atom_64bit(const unsigned long long *v, unsigned long long *acc,
                                      unsigned long long *slots, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = v[i];
    atomicAdd(&acc[0], x);
    atomicMin(&acc[1], x);
    atomicMax(&acc[2], x);
    atomicAnd(&acc[3], x | (1ull << (i & 63)));
    atomicOr(&acc[4], x & (0x0101010101010101ull << (i & 7)));
    atomicXor(&acc[5], x);
    atomicMin(reinterpret_cast<long long *>(&acc[6]), (long long)x);
    atomicMax(reinterpret_cast<long long *>(&acc[7]), (long long)x);

    unsigned long long *p = &acc[8];
    unsigned long long cur = atomicAdd(p, 0ull);
    unsigned long long assumed;
    do {
        assumed = cur;
        cur = atomicCAS(p, assumed, assumed * (x | 1ull));
    } while (cur != assumed);

    unsigned long long t = atomicAdd(&acc[9], 1ull);
    atomicAdd(&acc[10], t * 0x100000001ull);
    atomicMax(&acc[11], t);
    slots[n + i] = atomicExch(&slots[i], x ^ i);
}
