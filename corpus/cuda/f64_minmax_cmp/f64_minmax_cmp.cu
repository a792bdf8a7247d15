// f64_minmax_cmp: double min.f64/max.f64 (fmin/fmax, NaN-ignoring), abs.f64, neg.f64, copysign,
// floor/ceil/trunc/rint (cvt.r{m,p,z,n}i.f64.f64), ordered/unordered setp.*.f64 comparisons packed
// into a mask, and selp.f64 selects. Edge inputs: ±0, ±inf, NaN, denormals, DBL_MAX.
extern "C" __global__ void f64_minmax_cmp(const double* a, const double* b, double* out, unsigned* mask, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i], y = b[i];
        double* o = out + 9 * i;
        o[0] = fmin(x, y);
        o[1] = fmax(x, y);
        o[2] = fabs(x);
        o[3] = copysign(y, x);
        o[4] = floor(x);
        o[5] = ceil(y);
        o[6] = trunc(x);
        o[7] = rint(y);
        o[8] = (x < y) ? y - x : (x == y ? 0.0 : x);
        unsigned m = 0;
        m |= (x <  y) << 0;
        m |= (x <= y) << 1;
        m |= (x >  y) << 2;
        m |= (x >= y) << 3;
        m |= (x == y) << 4;
        m |= (x != y) << 5;
        m |= (!(x < y)) << 6;
        m |= (!(x > y)) << 7;
        m |= isnan(x) << 8;
        m |= isinf(y) << 9;
        m |= signbit(y) << 10;
        m |= (fabs(x) < 1.0) << 11;
        mask[i] = m;
    }
}
