#include "mini.h"
extern "C" __global__ void block_sum(const float *x, float *out, int n) {
  __shared__ float s[256];
  unsigned t = tid_x();
  unsigned i = gid_x();
  s[t] = i < n ? x[i] : 0.0f;
  sync();
  for (unsigned k = ntid_x() / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    sync();
  }
  if (t == 0) __nvvm_atom_add_gen_f(out, s[0]);
}
extern "C" __global__ void warp_max(const int *x, int *out, int n) {
  unsigned i = gid_x();
  int v = i < n ? x[i] : -2147483647;
  for (int d = 16; d > 0; d >>= 1) {
    int o = __nvvm_shfl_sync_down_i32(0xffffffffu, v, d, 31);
    v = v > o ? v : o;
  }
  if ((tid_x() & 31) == 0) __nvvm_atom_max_gen_i(out, v);
}
extern "C" __global__ void histogram(const unsigned char *x, unsigned *bins, int n) {
  __shared__ unsigned local[64];
  unsigned t = tid_x();
  if (t < 64) local[t] = 0;
  sync();
  for (unsigned i = gid_x(); i < n; i += ntid_x() * __nvvm_read_ptx_sreg_nctaid_x())
    __nvvm_atom_add_gen_i((int *)&local[x[i] & 63], 1);
  sync();
  if (t < 64) __nvvm_atom_add_gen_i((int *)&bins[t], local[t]);
}
