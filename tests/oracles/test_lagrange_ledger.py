"""The Lagrange model's friction in the energy ledger (issue 26): every friction impulse booked."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from solver.api import simulate
from solver.model.io import examples_dir
from solver.results.tables import contact_values

from .runs import energy_in_play, term_history
from .transform import mirrored, rotated


def bar_landing(mu_b: float = 0.0) -> dict:
    """A free rigid bar (1 kg, 1 m, 1/12 kg m^2) thrown at 1 m/s along the ground, falling and
    turning: its end A lands first (7.0 ms) and slides on with friction 0.3, its end B lands at
    28.5 ms (friction ``mu_b``); both pairs Lagrange, gravity 9.81 m/s^2."""
    friction = {"mu_s": 0.3, "mu_d": 0.3, "model": {"kind": "lagrange"}}
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "A", "x": 0.0, "y": 0.002}, {"id": "B", "x": 1.0, "y": 0.03}],
        "links": [{"id": "bar", "nodes": ["A", "B"], "kind": "rigid", "mass": 1.0, "inertia": 1 / 12}],
        "contacts": [{"id": "A-ground", "point": {"node": "A"}, "target": {"kind": "ground_line", "y": 0.0}, **friction},
                     {"id": "B-ground", "point": {"node": "B"}, "target": {"kind": "ground_line", "y": 0.0},
                      **friction, "mu_s": mu_b, "mu_d": mu_b}],
        "initial_velocities": [{"link": "bar", "vx": 1.0, "vy": -0.5, "omega": -0.5}],
        "gravity": {"y": -9.81},
        "solver": {"end_time": 0.04, "step": 1e-3},
    }


def test_the_friction_of_a_pair_sliding_through_another_pairs_onset_is_booked():
    """B's onset impulse (0.43 N s) presses A, held by its multiplier, whose friction column
    takes 0.3 of A's share along the slip: 0.060 J that the ledger did not book (the balance
    fell by 0.082 of the 0.738 J in play at B's onset).  Booked as friction now (the impulse
    event's ``W_held_friction_J``): the balance holds to 1e-4 of the energy in play (measured
    3.7e-8) and the friction term never falls."""
    results = simulate(bar_landing())
    assert results.completed, results.meta.get("message")
    balance = results.total_energy()
    assert np.abs(balance - balance[0]).max() <= 1e-4 * energy_in_play(results)
    assert np.all(np.diff(term_history(results, "dissipated_friction")) >= 0.0)
    onset = [e for e in results.events if e["kind"] == "impulse" and e["contact"] == "B-ground"]
    assert len(onset) == 1 and onset[0]["W_held_friction_J"] < -0.05


def thrown_block(step: float) -> dict:
    """A 2 kg point mass 0.2 mm above the ground, thrown along it at 0.3 m/s and onto it at
    0.05 m/s; Lagrange pair, friction 0.5, gravity 9.81 m/s^2: it slides to rest in 61 ms."""
    return {"format": "flexmech", "version": 1, "nodes": [],
            "bodies": [{"id": "block", "x": 1.0, "y": 2e-4, "mass": 2.0}], "gravity": {"y": -9.81},
            "contacts": [{"id": "c", "point": {"body": "block"}, "target": {"kind": "ground_line", "y": 0.0},
                          "mu_s": 0.5, "mu_d": 0.5, "model": {"kind": "lagrange"}}],
            "initial_velocities": [{"body": "block", "vx": -0.3, "vy": -0.05}],
            "solver": {"end_time": 0.1, "step": step}}


def test_a_slip_end_the_retakes_did_not_reach_is_stopped_by_a_jump_booked_as_friction(monkeypatch):
    """No retakes at all (``MAX_CONTACT_RETRIES = 0``): the step that spans the slip's end ends
    with the slip reversed by 0.0193 m/s.  The pair sticks, and that slip is stopped at once by a
    tangential impulse with the normal gap held, its work -m v_t^2 / 2 = -3.72e-4 J booked as
    friction (the stick event's ``W_t_J``).  Before, the stick's velocity row pulled the slip back
    over the next step, unbooked: the friction term fell by 4.0e-3 of the energy in play (the
    step's friction pushing along the reversed slip stayed), and so did the balance.  Now the
    friction term never falls and the balance holds to 1e-9 (measured 1.2e-12)."""
    import solver.integration.time_loop as time_loop

    monkeypatch.setattr(time_loop, "MAX_CONTACT_RETRIES", 0)
    results = simulate(thrown_block(4e-3))
    assert results.completed, results.meta.get("message")
    assert np.all(np.diff(term_history(results, "dissipated_friction")) >= 0.0)
    balance = results.total_energy()
    assert np.abs(balance - balance[0]).max() <= 1e-9 * energy_in_play(results)
    (stick,) = [e for e in results.events if e["kind"] == "stick"]
    assert stick["v_t_m_s"] > 0.01  # reversed: the block slid along -x
    assert stick["W_t_J"] == pytest.approx(-0.5 * 2.0 * stick["v_t_m_s"] ** 2, rel=1e-9)


def test_an_onset_while_another_pair_slides_ends_at_rest_along_the_normal():
    """Both ends with friction 0.3: A slides, held by its multiplier, when B lands, and A's
    column eta = alpha - mu_D [beta] sigma (eqs. 4.16-4.18) makes Routh's D unsymmetric.  With
    D averaged B was left at -9.65e-3 m/s, its normal velocity then alternated +-9.65e-3 m/s
    frame by frame and the balance swung by 0.0022 J (0.003 of the 0.738 J in play); with D as
    it is, B's normal velocity after the onset is round-off (measured 1.7e-12 m/s), F_n has no
    step-to-step swings, the balance holds within 1e-4 of the energy in play (measured 3.1e-8 J)
    and the friction term never falls."""
    results = simulate(bar_landing(0.3))
    assert results.completed, results.meta.get("message")
    (onset,) = [e for e in results.events if e["kind"] == "impulse" and e["contact"] == "B-ground"]
    values = contact_values(results.frames, ["v_n_m_s", "F_n_N"])
    after = results.frames.times > onset["time_s"]
    assert np.abs(values["v_n_m_s"][after, 1]).max() <= 1e-9
    dF = np.diff(values["F_n_N"][after], axis=0)
    swings = (dF[1:] * dF[:-1] < 0.0) & (np.abs(dF[1:]) > 1e-6 * values["F_n_N"].max())
    assert not swings.any()
    balance = results.total_energy()
    assert np.abs(balance - balance[0]).max() <= 1e-4 * energy_in_play(results)
    assert np.all(np.diff(term_history(results, "dissipated_friction")) >= 0.0)
    assert abs(onset["c_tn"] - onset["c"]) > 0.05  # the D Routh's method solved: not symmetric


def test_a_held_pairs_impulse_on_the_normal_velocity_it_holds_is_booked(monkeypatch):
    """B's onset while A slides (eqs. 3.22-3.38), from the state the run reached but with the bar moved
    by 0.01 m/s along the normal, so that A's row holds a normal velocity (as the steps can leave a
    pair on a curved or moving target; on this straight line it is round-off): A's impulse does work
    on that velocity, which the impulse leaves unchanged.  It was not booked (2.1e-3 J here); now the
    onset's kinetic energy jump is its works, W_n + W_t + the held friction + the held rows' impulses
    on what they hold (``W_held_rows``, booked with restitution) + the joints', to 1e-9."""
    from solver.contact import jump as jumps

    calls = []
    jump = jumps.velocity_jump
    monkeypatch.setattr(jumps, "velocity_jump", lambda *args: calls.append(args) or jump(*args))
    simulate(bar_landing(0.3))
    asm, s, geom, mu_s, mu_d, e, law, held, pair, joints = next(c for c in calls if c[7] is not None)
    sys = asm.sys
    up = np.zeros(sys.n)  # the bar moved along the normal: every y dof
    up[np.asarray(sys.node_dofs)[:, 1]] = 1.0
    up[[dofs[1] for _name, dofs in sys.rigid_bodies]] = 1.0
    moved = replace(s, v=s.v + 0.01 * up)
    v, r, _held = jump(asm, moved, geom, mu_s, mu_d, e, law, held, pair, joints)
    jumped = asm.kinetic_energy(s.q, v) - asm.kinetic_energy(s.q, moved.v)
    assert abs(r.W_held_rows) > 1e-3
    assert jumped == pytest.approx(r.W_n + r.W_t + r.W_held + r.W_held_rows + r.W_joints, rel=1e-9)


def test_the_drivers_work_in_the_joints_correction_before_an_onset_is_booked_as_theirs(monkeypatch):
    """A block's Lagrange onset on a rigid link a speed driver turns at -10 rad/s, from the state the run reached
    but with the link's centre moved by 0.05 m/s along x (its pin's velocity off, as a modal link's steps leave
    theirs, eqs. 3.10-3.21): the joints' least-energy correction before the onset is met by the driver's impulse,
    which holds the driven rate and does work.  The correction's work was booked whole as restitution,
    ``W_joints`` +7.81e-3 J, a gain; now ``W_joints`` is its loss, ``-dv^T M dv / 2`` = -2.50e-4 J, and the
    driver's +8.06e-3 J is in ``W_drivers`` with its impulse's: the onset's kinetic energy jump is still the
    works' sum, to 1e-9."""
    from solver.contact import jump as jumps
    from solver.system.initial import velocity_correction

    from ..solver.builders import driven_link_struck

    calls = []
    jump = jumps.velocity_jump
    monkeypatch.setattr(jumps, "velocity_jump", lambda *args: calls.append(args) or jump(*args))
    simulate(driven_link_struck(ground=False))
    asm, s, geom, mu_s, mu_d, e, law, held, pair, joints = next(c for c in calls if c[-1])
    kick = np.zeros(asm.sys.n)
    kick[dict(asm.sys.rigid_bodies)["link0"][0]] = 0.05
    moved = replace(s, v=s.v + kick)
    v, r, _held = jump(asm, moved, geom, mu_s, mu_d, e, law, held, pair, joints)
    assert r.W_joints == pytest.approx(-2.4998e-4, rel=1e-4)
    dv = velocity_correction(asm, s.q, moved.v, s.t, held)[0]
    assert r.W_joints == pytest.approx(-asm.kinetic_energy(s.q, dv), rel=1e-9)
    assert r.W_drivers == pytest.approx(-0.048193, rel=1e-4)  # -0.056256 of the impulse, +0.008062 of the correction
    jumped = asm.kinetic_energy(s.q, v) - asm.kinetic_energy(s.q, moved.v)
    assert jumped == pytest.approx(r.W_n + r.W_t + r.W_held + r.W_held_rows + r.W_joints + r.W_drivers, rel=1e-9)


def driven_modal_landing() -> dict:
    """The 5-mode modal pendulum (steel rod, 1 m) turned by a speed driver (a ramp to -4 rad/s over 50 ms) onto
    its surface, the pair Lagrange (mu 1): 18 onsets in 0.2 s (22 turned and mirrored), each after the joints'
    velocity correction (the nodes on the floating frame meet the joints only to the step's error)."""
    doc = json.loads((examples_dir() / "pendulum_flexible_modal5_newton.json").read_text(encoding="utf-8"))
    pair = doc["contacts"][0]
    pair["model"] = {"kind": "lagrange"}
    del pair["e"], pair["law"]
    doc["solver"]["end_time"] = 0.2
    doc["drivers"] = [{"id": "motor", "kind": "speed", "link": "rod", "pivot": "O",
                       "function": {"kind": "ramp", "t0": 0.0, "t1": 0.05, "v0": 0.0, "v1": -4.0}}]
    return doc


@pytest.mark.parametrize("moved", ["drawn", "turned and mirrored"])
def test_the_joints_correction_before_a_driven_onset_books_no_restitution_gain(moved):
    """The driven 5-mode pendulum landing under the Lagrange model: before, the drivers' work in the joints'
    corrections (3.1e-5 J over the 18 onsets) was booked as restitution, as gains up to 1.25e-5 J an onset
    (1.22e-5 turned and mirrored) and a restitution term that fell by 6.9e-8 J.  Now each onset's ``W_joints_J``
    is a loss (round-off at most, 2.3e-16 J), the restitution term never falls, and the balance, which had the
    whole correction booked either way, is as it was: within 1e-5 of the 139.5 J in play (7.3e-6 and 7.6e-6)."""
    doc = driven_modal_landing()
    if moved != "drawn":
        doc = mirrored(rotated(doc, 0.6))
    results = simulate(doc)
    assert results.completed, results.meta.get("message")
    onsets = [e for e in results.events if e["kind"] == "impulse"]
    assert len(onsets) >= 18 and max(e.get("W_joints_J", 0.0) for e in onsets) <= 1e-12
    assert np.all(np.diff(term_history(results, "dissipated_restitution")) >= 0.0)
    balance = results.total_energy()
    assert np.abs(balance - balance[0]).max() <= 1e-5 * energy_in_play(results)
