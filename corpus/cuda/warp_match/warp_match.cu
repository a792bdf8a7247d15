// Exercises: match.any.sync.b32 / match.all.sync.b32 (with its predicate output) and the .b64
// forms, group leaders via __ffs of the match mask, rank within a group, a partial last warp
// whose inactive lanes carry a sentinel key.
extern "C" __global__ void warp_match(const unsigned *keys, unsigned *out, unsigned n)
{
    const unsigned F = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned k = i < n ? keys[i] : 0xffffffffu;

    unsigned m_any = __match_any_sync(F, k);
    int pred = 0;
    unsigned m_all = __match_all_sync(F, k >> 3, &pred);
    int pred2 = 0;
    unsigned m_all2 = __match_all_sync(F, k >> 31, &pred2);
    unsigned long long k64 = ((unsigned long long)(k & 3) << 40) | (k >> 1);
    unsigned m_any64 = __match_any_sync(F, k64);
    unsigned leader = __ffs(m_any) - 1;
    unsigned rank = __popc(m_any & ((1u << lane) - 1u));

    if (i < n) {
        unsigned *o = out + i * 6;
        o[0] = m_any;
        o[1] = m_all | (unsigned)pred;
        o[2] = m_all2 ^ (unsigned)pred2;
        o[3] = m_any64;
        o[4] = leader;
        o[5] = rank;
    }
}
