"""numba's locked reference-count increments and its allocations per step of the slider-crank.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_refcounts.py          # 8, 64 and 256 rod elements

numba's runtime counts the references of arrays with locked (atomic) increments and
decrements; where its pruning cannot remove them they cost a large share of a compiled step
(docs/performance.md, "Reference counts, allocations and the Python of a run").  This script
replaces the runtime's increment with one that also adds one to a counter at a fixed address
(before the runtime is compiled, so it must run in a process of its own) and reads numba's
allocation statistics (``NUMBA_NRT_STATS=1``, set here before numba is imported).  An array
without an owner (:mod:`solver.borrowing`) is not counted: its increment returns at once.
"""
from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

os.environ["NUMBA_NRT_STATS"] = "1"

import numba.core.runtime.nrtdynmod as nrtdynmod  # noqa: E402
from llvmlite import ir  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench_solver import slider_crank  # noqa: E402

from solver.api import simulate  # noqa: E402

INCREMENTS = ctypes.c_int64(0)


def _counting_inc_dec(module, op, ordering):
    """numba's ``nrt_atomic_add``/``sub``, the add also counting itself in :data:`INCREMENTS`."""
    word = nrtdynmod._word_type
    fn = ir.Function(module, ir.FunctionType(word, [word.as_pointer()]), name=f"nrt_atomic_{op}")
    builder = ir.IRBuilder(fn.append_basic_block())
    one = ir.Constant(word, 1)
    if op == "add":
        counter = builder.inttoptr(ir.Constant(word, ctypes.addressof(INCREMENTS)), word.as_pointer())
        builder.store(builder.add(builder.load(counter), one), counter)
    old = builder.atomic_rmw(op, fn.args[0], one, ordering=ordering)
    builder.ret(getattr(builder, op)(old, one))
    return fn


def main() -> int:
    nrtdynmod._define_atomic_inc_dec = _counting_inc_dec
    from numba.core.runtime import rtsys

    simulate(slider_crank(2, 10, revs=0.1))  # warm-up: load the kernels
    print(f"{'elements':>9}{'steps':>7}{'increments/step':>17}{'allocations/step':>18}")
    for elements, per_rev in ((8, 1000), (64, 2000), (256, 2000)):
        doc = slider_crank(elements, per_rev)
        count, allocs = INCREMENTS.value, rtsys.get_allocation_stats().alloc
        steps = simulate(doc).meta["steps"]
        count, allocs = INCREMENTS.value - count, rtsys.get_allocation_stats().alloc - allocs
        print(f"{elements:>9}{steps:>7}{count / steps:>17.1f}{allocs / steps:>18.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
