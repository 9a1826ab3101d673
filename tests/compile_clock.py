"""Time numba spends compiling, for the waits and budgets of tests that must not count it.

In a fresh checkout a test may be the first in its process to reach a kernel (the whole suite's
workers share numba's cache, but each compiles what none has cached yet): the kernel compiles for
minutes inside the test's run, which is not what a run's budget or a window's wait is there to
bound (the per-test timeout still bounds it).
"""
from __future__ import annotations

import time

from numba.core import event as numba_event


class CompileClock(numba_event.Listener):
    """Processor and wall time (s) numba has spent compiling in this process, counted around the
    outermost compilation (a kernel's callees compile inside it)."""

    def __init__(self) -> None:
        self._depth = 0
        self._spent = (0.0, 0.0)
        self._since = (0.0, 0.0)

    def on_start(self, event) -> None:
        if self._depth == 0:
            self._since = (time.process_time(), time.perf_counter())
        self._depth += 1

    def on_end(self, event) -> None:
        if self._depth == 1:
            self._spent = self.spent()
        self._depth -= 1

    def spent(self) -> tuple[float, float]:
        """(processor, wall) time compiling so far, a compilation under way included."""
        if self._depth == 0:
            return self._spent
        return (self._spent[0] + time.process_time() - self._since[0],
                self._spent[1] + time.perf_counter() - self._since[1])


#: the process's clock, counting from the import of this module
COMPILING = CompileClock()
numba_event.register("numba:compile", COMPILING)
