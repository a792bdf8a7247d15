// Exercises: cooperative groups basics: this_thread_block() with sync() and thread_rank(),
// static tiled_partition<32> and <16> with shfl_down / shfl_xor / ballot / any, cg::reduce with
// cg::plus, cg::greater and cg::bit_xor (redux.sync on sm_80+, shuffles on sm_75), cg::
// inclusive_scan / exclusive_scan on a 16-thread tile, a dynamic tiled_partition(block, 8) with
// its sync(), and a block-level combination through shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_tiled_reduce(const unsigned *in, unsigned *per_thread,
                                           unsigned *per_block, unsigned n)
{
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(blk);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(blk);
    __shared__ unsigned warp_sums[32];

    unsigned i = blockIdx.x * blockDim.x + blk.thread_rank();
    unsigned x = i < n ? in[i] : 0u;

    unsigned s32 = cg::reduce(t32, x, cg::plus<unsigned>());
    unsigned m16 = cg::reduce(t16, x, cg::greater<unsigned>());
    unsigned x16 = cg::reduce(t16, x, cg::bit_xor<unsigned>());
    unsigned inc = cg::inclusive_scan(t16, x & 0xffffu);
    unsigned exc = cg::exclusive_scan(t16, x >> 16, cg::plus<unsigned>());
    unsigned dn = t32.shfl_down(x, 3);
    unsigned bf = t16.shfl_xor(x, 5);
    unsigned bal = t16.ballot(x & 1u);
    int anyb = t32.any(x == 0u);

    cg::thread_group t8 = cg::tiled_partition(blk, 8);
    unsigned r8 = t8.thread_rank();
    t8.sync();

    if (t32.thread_rank() == 0)
        warp_sums[t32.meta_group_rank()] = s32;
    blk.sync();
    if (blk.thread_rank() == 0) {
        unsigned tot = 0;
        for (unsigned w = 0; w < t32.meta_group_size(); ++w)
            tot += warp_sums[w] * (w + 1u);
        per_block[blockIdx.x] = tot;
    }
    if (i < n) {
        unsigned *o = per_thread + i * 8;
        o[0] = s32;
        o[1] = m16;
        o[2] = x16;
        o[3] = inc;
        o[4] = exc;
        o[5] = dn ^ bf;
        o[6] = bal | ((unsigned)anyb << 31);
        o[7] = r8 | (t16.meta_group_rank() << 8);
    }
}
