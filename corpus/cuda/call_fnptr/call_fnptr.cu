// Exercises: indirect calls through function pointers (call with a prototype, .callprototype):
// a __device__ table of function addresses initialised statically (a .global .u64 array with
// function-symbol initialisers), a pointer chosen by a data-dependent ternary, divergent targets
// within a warp, a function pointer passed as an argument to a __noinline__ function.
typedef unsigned (*binop_t)(unsigned, unsigned);

__device__ unsigned op_add(unsigned a, unsigned b) { return a + b; }
__device__ unsigned op_sub(unsigned a, unsigned b) { return a - b; }
__device__ unsigned op_mul(unsigned a, unsigned b) { return a * b; }
__device__ unsigned op_xor(unsigned a, unsigned b) { return a ^ b; }
__device__ unsigned op_rot(unsigned a, unsigned b) { return __funnelshift_l(a, a, b); }
__device__ unsigned op_max(unsigned a, unsigned b) { return a > b ? a : b; }

__device__ binop_t table[6] = {op_add, op_sub, op_mul, op_xor, op_rot, op_max};

__device__ __noinline__ unsigned fold(binop_t f, const unsigned *v, unsigned len, unsigned init)
{
    unsigned acc = init;
    for (unsigned k = 0; k < len; ++k)
        acc = f(acc, v[k]);
    return acc;
}

extern "C" __global__ void call_fnptr(const unsigned *sel, const unsigned *a, const unsigned *b,
                                      unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    binop_t f = table[sel[i] % 6u];
    unsigned r = f(a[i], b[i]);
    binop_t g = (a[i] & 1u) ? op_xor : op_sub;
    unsigned start = i < n - 4 ? i : n - 4;
    out[i * 2] = r;
    out[i * 2 + 1] = fold(g, a + start, 4, r) + fold(table[(sel[i] >> 4) % 6u], b + start, 3, 1u);
}
