// Exercises: inline PTX ldmatrix.sync.aligned.m8n8 (sm_75+) in .x1, .x2 and .x4 forms, with and
// without .trans, from shared memory addressed through __cvta_generic_to_shared (32-bit shared
// addresses, "r" operands); per-lane row addresses with a padded row pitch; a pure data-movement
// kernel whose outputs are the raw fragment registers (bit-exact).
#define PITCH 40   // halves per shared row: 80 bytes, a multiple of 16

extern "C" __global__ void tc_ldmatrix(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[2][32 * PITCH];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int gw = blockIdx.x * (blockDim.x >> 5) + warp;
    unsigned short *t = tile[warp];
    // Each warp stages a 32x32 block of 16-bit values.
    for (int k = lane; k < 32 * 32; k += 32)
        t[(k >> 5) * PITCH + (k & 31)] = in[gw * 1024 + k];
    __syncwarp();

    // x4: lanes 0-7 address matrix 0 (rows 0-7, cols 0-7), 8-15 matrix 1 (rows 8-15), 16-23
    // matrix 2 (rows 0-7, cols 8-15), 24-31 matrix 3 (rows 8-15, cols 8-15).
    int r = (lane & 7) + ((lane >> 3) & 1) * 8;
    int c = (lane >> 4) * 8;
    unsigned a4 = (unsigned)__cvta_generic_to_shared(t + r * PITCH + c);
    unsigned x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, w0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(a4) : "memory");
    unsigned a4t = (unsigned)__cvta_generic_to_shared(t + (16 + r) * PITCH + 16 + c);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(y0), "=r"(y1), "=r"(y2), "=r"(y3) : "r"(a4t) : "memory");
    // x2: lanes 0-15 supply addresses (rows 16..31, column block 8).
    unsigned a2 = (unsigned)__cvta_generic_to_shared(t + (16 + (lane & 15)) * PITCH + 8);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(z0), "=r"(z1) : "r"(a2) : "memory");
    // x1: lanes 0-7 supply addresses (rows 8..15, column block 24).
    unsigned a1 = (unsigned)__cvta_generic_to_shared(t + (8 + (lane & 7)) * PITCH + 24);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(w0) : "r"(a1) : "memory");

    unsigned *o = out + (gw * 32 + lane) * 11;
    o[0] = x0; o[1] = x1; o[2] = x2; o[3] = x3;
    o[4] = y0; o[5] = y1; o[6] = y2; o[7] = y3;
    o[8] = z0; o[9] = z1; o[10] = w0;
}
