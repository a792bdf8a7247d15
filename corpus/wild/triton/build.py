"""Compiles every kernel of kernels.py to PTX, without a GPU, for each of its compute capabilities.

Usage: build.py OUT_DIR [NAME ...]

Writes OUT_DIR/<name>.sm_<cc>.ptx for each spec and cc, and OUT_DIR/failed.txt listing the
(spec, cc) pairs Triton itself cannot compile, with Triton's one-line reason. The caller
(corpus/wild/build.sh) points Triton's ptxas knobs at the pinned ptxas 13.0.88, so that the
emitted `.version` is the one that ptxas accepts (Triton writes the version of the ptxas it finds).
"""
import os
import sys
import traceback

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels import KERNELS  # noqa: E402


def build(spec, cc):
    src = ASTSource(fn=spec.fn, signature=spec.signature, constexprs=spec.constexprs)
    opts = {"num_warps": spec.num_warps, "num_stages": spec.num_stages}
    if spec.debug:
        opts["debug"] = True
    k = triton.compile(src, target=GPUTarget("cuda", cc, 32), options=opts)
    return k.asm["ptx"]


def main():
    out = sys.argv[1]
    only = set(sys.argv[2:])
    os.makedirs(out, exist_ok=True)
    names = [s.name for s in KERNELS]
    assert len(names) == len(set(names)), "duplicate spec names"
    failed = []
    for spec in sorted(KERNELS, key=lambda s: s.name):
        if only and spec.name not in only:
            continue
        for cc in spec.ccs:
            path = os.path.join(out, f"{spec.name}.sm_{cc}.ptx")
            try:
                ptx = build(spec, cc)
            except Exception as e:  # Triton refuses: record it, keep going
                reason = " ".join(str(e).split())[:300] or type(e).__name__
                failed.append(f"{spec.name}\tsm_{cc}\t{reason}")
                traceback.print_exc(file=sys.stderr)
                continue
            with open(path + ".tmp", "w") as f:
                f.write(ptx)
            os.replace(path + ".tmp", path)
            print(f"triton: {spec.name} sm_{cc}", file=sys.stderr)
    with open(os.path.join(out, "failed.txt"), "w") as f:
        f.write("".join(line + "\n" for line in failed))
    print(f"triton: {len(failed)} (spec, cc) pairs not compiled by Triton", file=sys.stderr)


if __name__ == "__main__":
    main()
