// Point sampling of a layered 2D u8 texture read as normalized floats; layer = threadIdx.z
// (the last thread layer is past the array's layers: clamped).
extern "C" __global__ void tex_layered(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = threadIdx.y, l = threadIdx.z;
  out[(l * blockDim.y + y) * blockDim.x + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}
