"""One run of a sweep as a task on a dask worker: simulate, reduce to scalars, keep
the results folder if asked.  Every failure becomes a row with its message; the
sweep's cancel is a :class:`distributed.Event` the run polls between steps.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from ..integration.time_loop import run
from ..results.files import write_results
from ..results.frames import Results
from .scalars import run_scalars

#: seconds between two looks at the sweep's cancel event from inside a run
CANCEL_POLL_S = 0.5


def run_variant(model: dict, collect: tuple[str, ...], results_dir: str | None,
                cancel_event: str | None = None) -> dict[str, Any]:
    """Simulate ``model`` and return its row of scalars (``status`` ``completed``,
    ``failed`` with ``message``, or ``cancelled``) with ``wall_time_s``, the seconds the
    run took on its worker; write its results folder to ``results_dir`` when given."""
    started = time.perf_counter()
    cancel = _cancel_poller(cancel_event)
    try:
        results = _simulate(model, cancel)
        row = run_scalars(results, collect)
        if results_dir is not None and results.meta.get("status") != "cancelled":
            write_results(results, Path(results_dir))
    except Exception as exc:  # noqa: BLE001 -- a run's failure of any kind is recorded, never raised
        row = {"status": "failed", "message": f"{type(exc).__name__}: {exc}"}
    row["wall_time_s"] = time.perf_counter() - started
    return row


def _simulate(model: dict, cancel: Callable[[], bool] | None) -> Results:
    for item in run(model, cancel=cancel):
        if isinstance(item, Results):
            return item
    raise RuntimeError("the simulation ended without results")  # pragma: no cover


def _cancel_poller(name: str | None) -> Callable[[], bool] | None:
    """A ``cancel()`` that asks the scheduler at most every :data:`CANCEL_POLL_S` s
    whether the sweep's event ``name`` is set, the first time after that long (a short
    run never waits for the scheduler); None outside a sweep."""
    if name is None:
        return None
    from distributed import Event

    event = Event(name)
    state = {"next": time.monotonic() + CANCEL_POLL_S, "set": False}

    def cancel() -> bool:
        now = time.monotonic()
        if not state["set"] and now >= state["next"]:
            state["next"] = now + CANCEL_POLL_S
            state["set"] = event.is_set()
        return state["set"]

    return cancel
