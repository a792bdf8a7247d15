// Exercises: cooperative groups on floats: cg::reduce(tile<32>, float, cg::plus) and
// cg::greater, a tile<16> inclusive_scan of floats (fixed shuffle order, bit-exact), block
// sync through this_thread_block().sync(), a second-level reduce by the first warp using
// tiled_partition<32> again, thread_block::group_index()/thread_index().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_block_float(const float *in, float *scan_out, float *block_out,
                                          unsigned n)
{
    cg::thread_block blk = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(blk);
    auto t16 = cg::tiled_partition<16>(blk);
    __shared__ float partial[8];
    __shared__ float pmax[8];
    unsigned i = blk.group_index().x * blk.dim_threads().x + blk.thread_index().x;
    float x = i < n ? in[i] : 0.0f;

    float s = cg::reduce(warp, x, cg::plus<float>());
    float m = cg::reduce(warp, x, cg::greater<float>());
    float sc = cg::inclusive_scan(t16, x);
    if (warp.thread_rank() == 0) {
        partial[warp.meta_group_rank()] = s;
        pmax[warp.meta_group_rank()] = m;
    }
    blk.sync();
    if (warp.meta_group_rank() == 0) {
        unsigned r = warp.thread_rank();
        float v = r < warp.meta_group_size() ? partial[r] : 0.0f;
        float w = r < warp.meta_group_size() ? pmax[r] : -1.0e30f;
        float tot = cg::reduce(warp, v, cg::plus<float>());
        float mx = cg::reduce(warp, w, cg::greater<float>());
        if (r == 0) {
            block_out[blockIdx.x * 2] = tot;
            block_out[blockIdx.x * 2 + 1] = mx;
        }
    }
    if (i < n)
        scan_out[i] = sc;
}
