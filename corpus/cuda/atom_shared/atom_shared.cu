// Exercises: shared-memory atomics (atom.shared.*): add, min, max, or, and, xor, inc with wrap,
// a CAS loop, 64-bit shared add and CAS, initialised by a few threads, flushed to global after
// __syncthreads; the returned old value of a shared atomicAdd used as a ticket.
extern "C" __global__ void atom_shared(const unsigned *in, unsigned *out, unsigned long long *out64,
                                       unsigned n)
{
    __shared__ unsigned s[10];
    __shared__ unsigned long long q[2];
    unsigned tid = threadIdx.x;
    if (tid < 10)
        s[tid] = (tid == 1 || tid == 4) ? 0xffffffffu : 0u;
    if (tid < 2)
        q[tid] = tid;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + tid;
    if (i < n) {
        unsigned x = in[i];
        atomicAdd(&s[0], x);
        atomicMin(&s[1], x);
        atomicMax(&s[2], x);
        atomicOr(&s[3], x & 0x0f0f0f0fu);
        atomicAnd(&s[4], x | 0x80808080u);
        atomicXor(&s[5], x);
        unsigned cur = atomicOr(&s[6], 0u), assumed;
        do {
            assumed = cur;
            cur = atomicCAS(&s[6], assumed, assumed + (x >> 28) * (x >> 28));
        } while (cur != assumed);
        atomicInc(&s[7], 63u);
        unsigned t = atomicAdd(&s[8], 1u);
        atomicAdd(&s[9], t);
        atomicAdd(&q[0], (unsigned long long)x << 8);
        unsigned long long c = atomicAdd(&q[1], 0ull), a;
        do {
            a = c;
            c = atomicCAS(&q[1], a, a ^ ((unsigned long long)x * 0x9e3779b97f4a7c15ull));
        } while (c != a);
    }
    __syncthreads();
    if (tid < 10)
        out[blockIdx.x * 10 + tid] = s[tid];
    if (tid < 2)
        out64[blockIdx.x * 2 + tid] = q[tid];
}
