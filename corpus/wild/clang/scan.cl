// OpenCL-style C for the NVPTX target (clang -target nvptx64-nvidia-cuda -x cl): a work-group
// inclusive scan and a vector add, with the special registers read through NVVM builtins.
__kernel void scan_inclusive(__global const int *x, __global int *out, int n) {
  __local int s[256];
  int t = __nvvm_read_ptx_sreg_tid_x();
  int i = __nvvm_read_ptx_sreg_ctaid_x() * 256 + t;
  s[t] = i < n ? x[i] : 0;
  __syncthreads();
  for (int d = 1; d < 256; d <<= 1) {
    int v = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[t];
}
__kernel void vadd4(__global const float4 *a, __global const float4 *b, __global float4 *c, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
  if (i < n) c[i] = a[i] + b[i] * (float4)(0.5f);
}
