"""What a sweep too large to run would cost, measured on the model itself: the time of
its runs and the disk of its table and results folders, extrapolated from one run of
the model timed for at most :data:`MEASURE_S` seconds.

A sweep over the cap (:data:`solver.sweeps.spec.MAX_RUNS`) is refused with this
estimate, so that the user sees why and what a smaller design would take.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from ..errors import SolverError
from ..results.files import write_results
from .task import _simulate

#: wall-clock seconds one run of the model is measured for
MEASURE_S = 2.0


def sweep_cost(model: dict, runs: int, workers: int) -> str:
    """``about 3.2 h on 2 workers; the table about 120 MB, each run's results folder
    (--keep-results) about 1.1 GB more``: ``runs`` runs of ``model`` (variants of it
    differ, so this is an order of magnitude), from one run measured for at most
    :data:`MEASURE_S` seconds and written to a temporary folder."""
    from .scalars import run_scalars

    deadline = time.perf_counter() + MEASURE_S
    started = time.perf_counter()
    try:
        results = _simulate(model, lambda: time.perf_counter() > deadline)
    except SolverError as exc:
        return f"the model's own run fails, so no estimate ({exc})"
    wall = time.perf_counter() - started
    end = float(model.get("solver", {}).get("end_time", 1.0))
    done = float(results.time[-1]) if len(results.time) else 0.0
    share = max(done / end, 1e-9) if end > 0 else 1.0
    row = json.dumps(run_scalars(results), default=str)
    with tempfile.TemporaryDirectory(prefix="flexmech-estimate-") as tmp:
        write_results(results, Path(tmp) / "run")
        folder = sum(f.stat().st_size for f in (Path(tmp) / "run").rglob("*") if f.is_file())
    seconds = runs * wall / share / max(workers, 1)
    return (f"about {_duration(seconds)} on {workers} worker{'s' * (workers != 1)}; the table about "
            f"{_size(runs * len(row))}, each run's results folder (--keep-results) about "
            f"{_size(runs * folder / share)} more (one run of the model measured: {done:.3g} of {end:.3g} s "
            f"simulated in {wall:.2g} s)")


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def _size(nbytes: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= size:
            return f"{nbytes / size:.3g} {unit}"
    return f"{nbytes:.0f} bytes"
