#include "mini.h"
extern "C" __global__ void bit_ops(const unsigned long long *x, unsigned *out, int n) {
  unsigned i = gid_x();
  if (i >= n) return;
  unsigned long long v = x[i];
  unsigned r = __builtin_popcountll(v) + __builtin_clzll(v | 1) * 3 + __builtin_ctz((unsigned)v | 0x80000000u);
  r ^= (unsigned)(v >> 17) * 0x9E3779B9u;
  r += __builtin_bitreverse32((unsigned)v);
  out[i] = r + (unsigned)(v % 1000003ull) + (unsigned)((long long)v / -77);
}
