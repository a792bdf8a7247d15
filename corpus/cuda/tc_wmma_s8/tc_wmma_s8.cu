// Exercises: integer wmma (IMMA): signed 8-bit inputs, 16x16x16 tiles, s32 accumulation seeded
// from memory with load_matrix_sync on the accumulator (mem_row_major), A row-major and B
// column-major. Integer products and sums are exact, so the output is bit-exact.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void tc_wmma_s8(const signed char *A, const signed char *B, const int *Cin,
                                      int *D, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles_n = N / 16;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(acc, Cin + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
