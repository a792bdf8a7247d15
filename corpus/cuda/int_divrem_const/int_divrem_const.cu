// int_divrem_const: 32-bit division and remainder by compile-time constants, which nvcc/ptxas turn
// into multiply-high + shift sequences: unsigned /3, /7, /10, /1000, /641, %3, %10, %1000, signed
// /3, /-5, /7, /8 (power of two: shift with rounding toward zero fix-up), %8, %-7, and /1 edge.
extern "C" __global__ void int_divrem_const(const int* a, int* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        unsigned u = (unsigned)x;
        int* o = out + 16 * i;
        o[0]  = (int)(u / 3u);
        o[1]  = (int)(u / 7u);
        o[2]  = (int)(u / 10u);
        o[3]  = (int)(u / 1000u);
        o[4]  = (int)(u / 641u);
        o[5]  = (int)(u % 3u);
        o[6]  = (int)(u % 10u);
        o[7]  = (int)(u % 1000u);
        o[8]  = x / 3;
        o[9]  = x / -5;
        o[10] = x / 7;
        o[11] = x / 8;
        o[12] = x % 8;
        o[13] = x % -7;
        o[14] = x % 1000;
        o[15] = (int)(u / 0x80000001u);
    }
}
