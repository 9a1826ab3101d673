"""A fused multiply-add for the compiled kernels (a numba intrinsic): ``a b + c`` rounded once.

numpy's dot product of two short vectors (under 32 elements) is OpenBLAS's ``ddot``, which sums
them in order with one fused multiply-add per element (measured on the project's machine: its
Haswell kernel, 20 000 random 9-element products, every one equal to the bit).  A kernel that
must give the same number as a dot product numpy takes in Python (the contact rows' right-hand
side, :mod:`solver.integration.closed_steps`) sums with :func:`fused` in the same order.

Imported only by :func:`solver.jit.compile_kernels`, with numba (kernel modules name the
stand-in :data:`solver.jit.fused`).
"""
from __future__ import annotations

from numba.core import types
from numba.extending import intrinsic


@intrinsic
def fused(typingctx, a, b, c):
    """``a b + c`` of three float64, rounded once (LLVM's ``fma``)."""
    signature = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, sig, args):
        return builder.fma(*args)

    return signature, codegen
