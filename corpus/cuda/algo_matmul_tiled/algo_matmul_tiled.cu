// Exercises: classic shared-memory tiled SGEMM: 16x16 tiles of A and B staged in shared
// memory, two __syncthreads per k-step, an unrolled fma inner loop, zero-filled edge tiles for
// matrix sizes that are not tile multiples (M=50, N=60, K=70), 2D grid. The summation order is
// fixed, so results are bit-exact.
#define TS 16

extern "C" __global__ void algo_matmul_tiled(const float *A, const float *B, float *C, int M, int N,
                                             int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty;
    int col = blockIdx.x * TS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; ++k)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
