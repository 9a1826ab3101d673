"""A rigid free body without an inertia (or with 0, what switching a point body to rigid in the
panel leaves) takes a disc's m r²/2 from its radius; without a radius it is refused at its
``inertia`` (it failed at t = 0 with "Newton did not converge ... not-a-number")."""
import pytest

from solver.api import simulate
from solver.model.validate import validate


def disc_landing(**inertia):
    """A rigid disc (0.2 kg, r = 0.05 m) landing on the floor at (0.6, -1) m/s, e = 0, sticking
    friction (mu = 1), no gravity.  The tangential impulse stops the contact point's slip:
    v_x + P/m + r (r P / I) = 0 with I = m r²/2 gives P = -m v_x / 3, so the disc rolls on at
    v_x' = 2 v_x / 3 = 0.4 m/s and omega' = -2 v_x / (3 r) = -8 rad/s."""
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "origin", "x": 0.0, "y": 0.0}],
        "bodies": [{"id": "disc", "kind": "rigid", "x": 0.0, "y": 0.06, "mass": 0.2, "radius": 0.05, **inertia}],
        "contacts": [{"id": "floor", "point": {"body": "disc"}, "target": {"kind": "ground_line"},
                      "e": 0.0, "mu_s": 1.0, "mu_d": 1.0, "law": "newton"}],
        "initial_velocities": [{"body": "disc", "vx": 0.6, "vy": -1.0}],
        "solver": {"end_time": 0.03, "step": 1e-3},
    }


@pytest.mark.parametrize("inertia", [{}, {"inertia": 0.0}], ids=["omitted", "zero"])
def test_a_rigid_disc_without_inertia_rolls_off_an_impact_with_m_r2_over_2(inertia):
    doc = disc_landing(**inertia)
    assert validate(doc) == []
    res = simulate(doc)
    impulse = next(e for e in res.events if e["kind"] == "impulse")
    assert impulse["I_n_N_s"] == pytest.approx(0.2, rel=1e-9)
    assert impulse["I_t_N_s"] == pytest.approx(-0.2 * 0.6 / 3, rel=1e-9)
    last = res.frames[-1]
    assert last.node_v[res.node_index("disc")] == pytest.approx([0.4, 0.0], abs=1e-9)
    assert last.rot_v[0] == pytest.approx(-8.0, rel=1e-9)


def test_a_given_inertia_is_kept():
    """I = m r² (a ring): P = -m v_x / 2, omega' = -v_x / (2 r) = -6 rad/s."""
    res = simulate(disc_landing(inertia=0.2 * 0.05**2))
    assert res.frames[-1].rot_v[0] == pytest.approx(-6.0, rel=1e-9)


def test_a_rigid_body_with_neither_inertia_nor_radius_is_refused_at_its_inertia():
    doc = disc_landing()
    del doc["bodies"][0]["radius"]
    assert [str(p) for p in validate(doc)] == [
        "bodies[disc].inertia: a rigid body needs its moment of inertia (> 0), or a radius (> 0) to take a "
        "disc's m r^2 / 2 from"]
    doc["bodies"][0]["kind"] = "point"
    assert validate(doc) == []
