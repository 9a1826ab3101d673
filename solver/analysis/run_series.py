"""A run's series as arrays for the analysis plots (journal orbit, Poincaré section,
spectrum, bifurcation, Lyapunov exponent): one named series over the frames, its values
at given instants, the period of a driver, and the CSV table they all write.

Series are named by the keys of :mod:`solver.results.series` (``node/B/vx``,
``driver/motor/reaction``, ``time``...); a key the run does not offer is refused with
:class:`AnalysisError` naming it and the nearest keys it does offer.

>>> driver_period({"drivers": [{"id": "motor", "kind": "speed",
...                              "function": {"kind": "constant", "value": 2.0}}]})
('motor', 3.141592653589793)
"""
from __future__ import annotations

import csv
import difflib
import math
import os

import numpy as np

from ..results.frames import Results, frame_times
from ..results.series import Series, catalogue, series_values, x_axes
from ..safe_write import replacing


class AnalysisError(ValueError):
    """An analysis that cannot be made; the message names the argument at fault."""


class UnknownSeries(AnalysisError):
    """A series the run does not offer."""


def named_series(results: Results, key: str, argument: str = "series") -> Series:
    """The series ``key`` of ``results`` (a series of :func:`~solver.results.series.catalogue`
    or an abscissa of :func:`~solver.results.series.x_axes`); raises :class:`AnalysisError`
    naming ``argument`` and the nearest keys the run offers."""
    offered = {**x_axes(results), **catalogue(results)}
    if key in offered:
        return offered[key]
    near = difflib.get_close_matches(key, list(offered), n=4, cutoff=0.5)
    hint = f" (nearest: {', '.join(near)})" if near else f" (e.g. {', '.join(list(offered)[:4])})"
    raise UnknownSeries(f"{argument} {key}: the run has no such series{hint}")


def run_series(results: Results, key: str, argument: str = "series") -> tuple[np.ndarray, np.ndarray, Series]:
    """``(t, values, series)``: the times of the run's frames (s) and the values of series ``key``."""
    if not len(results.frames):
        raise AnalysisError("the run has no frames")
    series = named_series(results, key, argument)
    return frame_times(results.frames), series_values(results.frames, series), series


def values_at(t: np.ndarray, values: np.ndarray, instants: np.ndarray) -> np.ndarray:
    """``values`` (given at the frame times ``t``, non-decreasing) at ``instants`` within
    ``[t[0], t[-1]]``, linear between the two frames about each instant; of two frames at one
    time (an impulse: before and after it) the one before serves the interval before, the
    one after the instant itself and the interval after."""
    t, values = np.asarray(t, float), np.asarray(values, float)
    i = np.clip(np.searchsorted(t, instants, side="right"), 1, len(t) - 1)
    t0, t1 = t[i - 1], t[i]
    span = np.where(t1 > t0, t1 - t0, 1.0)
    w = np.where(t1 > t0, (np.asarray(instants, float) - t0) / span, 1.0)
    return (1.0 - w) * values[i - 1] + w * values[i]  # a frame's own value where an instant is its time


def chosen(entities: dict[str, dict], name: str | None, option: str, what: str, none: str) -> tuple[str, dict]:
    """``(id, entity)`` of ``entities`` named ``name`` by ``option`` (default: the first); raises
    :class:`AnalysisError` saying ``none`` when there is none, or naming ``option`` and the ids
    there are when ``name`` is not one of them."""
    if not entities:
        raise AnalysisError(none)
    name = name if name is not None else next(iter(entities))
    if name not in entities:
        raise AnalysisError(f"{option} {name}: no {what} of that id (the model has: {', '.join(entities)})")
    return name, entities[name]


def driver_period(model: dict, driver: str | None = None) -> tuple[str, float]:
    """``(driver id, period s)``: one turn, ``2 pi / |omega|``, of a driver turning at a constant
    rate (a ``speed`` driver with a ``constant`` function, an ``angle`` driver with a ``linear``
    one); the first driver of the model when ``driver`` is None."""
    drivers = {d.get("id"): d for d in model.get("drivers", []) if isinstance(d, dict)}
    name, d = chosen(drivers, driver, "--driver", "driver",
                     "--driver: the model has no driver (give --period)")
    f = d.get("function", {})
    rate = {("speed", "constant"): f.get("value"), ("angle", "linear"): f.get("rate")}.get(
        (d.get("kind", "angle"), f.get("kind", "constant")))
    if not rate:
        raise AnalysisError(f"--driver {name}: does not turn at a constant rate (give --period)")
    return name, 2.0 * math.pi / abs(float(rate))


def write_table_csv(path: str | os.PathLike, header: list[str], columns: list[np.ndarray | list]) -> None:
    """Write ``columns`` (equal lengths) under ``header`` as a CSV file at ``path``, numbers with
    17 significant digits, through :func:`solver.safe_write.replacing`."""
    with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        for row in zip(*columns):
            writer.writerow([_cell(v) for v in row])


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return "" if math.isnan(value) else f"{value:.17g}"
    return str(value)
