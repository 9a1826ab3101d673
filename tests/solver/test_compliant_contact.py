"""Compliant contact in the time loop (Flores, Ambrósio, Claro & Lankarani 2006, ``001_…txt``).

Reference values: the Hertz impact's closed forms (Johnson, *Contact Mechanics* §11.4,
with the exact duration constant 2.9432752 = (4/5) B(2/5, 1/2)), the exact effective
restitution of Kelvin-Voigt (√c_e) and of the hysteresis laws
(:func:`solver.contact.normal_laws.effective_restitution`), a disc that slides into
rolling (v = 2/3 v₀, friction dissipates m v₀²/6), and the energy balance.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import simulate
from solver.contact.normal_laws import effective_restitution
from solver.model.validate import validate

HERTZ_TIME = 2.9432752
MASS, SPEED, RADIUS, K = 0.14, 1.0, 0.01, 6.6e10


def ball_on_floor(law="hertz", *, stiffness=K, e=1.0, accuracy=1e-5, tol=1e-7, step=1e-5, friction=None,
                  end=6e-4, gap=2e-4):
    """A ball of radius 10 mm and 0.14 kg (no gravity) meets a floor at 1 m/s."""
    model = {"kind": "compliant", "law": law, "stiffness": stiffness}
    contact = {"id": "floor", "point": {"body": "ball"}, "target": {"kind": "ground_line", "y": 0.0}, "e": e,
               "model": model}
    if friction:
        contact.update(mu_s=friction, mu_d=friction)
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}],
        "joints": [{"id": "O", "kind": "ground", "node": "O"}],
        "bodies": [{"id": "ball", "kind": "point", "x": 0.0, "y": RADIUS + gap, "mass": MASS, "radius": RADIUS}],
        "contacts": [contact],
        "initial_velocities": [{"body": "ball", "vy": -SPEED}],
        "solver": {"end_time": end, "step": step, "contact_tol": tol, "contact_accuracy": accuracy},
    }
    assert validate(doc) == []
    return doc


def rebound(res) -> float:
    """Outgoing over incoming normal speed of the ball."""
    return res.frames[-1].node_v[res.node_index("ball")][1] / SPEED


def drift(res) -> float:
    """Largest departure of the energy balance from its start, relative to it."""
    total = res.total_energy()
    return float(np.max(np.abs(total - total[0])) / abs(total[0]))


def test_hertz_impact_matches_johnson():
    """δ_max, duration and peak force within 0.1 %, e = 1, energy within 0.1 % through the impact."""
    res = simulate(ball_on_floor())
    assert res.meta["status"] == "completed"
    delta_max = (5 * MASS * SPEED**2 / (4 * K)) ** 0.4
    summary = res.meta["compliant_contacts"]["floor"]
    parted = next(e for e in res.events if e["kind"] == "separation")
    assert summary["impacts"] == 1
    assert summary["max_penetration_m"] == pytest.approx(delta_max, rel=1e-3)
    assert summary["max_force_N"] == pytest.approx(K * delta_max**1.5, rel=1e-3)
    assert parted["duration_s"] == pytest.approx(HERTZ_TIME * delta_max / SPEED, rel=1e-3)
    assert rebound(res) == pytest.approx(1.0, abs=1e-3)
    assert drift(res) < 1e-3
    assert res.energy("dissipated_contact")[-1] == pytest.approx(0.0, abs=1e-12)


def test_kelvin_voigt_restitution_is_root_of_c_e():
    """Eq. (1) scales the rebound force by c_e: the speed comes back as √c_e, within 0.1 %;
    the ledger books the loss (1 - c_e) K δ²/2 at the switch and the balance holds."""
    res = simulate(ball_on_floor("kelvin_voigt", stiffness=1.5e8, e=0.9, end=8e-4))
    assert rebound(res) == pytest.approx(math.sqrt(0.9), rel=1e-3)
    lost = res.energy("dissipated_contact")[-1]
    assert lost == pytest.approx(0.5 * MASS * SPEED**2 * (1 - 0.9), rel=2e-3)
    assert drift(res) < 1e-3


#: (law, c_e): the exact effective restitution of the 1-DOF impact (test_contact_laws's table)
HYSTERESIS = [("lankarani_nikravesh", 0.9, 0.913177), ("lankarani_nikravesh", 0.7, 0.795973),
              ("lankarani_nikravesh", 0.5, 0.725241), ("hunt_crossley", 0.7, 0.768000), ("flores", 0.7, 0.683184)]


@pytest.mark.parametrize(("law", "c_e", "exact"), HYSTERESIS, ids=[f"{law}-{c}" for law, c, _ in HYSTERESIS])
def test_hysteresis_restitution_converges_to_the_exact_value(law, c_e, exact):
    """The rebound converges as the contact accuracy is refined; the finest is within 0.1 %
    of the exact value, and the damping dissipates what the rebound lost."""
    assert effective_restitution(law, {"K": K, "c_e": c_e}) == pytest.approx(exact, abs=1e-6)
    errors = []
    for accuracy in (1e-3, 1e-4, 1e-5):
        res = simulate(ball_on_floor(law, e=c_e, accuracy=accuracy, end=7e-4))
        errors.append(abs(rebound(res) - exact))
    assert errors[2] < 1e-3 * exact
    assert errors[2] < errors[0]
    lost = res.energy("dissipated_contact")[-1]
    assert lost == pytest.approx(0.5 * MASS * SPEED**2 * (1 - rebound(res) ** 2), rel=2e-3)


def test_contact_is_found_with_a_step_far_longer_than_the_contact():
    """With a 1 ms step (the contact lasts 0.07 ms) no contact start is stepped over: the step is
    rejected and retried, shrinks in contact and grows back to 1 ms in free flight."""
    res = simulate(ball_on_floor(step=1e-3, end=4e-3, gap=1e-3, accuracy=1e-4))
    assert res.meta["compliant_contacts"]["floor"]["impacts"] == 1
    assert res.meta["rejected_steps"] >= 1
    steps = np.array([s.step for s in res.steps])
    parted = next(e["time_s"] for e in res.events if e["kind"] == "separation")
    after = np.array([s.time for s in res.steps]) > parted
    assert steps.min() < 1e-6 and steps[after].max() == pytest.approx(1e-3)
    assert rebound(res) == pytest.approx(1.0, abs=2e-3)


def rolling_disc(law="hunt_crossley"):
    """A disc (R = 50 mm, 1 kg, I = m R²/2) set down on a floor under gravity, sliding at 1 m/s
    without turning, friction c_f = 0.3 with Ambrósio's law."""
    return {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 2.0e11, "density": 7800.0}],
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}],
        "joints": [{"id": "O", "kind": "ground", "node": "O"}],
        "bodies": [{"id": "disc", "kind": "rigid", "x": 0.0, "y": 0.05, "mass": 1.0, "inertia": 0.00125,
                    "radius": 0.05}],
        "gravity": {"y": -9.81},
        "contacts": [{"id": "floor", "point": {"body": "disc"}, "target": {"kind": "ground_line"},
                      "mu_s": 0.3, "mu_d": 0.3, "e": 0.5,
                      "model": {"kind": "compliant", "law": law, "stiffness": 1e9}}],
        "initial_velocities": [{"body": "disc", "vx": 1.0}],
        "solver": {"end_time": 0.2, "step": 1e-4, "contact_accuracy": 1e-4},
    }


