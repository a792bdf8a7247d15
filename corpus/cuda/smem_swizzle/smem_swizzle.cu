// Exercises: an XOR-swizzled shared tile (element (r,c) stored at column c^r) so that both the
// row-wise store and the column-wise load are bank-conflict free without padding; 2D blocks,
// a transposed store and per-column sums read back through the swizzle.
#define T 32

extern "C" __global__ void smem_swizzle(const unsigned *in, unsigned *out, unsigned *colsum, int n)
{
    __shared__ unsigned tile[T][T];
    __shared__ unsigned sums[T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockIdx.x * T, by = blockIdx.y * T;
    for (int j = ty; j < T; j += blockDim.y)
        tile[j][tx ^ j] = in[(by + j) * n + bx + tx];
    __syncthreads();
    // out = transpose(in): element (r = tx, c = j) of the tile.
    for (int j = ty; j < T; j += blockDim.y)
        out[(bx + j) * n + by + tx] = tile[tx][j ^ tx];
    if (ty == 0) {
        unsigned s = 0;
        for (int r = 0; r < T; ++r)
            s += tile[r][tx ^ r] * (unsigned)(r + 1);
        sums[tx] = s;
    }
    __syncthreads();
    if (ty == 1)
        atomicAdd(&colsum[bx + tx], sums[tx ^ 5] ^ sums[tx]);
}
