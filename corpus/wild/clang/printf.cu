#include "mini.h"
extern "C" __device__ int printf(const char *, ...);
extern "C" __global__ void hello(const int *x, int n) {
  unsigned i = gid_x();
  if (i < n && x[i] < 0) printf("negative x[%u] = %d\n", i, x[i]);
}
