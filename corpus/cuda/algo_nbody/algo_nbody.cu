// Exercises: an all-pairs n-body acceleration step: float4 positions/masses staged through
// shared memory tiles (ld.global.v4 / st.shared.v4 / ld.shared.v4), rsqrtf (MUFU.RSQ, an
// approximation: outputs carry a tolerance), fma-heavy unrolled inner loop, softening, a
// velocity/position update. Bodies: 1000 (partial last tile, padded with zero-mass bodies).
#define TB 128

extern "C" __global__ void algo_nbody(const float4 *pos, const float4 *vel, float4 *new_pos,
                                      float4 *new_vel, int n, float dt, float eps2)
{
    __shared__ float4 sp[TB];
    int i = blockIdx.x * TB + threadIdx.x;
    float4 p = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int t0 = 0; t0 < n; t0 += TB) {
        int j = t0 + threadIdx.x;
        sp[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TB; ++k) {
            float4 q = sp[k];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
            float inv = rsqrtf(d2);
            float s = q.w * inv * inv * inv;
            a.x = fmaf(dx, s, a.x);
            a.y = fmaf(dy, s, a.y);
            a.z = fmaf(dz, s, a.z);
        }
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x = fmaf(a.x, dt, v.x);
        v.y = fmaf(a.y, dt, v.y);
        v.z = fmaf(a.z, dt, v.z);
        new_vel[i] = v;
        new_pos[i] = make_float4(fmaf(v.x, dt, p.x), fmaf(v.y, dt, p.y), fmaf(v.z, dt, p.z), p.w);
    }
}
