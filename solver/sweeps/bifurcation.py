"""The bifurcation diagram of a sweep: the Poincaré samples of one series of each kept run
(:mod:`solver.analysis.poincare`, once per period of a driver or a period given, after a
transient), against the run's value of one swept field.

A periodic motion of period ``T`` gives one point above its value of the field, a motion
of period ``n T`` gives ``n``, a chaotic one a vertical smear.  The runs are read from the
sweep folder's ``runs/<id>/`` (a sweep run with ``keep_results``); the period of each run
is taken from its own driver, so that a sweep over the crank's speed samples each run once
per turn of its crank.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..analysis.poincare import section_period, section_samples
from ..analysis.run_series import AnalysisError, UnknownSeries, write_table_csv
from ..errors import ResultsFormatError
from ..model.paths import PathError, numeric_field
from ..results.files import load_results
from .spec import SweepError
from .table import RUNS, read_rows, read_sweep


@dataclass(frozen=True)
class Bifurcation:
    """The samples ``values`` of series ``key`` against ``field`` (one entry per sample: the
    run's value of the field, its id, the section time), and the runs left out and why."""

    field: str
    key: str
    column: str
    unit: str
    transient: int
    x: np.ndarray
    values: np.ndarray
    runs: list[str]
    times: np.ndarray
    skipped: list[str] = field(default_factory=list)
    field_unit: str = "-"


def swept_field(folder: str | os.PathLike, name: str | None = None) -> tuple[str, str]:
    """``(path, unit)`` of the field ``name`` of the sweep in ``folder`` (default: its first
    varied one), checked."""
    try:
        found = read_sweep(folder)
    except SweepError as exc:
        raise AnalysisError(str(exc)) from None
    if found is None:
        raise AnalysisError(f"{folder}: not a sweep folder (no sweep.json)")
    paths = list(found[1].paths)
    name = paths[0] if name is None else name
    if name not in paths:
        raise AnalysisError(f"--field {name}: the sweep does not vary it (it varies: {', '.join(paths)})")
    try:
        unit = numeric_field(found[0], name).unit
    except (PathError, ValueError):
        unit = "-"
    return name, "-" if unit.startswith("[") else unit  # "[f]": a function's value, in the unit of what it drives


def sweep_bifurcation(folder: str | os.PathLike, key: str, field_path: str | None = None, transient: int = 0,
                      period: float | None = None, driver: str | None = None) -> Bifurcation:
    """The bifurcation diagram of series ``key`` over ``field_path`` of the sweep in ``folder``,
    the first ``transient`` periods of each run left out."""
    name, field_unit = swept_field(folder, field_path)
    try:
        rows = [r for r in read_rows(folder) if r.get("status") == "completed"]
    except SweepError as exc:
        raise AnalysisError(str(exc)) from None
    x, values, runs, times, skipped, column, unit = [], [], [], [], [], key, ""
    for row in rows:
        results_dir = Path(folder) / RUNS / str(row.get("run"))
        if not results_dir.is_dir():
            skipped.append(f"run {row.get('run')}: no results folder (sweep without --keep-results)")
            continue
        try:
            results = load_results(results_dir)
            T, _name = section_period(results, period, driver)
            t, y, series = section_samples(results, key, T, transient)
        except UnknownSeries:
            raise  # said once, not once a run
        except (ResultsFormatError, AnalysisError) as exc:
            skipped.append(f"run {row.get('run')}: {exc}")
            continue
        column, unit = series.column, series.unit
        x += [float(row[name])] * len(y)
        values += list(y)
        runs += [str(row["run"])] * len(y)
        times += list(t)
    if not values:
        raise AnalysisError(f"{folder}: no run gives samples" + (f" ({skipped[0]})" if skipped else ""))
    return Bifurcation(name, key, column, unit, transient, np.array(x), np.array(values), runs, np.array(times),
                       skipped, field_unit)


def write_bifurcation_csv(b: Bifurcation, path: str | os.PathLike) -> None:
    """One row per sample: the run, its value of the field, the section time and the series' value."""
    write_table_csv(path, ["run", b.field, "time_s", b.column], [b.runs, b.x, b.times, b.values])
