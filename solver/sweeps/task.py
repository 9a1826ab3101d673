"""One run of a sweep as a task on a dask worker: simulate, reduce to scalars, keep
the results folder if asked.  Every failure becomes a row with its message; a run
stops at its next step once the sweep cancels its task (:func:`_task_released`).
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..integration.time_loop import run
from ..results.files import write_results
from ..results.frames import Results
from ..safe_write import safe_folder
from .scalars import run_scalars

#: states of a task on its worker while the scheduler still wants its result (any other:
#: the task was released, ``cancelled`` while it runs)
WANTED = ("executing", "long-running")


def run_variant(model: dict, collect: tuple[str, ...], results_dir: str | None) -> dict[str, Any]:
    """Simulate ``model`` and return its row of scalars (``status`` ``completed``,
    ``failed`` with ``message``, or ``cancelled``) with ``wall_time_s``, the seconds the
    run took on its worker; write its results folder to ``results_dir`` when given."""
    started = time.perf_counter()
    cancel = _task_released()
    try:
        results = _simulate(model, cancel)
        row = run_scalars(results, collect)
        if results_dir is not None and results.meta.get("status") != "cancelled":
            write_results(results, safe_folder(results_dir))  # never through a link planted there
    except Exception as exc:  # noqa: BLE001 -- a run's failure of any kind is recorded, never raised
        row = {"status": "failed", "message": f"{type(exc).__name__}: {exc}"}
    row["wall_time_s"] = time.perf_counter() - started
    return row


def _simulate(model: dict, cancel: Callable[[], bool] | None) -> Results:
    for item in run(model, cancel=cancel):
        if isinstance(item, Results):
            return item
    raise RuntimeError("the simulation ended without results")  # pragma: no cover


def _task_released() -> Callable[[], bool] | None:
    """A ``cancel()`` that turns True once the scheduler released the dask task running
    this call (the sweep cancelled its future, or its client went away); None outside a
    dask worker.

    It reads the worker's own state of the task: no message to the scheduler and no
    client in the worker (a worker's client, as a :class:`distributed.Event` needs, may
    be left half closed when its worker stops and then prints a traceback as its
    process exits)."""
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:  # not in a dask task
        return None
    task = worker.state.tasks[worker.get_current_task()]
    return lambda: task.state not in WANTED
