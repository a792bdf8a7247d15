// Exercises: global atomics whose return value is unused (red.global.*) on int and unsigned:
// add, sub, min, max, and, or, xor, into a few hot bins (heavy contention) with the signed and
// unsigned min/max flavours; result buffers are both inputs (identity values) and outputs.
extern "C" __global__ void atom_int_ops(const int *a, const unsigned *b, int *ri, unsigned *ru,
                                        unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    unsigned y = b[i];
    unsigned bin = i & 3;
    atomicAdd(&ri[0 + bin], x);
    atomicSub(&ri[4 + bin], x);
    atomicMin(&ri[8 + bin], x);
    atomicMax(&ri[12 + bin], x);
    atomicAnd(&ri[16 + bin], x | (int)(1u << (i & 31)));
    atomicOr(&ri[20 + bin], x & (int)(0x11111111u << (i & 3)));
    atomicXor(&ri[24 + bin], x);
    atomicAdd(&ru[0 + bin], y);
    atomicSub(&ru[4 + bin], y >> 3);
    atomicMin(&ru[8 + bin], y);
    atomicMax(&ru[12 + bin], y);
    atomicAnd(&ru[16 + bin], ~(y & (0x80000001u >> (i & 31))));
    atomicOr(&ru[20 + bin], y & 0x00ff00f0u);
    atomicXor(&ru[24 + bin], y * 3u);
}
