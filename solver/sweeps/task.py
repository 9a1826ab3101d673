"""Runs of a sweep as a task on a dask worker: simulate, reduce to scalars, keep the
results folder if asked, one run (:func:`run_variant`) or a batch of them, one after the
other (:func:`run_batch`).  Every failure becomes a row with its message; a run stops at
its next step once the sweep cancels its task (:func:`_task_released`), and a batch's runs
not started then are not started.
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


def run_batch(runs: list[tuple[dict, str | None]], collect: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows of :func:`run_variant` for each ``(model, results_dir)`` of ``runs``, in
    order; once the task is released the runs not started get ``status`` ``cancelled``."""
    cancel = _task_released()
    rows = []
    for model, results_dir in runs:
        if cancel is not None and cancel():
            rows.append({"status": "cancelled"})
        else:
            rows.append(run_variant(model, collect, results_dir, cancel))
    return rows


def run_variant(model: dict, collect: tuple[str, ...], results_dir: str | None,
                cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Simulate ``model`` and return its row of scalars (``status`` ``completed``,
    ``failed`` with ``message``, or ``cancelled``) with ``wall_time_s``, the seconds the
    run took on its worker; write its results folder to ``results_dir`` when given.  The run
    stops at its next step once ``cancel()`` is True (default: its dask task released)."""
    started = time.perf_counter()
    cancel = cancel or _task_released()
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
