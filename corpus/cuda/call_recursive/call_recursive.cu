// Exercises: genuinely recursive device functions (call with a stack that ptxas cannot size
// statically): naive Fibonacci, a 64-bit factorial, and the depth of an implicit binary tree
// stored in a global array; recursion depth and call counts differ per thread (divergence).
__device__ unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ unsigned long long fact(unsigned n)
{
    return n <= 1 ? 1ull : n * fact(n - 1);
}

__device__ int depth(const unsigned char *present, int node, int m)
{
    if (node >= m || !present[node])
        return 0;
    int l = depth(present, 2 * node + 1, m);
    int r = depth(present, 2 * node + 2, m);
    return 1 + (l > r ? l : r);
}

extern "C" __global__ void call_recursive(const unsigned *ns, const unsigned char *present,
                                          unsigned *fibs, unsigned long long *facts, int *depths,
                                          unsigned n, int m)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned k = ns[i] % 13u;
    fibs[i] = fib(k);
    facts[i] = fact(ns[i] % 21u);
    depths[i] = depth(present, (int)(i % 7u), m);
}
