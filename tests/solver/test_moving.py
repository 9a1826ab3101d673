"""Moving forces, masses and supports along a flexible link (Amirouche & Xie eqs. 13-16, 26; Fryba 1972)."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from solver.analysis.closed_forms import moving_force_deflection, moving_mass_deflection
from solver.api import simulate
from solver.fem.beam_point import point_on_element
from solver.model.io import examples_dir, load_model
from solver.model.validate import validate

EXAMPLE = examples_dir() / "moving_mass_beam.json"
L, EI, RHO_A, P, MASS = 10.0, 1e6, 100.0, 1000.0, 50.0


def _midspan(res, node="beam.10") -> tuple[np.ndarray, np.ndarray]:
    k = res.layout.nodes.index(node)
    return np.array([f.time for f in res.frames]), np.array([-f.node_xy[k, 1] for f in res.frames])


@pytest.fixture(scope="module")
def force_run():
    doc = copy.deepcopy(load_model(EXAMPLE))
    doc["moving"] = [{"id": "load", "kind": "force", "link": "beam", "fy": -P, "position": doc["moving"][0]["position"]}]
    return simulate(doc)


@pytest.fixture(scope="module")
def mass_run():
    return simulate(load_model(EXAMPLE))


def test_point_jacobian_is_the_derivative_of_the_point():
    qe = np.array([0.1, 0.2, 0.05, 1.9, 0.4, -0.03])
    for xi in (0.0, 0.3, 1.0):
        p, J, dp_dxi = point_on_element(qe, 0.1, xi)
        num = np.empty((2, 6))
        for k in range(6):
            d = np.zeros(6)
            d[k] = 1e-7
            num[:, k] = (point_on_element(qe + d, 0.1, xi)[0] - point_on_element(qe - d, 0.1, xi)[0]) / 2e-7
        assert np.abs(J - num).max() < 1e-8
        h = 1e-6 if xi < 1 else -1e-6
        assert np.allclose((point_on_element(qe, 0.1, xi + h)[0] - p) / h, dp_dxi, atol=1e-5)


def test_moving_force_matches_frybas_series(force_run):
    """Mid-span deflection history of a constant force crossing at alpha = 0.5, within 1 % of
    its peak of Fryba's series (measured: 0.02 %), through the crossing and the free vibration after."""
    t, w = _midspan(force_run)
    speed = force_run.model["moving"][0]["position"]["rate"]
    ref = moving_force_deflection(t, L / 2, P, speed, L, EI, RHO_A)
    assert force_run.meta["status"] == "completed"
    assert np.abs(w - ref).max() < 0.01 * ref.max()
    assert ref.max() == pytest.approx(0.035530, rel=1e-4)  # the series' peak, m


def test_moving_mass_deflects_more_and_matches_the_modal_solution(force_run, mass_run):
    """A 50 kg mass carrying the same force: larger peak (inertia and convective terms), within
    1 % of its peak of an independent Galerkin solution on 12 modes (measured: 0.015 %)."""
    t, w = _midspan(mass_run)
    _t, w_force = _midspan(force_run)
    speed = mass_run.model["moving"][0]["position"]["rate"]
    inside = t <= L / speed
    ref = moving_mass_deflection(t[inside], L / 2, MASS, P, speed, L, EI, RHO_A)
    assert np.abs(w[inside] - ref).max() < 0.01 * ref.max()
    assert w.max() > 1.01 * w_force.max()
    assert w.max() == pytest.approx(0.036112, rel=1e-3)  # the example's reference peak, m


def test_moving_mass_runs_on_its_track_off_the_link(mass_run):
    """After the crossing the mass keeps its speed on the track along the sketched line."""
    k = mass_run.layout.nodes.index("cart")
    last = mass_run.frames[-1]
    speed = mass_run.model["moving"][0]["position"]["rate"]
    assert last.node_xy[k] == pytest.approx([speed * last.time, 0.0], abs=1e-9)


def test_a_mass_leaving_the_link_keeps_the_speed_of_its_travel_and_the_balance(mass_run):
    """The mass leaves the beam's end (tangent turned by 8e-4 rad) for its track at 15.7 m/s: from then
    on its velocity is that of the travel, (15.707963, 0) m/s, and the energy balance -- with the
    work of its carriage booked (``work_moving``, 21.6 J) -- is off by 0.32 J of the 6201 J in play
    (5e-5).  The rows hold positions only: before, the trapezoidal rule left the mass a velocity
    error at the path's kink that it kept (the balance off by 3.5 J, 12.8 J at a quarter of the step)."""
    k = mass_run.layout.nodes.index("cart")
    speed = mass_run.model["moving"][0]["position"]["rate"]
    assert mass_run.frames[-1].node_v[k] == pytest.approx([speed, 0.0], abs=1e-9)
    total, play = mass_run.total_energy(), max(mass_run.energy("kinetic") + mass_run.energy("strain"))
    assert abs(total[-1] - total[0]) < 1e-4 * play
    assert mass_run.energy("work_moving")[-1] == pytest.approx(21.64, rel=1e-3)


