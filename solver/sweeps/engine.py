"""Running a sweep: plan the runs (validated, minus those the folder's table already
holds), execute them as dask tasks of a batch of runs each (:func:`batch_size`), record
each run's row as its batch arrives, and time the sweep (:class:`SweepTiming`).

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
from .cluster import KeptCluster, sweep_client
from .folder_lock import sweep_lock
from .scheduler_probe import scheduler_endpoint
from .scalars import collect_problems
from .spec import SweepError, SweepSpec
from .spread import spread, write_spread
from .table import RUNS, SWEEP_JSON, TABLE, read_rows, read_sweep, same_model, write_rows, write_sweep
from .task import run_batch
from .variants import Variant, build_variants, foreign_rows

#: seconds between two writes of the table while a sweep goes on
WRITE_INTERVAL_S = 1.0
#: seconds without a connection to the scheduler after which a sweep stops
LOST_AFTER_S = 30
#: statuses of runs that are done: a sweep run again skips them
DONE = ("completed", "failed")
#: batches each worker gets at least, when there are runs enough: the last batches of a
#: sweep leave no worker idle for long
BATCHES_PER_WORKER = 4
#: runs of a batch at most: its rows arrive together (progress comes in bursts of as many
#: runs) and a cancel drops the rows of the runs its batch finished before the cancel
MAX_BATCH = 8


def batch_size(runs: int, workers: int) -> int:
    """Runs per task for ``runs`` runs on ``workers`` workers: at least
    :data:`BATCHES_PER_WORKER` batches per worker, at most :data:`MAX_BATCH` runs in one;
    grouping runs spares them the scheduler's cost of a task each (a few ms, issue 28)."""
    return max(1, min(MAX_BATCH, runs // (max(workers, 1) * BATCHES_PER_WORKER)))


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
    invocation that completed or failed, those skipped as already done, whether it
    was cancelled (the rows of finished runs are kept), and for an ensemble the spread
    of every statistic over its completed runs (:func:`solver.sweeps.spread.spread`)."""

    folder: Path
    rows: list[dict[str, Any]]
    completed: int = 0
    failed: int = 0
    skipped: int = 0
    cancelled: bool = False
    spread: list[dict[str, Any]] = field(default_factory=list)
    timing: SweepTiming | None = None


@dataclass(frozen=True)
class SweepTiming:
    """Where a sweep's time went: ``wall_s`` from planning to the table written (the
    cluster's start and stop included), on ``workers`` workers, ``solve_s`` the runs' own
    time on their workers (the sum of their ``wall_time_s``) over ``runs`` runs.
    :attr:`overhead_per_run_s` is what each run cost beyond its solve."""

    wall_s: float
    workers: int
    solve_s: float
    runs: int

    @property
    def overhead_per_run_s(self) -> float:
        """(wall × workers − Σ solve) / runs, seconds; 0 without runs."""
        return (self.wall_s * self.workers - self.solve_s) / self.runs if self.runs else 0.0

    def to_json(self) -> dict[str, float]:
        return {"wall_s": round(self.wall_s, 4), "workers": self.workers, "solve_s": round(self.solve_s, 4),
                "runs": self.runs, "overhead_per_run_s": round(self.overhead_per_run_s, 5)}


def plan_sweep(model: dict, spec: SweepSpec, folder: str | Path, overwrite: bool = False,
               workers: int | None = None) -> SweepPlan:
    """Validate every run and the collected quantities, and compare with the folder:
    raises :class:`SweepError` (nothing is run) when a run is not a valid model, a
    quantity is unknown, the design is over the cap (with what it would cost on
    ``workers``), or the folder is not one this sweep may go on in
    (:func:`_folder_rows`; ``overwrite`` starts its table afresh)."""
    return _plan(Path(folder), _checked_variants(model, spec, Path(folder), workers), model, overwrite)


def _checked_variants(model: dict, spec: SweepSpec, folder: Path, workers: int | None) -> list[Variant]:
    """The sweep's runs, validated, and its collected quantities checked."""
    if folder.exists() and not folder.is_dir():
        raise SweepError([f"{folder}: is a file; give a folder for the sweep"])
    variants = build_variants(model, spec, workers)
    if spec.collect:
        problems = collect_problems(spec.collect, variants[0].model, model_layout(variants[0].model))
        if problems:
            raise SweepError(problems)
    return variants


def _plan(folder: Path, variants: list[Variant], model: dict, overwrite: bool) -> SweepPlan:
    rows = [row for row in _folder_rows(folder, model, overwrite) if row.get("status") in DONE]
    done = {row["run"] for row in rows}
    return SweepPlan(folder, variants, [v for v in variants if v.run_id not in done], rows)


def _folder_rows(folder: Path, model: dict, overwrite: bool) -> list[dict[str, Any]]:
    """The rows of the folder's table, checked to be runs of ``model``: refused when the
    folder holds another model's sweep, a table without its ``sweep.json``, rows without
    a run id, or rows whose values are not those of their run (edited); none when
    ``overwrite``."""
    previous = read_sweep(folder)
    rows = read_rows(folder)
    if overwrite:
        return []
    if previous is not None and not same_model(previous[0], model):
        raise SweepError([f"{folder}: holds a sweep of another model; choose another folder or overwrite it"])
    if rows and previous is None:
        raise SweepError([f"{folder}: holds a sweep table but no {SWEEP_JSON}, so whose runs they are is unknown; "
                          "choose another folder or overwrite it"])
    if any(not isinstance(row.get("run"), str) for row in rows):
        raise SweepError([f"{folder / TABLE}: has rows without a run id (its 'run' column); not a table of "
                          "flexmech sweep; choose another folder or overwrite it"])
    foreign = foreign_rows(model, rows)
    if foreign:
        raise SweepError([f"{folder / TABLE}: rows that are not runs of the model (edited?); choose another "
                          "folder or overwrite it:", *foreign])
    return rows


def run_sweep(model: dict, spec: SweepSpec, folder: str | Path, *, scheduler: str | None = None,
              workers: int | None = None, progress: Callable[[SweepProgress], None] | None = None,
              cancel: Callable[[], bool] | None = None, overwrite: bool = False,
              kept: KeptCluster | None = None) -> SweepOutcome:
    """Run the sweep ``spec`` of ``model`` into ``folder`` (see :mod:`solver.sweeps`),
    holding the folder's lock (:mod:`.folder_lock`: a second sweep into it is refused).

    Parameters
    ----------
    scheduler : address of an existing dask scheduler (``tcp://host:port``); by
        default a ``LocalCluster`` of ``workers`` processes is started and stopped.
    progress : called with a :class:`SweepProgress` after each finished run.
    cancel : polled while runs go on; when it returns True the runs not started are
        dropped and those running stop at their next step; finished rows are kept.
    overwrite : start afresh in a folder that holds a sweep of another model.
    kept : without ``scheduler``, run on this local cluster, kept open for the next sweeps
        (started if need be) instead of one of its own.
    """
    if scheduler:
        scheduler_endpoint(scheduler)
    folder = Path(folder)
    variants = _checked_variants(model, spec, folder, workers)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SweepError([f"{folder}: cannot make the sweep's folder ({exc.strerror or exc})"]) from None
    with sweep_lock(folder):
        return _run_planned(_plan(folder, variants, model, overwrite), model, spec, (scheduler, workers, kept),
                            progress, cancel)


def _run_planned(plan: SweepPlan, model: dict, spec: SweepSpec, where: tuple, progress, cancel) -> SweepOutcome:
    """Run the pending runs of ``plan`` on the cluster ``where`` (the arguments of
    :func:`.cluster.sweep_client`) and write the table (and an ensemble's spread) and the
    sweep's timing in ``sweep.json``."""
    started = time.monotonic()
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

    used = 0
    try:
        if plan.pending:
            with sweep_client(*where) as client:
                used = _workers_of(client)
                _execute(client, plan, spec, rows, outcome, save, progress, cancel)
    finally:  # the finished runs are kept, also when the scheduler is lost
        save()
    if spec.design == "ensemble":
        outcome.spread = spread(outcome.rows, first)
        write_spread(plan.folder, outcome.spread)
    ran = {v.run_id for v in plan.pending} & set(rows)
    outcome.timing = SweepTiming(time.monotonic() - started, used,
                                 sum(rows[r].get("wall_time_s") or 0.0 for r in ran), len(ran))
    write_sweep(plan.folder, model, spec, timing=outcome.timing.to_json())
    return outcome


def _workers_of(client) -> int:
    """The workers of the client's cluster now."""
    return len(client.scheduler_info().get("workers", {}))


def _execute(client, plan: SweepPlan, spec: SweepSpec, rows: dict, outcome: SweepOutcome, save,
             progress, cancel) -> None:
    """Submit the pending runs in batches (:func:`batch_size`) and record each run's row as
    its batch finishes."""
    from distributed import wait

    futures = _submit(client, plan, spec)
    remaining = set(futures)
    last_write = time.monotonic()
    answered = time.monotonic()
    while remaining:
        if client.status == "running":
            answered = time.monotonic()
        elif time.monotonic() - answered > LOST_AFTER_S:
            raise SweepError([f"the sweep's scheduler ({client.scheduler.address}) has not answered for "
                              f"{LOST_AFTER_S} s; the {sum(len(futures[f]) for f in remaining)} runs not finished "
                              "are not in the table, the same command runs them"])
        if cancel is not None and cancel():  # the runs going on stop at their next step (run_batch)
            client.cancel(list(remaining))
            outcome.cancelled = True
            break
        try:
            finished, remaining = wait(remaining, timeout=0.2, return_when="FIRST_COMPLETED")
        except TimeoutError:
            continue
        for future in finished:
            for v, row in zip(futures[future], _batch_rows(future, len(futures[future]))):
                _record(plan, spec, v, row, rows, outcome, progress)
        if time.monotonic() - last_write > WRITE_INTERVAL_S:
            save()
            last_write = time.monotonic()


def _submit(client, plan: SweepPlan, spec: SweepSpec) -> dict:
    """The futures of the pending runs' batches, each with its variants."""
    tag = uuid.uuid4().hex[:12]
    size = batch_size(len(plan.pending), _workers_of(client))
    futures = {}
    for k in range(0, len(plan.pending), size):
        batch = plan.pending[k:k + size]
        runs = [(v.model, str(plan.folder / RUNS / v.run_id) if spec.keep_results else None) for v in batch]
        future = client.submit(run_batch, runs, spec.collect, key=f"flexmech-runs-{batch[0].run_id}-{tag}",
                               pure=False)
        futures[future] = batch
    return futures


def _batch_rows(future, count: int) -> list[dict[str, Any]]:
    """The rows of a finished batch: none when it was cancelled, each run failed with the
    error when its task failed (a lost worker fails its runs, not the sweep)."""
    from distributed.client import FuturesCancelledError

    try:
        return future.result()
    except FuturesCancelledError:
        return []
    except Exception as exc:  # noqa: BLE001 (see the docstring)
        return [{"status": "failed", "message": f"{type(exc).__name__}: {exc}"} for _ in range(count)]


def _record(plan: SweepPlan, spec: SweepSpec, v: Variant, row: dict, rows: dict, outcome: SweepOutcome,
            progress) -> None:
    """Put a finished run's row in the table and report it; a cancelled run is left out."""
    if row.get("status") not in DONE:
        return
    if spec.keep_results and "message" in row and (plan.folder / RUNS / v.run_id).is_dir():
        row["results"] = f"{RUNS}/{v.run_id}"
    rows[v.run_id] = {"run": v.run_id, **v.values, **row}
    outcome.completed += row["status"] == "completed"
    outcome.failed += row["status"] == "failed"
    if progress is not None:
        progress(SweepProgress(outcome.completed + outcome.failed, len(plan.pending), outcome.completed,
                               outcome.failed, outcome.skipped, rows[v.run_id]))
