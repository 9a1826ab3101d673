"""The amplitude spectrum of a run's series: resampled on a uniform grid (a run's frames
are as uneven as its steps), the mean removed, windowed, and transformed by
:func:`scipy.signal.periodogram`; the amplitude of bin ``k`` is ``sqrt(2 P_k)`` with ``P_k``
its power spectrum (``scaling="spectrum"``), so that a sine of amplitude ``A`` at a bin's
frequency reads ``A``.  The harmonics ``n f_1`` of a driver turning at a constant rate
(``f_1 = 1 / T``) are marked.

>>> t = np.arange(1000) / 1000.0
>>> s = amplitude_spectrum(t, 2.0 * np.sin(2 * np.pi * 50.0 * t))
>>> round(float(s.frequency[np.argmax(s.amplitude)]), 6), round(float(s.amplitude.max()), 2)
(50.0, 2.0)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
from scipy import signal

from ..results.frames import Results
from .run_series import AnalysisError, driver_period, run_series, values_at, write_table_csv

#: windows offered (:func:`scipy.signal.get_window` names)
WINDOWS = ("hann", "hamming", "blackman", "flattop", "boxcar")


@dataclass(frozen=True)
class AmplitudeSpectrum:
    """``amplitude`` (the series' unit) at ``frequency`` (Hz), bin width ``resolution`` (Hz),
    of ``samples`` values ``dt`` apart under ``window``; ``harmonics``: the driver's ``n f_1`` (Hz)
    within the spectrum."""

    frequency: np.ndarray
    amplitude: np.ndarray
    dt: float
    samples: int
    window: str
    harmonics: np.ndarray = field(default_factory=lambda: np.zeros(0))
    driver: str | None = None
    key: str = ""
    unit: str = ""
    column: str = "amplitude"

    @property
    def resolution(self) -> float:
        """The width of a bin, ``1 / (samples dt)``, Hz."""
        return 1.0 / (self.samples * self.dt)

    @property
    def peak(self) -> tuple[float, float]:
        """``(frequency Hz, amplitude)`` of the largest bin past the mean's."""
        k = 1 + int(np.argmax(self.amplitude[1:])) if len(self.amplitude) > 1 else 0
        return float(self.frequency[k]), float(self.amplitude[k])


def amplitude_spectrum(t: np.ndarray, values: np.ndarray, window: str = "hann", dt: float | None = None) -> AmplitudeSpectrum:
    """The amplitude spectrum of ``values`` at the times ``t`` (s), resampled every ``dt``
    (default: the frames' median spacing) over ``[t[0], t[-1]]``."""
    if window not in WINDOWS:
        raise AnalysisError(f"--window {window}: one of {', '.join(WINDOWS)}")
    span = float(t[-1] - t[0]) if len(t) else 0.0
    steps = np.diff(t)
    dt = float(np.median(steps[steps > 0.0])) if dt is None and span > 0.0 else dt
    if dt is None or not np.isfinite(dt) or dt <= 0.0:
        raise AnalysisError(f"--dt: must be a positive time, s (got {dt})")
    n = int(np.floor(span / dt * (1.0 + 1e-12))) + 1
    if n < 8:
        raise AnalysisError(f"the run spans {span:.6g} s: {n} samples {dt:.6g} s apart, too few for a spectrum")
    if n > 2**24:
        raise AnalysisError(f"--dt {dt:.6g}: {n} samples, more than {2**24}; give a larger --dt")
    uniform = values_at(np.asarray(t, float), np.asarray(values, float), t[0] + dt * np.arange(n))
    frequency, power = signal.periodogram(uniform, fs=1.0 / dt, window=window, detrend="constant",
                                          scaling="spectrum")
    return AmplitudeSpectrum(frequency, np.sqrt(2.0 * power), dt, n, window)


def series_spectrum(results: Results, key: str, window: str = "hann", dt: float | None = None,
                    driver: str | None = None, start: float | None = None) -> AmplitudeSpectrum:
    """The spectrum of series ``key`` of ``results`` from time ``start`` on (default: the
    first frame), with the harmonics of ``driver`` (default: the first one turning at a
    constant rate; none when there is none)."""
    t, values, series = run_series(results, key, "--series")
    if start is not None:
        keep = t >= start
        if keep.sum() < 2:
            raise AnalysisError(f"--start {start:g}: the run ends at {t[-1]:.6g} s")
        t, values = t[keep], values[keep]
    s = amplitude_spectrum(t, values, window, dt)
    name, harmonics = _harmonics(results.model, driver, float(s.frequency[-1]))
    return AmplitudeSpectrum(s.frequency, s.amplitude, s.dt, s.samples, s.window, harmonics, name, key, series.unit,
                             "amplitude" + series.column[len(series.key.replace("/", ".")):])


def _harmonics(model: dict, driver: str | None, highest: float) -> tuple[str | None, np.ndarray]:
    """``(driver, [f_1, 2 f_1, ...] up to highest)``; no driver turning at a constant rate: ``(None, [])``
    unless ``driver`` was named (then its problem is raised)."""
    try:
        name, period = driver_period(model, driver)
    except AnalysisError:
        if driver is not None:
            raise
        return None, np.zeros(0)
    f1 = 1.0 / period
    return name, f1 * np.arange(1, int(highest / f1) + 1)


def write_spectrum_csv(s: AmplitudeSpectrum, path: str | os.PathLike) -> None:
    """One row per bin: frequency, amplitude (unit in the column name) and the driver's harmonic
    number nearest the bin (``n`` when the bin holds ``n f_1``, else empty)."""
    order = np.full(len(s.frequency), "", dtype=object)
    for n, f in enumerate(s.harmonics, 1):
        order[int(np.argmin(np.abs(s.frequency - f)))] = str(n)
    write_table_csv(path, ["frequency_Hz", s.column, "harmonic"], [s.frequency, s.amplitude, order])