def test_a_mass_starting_inside_the_link_on_a_ramp_keeps_its_energy():
    """The GUI's default travel, a ramp starting at t = 0 from a point inside the link: a 1 kg mass
    carried at 0.35 m/s along a light 0.4 m steel bar (a quarter of the mass) with no force keeps
    its kinetic energy 1/2 m v^2 = 0.06125 J exactly, the bar unstrained.  (The acceleration term
    of the start, a difference across the ramp's kink at t = 0, once read the kink as a 1.75e6 m/s^2
    acceleration: the energy jumped to 1.6 kJ in the first steps and Newton failed at 14 ms.)  With
    the mass's weight on it, it runs to the end of the ramp."""
    doc = load_model(EXAMPLE)
    d, E, rho = 0.01, 2.1e11, 7850.0
    A, I = np.pi * d * d / 4, np.pi * d**4 / 64
    doc["nodes"][1]["x"] = 0.4
    doc["links"][0]["mesh"]["elements"] = 4
    doc["links"][0]["section"] = {"kind": "per_length", "EA": E * A, "EI": E * I, "rhoA": rho * A, "rhoI": rho * I}
    doc["moving"][0].update(mass=1.0, fy=0.0, position={"kind": "ramp", "t0": 0.0, "t1": 1.0, "v0": 0.05, "v1": 0.4})
    doc["solver"].update(end_time=0.2, step=1e-3, output_interval=0.01)
    res = simulate(doc)
    assert res.completed
    assert res.energy("kinetic") == pytest.approx(0.5 * 0.35**2, rel=1e-9)
    assert np.abs(res.energy("strain")).max() < 1e-12
    doc["moving"][0]["fy"] = -9.81
    doc["solver"].update(end_time=1.0, output_interval=0.05)
    assert simulate(doc).completed


def test_support_sliding_in_settles_to_the_propped_cantilever():
    """The example's support slides from the tip to a = 2.4 m; with damping the tip settles to the
    static deflection of a clamped beam on a roller at a with an overhang (uniform weight w):
    R = w (6 L^2 - 4 L a + a^2) / (8 a), y_tip = -(w L^4 / 8 EI - R a^2 (3 L - a) / 6 EI)
    = -7.7852 mm; within 1 % with 16 elements (the nodal lumping of the weight: measured 0.55 %,
    0.16 % with 32)."""
    doc = load_model(examples_dir() / "moving_support_beam.json")
    res = simulate(doc)
    sec = doc["links"][0]["section"]
    Lb, EIb, w, a = 4.0, sec["EI"], sec["rhoA"] * 9.81, 2.4
    R = w * (6 * Lb * Lb - 4 * Lb * a + a * a) / (8 * a)
    y_tip = -(w * Lb**4 / (8 * EIb) - R * a * a * (3 * Lb - a) / (6 * EIb))
    k = res.layout.nodes.index("tip")
    assert res.frames[-1].node_xy[k, 1] == pytest.approx(y_tip, rel=1e-2)
    assert res.frames[-1].node_xy[k, 1] == pytest.approx(-7.8277e-3, rel=1e-4)  # the example's reference
    assert y_tip == pytest.approx(-7.7852e-3, rel=1e-4)


def test_the_work_of_a_sliding_support_is_booked():
    """The support of the example slides in under the sagging beam and lifts it: its reaction,
    times its travel along the deformed beam, does work on the beam (``work_moving``, 0.644 J); with
    it the energy balance holds to 8e-4 of the energy in play (2.56 J) under the trapezoidal rule
    (tau = 0.5).  Before, the ledger booked no such work and the balance rose by 0.64 J (0.25)."""
    doc = load_model(examples_dir() / "moving_support_beam.json")
    doc["solver"]["tau"] = 0.5
    res = simulate(doc)
    assert res.completed
    play = max(res.energy("kinetic") + res.energy("strain"))
    assert res.energy("work_moving")[-1] == pytest.approx(0.644, rel=5e-3)
    assert np.abs(res.total_energy()).max() < 1e-3 * play


def test_a_moving_entry_must_travel_a_flexible_link():
    doc = copy.deepcopy(load_model(EXAMPLE))
    doc["links"][0] = {"id": "beam", "kind": "rigid", "nodes": ["A", "B"], "mass": 1.0}
    assert [str(p) for p in validate(doc)] == ["moving[cart].link: link 'beam' is not a flexible link"]
    doc = copy.deepcopy(load_model(EXAMPLE))
    del doc["moving"][0]["mass"]
    assert [str(p) for p in validate(doc)] == ["moving[cart].mass: is required"]
