// Exercises: a 2D 5-point Jacobi stencil through an 18x18 shared tile (16x16 interior plus a
// one-cell halo filled cooperatively by a strided loop), clamped borders, a 2D grid with
// partial tiles in both dimensions (W=70, H=45).
#define TS 16

extern "C" __global__ void algo_stencil_2d(const float *in, float *out, int w, int h, float c0,
                                           float c1)
{
    __shared__ float tile[TS + 2][TS + 2];
    int ox = blockIdx.x * TS - 1, oy = blockIdx.y * TS - 1;
    int t = threadIdx.y * TS + threadIdx.x;
    for (int k = t; k < (TS + 2) * (TS + 2); k += TS * TS) {
        int ty = k / (TS + 2), tx = k % (TS + 2);
        int gx = min(max(ox + tx, 0), w - 1);
        int gy = min(max(oy + ty, 0), h - 1);
        tile[ty][tx] = in[gy * w + gx];
    }
    __syncthreads();
    int x = blockIdx.x * TS + threadIdx.x, y = blockIdx.y * TS + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    float nb = tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1];
    out[y * w + x] = c0 * tile[ly][lx] + c1 * nb;
}
