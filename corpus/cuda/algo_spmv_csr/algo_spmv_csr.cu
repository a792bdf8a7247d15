// Exercises: CSR sparse matrix-vector product: one thread per row (scalar kernel) with a
// data-dependent inner trip count (empty rows included) and indirect gathers x[col[k]], plus a
// warp-per-row variant whose partial sums are combined with __shfl_down_sync (fixed order, so
// bit-exact).
extern "C" __global__ void algo_spmv_csr(const int *row_ptr, const int *col, const float *val,
                                         const float *x, float *y_scalar, float *y_warp, int nrows)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < nrows) {
        float acc = 0.0f;
        for (int k = row_ptr[tid]; k < row_ptr[tid + 1]; ++k)
            acc = fmaf(val[k], x[col[k]], acc);
        y_scalar[tid] = acc;
    }
    int lane = threadIdx.x & 31;
    int nwarps = (gridDim.x * blockDim.x) >> 5;
    for (int row = tid >> 5; row < nrows; row += nwarps) {
        float acc = 0.0f;
        for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += 32)
            acc = fmaf(val[k], x[col[k]], acc);
        for (int off = 16; off > 0; off >>= 1)
            acc += __shfl_down_sync(0xffffffffu, acc, off);
        if (lane == 0)
            y_warp[row] = acc;
    }
}
