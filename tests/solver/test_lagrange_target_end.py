"""A Lagrange pair sliding along a link target off its end is released there (thesis §4.3, the
point leaves the segment it was held on) instead of failing: the Newton iterates past the end
are held on the line the rows were written for, and the step's end releases the pair, 'passed
the end of the target' (:meth:`solver.system.contact_pairs.ContactPair.held_geometry`)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import simulate
from solver.results.tables import contact_values

MU, G, V0, START, END_X, STEP = 0.1, 9.81, 1.0, 0.3, 0.4, 1e-3
#: the disc's centre reaches the shelf's end, s: END_X - START = V0 t - MU G t^2 / 2
ARRIVAL = (V0 - math.sqrt(V0 ** 2 - 2 * MU * G * (END_X - START))) / (MU * G)


def disc_on_shelf() -> dict:
    """A disc (0.1 kg, r = 20 mm) resting on a rigid shelf clamped at its left end, thrown along
    it at 1 m/s towards its free end 0.1 m on, mu = 0.1, a Lagrange pair."""
    return {"format": "flexmech", "version": 1, "gravity": {"x": 0.0, "y": -G},
            "nodes": [{"id": "a", "x": 0.0, "y": 0.0}, {"id": "b", "x": END_X, "y": 0.0}],
            "links": [{"id": "shelf", "kind": "rigid", "nodes": ["a", "b"], "mass": 1.0}],
            "joints": [{"id": "clamp", "kind": "fixed", "node": "a"}],
            "bodies": [{"id": "disc", "kind": "rigid", "x": START, "y": 0.02, "mass": 0.1, "radius": 0.02}],
            "initial_velocities": [{"body": "disc", "vx": V0}],
            "contacts": [{"id": "disc-shelf", "point": {"body": "disc"}, "target": {"kind": "link", "link": "shelf"},
                          "mu_s": MU, "mu_d": MU, "model": {"kind": "lagrange"}}],
            "solver": {"end_time": 0.2, "step": STEP}}


def test_a_disc_sliding_off_the_end_of_a_shelf_is_released_there_and_falls():
    """Before: Newton met a gap of inf past the shelf's end ('the out-of-balance force became
    not-a-number') and the run stopped at 0.105455 s, the instant the disc reached it.  Now the
    pair is released at the end of the step that passed it, 0.10626 s (arrival 0.105454 s)."""
    results = simulate(disc_on_shelf())
    assert results.meta["status"] == "completed", results.meta["message"]
    release = [e for e in results.events if e["kind"] == "separation"]
    assert [e["cause"] for e in release] == ["passed the end of the target"]
    assert ARRIVAL <= release[0]["time_s"] <= ARRIVAL + STEP
    after = results.time > release[0]["time_s"]
    forces = contact_values(results.frames, ["F_n_N", "F_t_N"])
    assert np.all(forces["F_n_N"][after] == 0.0) and np.all(forces["F_t_N"][after] == 0.0)
    disc = results.node_index("disc")
    falling = results.stack("node_a")[after, disc]
    assert falling == pytest.approx(np.tile([0.0, -G], (len(falling), 1)), abs=1e-9)
    # friction slows the centre by mu g and spins the disc (I = m r^2 / 2): the contact point slips at
    # V0 - 3 mu g t, and friction takes mu m g times its slip up to the release (0.008794 J at 0.10626 s)
    t = release[0]["time_s"]
    slip = V0 * t - 1.5 * MU * G * t ** 2
    assert results.energy("dissipated_friction")[-1] == pytest.approx(MU * 0.1 * G * slip, rel=1e-4)
    total = results.total_energy()
    assert np.max(np.abs(total - total[0])) < 1e-9 * 0.5 * 0.1 * V0 ** 2
