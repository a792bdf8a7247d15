// corpus-archs: sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
// Exercises: wmma with tf32 inputs (m16n16k8, precision::tf32; sm_80+): loads of f32 data into
// tf32 fragments, explicit __float_to_tf32 rounding of fragment elements (cvt.rna.tf32.f32),
// f32 accumulation, a store in column-major layout. Tolerance: tensor-core accumulation order.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void tc_wmma_tf32(const float *A, const float *B, float *C, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles_m = M / 16;
    int tm = warp % tiles_m, tn = warp / tiles_m;
    if (tn >= N / 16)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
        for (int e = 0; e < a.num_elements; ++e)
            a.x[e] = wmma::__float_to_tf32(a.x[e]);
        for (int e = 0; e < b.num_elements; ++e)
            b.x[e] = wmma::__float_to_tf32(b.x[e]);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + tn * 16 * M + tm * 16, acc, M, wmma::mem_col_major);
}
