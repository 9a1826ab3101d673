"""A worker plugin of a sweep's cluster: each worker loads the solver and its compiled
kernels from numba's cache once, as it starts, instead of in its first run.

Without it the first run on each worker pays the solver's imports and the loading of every
kernel it calls (about 2 s on the project's machine, issue 28), twenty times a run of the
rigid rod.  :meth:`WarmKernels.setup` starts a thread that imports the solver's time loop
(and with it every kernel module a run uses), numba and its runtime
(:func:`solver.jit.start_runtime`), then loads every cached signature of every kernel of
the solver (:func:`solver.jit.load_signatures`: mostly LLVM parsing bitcode, without the
GIL).  The worker answers the scheduler meanwhile; a run that comes before the thread is
done finds part of its kernels loaded and loads the rest itself (numba's compiler lock), as
without the plugin.  Teardown waits for the thread: a thread inside LLVM as the process
exits can crash it.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Callable

from distributed import WorkerPlugin

#: seconds a closing worker waits for its kernels still loading
LOAD_WAIT_S = 60.0
#: seconds between two looks whether the worker still runs a task
PAUSE_S = 0.05
#: the package whose kernels are loaded
PACKAGE = "solver"


class WarmKernels(WorkerPlugin):
    """Loads the solver's compiled kernels on a thread of its worker as the worker starts."""

    name = "flexmech-warm-kernels"

    def setup(self, worker) -> None:
        self._closing = threading.Event()
        self._thread = threading.Thread(target=load_solver_kernels,
                                        args=(lambda: bool(worker.state.executing), self._closing),
                                        name="flexmech-warm-kernels", daemon=True)
        self._thread.start()

    def teardown(self, worker) -> None:
        self._closing.set()
        self._thread.join(LOAD_WAIT_S)


#: set once :func:`load_solver_kernels` has loaded the kernels in this process
loaded = threading.Event()


def load_solver_kernels(busy: Callable[[], bool] = lambda: False, stop: threading.Event | None = None) -> int:
    """Import what a run uses and load every cached signature of the solver's kernels,
    each once ``busy()`` is False, until ``stop`` is set; return how many were loaded
    (and set :data:`loaded` when all were)."""
    from ..integration.preload import first_kernels
    from ..jit import cached_signatures, load_signatures, start_runtime
    from . import task  # noqa: F401 -- the time loop and every kernel module a run imports

    start_runtime().join()
    first = list(first_kernels())
    pairs = cached_signatures(first + [k for k in solver_kernels() if k not in first])
    stop = stop or threading.Event()
    for count, pair in enumerate(pairs):
        while busy() and not stop.is_set():
            time.sleep(PAUSE_S)
        if stop.is_set():
            return count
        load_signatures([pair])
    loaded.set()
    return len(pairs)


def solver_kernels() -> list:
    """The numba dispatchers of the solver's kernels in the modules imported so far, each once."""
    from numba.core.registry import CPUDispatcher

    found: dict[int, object] = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == PACKAGE and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, CPUDispatcher):
                    found.setdefault(id(value), value)
    return list(found.values())
