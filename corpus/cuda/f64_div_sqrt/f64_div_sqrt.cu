// f64_div_sqrt: IEEE double division and square root: div.rn.f64 (x/y, Newton iteration on
// MUFU.RCP64H with the slow-path call for hard cases), __ddiv_rz/ru/rd, sqrt.rn.f64 and
// __dsqrt_rz/ru/rd, reciprocal 1.0/x (rcp.rn.f64, __drcp_rn) and rsqrt in double (rsqrt() is
// libdevice, approximate). Edge inputs hit zero divisors, denormals, inf/inf and negative sqrt.
extern "C" __global__ void f64_div_sqrt(const double* a, const double* b, double* out, double* approx, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i], y = b[i];
        double* o = out + 10 * i;
        o[0] = x / y;
        o[1] = __ddiv_rz(x, y);
        o[2] = __ddiv_ru(x, y);
        o[3] = __ddiv_rd(x, y);
        o[4] = sqrt(x);
        o[5] = __dsqrt_rz(y);
        o[6] = __dsqrt_ru(y);
        o[7] = __dsqrt_rd(x);
        o[8] = 1.0 / x;
        o[9] = __drcp_rn(y);
        approx[i] = rsqrt(fabs(x) + 1.0);
    }
}
