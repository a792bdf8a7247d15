// Linear filtering of a 2D f32 texture half way between texel centres (x + 1.0: the mean of
// texels x and x + 1, clamped at the right edge) and a quarter of the way down (y + 0.75).
extern "C" __global__ void tex2d_linear(cudaTextureObject_t t, float* out, int w) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * w + x] = tex2D<float>(t, x + 1.0f, y + 0.75f);
}