def test_sliding_disc_rolls_at_two_thirds_of_its_speed():
    """Friction at the contact point turns the disc (the tangential velocity includes R ω):
    sliding stops at v = 2/3 v₀ after v₀/(3 μ g); friction dissipates m v₀²/6."""
    res = simulate(rolling_disc())
    assert res.meta["status"] == "completed"
    i = res.node_index("disc")
    vx = res.stack("node_v")[:, i, 0]
    t = res.time
    assert vx[-1] == pytest.approx(2.0 / 3.0, rel=2e-3)
    halfway = t <= 0.5 / (3 * 0.3 * 9.81)
    slope = np.polyfit(t[halfway & (t > 0.01)], vx[halfway & (t > 0.01)], 1)[0]
    assert slope == pytest.approx(-0.3 * 9.81, rel=5e-3)  # μ g while sliding
    assert res.energy("dissipated_friction")[-1] == pytest.approx(1.0 / 6.0, rel=5e-3)
    assert np.all(np.diff(res.energy("dissipated_friction")) >= -1e-12)
    assert np.all(np.diff(res.energy("dissipated_contact")) >= -1e-12)
    total = res.total_energy()
    assert np.max(np.abs(total - total[0])) < 1e-3 * 0.5  # of the initial kinetic energy


def test_tangential_velocity_includes_the_turning_of_journal_and_bearing():
    """Journal of radius Rj turning at ω inside a bearing of radius Rb (both centres still):
    v_t = Rj ω_journal - Rb ω_bearing, the journal's contact point on the line of centres."""
    from solver.system.compile import compile_model
    from tests.solver.test_compliant_validation import clearance_crank

    system = compile_model(clearance_crank(offset={"x": 0.0005, "y": 0.0}, bearing_link=True))
    pair = system.contacts[0]
    q = system.q0.copy()
    g = pair.geometry(q)
    assert g.gap == pytest.approx(0.0, abs=1e-15)
    assert list(g.normal) == pytest.approx([-1.0, 0.0])
    v = np.zeros(system.n)
    v[pair.point_rotation], v[pair.target_rotation] = 3.0, 2.0
    v_n, v_t = g.velocity(v)
    assert v_n == 0.0 and v_t == pytest.approx(0.0095 * 3.0 - 0.010 * 2.0)


