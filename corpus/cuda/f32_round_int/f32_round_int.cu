// f32_round_int: rounding to integral values in single precision: cvt.rmi.f32.f32 (floorf),
// cvt.rpi (ceilf), cvt.rzi (truncf), cvt.rni (rintf, nearbyintf), and roundf (half away from
// zero: libdevice expansion with abs/add/copysign/select), plus fractional part x - floor(x)
// and modff-style split. Edge inputs cover ±0, ±inf, NaN, denormals and huge integral values.
extern "C" __global__ void f32_round_int(const float* a, float* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        float* o = out + 7 * i;
        o[0] = floorf(x);
        o[1] = ceilf(x);
        o[2] = truncf(x);
        o[3] = rintf(x);
        o[4] = roundf(x);
        o[5] = x - floorf(x);
        o[6] = nearbyintf(x * 0.25f) * 4.0f;
    }
}
