#include "mini.h"
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  unsigned i = gid_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void f64_poly(const double *x, double *out, int n) {
  unsigned i = gid_x();
  if (i >= n) return;
  double v = x[i];
  double r = ((0.25 * v - 1.5) * v + 2.0) * v - 7.0;
  out[i] = __builtin_fma(r, v, 1.0) / (v * v + 1.0);
}
extern "C" __global__ void half_axpy(const __fp16 *x, __fp16 *y, float a, int n) {
  unsigned i = gid_x();
  if (i < n) y[i] = (__fp16)(a * (float)x[i] + (float)y[i]);
}