def ball_on_beam() -> dict:
    """A ball (10 mm, 0.05 kg) dropped at 1 m/s on the middle of a clamped-clamped steel
    strip meshed with 8 corotational elements: the target is a flexible link's elements."""
    return {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 2.0e11, "density": 7800.0}],
        "nodes": [{"id": "L", "x": -0.2, "y": 0.0}, {"id": "R", "x": 0.2, "y": 0.0}],
        "links": [{"id": "strip", "kind": "flexible", "nodes": ["L", "R"],
                   "section": {"kind": "rectangle", "material": "steel", "b": 0.02, "h": 0.004},
                   "mesh": {"elements": 8}}],
        "joints": [{"id": "L", "kind": "fixed", "node": "L"}, {"id": "R", "kind": "fixed", "node": "R"}],
        "bodies": [{"id": "ball", "kind": "point", "x": 0.013, "y": 0.0102, "mass": 0.05, "radius": 0.01}],
        "contacts": [{"id": "hit", "point": {"body": "ball"}, "target": {"kind": "link", "link": "strip"},
                      "model": {"kind": "compliant", "law": "hertz", "stiffness": 5e9}}],
        "initial_velocities": [{"body": "ball", "vy": -1.0}],
        "solver": {"end_time": 0.004, "step": 2e-5, "contact_accuracy": 1e-4},
    }


def test_a_ball_bounces_off_a_flexible_link_and_the_energy_stays_in_the_system():
    """Contact anywhere along a flexible link: the strip takes part of the energy as vibration
    (the ball comes back slower), and the balance T + U + V_contact holds within 0.1 %."""
    res = simulate(ball_on_beam())
    assert res.meta["status"] == "completed"
    summary = res.meta["compliant_contacts"]["hit"]
    assert summary["impacts"] >= 1 and summary["max_force_N"] > 0.0
    vy = res.frames[-1].node_v[res.node_index("ball")][1]
    assert 0.0 < vy < 1.0
    assert res.energy("strain")[-1] > 0.0
    assert drift(res) < 1e-3
