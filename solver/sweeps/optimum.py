"""The value of one field of a model that minimises a measure of a run (Amirouche & Xie, eqs. 28-29).

The seed minimises the vibration of a beam over its movable support's position ``x0``,
``J(x0) = int_0^t F(x, x0, t) dt`` (eq. 28), through the Euler-Lagrange equation of
``F`` (eq. 29).  Here ``J`` is measured on runs of the model itself: the field at
``path`` (as ``flexmech validate`` prints paths: ``moving[prop].position.v1``) is set to
``x``, the model is validated and run, and the objective is a quantity of the run in
the form the sweeps collect it (:func:`solver.sweeps.scalars.collected_value`):
``REDUCTION(SERIES)``, for instance ``mean(energy/strain)`` (eq. 28's integral of the
strain energy over the run, divided by its duration), ``rms(node/tip/uy)`` or
``absmax(node/mid/uy)``.

The search is robust to a measure with several minima and then exact: a scan of
``scan`` evenly spaced values over the bounds, then Brent's bounded method
(:func:`scipy.optimize.minimize_scalar`) in the interval around the best scanned value.
Every run is kept, so the objective can be shown against the field.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..integration.time_loop import run
from ..model.paths import PathError, numeric_field, set_path
from ..model.validate import validate
from ..results.frames import Results
from ..results.outputs import model_layout
from ..results.summary import summarize
from .scalars import REDUCTIONS, collect_problems, collected_value
from .spec import SweepError
from .variants import typed_value


@dataclass
class Optimum:
    """The minimum found and every run that led to it (field values in the field's unit)."""

    path: str
    objective: str
    bounds: tuple[float, float]
    x: float = float("nan")
    value: float = float("nan")
    runs: list[tuple[float, float]] = field(default_factory=list)  # (field value, objective), in run order
    cancelled: bool = False

    def table(self) -> list[tuple[float, float]]:
        """The runs sorted by the field's value."""
        return sorted(self.runs)


class OptimumError(SweepError):
    """A field, bounds or objective that cannot be optimised (each problem names its option)."""


#: the most values a scan may have (each is a run of the model)
MAX_SCAN = 1000


def optimum_problems(model: dict, path: str, bounds: tuple[float, float], objective: str,
                     scan: int = 5, maxiter: int = 20, xatol: float | None = None) -> list[str]:
    """What is wrong with the request, before anything runs: among it a bound at which the model is not
    valid (the field's range, a rule across fields), which the search would otherwise find after the
    runs before it."""
    out = [f"{name}: must be an integer from 1 to {MAX_SCAN}, got {value}" for name, value in
           (("scan", scan), ("maxiter", maxiter)) if not (isinstance(value, int) and 1 <= value <= MAX_SCAN)]
    if xatol is not None and not (np.isfinite(xatol) and xatol > 0.0):
        out.append(f"xatol: must be a positive tolerance on the field, got {xatol:g}")
    try:
        spec = numeric_field(model, path)
    except PathError as exc:
        out.append(str(exc))
        spec = None
    if not (np.isfinite(bounds[0]) and np.isfinite(bounds[1]) and bounds[0] < bounds[1]):
        out.append(f"bounds: the lower bound {bounds[0]:g} must be below the upper {bounds[1]:g}, both finite")
    elif spec is not None:
        for x in bounds:
            out += [f"bounds: {path} = {x:g}: {p}" for p in validate(_variant(model, path, float(x), spec))]
    name, _sep, rest = objective.partition("(")
    if not rest.endswith(")") or name.strip() not in REDUCTIONS:
        out.append(f"objective {objective}: write REDUCTION(SERIES), REDUCTION one of {', '.join(REDUCTIONS)}")
    elif not out:  # a series the runs lack would make every run's objective nan
        out += [f"objective {p.removeprefix('collect ')}" for p in
                collect_problems([objective.strip()], model, model_layout(model))]
    return out


def find_optimum(model: dict, path: str, bounds: tuple[float, float], objective: str, *, scan: int = 5,
                 xatol: float | None = None, maxiter: int = 20,
                 progress: Callable[[Optimum], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> Optimum:
    """The value of ``path`` within ``bounds`` that minimises ``objective`` over a run of
    ``model``: a scan of ``scan`` values, then Brent's bounded method to ``xatol`` (default
    1e-3 of the bounds' width) in at most ``maxiter`` further runs.  ``progress`` sees the
    :class:`Optimum` after every run; ``cancel()`` True stops the search (the runs made so
    far are kept).  Raises :class:`OptimumError` for a bad request or an invalid variant."""
    problems = optimum_problems(model, path, bounds, objective, scan, maxiter, xatol)
    if problems:
        raise OptimumError(problems)
    lo, hi = float(bounds[0]), float(bounds[1])
    result = Optimum(path, objective, (lo, hi))

    class _Stop(Exception):
        pass

    def J(x: float) -> float:
        if cancel is not None and cancel():
            raise _Stop
        value = _objective(model, path, float(x), objective, cancel)
        result.runs.append((float(x), value))
        if progress is not None:
            progress(result)
        return value if np.isfinite(value) else np.inf

    from scipy.optimize import minimize_scalar  # here: scipy.optimize costs the GUI's start 0.15 s

    try:
        grid = np.linspace(lo, hi, max(scan, 3))
        values = [J(x) for x in grid]
        k = int(np.argmin(values))
        a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        minimize_scalar(J, bounds=(a, b), method="bounded",
                        options={"xatol": xatol or 1e-3 * (hi - lo), "maxiter": maxiter})
    except _Stop:
        result.cancelled = True
    best = min(result.runs, key=lambda r: r[1] if np.isfinite(r[1]) else np.inf, default=None)
    if best is not None:  # Brent's own answer is one of the runs
        result.x, result.value = best
    return result


def _objective(model: dict, path: str, x: float, objective: str, cancel: Callable[[], bool] | None) -> float:
    """The objective of one run with ``path`` set to ``x`` (nan when the run fails)."""
    doc = _variant(model, path, x, numeric_field(model, path))
    bad = validate(doc)
    if bad:
        raise OptimumError([f"{path} = {x:g}: {p}" for p in bad])
    results = None
    for item in run(doc, cancel=cancel):
        if isinstance(item, Results):
            results = item
    if results is None or results.meta.get("status") != "completed":
        return float("nan")
    value = collected_value(results, summarize(results), objective)
    return float("nan") if value is None else float(value)


def _variant(model: dict, path: str, x: float, spec) -> dict:
    """A copy of ``model`` with ``path`` (described by ``spec``) set to ``x`` as the field wants it (:func:`.variants.typed_value`)."""
    doc = copy.deepcopy(model)
    set_path(doc, path, typed_value(spec, x))
    return doc
