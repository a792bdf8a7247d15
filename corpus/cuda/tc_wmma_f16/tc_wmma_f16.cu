// Exercises: warp matrix functions (wmma.load.a/b.sync, wmma.mma.sync, wmma.store.d.sync;
// HMMA on sm_75+): 16x16x16 tiles with half inputs (A row-major, B column-major) and float
// accumulation, fill_fragment, a K loop of 4 steps, one output tile per warp with a
// warp-uniform early exit. Accumulation inside the tensor core is not IEEE-ordered: tolerance.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void tc_wmma_f16(const half *A, const half *B, float *C, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles_n = N / 16;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int e = 0; e < acc.num_elements; ++e)
        acc.x[e] = acc.x[e] * 0.5f;
    wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
