"""The largest Lyapunov exponent of a run, estimated from two runs a small perturbation
apart (the direct method of two nearby trajectories, before saturation).

The separation ``d(t)`` of the runs is the distance between their configurations: the
root of the summed squares of the differences of every node's position (m), the second
run's frames interpolated at the first's times.  While ``d`` is small it grows (or
shrinks) as ``d_0 exp(lambda t)`` until it saturates at the size of what diverges (for a
clearance joint, the clearance); ``ln d`` is fitted by a straight line over a window that
starts at the first frame and ends where ``d`` first reaches a saturation level, a
fraction (default 0.1) of the largest separation of the runs -- or over the whole run when
that level is within ten times the initial separation (no growth to fit), or over a window
given.  The slope is the estimate of ``lambda`` (1/s; ``lambda T`` per driver period),
with the intercept, the window and ``r^2`` of the fit: positive for a chaotic run, zero
(within the fit) for a periodic one whose separation stays bounded.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass

import numpy as np

from ..model.paths import PathError, get_path, numeric_field, set_path, split_path
from ..model.validate import validate
from ..results.frames import Results, frame_times
from .run_series import AnalysisError, values_at, write_table_csv

#: the default saturation level: this fraction of the largest separation
SATURATION = 0.1
#: growth below this factor over the initial separation is no growth: the window is the whole run
NO_GROWTH = 10.0


@dataclass(frozen=True)
class LyapunovFit:
    """``ln d = intercept + slope t`` fitted over ``window`` (s) to ``points`` frames of the
    separation ``separation`` (m) at ``time`` (s)."""

    time: np.ndarray
    separation: np.ndarray
    window: tuple[float, float]
    slope: float  # 1/s: the estimate of the largest Lyapunov exponent
    intercept: float  # ln m
    r2: float
    points: int
    saturation: float  # m: the level that ended the default window

    def fitted(self, t: np.ndarray) -> np.ndarray:
        """The fitted separation ``exp(intercept + slope t)`` at ``t``, m."""
        return np.exp(self.intercept + self.slope * np.asarray(t, float))


def perturbed_model(model: dict, path: str, size: float) -> dict:
    """A copy of ``model`` with the number at ``path`` moved by ``size`` (in the field's unit), a valid model;
    a field of the mechanism, not a solver setting (whose twin would part from the run by its numerics, not
    by the motion's sensitivity)."""
    try:
        spec = numeric_field(model, path)
    except (PathError, ValueError) as exc:
        raise AnalysisError(f"--perturb {path}: {exc}") from None
    if split_path(path)[0] == "solver":
        raise AnalysisError(f"--perturb {path}: a solver setting; the twin's separation would measure the numerics, "
                            "not the motion: perturb a field of the mechanism (a node, a joint's offset, an initial "
                            "velocity, a parameter)")
    value = get_path(model, path, spec.default)
    if value is None:
        raise AnalysisError(f"--perturb {path}: the model gives this field no value to perturb")
    if not np.isfinite(size) or size == 0.0:
        raise AnalysisError(f"--perturb {path}={size:g}: the size must be a finite number other than 0")
    out = copy.deepcopy(model)
    set_path(out, path, float(value) + float(size))
    problems = validate(out)
    if problems:
        raise AnalysisError(f"--perturb {path}={size:g}: the twin is not a valid model: "
                            + "; ".join(str(p) for p in problems[:3]))
    return out


def separation(a: Results, b: Results) -> tuple[np.ndarray, np.ndarray]:
    """``(t, d)``: the times of ``a``'s frames within ``b``'s (s) and the configurations' distance there
    (m); at a time two frames share (before and after an impulse) the frame after it, as
    :func:`~.run_series.values_at` takes ``b``'s."""
    if a.layout.nodes != b.layout.nodes:
        raise AnalysisError("the two runs are not of one model: their nodes differ")
    ta, tb = frame_times(a.frames), frame_times(b.frames)
    if len(ta) < 3 or len(tb) < 3:
        raise AnalysisError("a run with fewer than 3 frames has no separation to fit")
    last = np.append(ta[1:] > ta[:-1], True)  # of two frames at one time (an impulse) the one after
    keep = (ta >= tb[0]) & (ta <= tb[-1]) & last
    xa, xb = a.stack("node_xy").reshape(len(ta), -1)[keep], b.stack("node_xy").reshape(len(tb), -1)
    d2 = np.zeros(int(keep.sum()))
    for j in range(xa.shape[1]):
        d2 += (xa[:, j] - values_at(tb, xb[:, j].astype(float), ta[keep])) ** 2
    return ta[keep], np.sqrt(d2)


def lyapunov_fit(a: Results, b: Results, window: tuple[float, float] | None = None,
                 saturation: float = SATURATION) -> LyapunovFit:
    """Fit the separation's log growth of runs ``a`` and ``b`` over ``window`` (default: from
    the first frame to saturation, ``saturation`` times the largest separation)."""
    if not 0.0 < saturation <= 1.0:
        raise AnalysisError(f"--saturation {saturation:g}: a fraction of the largest separation, in (0, 1]")
    t, d = separation(a, b)
    if not np.any(d > 0.0):
        raise AnalysisError("the two runs do not separate: they are one run (--twin), or the perturbation changed "
                            "nothing (--perturb)")
    level = saturation * float(d.max())
    if window is None:
        over = np.nonzero(d >= level)[0] if level > NO_GROWTH * d[0] else []
        window = (float(t[0]), float(t[over[0]]) if len(over) else float(t[-1]))
    if not window[0] < window[1]:
        raise AnalysisError(f"--window {window[0]:g} {window[1]:g}: the start must come before the end")
    inside = (t >= window[0]) & (t <= window[1]) & (d > 0.0)
    if inside.sum() < 3:
        raise AnalysisError(f"--window {window[0]:.6g} {window[1]:.6g}: fewer than 3 frames of the runs with a "
                            "separation in it (identical runs, or a window outside the run)")
    slope, intercept = np.polyfit(t[inside], np.log(d[inside]), 1)
    residual = np.log(d[inside]) - (intercept + slope * t[inside])
    total = np.sum((np.log(d[inside]) - np.log(d[inside]).mean()) ** 2)
    r2 = 1.0 - float(np.sum(residual ** 2)) / float(total) if total > 0.0 else 1.0
    return LyapunovFit(t, d, window, float(slope), float(intercept), r2, int(inside.sum()), level)


def write_lyapunov_csv(fit: LyapunovFit, path: str | os.PathLike) -> None:
    """One row per frame: time, separation, its log, the fitted separation, and whether the frame is in the fit."""
    inside = (fit.time >= fit.window[0]) & (fit.time <= fit.window[1]) & (fit.separation > 0.0)
    with np.errstate(divide="ignore"):
        log_d = np.where(fit.separation > 0.0, np.log(np.maximum(fit.separation, 1e-300)), np.nan)
    write_table_csv(path, ["time_s", "separation_m", "ln_separation", "fitted_separation_m", "in_fit"],
                    [fit.time, fit.separation, log_d, fit.fitted(fit.time), inside.astype(int)])
