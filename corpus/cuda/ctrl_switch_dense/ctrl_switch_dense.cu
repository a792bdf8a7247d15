// Exercises: a dense switch over 16 consecutive cases plus a default, each case doing distinct
// integer work (NVVM lowers it to a compare tree), a second inline dense switch, and a real jump
// table written in inline PTX (.branchtargets + brx.idx) inside a __noinline__ function; the
// selectors are data-dependent so warps diverge across many targets.
__device__ __noinline__ unsigned dense_op(unsigned op, unsigned a, unsigned b)
{
    unsigned r;
    switch (op) {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = a * b; break;
    case 3: r = a ^ b; break;
    case 4: r = a & b; break;
    case 5: r = a | ~b; break;
    case 6: r = a << (b & 31); break;
    case 7: r = a >> (b & 31); break;
    case 8: r = __brev(a) + b; break;
    case 9: r = __popc(a) * 1000u + __popc(b); break;
    case 10: r = __clz(a | 1u) + (b << 4); break;
    case 11: r = a > b ? a : b; break;
    case 12: r = a < b ? a : b; break;
    case 13: r = b ? a / b : 0xffffffffu; break;
    case 14: r = b ? a % b : a; break;
    case 15: r = __umulhi(a, b); break;
    default: r = 0xdeadbeefu; break;
    }
    return r;
}

// Eight-way jump table: brx.idx over a .branchtargets list (the index must be < 8).
__device__ __noinline__ unsigned jump_table(unsigned sel, unsigned x)
{
    unsigned r;
    asm volatile("{\n\t"
                 ".reg .u32 %%t;\n\t"
                 "ts: .branchtargets C0, C1, C2, C3, C4, C5, C6, C7;\n\t"
                 "brx.idx %1, ts;\n"
                 "C0:\n\tadd.u32 %0, %2, 1;\n\tbra.uni END;\n"
                 "C1:\n\tmul.lo.u32 %0, %2, 3;\n\tbra.uni END;\n"
                 "C2:\n\txor.b32 %0, %2, 0x5555;\n\tbra.uni END;\n"
                 "C3:\n\tshl.b32 %%t, %2, 4;\n\tsub.u32 %0, %%t, %2;\n\tbra.uni END;\n"
                 "C4:\n\tnot.b32 %0, %2;\n\tbra.uni END;\n"
                 "C5:\n\tbrev.b32 %0, %2;\n\tbra.uni END;\n"
                 "C6:\n\tpopc.b32 %0, %2;\n\tbra.uni END;\n"
                 "C7:\n\tshr.u32 %0, %2, 3;\n"
                 "END:\n\t}"
                 : "=r"(r)
                 : "r"(sel & 7u), "r"(x));
    return r;
}

extern "C" __global__ void ctrl_switch_dense(const unsigned *ops, const unsigned *a,
                                             const unsigned *b, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], op = ops[i];
    unsigned r = dense_op(op, x, y);
    switch (op & 7u) {   // an inline second dense switch in the kernel body
    case 0: r += 11u; break;
    case 1: r ^= x; break;
    case 2: r -= y; break;
    case 3: r = r * 3u + 1u; break;
    case 4: r = ~r; break;
    case 5: r += x >> 5; break;
    case 6: r ^= 0x80000000u; break;
    case 7: r = r >> 1 | r << 31; break;
    }
    out[i] = r + jump_table(op >> 1, x ^ y);
}
