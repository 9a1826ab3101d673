"""The time scales of impacts, known once a model is compiled: the impact step (thesis eq. 3.5)
and the window over which an impulse-model pair's impulses are averaged into a force.

The contact models step and average with them (:mod:`solver.contact`); the results name the
averaged force by its window (:attr:`solver.results.frames.Layout.force_windows`).
"""
from __future__ import annotations

import math

import numpy as np

#: default force window of the impulse model, in wave transits of the shortest flexible element
WINDOW_TRANSITS = 4.0


def impact_time_step(sys, k: float = 0.8) -> float:
    """Eq. (3.5): ``k l / c`` with ``l`` the shortest flexible element and ``c = sqrt(EA / rhoA)``
    (eq. 3.6), a modal link counting ``2 / omega`` of its highest mode as ``l / c``; infinite
    when there is no flexible element and no elastic mode.  ``sys``: the compiled system."""
    b = sys.beams
    transits = list(b.L / np.sqrt(b.EA / b.rhoA)) + sys.modal.transit_times()
    return float(k * min(transits)) if transits else math.inf


def run_impact_step(sys) -> float:
    """The impact step of a run, s: ``solver.impact_step``, or eq. (3.5)'s."""
    return sys.settings["impact_step"] or impact_time_step(sys)


def rate_window(sys) -> float:
    """The step over which the per-step impulse rate is taken, s: the impact step, or the time
    step for a model without flexible elements."""
    impact_step = run_impact_step(sys)
    return impact_step if math.isfinite(impact_step) else sys.settings["step"]


def impulse_force_window(sys) -> float:
    """The window over which an impulse-model pair's impulses are averaged into a force, s:
    ``solver.impulse_force_window``, or :data:`WINDOW_TRANSITS` times the shortest wave transit
    ``l / c`` (eq. 3.6); never shorter than the :func:`rate_window`."""
    settings, b = sys.settings, sys.beams
    if settings.get("impulse_force_window"):
        window = float(settings["impulse_force_window"])
    elif b.count:
        window = float(WINDOW_TRANSITS * np.min(b.L / np.sqrt(b.EA / b.rhoA)))
    else:
        window = 0.0
    return max(window, rate_window(sys))


def force_windows(sys) -> dict[str, float]:
    """Per impulse-model contact pair (by id): its force window, s (:func:`impulse_force_window`)."""
    pairs = [p.id for p in sys.contacts if p.model["kind"] == "impulse"]
    return dict.fromkeys(pairs, impulse_force_window(sys)) if pairs else {}
