#include "mini.h"
struct Pair { int a; float b; long long c; };
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ float scale(Pair p, float x) { return p.b * x + (float)(p.a + p.c); }
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ int (*const ops[3])(int, int) = {op_add, op_mul, op_xor};
extern "C" __global__ void calls(const int *x, float *out, Pair p, int n) {
  unsigned i = gid_x();
  if (i >= n) return;
  int v = x[i];
  int f = fib(v & 15);
  int g = ops[v % 3](v, f);
  int local[8];
  for (int k = 0; k < 8; ++k) local[k] = v * k + g;
  out[i] = scale(p, (float)local[v & 7]);
}
extern "C" __global__ void switch_kernel(const int *x, int *out, int n) {
  unsigned i = gid_x();
  if (i >= n) return;
  int v = x[i], r;
  switch (v & 7) {
    case 0: r = v + 1; break;
    case 1: r = v * 3; break;
    case 2: r = v >> 2; break;
    case 3: r = -v; break;
    case 4: r = v ^ 0x55; break;
    case 5: r = v & 0xf0; break;
    default: r = 0;
  }
  out[i] = r;
}
