"""Triton kernels of the wild corpus: real Triton programs, compiled (no GPU) to PTX by build.py.

Each entry of KERNELS is a Spec: a @triton.jit function, its signature (Triton's type names),
the constexpr values, launch options (num_warps, num_stages) and the compute capabilities it is
built for. One kernel function may appear in several specs (tile configurations); each spec has
a unique name, which is the PTX file's stem.
"""
from dataclasses import dataclass, field

import triton
import triton.language as tl


@dataclass
class Spec:
    name: str
    fn: object
    signature: dict
    constexprs: dict = field(default_factory=dict)
    num_warps: int = 4
    num_stages: int = 3
    ccs: tuple = (80, 90)
    debug: bool = False


# ----------------------------------------------------------------------------- elementwise
@triton.jit
def add_kernel(x, y, z, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(z + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def fma_f16_kernel(x, y, z, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=0.0)
    b = tl.load(y + offs, mask=m, other=0.0)
    c = tl.load(z + offs, mask=m, other=0.0)
    tl.store(out + offs, a * b + c * 0.5, mask=m)


@triton.jit
def gelu_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    r = 0.5 * v * (1.0 + t)
    tl.store(out + offs, r.to(out.dtype.element_ty), mask=m)


@triton.jit
def silu_mul_kernel(gate, up, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    g = tl.load(gate + offs, mask=m, other=0.0).to(tl.float32)
    u = tl.load(up + offs, mask=m, other=0.0).to(tl.float32)
    r = g * tl.sigmoid(g) * u
    tl.store(out + offs, r.to(tl.bfloat16), mask=m)


@triton.jit
def math_f32_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1.0)
    r = tl.exp(v) + tl.log(tl.abs(v) + 1.0) + tl.sqrt(tl.abs(v)) + tl.sin(v) * tl.cos(v)
    r = r + tl.math.rsqrt(tl.abs(v) + 1e-3) + tl.math.erf(v) + tl.floor(v) + tl.ceil(v)
    tl.store(out + offs, tl.where(v > 0, r, -r), mask=m)


@triton.jit
def f64_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=1.0)
    b = tl.load(y + offs, mask=m, other=1.0)
    r = tl.sqrt(a * a + b * b) / (b + 3.0) + tl.math.fma(a, b, 1.0)
    tl.store(out + offs, r, mask=m)


@triton.jit
def int_bits_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=0)
    b = tl.load(y + offs, mask=m, other=1)
    r = (a ^ (b << 3)) + (a >> 5) - (b & 0xFF) * 7 + a // (b | 1) + a % (b | 1)
    r = r + tl.umulhi(a.to(tl.uint32), b.to(tl.uint32)).to(tl.int32)
    tl.store(out + offs, tl.maximum(r, tl.minimum(a, b)), mask=m)


@triton.jit
def i64_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=0)
    r = a * 6364136223846793005 + 1442695040888963407
    r = r ^ (r >> 33)
    tl.store(out + offs, r, mask=m)


@triton.jit
def dropout_kernel(x, out, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    tl.store(out + offs, tl.where(keep, v / (1 - p), 0.0), mask=m)


@triton.jit
def rotary_kernel(q, cos, sin, out, seqlen, HALF: tl.constexpr):
    row = tl.program_id(0)
    pos = row % seqlen
    d = tl.arange(0, HALF)
    x1 = tl.load(q + row * 2 * HALF + d).to(tl.float32)
    x2 = tl.load(q + row * 2 * HALF + HALF + d).to(tl.float32)
    c = tl.load(cos + pos * HALF + d)
    s = tl.load(sin + pos * HALF + d)
    tl.store(out + row * 2 * HALF + d, (x1 * c - x2 * s).to(tl.float16))
    tl.store(out + row * 2 * HALF + HALF + d, (x1 * s + x2 * c).to(tl.float16))


@triton.jit
def stencil_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs > 0) & (offs < n - 1)
    l = tl.load(x + offs - 1, mask=m, other=0.0)
    c = tl.load(x + offs, mask=m, other=0.0)
    r = tl.load(x + offs + 1, mask=m, other=0.0)
    tl.store(out + offs, 0.25 * l + 0.5 * c + 0.25 * r, mask=m)


