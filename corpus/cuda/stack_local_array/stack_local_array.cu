// Exercises: a per-thread local array indexed with data-dependent indices (cannot be promoted
// to registers: ld.local/st.local through the stack frame, %SP/%SPL setup), read-modify-write
// of dynamically indexed elements, a small local array of doubles and a struct array.
struct Cell {
    unsigned key;
    unsigned short cnt;
    unsigned char flag;
};

extern "C" __global__ void stack_local_array(const unsigned *in, const unsigned *idx, unsigned *out,
                                             double *dout, unsigned n, unsigned m)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned buf[32];
    double dv[8];
    Cell cells[6];
    for (int k = 0; k < 32; ++k)
        buf[k] = in[(i * 3u + (unsigned)k) % n] ^ (unsigned)k;
    for (int k = 0; k < 8; ++k)
        dv[k] = (double)buf[k * 4] * 0.25;
    for (int k = 0; k < 6; ++k)
        cells[k] = Cell{buf[k], 0, 0};
    for (unsigned k = 0; k < 16; ++k) {
        unsigned j = idx[(i + k) % m] & 31u;
        buf[j] += buf[(j * 5u + k) & 31u];
        dv[j & 7u] += (double)(j + k);
        Cell &c = cells[j % 6u];
        c.cnt++;
        c.flag |= (unsigned char)(1u << (k & 7u));
        c.key ^= buf[j];
    }
    unsigned h = 0;
    for (int k = 0; k < 32; ++k)
        h = h * 16777619u ^ buf[k];
    unsigned t = 0;
    for (int k = 0; k < 6; ++k)
        t += cells[k].key + ((unsigned)cells[k].cnt << 8) + cells[k].flag;
    unsigned sel = in[i] & 31u;
    out[i * 3] = h;
    out[i * 3 + 1] = buf[sel];
    out[i * 3 + 2] = t;
    dout[i] = dv[sel & 7u] - dv[(sel >> 3) & 7u];
}
