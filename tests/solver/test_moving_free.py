"""A mass sliding freely along a flexible link (position kind ``free``), and the forces the
moving supports and masses exert on their link (Amirouche & Xie eqs. 13-16, 26)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from solver.api import simulate
from solver.model.validate import validate
from solver.results.files import export_csv, load_results, write_results
from solver.results.series import catalogue

G, L, MASS = 9.81, 4.0, 2.0


def beam_model(*, angle: float = 0.0, EI: float = 1e12, position: dict | None = None, end: float = 0.5,
               step: float = 1e-3, tau: float = 0.6, gravity: float = G) -> dict:
    """A 4 m beam pinned at both ends (10 kg/m, at ``angle`` from +x) with a 2 kg mass on it."""
    c, s = math.cos(angle), math.sin(angle)
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": L * c, "y": L * s}],
        "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": 10},
                   "section": {"kind": "per_length", "EA": 1e10, "EI": EI, "rhoA": 10.0, "rhoI": 0.0}}],
        "joints": [{"id": "pinA", "kind": "ground", "node": "A"}, {"id": "pinB", "kind": "ground", "node": "B"}],
        "moving": [{"id": "bead", "kind": "mass", "link": "beam", "mass": MASS,
                    "position": position or {"kind": "free", "s0": 1.0, "speed0": 2.0}}],
        "gravity": {"y": -gravity},
        "solver": {"end_time": end, "step": step, "output_interval": 10 * step, "tau": tau},
    }


def _series(res, field: str) -> np.ndarray:
    return np.array([getattr(f, field)[0] for f in res.frames])


def test_on_a_rigid_like_level_beam_the_mass_keeps_its_speed():
    """EI = 1e12 N m^2 (sag 3e-10 m): the speed along the link and the velocity along x stay 2 m/s
    within 1e-6 (measured 4.3e-8; tau = 0.6 damps the beam's unresolved vibration), and the
    mass presses on the link with its weight (force on the link F_n = -m g, within 1e-6)."""
    res = simulate(beam_model())
    k = res.layout.nodes.index("bead")
    assert res.meta["status"] == "completed"
    assert np.abs(_series(res, "moving_speed") / 2.0 - 1.0).max() < 1e-6
    assert np.abs(np.array([f.node_v[k, 0] for f in res.frames]) / 2.0 - 1.0).max() < 1e-6
    assert res.frames[-1].moving_s[0] == pytest.approx(1.0 + 2.0 * res.frames[-1].time, rel=1e-6)
    assert res.frames[-1].moving_force[0] == pytest.approx([-MASS * G, 0.0], rel=1e-6, abs=1e-9)


def test_on_a_stiff_incline_it_accelerates_at_g_sin_theta():
    """Released at rest on a beam at 0.3 rad: s(t) = s0 - g sin(theta) t^2 / 2 (measured: the
    fitted acceleration within 1e-12, s within 4e-9 m), pressing with m g cos(theta)."""
    theta = 0.3
    res = simulate(beam_model(angle=theta, position={"kind": "free", "s0": 3.5, "speed0": 0.0}))
    t, s = np.array([f.time for f in res.frames]), _series(res, "moving_s")
    a = -G * math.sin(theta)
    assert np.abs(s - (3.5 + 0.5 * a * t * t)).max() < 1e-7
    assert 2 * np.polyfit(t, s, 2)[0] == pytest.approx(a, rel=1e-6)
    assert res.frames[-1].moving_force[0, 0] == pytest.approx(-MASS * G * math.cos(theta), rel=1e-6)


def test_energy_is_conserved_on_a_flexible_beam():
    """EI = 1e4 N m^2 (the beam sags and rings under the crossing mass), no damping, tau = 0.5:
    T + U + V stays within 0.1 % of the initial 4 J over the crossing (measured 0.048 % with
    h = 1 ms, 0.016 % with 0.5 ms); with a force on the mass instead of gravity its work is
    booked (measured 3.5e-6 relative)."""
    res = simulate(beam_model(EI=1e4, position={"kind": "free", "s0": 0.0, "speed0": 2.0}, end=1.9, tau=0.5))
    total = res.total_energy()
    assert res.meta["status"] == "completed"
    assert np.ptp(total) < 1e-3 * total[0]
    assert np.ptp(_series(res, "moving_s")) > 3.5  # it crossed most of the beam
    doc = beam_model(EI=1e4, position={"kind": "free", "s0": 0.0, "speed0": 2.0}, end=1.0, tau=0.5, gravity=0.0)
    doc["moving"][0]["fy"] = -100.0
    total = simulate(doc).total_energy()
    assert np.ptp(total) < 1e-4 * total[0]


def test_at_the_links_end_the_mass_leaves_and_flies_free():
    """From s = 3 m at 2 m/s it reaches B at t = 0.5 s (the event ``left_link``), then falls freely:
    x = 4 + 2 (t - 0.5), y = -g (t - 0.5)^2 / 2, and exerts no force on the link."""
    res = simulate(beam_model(position={"kind": "free", "s0": 3.0, "speed0": 2.0}, end=1.0))
    left = [e for e in res.events if e["kind"] == "left_link"]
    assert len(left) == 1 and left[0]["moving"] == "bead"
    assert left[0]["time_s"] == pytest.approx(0.5, abs=1e-6)
    k = res.layout.nodes.index("bead")
    last = res.frames[-1]
    dt = last.time - left[0]["time_s"]
    assert last.node_xy[k] == pytest.approx([L + 2.0 * dt, -0.5 * G * dt * dt], abs=1e-6)
    assert last.moving_force[0] == pytest.approx([0.0, 0.0])


def test_free_travel_is_for_masses_only():
    doc = beam_model()
    doc["moving"][0] = {"id": "prop", "kind": "support", "link": "beam", "position": {"kind": "free", "s0": 1.0}}
    assert [str(p) for p in validate(doc)] == ["moving[prop].position.kind: free travel is for a moving mass only"]


def test_the_reactions_of_a_moving_support_at_mid_span_balance_the_weight():
    """A 4 m beam on end supports (displacement drivers, reactions reported) and a moving support
    held at mid-span, settled under gravity by Rayleigh damping: the three reactions sum to the
    weight within 1e-6 (measured 5e-14), the middle one is 5/8 of it (two-span continuous beam;
    within 1.5 % with the weight lumped at 9 nodes: measured -1.25 %), tangential force ~ 0."""
    doc = beam_model(EI=1e4, end=3.0, step=0.01)
    doc["links"][0]["section"]["EA"] = 1e8
    doc["joints"] = []
    doc["drivers"] = [{"id": d, "kind": "displacement", "node": d[0], "direction": d[1],
                       "function": {"kind": "constant", "value": 0.0}} for d in ("Ax", "Ay", "By")]
    doc["moving"] = [{"id": "prop", "kind": "support", "link": "beam", "position": {"kind": "constant", "value": L / 2}}]
    doc["damping"] = {"alpha": 40.0}
    last = simulate(doc).frames[-1]
    weight = 10.0 * L * G
    F_n, F_t = last.moving_force[0]
    assert last.driver_reaction[1:].sum() + F_n == pytest.approx(weight, rel=1e-6)
    assert F_n == pytest.approx(0.625 * weight, rel=0.015)
    assert abs(F_t) < 1e-6 * weight


def test_a_slowly_carried_mass_presses_with_its_weight():
    """A prescribed mass carried at 0.01 m/s over a stiff beam: the force on the link is -m g
    normal (within 1e-6) and the tangential force that carries it ~ 0."""
    res = simulate(beam_model(position={"kind": "linear", "rate": 0.01}, end=0.3))
    F_n, F_t = res.frames[-1].moving_force[0]
    assert F_n == pytest.approx(-MASS * G, rel=1e-6)
    assert abs(F_t) < 1e-6 * MASS * G


def test_the_moving_outputs_round_trip_and_are_plottable(tmp_path):
    """The ``moving`` table holds s, speed and the force on the link per entry; they load back bit for bit
    and the plots offer them as series (``moving/<id>/F_n`` ...)."""
    res = simulate(beam_model(end=0.05))
    write_results(res, tmp_path)
    back = load_results(tmp_path)
    assert back.layout.moving == ["bead"]
    for field in ("moving_s", "moving_speed", "moving_force"):
        assert np.array_equal(back.stack(field), res.stack(field))
    export_csv(tmp_path, tables=["moving"])
    with open(tmp_path / "moving.csv", encoding="utf-8") as fh:
        assert fh.readline().strip() == "time_s,moving,s_m,speed_m_s,F_n_N,F_t_N"
    series = catalogue(back)
    assert [k for k in series if k.startswith("moving/")] == [f"moving/bead/{q}" for q in ("F_n", "F_t", "s", "speed")]
    assert series["moving/bead/F_n"].value(back.frames[-1]) == pytest.approx(-MASS * G, rel=1e-2)  # settling
    assert series["moving/bead/F_n"].column == "moving.bead.F_n_N"
