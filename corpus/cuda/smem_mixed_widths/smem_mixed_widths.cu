// Exercises: shared arrays of 8-, 16-, 32- and 64-bit elements (st/ld.shared.u8/u16/u64),
// 128-bit vector shared loads (ld.shared.v4.u32) of data written with scalar stores, reversed and
// permuted cross-thread reads after __syncthreads, zero/sign extension of narrow loads.
extern "C" __global__ void smem_mixed_widths(const unsigned *in, unsigned long long *out64,
                                             unsigned *out32, unsigned n)
{
    __shared__ unsigned char b[256];
    __shared__ short h[256];
    __shared__ unsigned long long q[256];
    __shared__ uint4 v[64];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 256 + t;
    unsigned x = i < n ? in[i] : 0x12345678u;
    b[t] = (unsigned char)x;
    h[t] = (short)(x >> 9);
    q[t] = ((unsigned long long)x << 32) | (x ^ 0xdeadbeefu);
    reinterpret_cast<unsigned *>(v)[t] = x * 2654435761u;
    __syncthreads();
    unsigned j = 255 - t;
    uint4 w = v[j >> 2];
    int sh = h[(t * 13) & 255];             // sign-extended
    unsigned long long r = q[j] + b[(t * 7) & 255] + ((unsigned long long)(long long)sh << 16) +
                           w.x + (w.y ^ w.z) + ((unsigned long long)w.w << 3);
    if (i < n) {
        out64[i] = r;
        out32[i] = b[j] | ((unsigned)(unsigned short)h[j] << 8) | ((unsigned)b[t ^ 3] << 24);
    }
}
