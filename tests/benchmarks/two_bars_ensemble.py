"""Ensemble statistics of the two dissimilar bars (thesis §5.1.2, ``two_bars_impact``).

With e = 1 the momentum-balance model resolves the contact as a chatter of impulses whose
sequence moves with the instant of contact: the striker's front moved by a micrometre (of
its 0.1 mm gap, the striker's length by 10⁻⁶) changes the impulses by a factor of three and
the force's peak by 3 %.  This study runs the example from ``--samples`` starts, the
striker's ``nodes[front].x`` moved within ±``--size`` m (the sweep's ``ensemble`` design),
and prints what ``docs/validation.md``'s §5.1.2 table reports as mean ± sample std
[min, max], the shipped start first.

    PYTHONPATH=. python tests/benchmarks/two_bars_ensemble.py --samples 10 --size 1e-6

Statistics: the force (impulses averaged over the example's window) on 0.05–0.35, 0.45–0.75
and 0.85–1.15 ms after the onset (smallest and largest, N), its peak, the striker's velocity
after the release (its consistent-mass momentum over its mass, m/s), the final separation
(s) and the impulses.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver"))
from test_contact_simulation import striker_velocity  # noqa: E402

from impact_ensemble import main  # noqa: E402

EXAMPLE = "two_bars_impact"
FRONT = "nodes[front].x"
WINDOWS_MS = ((0.05, 0.35), (0.45, 0.75), (0.85, 1.15))


def run_statistics(model: dict) -> dict[str, float]:
    """The §5.1.2 table's statistics of one run of ``model``."""
    from solver.api import simulate

    res = simulate(model)
    force = np.array([f.contact["F_n_N"][0] for f in res.frames])
    onset = next(e["time_s"] for e in res.events if e["kind"] == "impulse")
    ms = 1e3 * (res.time - onset)
    out = {}
    for lo, hi in WINDOWS_MS:
        inside = force[(ms >= lo) & (ms <= hi)]
        out[f"F min {lo}-{hi} ms"], out[f"F max {lo}-{hi} ms"] = float(inside.min()), float(inside.max())
    separations = [e["time_s"] for e in res.events if e["kind"] == "separation"]
    impulses = sum(e["kind"] == "impulse" for e in res.events)
    return {**out, "F peak": float(force.max()), "striker v (m/s)": striker_velocity(res, model),
            "final separation (s)": separations[-1], "impulses": float(impulses)}


if __name__ == "__main__":
    main(__doc__.split("\n\n")[0], EXAMPLE, FRONT, run_statistics)
