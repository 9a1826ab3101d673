"""A disc thrown along a floor that pushes it along: slip, then rolling with a sticking contact
under a tangential load -- the same closed-form answer from every contact model and friction
law, on a floor turned to an arbitrary angle and mirrored (VALIDATION.md, *Oracles*: models
against each other, invariance, balance).

A uniform disc (m = 2 kg, r = 0.05 m, I = m r^2 / 2) lands on its floor at v0 = 1 m/s along it,
gravity g_n = 9.81 m/s^2 into the floor and g_t = 2 m/s^2 along it, mu = 0.3.  While it slips
the contact point's velocity ``v + r omega`` falls at ``3 mu g_n - g_t`` (friction slows the
centre by ``mu g_n`` and turns the disc by ``2 mu g_n / r``): the slip ends at
``t_s = v0 / (3 mu g_n - g_t)`` = 0.146434 s, at ``v_s = v0 - (mu g_n - g_t) t_s``; then it rolls,
accelerating at ``2/3 g_t`` on a friction force of ``m g_t / 3`` (1.33 N, within mu m g_n =
5.89 N: the contact sticks).  Friction dissipates ``mu m g_n v0 t_s / 2`` = 0.430963 J, all of
it while slipping.

Measured at the end (0.2 s, analytic 0.933333 m/s), floor turned by 0.7 rad or mirrored after
-1.1 rad: Lagrange 0.933333 m/s, friction 0.430963 J, sticking at 0.146434 s; impulse 0.933333,
0.43119-0.43121 J (its resting point sinks: warned); compliant Hunt-Crossley (landing at rest
on the floor, K = 1e7) with ambrosio 0.93343 m/s (its dead band: no force below 0.1 mm/s),
threlfall and rooney_deravi 0.93334 m/s, 0.43106-0.43108 J.  An undamped Hertz floor bounces
the disc for good (e does not enter it) and reads 0.9352-0.9357 m/s: not used here.
"""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import simulate

from .transform import mirrored, rotated

G_T, G_N, MU, V0, RADIUS, MASS, END = 2.0, 9.81, 0.3, 1.0, 0.05, 2.0, 0.2
SLIP_ENDS = V0 / (3 * MU * G_N - G_T)  # s
SPEED = V0 - (MU * G_N - G_T) * SLIP_ENDS + 2.0 / 3.0 * G_T * (END - SLIP_ENDS)  # m/s at END
FRICTION = MU * MASS * G_N * V0 * SLIP_ENDS / 2.0  # J

#: (model, friction law): relative tolerance of the end speed and of the friction dissipated
CASES = {("lagrange", None): (1e-6, 1e-6), ("impulse", None): (1e-6, 1e-3),
         ("compliant", "ambrosio"): (2e-4, 5e-4), ("compliant", "threlfall"): (5e-5, 5e-4),
         ("compliant", "rooney_deravi"): (5e-5, 5e-4)}


def pushed_disc(kind: str, friction_law: str | None) -> dict:
    """The disc on its floor along +x, gravity (G_T, -G_N)."""
    model = {"kind": kind}
    if kind == "compliant":
        model.update(law="hunt_crossley", stiffness=1e7, exponent=1.5, friction_law=friction_law)
    contact = {"id": "disc-floor", "point": {"body": "disc"}, "target": {"kind": "ground_line", "y": 0.0},
               "mu_s": MU, "mu_d": MU, "e": 0.5 if kind == "compliant" else 0.0, "model": model}
    return {"format": "flexmech", "version": 1, "nodes": [], "gravity": {"x": G_T, "y": -G_N},
            "bodies": [{"id": "disc", "kind": "rigid", "x": 0.0, "y": RADIUS, "mass": MASS, "radius": RADIUS}],
            "initial_velocities": [{"body": "disc", "vx": V0}], "contacts": [contact],
            "solver": {"end_time": END, "step": 1e-3}}


@pytest.mark.parametrize("moved", ["turned", "mirrored"])
@pytest.mark.parametrize("kind, friction_law", list(CASES))
def test_a_pushed_disc_slips_then_rolls_as_the_closed_form_says(kind, friction_law, moved):
    doc = pushed_disc(kind, friction_law)
    doc = rotated(doc, 0.7) if moved == "turned" else mirrored(rotated(doc, -1.1))
    results = simulate(doc)
    assert results.meta["status"] == "completed", results.meta["message"]
    speed_tol, friction_tol = CASES[(kind, friction_law)]
    last = results.frames[-1]
    assert float(np.hypot(*last.node_v[0])) == pytest.approx(SPEED, rel=speed_tol)
    assert last.energy["dissipated_friction"] == pytest.approx(FRICTION, rel=friction_tol)
    assert np.all(np.diff(results.energy("dissipated_friction")) >= -1e-12)  # friction never gives energy back
    if kind == "lagrange":  # the slip ends once, where the closed form says
        sticks = [e["time_s"] for e in results.events if e["kind"] == "stick"]
        assert sticks == [pytest.approx(SLIP_ENDS, rel=1e-5)]
