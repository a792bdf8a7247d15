// tex1Dfetch (integer coordinates) of a 1D f32 texture with border addressing: indices -2..n+1.
extern "C" __global__ void tex_fetch1d(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);
}
