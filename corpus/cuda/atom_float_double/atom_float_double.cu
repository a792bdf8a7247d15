// Exercises: atomicAdd on f32 and f64 in global memory (red.global.add.f32/.f64), f32 atomicAdd
// on shared memory (atom.shared.add.f32), a per-CTA shared accumulation flushed by one thread.
// Float addition is not associative, so the outputs carry a tolerance.
extern "C" __global__ void atom_float_double(const float *x, const double *y, float *fs,
                                             double *ds, unsigned n)
{
    __shared__ float sf[4];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 4)
        sf[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < n) {
        float a = x[i];
        double b = y[i];
        atomicAdd(&fs[i & 7], a);
        atomicAdd(&ds[i & 7], b);
        atomicAdd(&sf[threadIdx.x & 3], a * 0.5f);
    }
    __syncthreads();
    if (threadIdx.x < 4)
        atomicAdd(&fs[8 + threadIdx.x], sf[threadIdx.x]);
}