@triton.jit
def transpose_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x + rm[:, None] * N + rn[None, :], mask=m)
    tl.store(out + rn[None, :] * M + rm[:, None], v, mask=m)


# ----------------------------------------------------------------------------- reductions
@triton.jit
def softmax_kernel(x, out, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=m, other=-float("inf")).to(tl.float32)
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    r = e / tl.sum(e, axis=0)
    tl.store(out + row * stride + cols, r.to(out.dtype.element_ty), mask=m)


@triton.jit
def online_softmax_kernel(x, out, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    mx = tl.full([BLOCK], -float("inf"), tl.float32)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x + row * stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        nm = tl.maximum(mx, v)
        acc = acc * tl.exp(mx - nm) + tl.exp(v - nm)
        mx = nm
    gm = tl.max(mx, axis=0)
    total = tl.sum(acc * tl.exp(mx - gm), axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x + row * stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        tl.store(out + row * stride + cols, (tl.exp(v - gm) / total).to(tl.float16), mask=cols < n_cols)


@triton.jit
def layernorm_fwd_kernel(x, w, b, y, mean_out, rstd_out, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(v, axis=0) / N
    d = tl.where(m, v - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    wv = tl.load(w + cols, mask=m)
    bv = tl.load(b + cols, mask=m)
    tl.store(y + row * stride + cols, (d * rstd * wv + bv).to(y.dtype.element_ty), mask=m)
    tl.store(mean_out + row, mean)
    tl.store(rstd_out + row, rstd)


@triton.jit
def layernorm_bwd_kernel(dy, x, w, mean, rstd, dx, dw_partial, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    xv = tl.load(x + row * stride + cols, mask=m, other=0).to(tl.float32)
    g = tl.load(dy + row * stride + cols, mask=m, other=0).to(tl.float32)
    wv = tl.load(w + cols, mask=m).to(tl.float32)
    mu = tl.load(mean + row)
    rs = tl.load(rstd + row)
    xhat = tl.where(m, (xv - mu) * rs, 0.0)
    wdy = tl.where(m, wv * g, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(dx + row * stride + cols, ((wdy - (xhat * c1 + c2)) * rs).to(tl.float16), mask=m)
    tl.atomic_add(dw_partial + cols, g * xhat, mask=m)


@triton.jit
def rmsnorm_kernel(x, w, y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    r = tl.math.rsqrt(tl.sum(v * v, axis=0) / N + eps)
    wv = tl.load(w + cols, mask=m).to(tl.float32)
    tl.store(y + row * stride + cols, (v * r * wv).to(tl.bfloat16), mask=m)


@triton.jit
def sum_atomic_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out, tl.sum(v, axis=0))


@triton.jit
def rowmax_kernel(x, out, idx, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x + rm[:, None] * N + rn[None, :], mask=m, other=-2147483647)
    tl.store(out + rm, tl.max(v, axis=1), mask=rm < M)
    tl.store(idx + rm, tl.argmax(v, axis=1), mask=rm < M)


@triton.jit
def cumsum_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=0)
    tl.store(out + row * N + cols, tl.cumsum(v, axis=0), mask=cols < N)


@triton.jit
def _combine_affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_scan_kernel(a, b, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    av = tl.load(a + row * N + cols, mask=m, other=1.0)
    bv = tl.load(b + row * N + cols, mask=m, other=0.0)
    _, h = tl.associative_scan((av, bv), axis=0, combine_fn=_combine_affine)
    tl.store(out + row * N + cols, h, mask=m)


@triton.jit
def cross_entropy_kernel(logits, labels, loss, stride, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < V
    v = tl.load(logits + row * stride + cols, mask=m, other=-float("inf")).to(tl.float32)
    mx = tl.max(v, axis=0)
    lse = tl.log(tl.sum(tl.exp(v - mx), axis=0)) + mx
    lab = tl.load(labels + row)
    tgt = tl.load(logits + row * stride + lab).to(tl.float32)
    tl.store(loss + row, lse - tgt)


@triton.jit
def sort_kernel(x, out, N: tl.constexpr):
    v = tl.load(x + tl.program_id(0) * N + tl.arange(0, N))
    tl.store(out + tl.program_id(0) * N + tl.arange(0, N), tl.sort(v, descending=True))


@triton.jit
def histogram_kernel(x, out, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0)
    h = tl.histogram(v, BINS)
    tl.atomic_add(out + tl.arange(0, BINS), h)


# ----------------------------------------------------------------------------- atomics
@triton.jit
def atomics_kernel(x, cnt, mx, mn, flags, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0)
    tl.atomic_add(cnt + (v & 15), 1, mask=m)
    tl.atomic_max(mx, tl.max(v, axis=0))
    tl.atomic_min(mn, tl.min(v, axis=0))
    tl.atomic_or(flags + (v & 3), 1 << (v & 31), mask=m)
    tl.atomic_xchg(flags + 4, tl.program_id(0))


@triton.jit
def spinlock_kernel(lock, counter, out):
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    c = tl.load(counter, volatile=True)
    tl.store(counter, c + 1)
    tl.store(out + tl.program_id(0), c)
    tl.atomic_xchg(lock, 0)


# ----------------------------------------------------------------------------- memory patterns
@triton.jit
def gather_kernel(src, idx, out, n, D: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = rows < n
    i = tl.load(idx + rows, mask=m, other=0)
    d = tl.arange(0, D)
    v = tl.load(src + i[:, None] * D + d[None, :], mask=m[:, None])
    tl.store(out + rows[:, None] * D + d[None, :], v, mask=m[:, None])


@triton.jit
def scatter_add_kernel(src, idx, out, n, D: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = rows < n
    i = tl.load(idx + rows, mask=m, other=0)
    d = tl.arange(0, D)
    v = tl.load(src + rows[:, None] * D + d[None, :], mask=m[:, None])
    tl.atomic_add(out + i[:, None] * D + d[None, :], v, mask=m[:, None])


@triton.jit
def embedding_kernel(table, ids, out, dim, BLOCK: tl.constexpr):
    tok = tl.program_id(0)
    i = tl.load(ids + tok).to(tl.int64)
    d = tl.arange(0, BLOCK)
    v = tl.load(table + i * dim + d, mask=d < dim)
    tl.store(out + tok * dim + d, v, mask=d < dim)


# ----------------------------------------------------------------------------- quantisation
@triton.jit
def quant_int8_kernel(x, q, scale, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * N + cols, mask=m, other=0.0).to(tl.float32)
    s = tl.max(tl.abs(v), axis=0) / 127.0
    r = tl.extra.cuda.libdevice.rint(v / s)
    tl.store(q + row * N + cols, r.to(tl.int8), mask=m)
    tl.store(scale + row, s)


@triton.jit
def dequant_int8_kernel(q, scale, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(q + row * N + cols, mask=m, other=0).to(tl.float32)
    tl.store(out + row * N + cols, (v * tl.load(scale + row)).to(tl.float16), mask=m)


@triton.jit
def quant_fp8_kernel(x, q, scale, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * N + cols, mask=m, other=0.0).to(tl.float32)
    s = tl.max(tl.abs(v), axis=0) / 448.0
    tl.store(q + row * N + cols, (v / s).to(tl.float8e4nv), mask=m)
    tl.store(scale + row, s)


@triton.jit
def int4_unpack_kernel(packed, scale, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    b = tl.load(packed + row * N + cols, mask=m, other=0).to(tl.int32)
    lo = ((b & 15) - 8).to(tl.float32)
    hi = (((b >> 4) & 15) - 8).to(tl.float32)
    s = tl.load(scale + row)
    tl.store(out + row * 2 * N + 2 * cols, (lo * s).to(tl.bfloat16), mask=m)
    tl.store(out + row * 2 * N + 2 * cols + 1, (hi * s).to(tl.bfloat16), mask=m)


# ----------------------------------------------------------------------------- matmul
@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                  PREC: tl.constexpr, ACT: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    per_group = GROUP * npn
    gid = pid // per_group
    first = gid * GROUP
    gsz = min(npm - first, GROUP)
    pm = first + (pid % per_group) % gsz
    pn = (pid % per_group) // gsz
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        av = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        bv = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(av, bv, acc, input_precision=PREC)
        pa += BK * sak
        pb += BK * sbk
    if ACT == 1:
        acc = tl.maximum(acc, 0.0)
    out = acc.to(c.dtype.element_ty)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, out, mask=mask)


@triton.jit
def matmul_int8_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        av = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        bv = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(av, bv)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_splitk_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         SPLIT: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    pk = tl.program_id(2)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(pk * BK, K, BK * SPLIT):
        rk = k + tl.arange(0, BK)
        av = tl.load(a + rm[:, None] * K + rk[None, :], mask=rk[None, :] < K, other=0.0)
        bv = tl.load(b + rk[:, None] * N + rn[None, :], mask=rk[:, None] < K, other=0.0)
        acc = tl.dot(av, bv, acc)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c + rm[:, None] * N + rn[None, :], acc, mask=m)


@triton.jit
def bmm_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    bid = tl.program_id(2).to(tl.int64)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    a += bid * M * K
    b += bid * K * N
    c += bid * M * N
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        rk = k + tl.arange(0, BK)
        acc += tl.dot(tl.load(a + rm[:, None] * K + rk[None, :]), tl.load(b + rk[:, None] * N + rn[None, :]))
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def persistent_matmul_kernel(a, b, c, M, N, K, NUM_SMS: tl.constexpr,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), npm * npn, NUM_SMS):
        rm = (tile // npn) * BM + tl.arange(0, BM)
        rn = (tile % npn) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            rk = k + tl.arange(0, BK)
            av = tl.load(a + rm[:, None] * K + rk[None, :], mask=rm[:, None] < M, other=0.0)
            bv = tl.load(b + rk[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
            acc = tl.dot(av, bv, acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


# ----------------------------------------------------------------------------- attention
@triton.jit
def attn_fwd_kernel(q, k, v, o, lse, sm_scale, L, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                    CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    off = bh * L * D
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qv = tl.load(q + off + rm[:, None] * D + rd[None, :], mask=rm[:, None] < L, other=0.0)
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    hi = (start_m + 1) * BM if CAUSAL else L
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        kv = tl.load(k + off + rn[None, :] * D + rd[:, None], mask=rn[None, :] < L, other=0.0)
        s = tl.dot(qv, kv) * sm_scale
        if CAUSAL:
            s = tl.where(rm[:, None] >= rn[None, :], s, -float("inf"))
        s = tl.where(rn[None, :] < L, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2((s - m_new[:, None]) * 1.44269504)
        alpha = tl.exp2((m_i - m_new) * 1.44269504)
        l_i = l_i * alpha + tl.sum(p, 1)
        vv = tl.load(v + off + rn[:, None] * D + rd[None, :], mask=rn[:, None] < L, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(vv.dtype), vv)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(lse + bh * L + rm, m_i + tl.log(l_i), mask=rm < L)
    tl.store(o + off + rm[:, None] * D + rd[None, :], acc.to(o.dtype.element_ty), mask=rm[:, None] < L)


@triton.jit
def attn_bwd_preprocess_kernel(o, do, delta, L, D: tl.constexpr, BM: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    bh = tl.program_id(1).to(tl.int64)
    rd = tl.arange(0, D)
    ov = tl.load(o + bh * L * D + rm[:, None] * D + rd[None, :]).to(tl.float32)
    dov = tl.load(do + bh * L * D + rm[:, None] * D + rd[None, :]).to(tl.float32)
    tl.store(delta + bh * L + rm, tl.sum(ov * dov, axis=1))


@triton.jit
def attn_bwd_dkdv_kernel(q, k, v, do, lse, delta, dk, dv, sm_scale, L,
                         D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_n = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    off = bh * L * D
    rn = start_n * BN + tl.arange(0, BN)
    rd = tl.arange(0, D)
    kv = tl.load(k + off + rn[:, None] * D + rd[None, :])
    vv = tl.load(v + off + rn[:, None] * D + rd[None, :])
    dk_acc = tl.zeros([BN, D], tl.float32)
    dv_acc = tl.zeros([BN, D], tl.float32)
    for start_m in range(0, L, BM):
        rm = start_m + tl.arange(0, BM)
        qT = tl.load(q + off + rm[None, :] * D + rd[:, None])
        l = tl.load(lse + bh * L + rm)
        sT = tl.dot(kv, qT) * sm_scale
        pT = tl.exp(sT - l[None, :])
        dov = tl.load(do + off + rm[:, None] * D + rd[None, :])
        dv_acc += tl.dot(pT.to(tl.float16), dov)
        dpT = tl.dot(vv, tl.trans(dov))
        dl = tl.load(delta + bh * L + rm)
        dsT = pT * (dpT - dl[None, :])
        dk_acc += tl.dot(dsT.to(tl.float16), tl.trans(qT))
    tl.store(dk + off + rn[:, None] * D + rd[None, :], (dk_acc * sm_scale).to(tl.float16))
    tl.store(dv + off + rn[:, None] * D + rd[None, :], dv_acc.to(tl.float16))


@triton.jit
def attn_bwd_dq_kernel(q, k, v, do, lse, delta, dq, sm_scale, L,
                       D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    off = bh * L * D
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qv = tl.load(q + off + rm[:, None] * D + rd[None, :])
    dov = tl.load(do + off + rm[:, None] * D + rd[None, :])
    l = tl.load(lse + bh * L + rm)
    dl = tl.load(delta + bh * L + rm)
    dq_acc = tl.zeros([BM, D], tl.float32)
    for start_n in range(0, L, BN):
        rn = start_n + tl.arange(0, BN)
        kT = tl.load(k + off + rn[None, :] * D + rd[:, None])
        vT = tl.load(v + off + rn[None, :] * D + rd[:, None])
        p = tl.exp(tl.dot(qv, kT) * sm_scale - l[:, None])
        dp = tl.dot(dov, vT)
        ds = p * (dp - dl[:, None])
        dq_acc += tl.dot(ds.to(tl.float16), tl.trans(kT))
    tl.store(dq + off + rm[:, None] * D + rd[None, :], (dq_acc * sm_scale).to(tl.float16))


# ----------------------------------------------------------------------------- debugging aids
@triton.jit
def assert_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0)
    tl.device_assert(v >= 0, "negative input")
    tl.store(out + offs, v * 2, mask=offs < n)


@triton.jit
def print_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.device_print("v", v)


# ----------------------------------------------------------------------------- the list
P = "*fp32"
H = "*fp16"
B = "*bf16"
I = "i32"
F = "fp32"


def _sig(fn, types):
    names = fn.arg_names
    assert len(names) == len(types), (fn.__name__, names, types)
    return dict(zip(names, types))


def _spec(name, fn, types, constexprs, **kw):
    sig = _sig(fn, [t if t is not None else "constexpr" for t in types])
    return Spec(name, fn, sig, constexprs, **kw)


def _mm(name, ab, c, BM, BN, BK, prec="tf32", act=0, warps=4, stages=3, ccs=(80, 90)):
    return _spec(name, matmul_kernel, [ab, ab, c] + [I] * 9 + [None] * 6,
                 dict(BM=BM, BN=BN, BK=BK, GROUP=8, PREC=prec, ACT=act),
                 num_warps=warps, num_stages=stages, ccs=ccs)


KERNELS = [
    _spec("add_f32", add_kernel, [P, P, P, I, None], dict(BLOCK=1024)),
    _spec("add_i64", add_kernel, ["*i64", "*i64", "*i64", I, None], dict(BLOCK=256), num_warps=2),
    _spec("fma_f16", fma_f16_kernel, [H, H, H, H, I, None], dict(BLOCK=1024)),
    _spec("gelu_bf16", gelu_kernel, [B, B, I, None], dict(BLOCK=512)),
    _spec("silu_mul_bf16", silu_mul_kernel, [B, B, B, I, None], dict(BLOCK=1024)),
    _spec("math_f32", math_f32_kernel, [P, P, I, None], dict(BLOCK=256)),
    _spec("f64_arith", f64_kernel, ["*fp64", "*fp64", "*fp64", I, None], dict(BLOCK=256)),
    _spec("int_bits", int_bits_kernel, ["*i32", "*i32", "*i32", I, None], dict(BLOCK=512)),
    _spec("i64_hash", i64_kernel, ["*i64", "*i64", "i64", None], dict(BLOCK=256)),
    _spec("dropout", dropout_kernel, [P, P, I, F, I, None], dict(BLOCK=1024)),
    _spec("rotary_f16", rotary_kernel, [H, P, P, H, I, None], dict(HALF=64), num_warps=2),
    _spec("stencil_f32", stencil_kernel, [P, P, I, None], dict(BLOCK=512)),
    _spec("transpose_f16", transpose_kernel, [H, H, I, I, None, None], dict(BM=64, BN=64)),
    _spec("softmax_f32", softmax_kernel, [P, P, I, I, None], dict(BLOCK=1024)),
    _spec("softmax_f16_w8", softmax_kernel, [H, H, I, I, None], dict(BLOCK=4096), num_warps=8),
    _spec("online_softmax", online_softmax_kernel, [H, H, I, I, None], dict(BLOCK=512)),
    _spec("layernorm_fwd", layernorm_fwd_kernel, [H, H, H, H, P, P, I, I, F, None], dict(BLOCK=1024)),
    _spec("layernorm_bwd", layernorm_bwd_kernel, [H, H, H, P, P, H, P, I, I, None], dict(BLOCK=1024)),
    _spec("rmsnorm", rmsnorm_kernel, [B, B, B, I, I, F, None], dict(BLOCK=2048), num_warps=8),
    _spec("sum_atomic", sum_atomic_kernel, [P, P, I, None], dict(BLOCK=2048)),
    _spec("rowmax_argmax", rowmax_kernel, ["*i32", "*i32", "*i32", I, I, None, None], dict(BM=16, BN=128)),
    _spec("cumsum_i32", cumsum_kernel, ["*i32", "*i32", I, None], dict(BLOCK=1024)),
    _spec("linear_scan", linear_scan_kernel, [P, P, P, I, None], dict(BLOCK=512)),
    _spec("cross_entropy", cross_entropy_kernel, [B, "*i64", P, I, I, None], dict(BLOCK=4096), num_warps=8),
    _spec("sort_f32", sort_kernel, [P, P, None], dict(N=256)),
    _spec("histogram", histogram_kernel, ["*i32", "*i32", I, None, None], dict(BLOCK=1024, BINS=64)),
    _spec("atomics_i32", atomics_kernel, ["*i32"] * 5 + [I, None], dict(BLOCK=256)),
    _spec("spinlock", spinlock_kernel, ["*i32", "*i32", "*i32"], {}, num_warps=1),
    _spec("gather_rows", gather_kernel, [H, "*i32", H, I, None, None], dict(D=64, BLOCK=32)),
    _spec("scatter_add", scatter_add_kernel, [P, "*i64", P, I, None, None], dict(D=32, BLOCK=32)),
    _spec("embedding", embedding_kernel, [B, "*i32", B, I, None], dict(BLOCK=1024)),
    _spec("quant_int8", quant_int8_kernel, [H, "*i8", P, I, None], dict(BLOCK=1024)),
    _spec("dequant_int8", dequant_int8_kernel, ["*i8", P, H, I, None], dict(BLOCK=1024)),
    _spec("quant_fp8", quant_fp8_kernel, [B, "*fp8e4nv", P, I, None], dict(BLOCK=1024), ccs=(90,)),
    _spec("int4_unpack", int4_unpack_kernel, ["*u8", H, B, I, None], dict(BLOCK=512)),
    _mm("matmul_f16_128x128x32", H, H, 128, 128, 32, warps=4, stages=3),
    _mm("matmul_f16_64x64x32", H, H, 64, 64, 32, warps=4, stages=4),
    _mm("matmul_f16_128x256x64_w8", H, H, 128, 256, 64, warps=8, stages=3),
    _mm("matmul_f16_relu_32x32x32", H, H, 32, 32, 32, act=1, warps=2, stages=2),
    _mm("matmul_bf16_128x64x64", B, B, 128, 64, 64, warps=4, stages=4),
    _mm("matmul_bf16_64x128x32_f32out", B, P, 64, 128, 32, warps=4, stages=3),
    _mm("matmul_tf32_64x64x32", P, P, 64, 64, 32, prec="tf32", warps=4, stages=3),
    _mm("matmul_tf32x3_64x64x32", P, P, 64, 64, 32, prec="tf32x3", warps=4, stages=2),
    _mm("matmul_ieee_32x32x16", P, P, 32, 32, 16, prec="ieee", warps=4, stages=2),
    _mm("matmul_fp8e4_128x128x64", "*fp8e4nv", H, 128, 128, 64, warps=8, stages=3, ccs=(90,)),
    _mm("matmul_fp8e5_64x64x64", "*fp8e5", H, 64, 64, 64, warps=4, stages=3, ccs=(90,)),
    _spec("matmul_int8", matmul_int8_kernel, ["*i8", "*i8", "*i32", I, I, I, None, None, None],
          dict(BM=64, BN=64, BK=64)),
    _spec("matmul_splitk_f16", matmul_splitk_kernel, [H, H, P, I, I, I, None, None, None, None],
          dict(BM=64, BN=64, BK=32, SPLIT=4)),
    _spec("bmm_f16", bmm_kernel, [H, H, H, I, I, I, None, None, None], dict(BM=64, BN=64, BK=32)),
    _spec("persistent_matmul_f16", persistent_matmul_kernel, [H, H, H, I, I, I, None, None, None, None],
          dict(NUM_SMS=132, BM=128, BN=128, BK=64), num_warps=8),
    _spec("attn_fwd_d64", attn_fwd_kernel, [H, H, H, H, P, F, I, None, None, None, None],
          dict(D=64, BM=128, BN=64, CAUSAL=False), num_warps=4),
    _spec("attn_fwd_causal_d128", attn_fwd_kernel, [B, B, B, B, P, F, I, None, None, None, None],
          dict(D=128, BM=64, BN=32, CAUSAL=True), num_warps=8, num_stages=2),
    _spec("attn_bwd_preprocess", attn_bwd_preprocess_kernel, [H, H, P, I, None, None], dict(D=64, BM=64)),
    _spec("attn_bwd_dkdv", attn_bwd_dkdv_kernel, [H, H, H, H, P, P, H, H, F, I, None, None, None],
          dict(D=64, BM=32, BN=64), num_warps=4, num_stages=2),
    _spec("attn_bwd_dq", attn_bwd_dq_kernel, [H, H, H, H, P, P, H, F, I, None, None, None],
          dict(D=64, BM=64, BN=32), num_warps=4, num_stages=2),
    _spec("assert_i32", assert_kernel, ["*i32", "*i32", I, None], dict(BLOCK=256), debug=True),
    _spec("print_f32", print_kernel, [P, I, None], dict(BLOCK=128), num_warps=1),
]
