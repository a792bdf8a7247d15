// Exercises: large per-thread local arrays (a 2 KB byte sieve and a 1 KB u32 histogram: a big
// stack frame, local-memory traffic with byte and word accesses, dynamic strides), loops over
// the local arrays with data-dependent bounds.
#define SIEVE 2048

extern "C" __global__ void stack_large_local(const unsigned *limits, const unsigned char *bytes,
                                             unsigned *out, unsigned n, unsigned nbytes)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned char sieve[SIEVE];
    unsigned hist[256];
    unsigned lim = 1000u + limits[i] % 1000u;   // < SIEVE
    for (unsigned k = 0; k < SIEVE; ++k)
        sieve[k] = k >= 2;
    for (unsigned p = 2; p * p <= lim; ++p)
        if (sieve[p])
            for (unsigned q = p * p; q <= lim; q += p)
                sieve[q] = 0;
    unsigned count = 0, last = 0;
    for (unsigned k = 0; k <= lim; ++k)
        if (sieve[k]) {
            ++count;
            last = k;
        }
    for (int k = 0; k < 256; ++k)
        hist[k] = 0;
    unsigned len = 64u + (limits[i] >> 20) % 128u;
    for (unsigned k = 0; k < len; ++k)
        hist[bytes[(i * 17u + k) % nbytes]]++;
    unsigned best = 0;
    for (unsigned k = 1; k < 256; ++k)
        if (hist[k] > hist[best])
            best = k;
    out[i * 4 + 0] = count;
    out[i * 4 + 1] = last;
    out[i * 4 + 2] = best | (hist[best] << 8);
    out[i * 4 + 3] = sieve[limits[i] % SIEVE] + hist[limits[i] & 255u] * 2u;
}
