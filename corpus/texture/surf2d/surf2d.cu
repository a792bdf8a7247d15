// surf2Dread from one surface, surf2Dwrite to another (byte x coordinates); the read one
// element to the right uses cudaBoundaryModeZero (zero past the row's end).
extern "C" __global__ void surf2d(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
  int x = threadIdx.x, y = threadIdx.y;
  int a, b;
  surf2Dread(&a, src, x * 4, y);
  surf2Dread(&b, src, (x + 1) * 4, y, cudaBoundaryModeZero);
  surf2Dwrite(a * 2 + b, dst, x * 4, y);
}
