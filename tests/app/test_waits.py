"""The GUI tests' waits (``qtbot`` of tests/app/conftest.py): numba compiling a kernel while a
test waits for a run (a fresh checkout's worker the first to reach it) is not counted."""
from __future__ import annotations

import threading

import numba
import pytest
import pytestqt.exceptions


def _compile_a_kernel(done: list) -> None:
    @numba.njit(cache=False)
    def kernel(x):
        return x * x + 1.0

    done.append(kernel(2.0))


def test_a_wait_goes_on_while_numba_compiles(qtbot):
    done: list = []
    threading.Thread(target=_compile_a_kernel, args=(done,), daemon=True).start()
    qtbot.waitUntil(lambda: done == [5.0], timeout=20)  # compiling takes far longer than 20 ms


def test_a_wait_for_what_never_comes_still_times_out(qtbot):
    with pytest.raises(pytestqt.exceptions.TimeoutError):
        qtbot.waitUntil(lambda: False, timeout=50)
