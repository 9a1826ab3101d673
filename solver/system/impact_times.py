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

#: Courant number ``c h / l`` of a Lagrange pair's impact step on the elements it strikes (eq. 3.6's
#: transit ``l / c``): ``1 / sqrt(2)``, where the trapezoidal rule's period error cancels the consistent
#: mass's on the axial waves to second order (:func:`lagrange_impact_step`)
LAGRANGE_COURANT = 1.0 / math.sqrt(2.0)

#: contact models whose pairs keep the run's step in contact (docs/solver.md)
UNSTEPPED_KINDS = ("compliant", "rolling")


def impact_time_step(sys, k: float = 0.8) -> float:
    """Eq. (3.5): ``k l / c`` with ``l`` the shortest flexible element and ``c = sqrt(EA / rhoA)``
    (eq. 3.6), a modal link counting ``2 / omega`` of its highest mode as ``l / c``; infinite
    when there is no flexible element and no elastic mode.  ``sys``: the compiled system."""
    b = sys.beams
    transits = list(b.L / np.sqrt(b.EA / b.rhoA)) + sys.modal.transit_times()
    return float(k * min(transits)) if transits else math.inf


def lagrange_impact_step(sys) -> float:
    """The impact step of the Lagrange pairs of ``sys``, s: :data:`LAGRANGE_COURANT` times the shortest
    axial transit ``l / c`` (eq. 3.6) of the flexible elements a pair's dofs belong to (its struck
    elements); infinite when no Lagrange pair strikes a flexible element.

    Why that Courant number ``C = c h / l``: a wave of ``theta = k l`` radians per element on linear
    elements with consistent mass (App. A's axial part) has ``omega l / c = theta (1 + theta^2 / 24 + ...)``,
    too fast; the trapezoidal rule (eqs. 2.47-2.50 with tau = 0.5) slows it, ``omega_h = omega (1 -
    (omega h)^2 / 12 + ...)``, so the waves the mesh carries run at ``c (1 + theta^2 (1 - 2 C^2) / 24 + ...)``:
    the second-order error cancels at ``C^2 = 1 / 2``.  Elsewhere the highest waves run ahead of a front as a
    precursor: the two bars of thesis 5.1.2 held by a Lagrange pair (80 + 160 elements) read 10.8 % over wave
    theory's force one transit before the 0.4 ms front at C = 0.9 and 8.4 % at eq. (3.5)'s 0.8, 1.6 % at
    ``1 / sqrt(2)``, 16 % at 0.65 (docs/solver.md)."""
    transits = [struck_transit(sys, p) for p in sys.contacts if p.model["kind"] == "lagrange"]
    return LAGRANGE_COURANT * min(transits, default=math.inf)


def struck_transit(sys, pair) -> float:
    """The shortest axial transit ``l / c`` (eq. 3.6), s, of the flexible elements contact pair ``pair``
    strikes: those at its point's node or its node target, and those of a link target (its segments, or
    a rolling pair's elements); infinite when there are none (a rigid link struck, also one that a
    flexible link is pinned to)."""
    b = sys.beams
    if not b.count:
        return math.inf
    positions = sys.elem_dofs[:, [0, 1, 3, 4]]  # (x1, y1, x2, y2) of each element
    struck = np.isin(positions, [*pair.point, *(pair.target or ())]).any(axis=1)
    segments = pair.segments if pair.beam is None else pair.beam[0][:, [0, 1, 3, 4]]
    for seg in segments:
        struck |= (positions == seg).all(axis=1) | (positions == seg[[2, 3, 0, 1]]).all(axis=1)
    return float(np.min(b.L[struck] / np.sqrt(b.EA[struck] / b.rhoA[struck]))) if struck.any() else math.inf


def run_impact_step(sys) -> float:
    """The impact step of a run, s: ``solver.impact_step``, or that of its Lagrange pairs
    (:func:`lagrange_impact_step`) in a run whose other pairs do not step in contact, else the
    shorter of that and eq. (3.5)'s."""
    if sys.settings["impact_step"]:
        return sys.settings["impact_step"]
    lagrange = lagrange_impact_step(sys)
    others = [p for p in sys.contacts if p.model["kind"] not in ("lagrange",) + UNSTEPPED_KINDS]
    if math.isfinite(lagrange) and not others:
        return lagrange
    return min(lagrange, impact_time_step(sys))


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
