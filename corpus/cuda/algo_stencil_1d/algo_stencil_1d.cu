// Exercises: a 1D 7-point stencil with a shared-memory tile plus halo (radius 3) loaded by the
// first and last threads, clamped boundaries, weights in __constant__ memory (ld.const), a
// fully unrolled weighted sum.
#define R 3
#define BS 128

__constant__ float weights[2 * R + 1] = {0.0625f, -0.125f, 0.25f, 0.5f, 0.25f, -0.125f, 0.0625f};

extern "C" __global__ void algo_stencil_1d(const float *in, float *out, int n)
{
    __shared__ float tile[BS + 2 * R];
    int g = blockIdx.x * BS + threadIdx.x;
    int l = threadIdx.x + R;
    int gc = g < n ? g : n - 1;
    tile[l] = in[gc];
    if (threadIdx.x < R) {
        int left = g - R;
        tile[l - R] = in[left < 0 ? 0 : left];
        int right = g + BS;
        tile[l + BS] = in[right < n ? right : n - 1];
    }
    __syncthreads();
    if (g >= n)
        return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k)
        acc = fmaf(weights[k + R], tile[l + k], acc);
    out[g] = acc;
}
