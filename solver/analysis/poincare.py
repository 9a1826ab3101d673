"""Poincaré sections and phase portraits of a run: two recorded series sampled once per
period (stroboscopic section: the instants ``t_0 + k T``, ``T`` the period of a driver
turning at a constant rate or one given), each interpolated at the exact section time
between the two frames about it; the phase portrait is the same pair of series over every
frame, the continuous version.

A periodic motion of period ``T`` collapses to one point per section; a motion of period
``n T`` to ``n`` points; a chaotic one fills a set of its own.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..results.frames import Results
from ..results.series import Series
from .run_series import AnalysisError, driver_period, run_series, values_at, write_table_csv


@dataclass(frozen=True)
class PoincareSection:
    """``x`` and ``y`` at the section ``times`` (``xs``, ``ys``) and over the frames from the
    end of the transient on (``portrait_t``, ``portrait_x``, ``portrait_y``: the phase portrait)."""

    x: Series
    y: Series
    period: float  # s
    driver: str | None  # the driver whose period it is, None for a period given
    transient: int  # periods left out before the first section
    times: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    portrait_t: np.ndarray
    portrait_x: np.ndarray
    portrait_y: np.ndarray

    @property
    def spread(self) -> tuple[float, float]:
        """The range (max - min) of the section's ``x`` and ``y`` samples: 0 for a motion of period T."""
        return float(np.ptp(self.xs)), float(np.ptp(self.ys))


def section_period(results: Results, period: float | None = None, driver: str | None = None) -> tuple[float, str | None]:
    """``(T s, driver id or None)``: ``period`` when given, else the period of ``driver``
    (default: the first) from its function (:func:`~.run_series.driver_period`)."""
    if period is not None:
        if not np.isfinite(period) or period <= 0.0:
            raise AnalysisError(f"--period {period:g}: must be a positive time, s")
        return float(period), None
    name, found = driver_period(results.model, driver)
    return found, name


def section_times(t: np.ndarray, period: float, transient: int = 0) -> np.ndarray:
    """The instants ``t[0] + k period`` within the frames' times ``t``, from ``k = transient`` on: at least two
    (one sample's spread is 0, the mark of a motion of period ``period``, whatever the motion)."""
    if transient < 0:
        raise AnalysisError(f"--transient {transient}: must be 0 or more periods")
    count = int(np.floor((t[-1] - t[0]) / period * (1.0 + 1e-12) + 1e-9))
    if count < transient:
        raise AnalysisError(f"--transient {transient}: the run ({t[-1] - t[0]:.6g} s) holds {count} periods of "
                            f"{period:.6g} s")
    if count == transient:
        raise AnalysisError(f"the run ({t[-1] - t[0]:.6g} s) holds one section every {period:.6g} s after "
                            f"{transient} periods of transient: a section needs at least two (a shorter --period or "
                            "--transient, or a longer run)")
    return t[0] + period * np.arange(transient, count + 1)


def poincare_section(results: Results, x: str, y: str, period: float | None = None, driver: str | None = None,
                     transient: int = 0) -> PoincareSection:
    """The section of series ``x`` against series ``y`` (keys of :mod:`solver.results.series`)
    once per ``period`` (default: the period of ``driver``), leaving out ``transient`` periods."""
    t, x_values, x_series = run_series(results, x, "--x")
    _t, y_values, y_series = run_series(results, y, "--y")
    T, name = section_period(results, period, driver)
    times = section_times(t, T, transient)
    after = t >= times[0] - 1e-12 * max(abs(times[0]), T)
    return PoincareSection(x_series, y_series, T, name, transient, times, values_at(t, x_values, times),
                           values_at(t, y_values, times), t[after], x_values[after], y_values[after])


def section_samples(results: Results, key: str, period: float, transient: int) -> tuple[np.ndarray, np.ndarray, Series]:
    """``(times, values, series)``: one series at the section times (a bifurcation diagram's column)."""
    t, values, series = run_series(results, key, "--series")
    times = section_times(t, period, transient)
    return times, values_at(t, values, times), series


def write_poincare_csv(section: PoincareSection, path: str | os.PathLike) -> None:
    """One row per section: its number (periods from the start), time and the two series."""
    k = np.arange(section.transient, section.transient + len(section.times))
    write_table_csv(path, ["section", "time_s", section.x.column, section.y.column],
                    [k, section.times, section.xs, section.ys])
