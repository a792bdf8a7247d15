// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: cooperative_groups::memcpy_async of a block-wide chunk (cp.async issued by the
// whole thread block, with alignment-dependent copy widths) and cg::wait, then
// cuda::memcpy_async with a block-scoped cuda::barrier (mbarrier-based completion tracking),
// a 1D stencil consuming the staged data.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

#define CHUNK 1024

extern "C" __global__ void async_cg_memcpy(const float *in, const float *w, float *out, unsigned n)
{
    __shared__ __align__(16) float s[CHUNK];
    __shared__ __align__(16) float sw[64];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block blk = cg::this_thread_block();
    if (blk.thread_rank() == 0)
        init(&bar, blk.size());
    blk.sync();

    unsigned base = blockIdx.x * CHUNK;
    unsigned cnt = n - base < CHUNK ? n - base : CHUNK;
    cg::memcpy_async(blk, s, in + base, sizeof(float) * cnt);
    cuda::memcpy_async(blk, sw, w, sizeof(float) * 64, bar);
    cg::wait(blk);
    bar.arrive_and_wait();

    for (unsigned k = blk.thread_rank(); k < cnt; k += blk.size()) {
        float l = k > 0 ? s[k - 1] : 0.0f;
        float r = k + 1 < cnt ? s[k + 1] : 0.0f;
        out[base + k] = fmaf(sw[k & 63], s[k], 0.25f * (l + r));
    }
}
