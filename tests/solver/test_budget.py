"""The fuzz and oracle cases' budget (:func:`tests.solver.test_fuzz.budget`): a hang fails its case,
numba compiling a kernel for the first time in this process does not."""
from __future__ import annotations

import time

import numba
import numpy as np
import pytest

from ..compile_clock import COMPILING
from .test_fuzz import budget


def _spin(seconds: float) -> None:
    """Compute (processor time) for ``seconds``."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_block_computing_past_its_budget_fails_naming_its_case():
    with pytest.raises(AssertionError, match=r"spinning: over its budget of 0\.05 s of processor time"):
        with budget(0.05, "spinning"):
            _spin(0.5)


def test_a_block_waiting_past_its_wall_budget_fails():
    with pytest.raises(AssertionError, match=r"waiting: over its budget of 0\.2 s of wall time"):
        with budget(10.0, "waiting", wall=0.2):
            time.sleep(2.0)


def test_compiling_a_kernel_is_not_counted():
    """A fresh kernel (no cache) compiles for far longer than the budget; the case passes, and
    what it computes besides still counts.  The budget of the compiling block is 10 ms: this small
    kernel compiled in 47-51 ms of processor time in a process that had loaded the solver's
    kernels, on the fastest machine the suite has run on (a budget of 50 ms failed there)."""
    @numba.njit(cache=False)
    def kernel(values):
        total = 0.0
        for value in values:
            total += value * value
        return total

    started = time.process_time()
    with budget(0.01, "compiling"):
        assert kernel(np.array([1.0, 2.0])) == 5.0
    assert time.process_time() - started > 0.01  # it did compile past the budget
    with pytest.raises(AssertionError, match="over its budget"):
        with budget(0.05, "compiling, then spinning"):
            kernel.py_func([3.0])
            _spin(0.5)


def test_the_clock_keeps_a_finished_compilation():
    """After a kernel has compiled, the time it took stays counted."""
    @numba.njit(cache=False)
    def kernel(x):
        return x + 1.0

    before = COMPILING.spent()
    started = time.perf_counter()
    kernel(1.0)
    took = time.perf_counter() - started
    cpu, wall = (after - earlier for after, earlier in zip(COMPILING.spent(), before))
    assert 0.5 * took < wall <= took and cpu > 0.0
