// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: inline PTX mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (sm_80+) with
// explicit per-lane fragment layouts (groupID = lane/4, threadID_in_group = lane%4): A fragments
// gathered as packed bf16 pairs with 32-bit loads, B from a K-major (column-major) matrix, an f32
// accumulator chained across the K loop. Tolerance: tensor-core accumulation order.
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const unsigned (&a)[4],
                                               const unsigned (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// A: M x K row-major bf16; Bt: N x K row-major bf16 (i.e. B column-major); C: M x N row-major f32.
extern "C" __global__ void tc_mma_bf16(const unsigned short *A, const unsigned short *Bt, float *C,
                                       int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    int tiles_n = N / 8;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16)
        return;
    int g = lane >> 2, t = lane & 3;
    const unsigned *A32 = reinterpret_cast<const unsigned *>(A);
    const unsigned *B32 = reinterpret_cast<const unsigned *>(Bt);
    float d[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        int r0 = tm * 16 + g, r1 = r0 + 8;
        int c0 = k0 + t * 2, c1 = c0 + 8;
        unsigned a[4] = {A32[(r0 * K + c0) >> 1], A32[(r1 * K + c0) >> 1], A32[(r0 * K + c1) >> 1],
                         A32[(r1 * K + c1) >> 1]};
        int n = tn * 8 + g;
        unsigned b[2] = {B32[(n * K + c0) >> 1], B32[(n * K + c1) >> 1]};
        mma_bf16_16816(d, a, b);
    }
    int row = tm * 16 + g, col = tn * 8 + t * 2;
    C[row * N + col] = d[0];
    C[row * N + col + 1] = d[1];
    C[(row + 8) * N + col] = d[2];
    C[(row + 8) * N + col + 1] = d[3];
}
