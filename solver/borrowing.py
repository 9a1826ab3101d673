"""Arrays the compiled kernels use without counting references (numba intrinsics).

numba counts the references to every array a kernel holds with atomic (locked) increments
and decrements, in every kernel that takes arrays as arguments and where it cannot prove
them redundant (branches, calls that may raise): in the compiled runs of free steps
(:mod:`solver.integration.free_steps`) some 1650 of them per step of the 8-element
slider-crank, about a tenth of the step's time.  An array with no *meminfo* (the
reference-counted owner of its memory) is never counted: both intrinsics here make such
arrays, for memory whose owner outlives every use of them.

* :func:`borrowed` — the arrays of a value (an array, or a tuple of arrays, scalars and
  tuples) as arrays without an owner: for the arguments of a kernel, which its caller keeps
  alive for the whole call; they must not be returned or kept beyond it.
* :func:`local_array` — a C-ordered float64 matrix of a constant shape on the stack of the
  calling kernel (uninitialised, like ``np.empty``): scratch that lives as long as the call.

Imported only by :func:`solver.jit.compile_kernels`, with numba (kernel modules name the
stand-ins :data:`solver.jit.borrowed` and :data:`solver.jit.local_array`).  The arithmetic of
the kernels is unchanged.
"""
from __future__ import annotations

from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic


def _borrow_value(context, builder, ty, value):
    """``value`` of type ``ty`` with the meminfo and parent of every array in it cleared."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        items = [_borrow_value(context, builder, t, builder.extract_value(value, i)) for i, t in enumerate(ty)]
        return context.make_tuple(builder, ty, items)
    return value


@intrinsic
def borrowed(typingctx, value):
    """``value`` with its arrays not reference-counted (module docstring)."""

    def codegen(context, builder, signature, args):
        return _borrow_value(context, builder, signature.args[0], args[0])

    return value(value), codegen


@intrinsic(prefer_literal=True)
def local_array(typingctx, rows, cols):
    """An uninitialised C-ordered float64 array of the constant shape ``(rows, cols)`` on the
    caller's stack."""
    if not (isinstance(rows, types.IntegerLiteral) and isinstance(cols, types.IntegerLiteral)):
        raise TypingError("local_array takes constant integer dimensions")
    dims = (rows.literal_value, cols.literal_value)
    array_type = types.Array(types.float64, 2, "C")

    def codegen(context, builder, signature, args):
        double = context.get_value_type(types.float64)
        itemsize = context.get_abi_sizeof(double)
        intp = lambda x: context.get_constant(types.intp, x)  # noqa: E731
        ary = context.make_array(array_type)(context, builder)
        context.populate_array(ary, data=cgutils.alloca_once(builder, double, size=dims[0] * dims[1]),
                               shape=[intp(dims[0]), intp(dims[1])], strides=[intp(dims[1] * itemsize), intp(itemsize)],
                               itemsize=intp(itemsize), meminfo=None)
        return ary._getvalue()

    return array_type(rows, cols), codegen
