"""A fused multiply-add for the compiled kernels (a numba intrinsic): ``a b + c`` rounded once.

The contact rows' ``J_n . q`` (:func:`solver.system.bordered.row_dot`) sums with :func:`fused` in
order, for the steps taken one by one and the compiled runs of closed steps alike
(:mod:`solver.integration.closed_steps`), so the two agree to the bit whatever BLAS numpy has.  It
is the sum numpy's dot product of two short vectors (under 32 elements) gave on the project's
machine (OpenBLAS's Haswell ``ddot``, one fused multiply-add per element in order: 20 000 random
9-element products, every one equal to the bit), so the rows' numbers are those of before.

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
