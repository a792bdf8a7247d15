// Point sampling of a 2D f32 texture at texel centres, shifted one texel left (clamped at x = 0).
extern "C" __global__ void tex2d_point(cudaTextureObject_t t, float* out, int w) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) + 1000.0f * tex2D<float>(t, x - 0.5f, y + 0.5f);
}
