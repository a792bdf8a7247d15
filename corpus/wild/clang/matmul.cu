#include "mini.h"
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[TILE][TILE], bs[TILE][TILE];
  unsigned tx = tid_x(), ty = tid_y();
  unsigned row = ctaid_y() * TILE + ty, col = ctaid_x() * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0f;
    bs[ty][tx] = (col < n && k0 + ty < n) ? b[(k0 + ty) * n + col] : 0.0f;
    sync();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += as[ty][k] * bs[k][tx];
    sync();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}
extern "C" __global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[32][33];
  unsigned x = ctaid_x() * 32 + tid_x(), y = ctaid_y() * 32 + tid_y();
  if (x < w && y < h) tile[tid_y()][tid_x()] = in[y * w + x];
  sync();
  x = ctaid_y() * 32 + tid_x();
  y = ctaid_x() * 32 + tid_y();
  if (x < h && y < w) out[y * h + x] = tile[tid_x()][tid_y()];
}
