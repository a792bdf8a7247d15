// Point sampling of a 3D float4 texture (4 channels) at texel centres.
extern "C" __global__ void tex3d(cudaTextureObject_t t, float4* out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  out[(z * blockDim.y + y) * blockDim.x + x] = tex3D<float4>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
