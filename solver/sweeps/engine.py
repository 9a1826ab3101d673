"""Running a sweep: plan the runs (validated, minus those the folder's table already
holds), execute them as dask tasks, record each row as it arrives.

>>> from solver.sweeps import parse_vary, run_sweep, SweepSpec      # doctest: +SKIP
>>> spec = SweepSpec((parse_vary("contacts[B-ground].e=0:1:11"),))  # doctest: +SKIP
>>> outcome = run_sweep(model, spec, "sweep-e", workers=2)          # doctest: +SKIP
>>> outcome.completed, outcome.failed                               # doctest: +SKIP
(11, 0)
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..results.outputs import model_layout
from ..safe_write import safe_folder
from .cluster import sweep_client
from .scalars import collect_problems
from .spec import SweepError, SweepSpec
from .table import RUNS, read_rows, read_sweep, same_model, write_rows, write_sweep
from .task import run_variant
from .variants import Variant, build_variants

#: seconds between two writes of the table while a sweep goes on
WRITE_INTERVAL_S = 1.0
#: statuses of runs that are done: a sweep run again skips them
DONE = ("completed", "failed")


@dataclass(frozen=True)
class SweepProgress:
    """After each finished run: runs done of ``total`` to run now, how many completed
    and failed so far, how many the table already held, and the row just recorded."""

    done: int
    total: int
    completed: int
    failed: int
    skipped: int
    row: dict[str, Any] | None = None


@dataclass
class SweepPlan:
    """The runs of a sweep in a folder: all of them (validated), those still to run,
    and the table's rows so far."""

    folder: Path
    variants: list[Variant]
    pending: list[Variant]
    rows: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SweepOutcome:
    """How a sweep ended: the table's rows (every run of the folder), the runs of this
    invocation that completed or failed, those skipped as already done, and whether
    it was cancelled (the rows of finished runs are kept)."""

    folder: Path
    rows: list[dict[str, Any]]
    completed: int = 0
    failed: int = 0
    skipped: int = 0
    cancelled: bool = False


def plan_sweep(model: dict, spec: SweepSpec, folder: str | Path, overwrite: bool = False) -> SweepPlan:
    """Validate every run and the collected quantities, and compare with the folder:
    raises :class:`SweepError` (nothing is run) when a run is not a valid model, a
    quantity is unknown, or the folder holds a sweep of another model (unless
    ``overwrite``, which starts its table afresh)."""
    folder = Path(folder)
    variants = build_variants(model, spec)
    if spec.collect:
        problems = collect_problems(spec.collect, variants[0].model, model_layout(variants[0].model))
        if problems:
            raise SweepError(problems)
    previous = read_sweep(folder)
    rows = read_rows(folder)
    if previous is not None and not same_model(previous[0], model):
        if not overwrite:
            raise SweepError([f"{folder}: holds a sweep of another model; choose another folder "
                              "or overwrite it"])
        rows = []
    done = {row["run"] for row in rows if row.get("status") in DONE}
    rows = [row for row in rows if row.get("status") in DONE]
    return SweepPlan(folder, variants, [v for v in variants if v.run_id not in done], rows)


def run_sweep(model: dict, spec: SweepSpec, folder: str | Path, *, scheduler: str | None = None,
              workers: int | None = None, progress: Callable[[SweepProgress], None] | None = None,
              cancel: Callable[[], bool] | None = None, overwrite: bool = False) -> SweepOutcome:
    """Run the sweep ``spec`` of ``model`` into ``folder`` (see :mod:`solver.sweeps`).

    Parameters
    ----------
    scheduler : address of an existing dask scheduler (``tcp://host:port``); by
        default a ``LocalCluster`` of ``workers`` processes is started and stopped.
    progress : called with a :class:`SweepProgress` after each finished run.
    cancel : polled while runs go on; when it returns True the runs not started are
        dropped and those running stop at their next step; finished rows are kept.
    overwrite : start afresh in a folder that holds a sweep of another model.
    """
    plan = plan_sweep(model, spec, folder, overwrite)
    plan.folder.mkdir(parents=True, exist_ok=True)
    write_sweep(plan.folder, model, spec)
    if spec.keep_results:  # the runs' folders never through a link planted in the sweep's
        safe_folder(plan.folder / RUNS)
    outcome = SweepOutcome(plan.folder, plan.rows, skipped=len(plan.variants) - len(plan.pending))
    first = ["run", *spec.paths, *(p for p, _v in spec.fixed), "status", "message", "wall_time_s"]
    order = {v.run_id: k for k, v in enumerate(plan.variants)}
    rows = {row["run"]: row for row in plan.rows}

    def save() -> None:
        outcome.rows = sorted(rows.values(), key=lambda r: order.get(r["run"], len(order)))
        write_rows(plan.folder, outcome.rows, first)

    if plan.pending:
        with sweep_client(scheduler, workers) as client:
            _execute(client, plan, spec, rows, outcome, save, progress, cancel)
    save()
    return outcome


def _execute(client, plan: SweepPlan, spec: SweepSpec, rows: dict, outcome: SweepOutcome, save,
             progress, cancel) -> None:
    """Submit the pending runs and record their rows as they finish."""
    from distributed import wait
    from distributed.client import FuturesCancelledError

    tag = uuid.uuid4().hex[:12]
    futures = {}
    for v in plan.pending:
        results_dir = str(plan.folder / RUNS / v.run_id) if spec.keep_results else None
        future = client.submit(run_variant, v.model, spec.collect, results_dir,
                               key=f"flexmech-run-{v.run_id}-{tag}", pure=False)
        futures[future] = v
    remaining = set(futures)
    last_write = time.monotonic()
    while remaining:
        if cancel is not None and cancel():  # the runs going on stop at their next step (run_variant)
            client.cancel(list(remaining))
            outcome.cancelled = True
            break
        try:
            finished, remaining = wait(remaining, timeout=0.2, return_when="FIRST_COMPLETED")
        except TimeoutError:
            continue
        for future in finished:
            v = futures[future]
            try:
                row = future.result()
            except FuturesCancelledError:
                continue
            except Exception as exc:  # noqa: BLE001 -- a lost worker fails its run, not the sweep
                row = {"status": "failed", "message": f"{type(exc).__name__}: {exc}"}
            if row.get("status") not in DONE:
                continue
            if spec.keep_results and "message" in row and (plan.folder / RUNS / v.run_id).is_dir():
                row["results"] = f"{RUNS}/{v.run_id}"
            rows[v.run_id] = {"run": v.run_id, **v.values, **row}
            outcome.completed += row["status"] == "completed"
            outcome.failed += row["status"] == "failed"
            if progress is not None:
                progress(SweepProgress(outcome.completed + outcome.failed, len(plan.pending), outcome.completed,
                                       outcome.failed, outcome.skipped, rows[v.run_id]))
        if time.monotonic() - last_write > WRITE_INTERVAL_S:
            save()
            last_write = time.monotonic()
