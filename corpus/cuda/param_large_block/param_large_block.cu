// Exercises: a large by-value kernel parameter (a ~2 KB struct: .param .align 4 .b8 [2008]),
// dynamically indexed inside a loop (ld.param with a computed offset, or a copy of the
// parameter block to local memory, depending on the target), alongside ordinary parameters.
struct Big {
    float coef[500];
    int bias;
    unsigned count;
};

extern "C" __global__ void param_large_block(const float *in, float *out, Big big, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    float acc = 0.0f;
    unsigned cnt = big.count < 16u ? big.count : 16u;
    for (unsigned k = 0; k < cnt; ++k)
        acc = fmaf(big.coef[(i + k * 37u) % 500u], x, acc);
    out[i] = acc + (float)big.bias + big.coef[i % 500u];
}
