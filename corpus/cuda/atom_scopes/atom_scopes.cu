// Exercises: scoped atomics: atomicAdd_block / atomicCAS_block (atom.cta), atomicAdd_system /
// atomicMax_system (atom.sys), cuda::atomic_ref with explicit memory orders (atom.acq_rel.gpu,
// ld.acquire, st.release, fetch_or/fetch_min), __threadfence_block and __threadfence_system.
#include <cuda/atomic>

extern "C" __global__ void atom_scopes(const unsigned *in, unsigned *blk, unsigned *glob,
                                       unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i];
    unsigned *b = blk + blockIdx.x * 4;
    atomicAdd_block(&b[0], x & 0xffffu);
    unsigned cur = atomicAdd_block(&b[1], 0u), a;
    do {
        a = cur;
        cur = atomicCAS_block(&b[1], a, a + (x >> 24));
    } while (cur != a);
    __threadfence_block();
    atomicAdd_system(&glob[0], x >> 16);
    atomicMax_system(&glob[1], x);
    __threadfence_system();

    cuda::atomic_ref<unsigned, cuda::thread_scope_device> r2(glob[2]);
    unsigned t = r2.fetch_add(1u, cuda::memory_order_acq_rel);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> r3(glob[3]);
    r3.fetch_add(t, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> r4(glob[4]);
    r4.fetch_or(x & 0x01010101u, cuda::memory_order_release);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> r5(b[2]);
    r5.fetch_min(x, cuda::memory_order_seq_cst);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> r6(b[3]);
    r6.fetch_xor(x, cuda::memory_order_acquire);
}
