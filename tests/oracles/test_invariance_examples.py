"""Every shipped example turned and moved, and mirrored, gives the same results (issue 26).

Each example runs over a short horizon (:data:`STEPS` of its step, less where noted) as
shipped, turned by 37° about (0.2, 0.1) m and moved by (1.3, -0.7) m, and mirrored about
the line through (0.4, 0) m at 70°; :func:`~tests.oracles.equivalence.assert_equivalent`
compares the three to :data:`RTOL` relative.  Where an example differs more, the control
-- the same turn by a further 1e-9 rad, which changes nothing but the round-off -- was
run (the numbers are in the reasons below): a control that moves the
results as much says sensitivity (impulse chatter, chaos, round-off times a stiff mode's
frequency squared), one that moves them far less says the axes leak into the code, a
defect fixed in the solver.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pytest

from solver.api import load_model, simulate
from tests.oracles.equivalence import assert_equivalent
from tests.oracles.transform import reflection, rotation, translation

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"

#: the comparison's tolerance (relative to each quantity's largest magnitude)
RTOL = 1e-8
#: accelerations: round-off of the positions times a stiff mode's frequency squared (the flexible
#: pendulum's tip: the 1e-9 rad control moves its acceleration by 2.3e-7, the turn by 2.8e-7)
ACCELERATION_RTOL = 1e-6
#: steps of each example's own step that it runs for
STEPS = 60

TURNED = rotation(math.radians(37.0), (0.2, 0.1)).then(translation(1.3, -0.7))
MIRRORED = reflection((0.4, 0.0), math.radians(70.0))

#: examples run for fewer steps, and why: the impulses of a contact that chatters (e = 1 on a
#: flexible body) and a clearance joint's impacts are decided by thresholds (TOL, the sign of
#: v_n) that round-off tips: past the first impact the 1e-9 rad control moves them as much as
#: the turn does (the bar struck by a mass: 1.5e-2 after 70 steps)
HORIZON = {
    "bar_mass_impact": 40,
    "rod_floor_flexible": 20,
    **{f"pendulum_flexible_modal{n}_{law}": 30 for n in (3, 5) for law in ("energetic", "newton", "poisson")},
    **{p.stem: 20 for p in EXAMPLES.glob("slider_crank_clearance_*.json")},
    "slider_crank_clearance_hertz": 100,  # through its first three impacts
    "slider_crank_clearance_lubricated": 40,  # the others' 0.2 ms at its half step
}

#: quantities compared to a tolerance other than RTOL (``"*"``: every quantity), and why (measured, with the
#: control)
TOLERANCES: dict[str, tuple[dict[str, float], str]] = {}
TOLERANCES["rotating_beam_stop"] = (
    dict.fromkeys(("bending_strain", "bending_moment", "axial_force", "axial_strain", "rot_v"), 2e-7),
    "sensitivity: the 1e-9 rad control moves the bending strain by 8.2e-8 (the turn: 7.8e-8)")
TOLERANCES["bimetal_strip_heated"] = (
    {"rot_v": 3e-8}, "sensitivity: the 1e-9 rad control moves the accelerations by 3e-8 (the turn: 3.5e-8)")
TOLERANCES["two_bars_impact"] = (
    {"contact.v_n_m_s": 2e-6, "node_v": 1e-6, "rot_v": 1e-6, "rot_a": 2e-6, "node_a": 2e-6, "axial_force": 3e-7,
     "axial_strain": 3e-7, "contact.gap_m": 1e-7, "contact.F_n_N": 1e-7, "contact.I_n_N_s": 2e-7,
     "contact.F_n_impulse_rate_N": 2e-7, "event.I_n_N_s": 2e-7, "energy": 1e-7},
    "the e = 1 chatter of the impulses at the bars' interface: the 1e-9 rad control moves v_n by 5.3e-7 and the "
    "axial strain by 7.2e-8 (the turn: 6.8e-7, 9.1e-8)")
TOLERANCES["two_bars_impact_lagrange"] = (
    {"rot_v": 2e-7, "rot_a": 2e-6},
    "the bars do not turn: their rotation rates are zero as shipped (along x) and the round-off of the axial "
    "motion once turned or mirrored (the turn: 7.4e-8 and 6.8e-7, the mirror: 5.0e-8 and 3.7e-7; every other "
    "quantity within 2.1e-9)")
_DIFFERENCE = ("the curvature term of a moving mass or support is a central difference 1e-7 of the model's size "
               "wide (solver.contact.moving): it carries the round-off of the rows' rates over 1e-7, and the "
               "beam's small axial force with it")
TOLERANCES["moving_mass_beam"] = (dict.fromkeys(("axial_force", "axial_strain"), 1e-4) | {"moving_force": 3e-8},
                                  _DIFFERENCE + ": the 1e-9 rad control moves it by 4.1e-5 (the turn: 4.9e-5), "
                                  "and the mass's force by 9.1e-9 (the turn: 1.1e-8)")
TOLERANCES["moving_support_beam"] = (dict.fromkeys(("axial_force", "axial_strain"), 3e-7),
                                     _DIFFERENCE + ": the 1e-9 rad control moves it by 1.3e-7 (the turn: 1.3e-7)")

TOLERANCES["disc_rolling_beam"] = (
    dict.fromkeys(("axial_force", "axial_strain", "contact.v_n_m_s"), 1e-6),
    "sensitivity: the beam's axial force (EA = 1e7 N against the disc's 10 N) and the held normal velocity are "
    "round-off of their largest values: the 1e-9 rad control moves them by 3.5e-7 and 9.9e-8 (the turn: 3.7e-7, "
    "2.7e-7; the mirror: 2.1e-7, 5.5e-8)")
TOLERANCES["slider_crank_clearance_hertz"] = (
    {"*": 1e-5}, "the journal's impacts in the bearing, their steps sized by the contact's accuracy: after three "
                 "impacts the 1e-9 rad control moves the impulses by 2.5e-6 (the turn: 8.6e-7); the other clearance "
                 "examples run 20 steps, before their first impact")

TOLERANCES["slider_crank_translational_clearance"] = (
    dict.fromkeys(("node_v", "contact.v_n_m_s", "contact.v_t_m_s"), 5e-8),
    "the slider falls freely in its guide as the crank starts from rest: the 1e-9 rad control moves the "
    "corners' velocities by 1.6e-8 (the turn: 3.2e-8)")

for _name in ("cylinders_dubowsky_freudenstein", "cylinders_esdu78035", "cylinders_goldsmith", "spheres_hertz",
              "spheres_kelvin_voigt", "spheres_lankarani_nikravesh"):
    TOLERANCES[_name] = (
        {"*": 1e-5, "node_a": 1e-5, "contact.I_n_N_s": 1e-4},
        "round-off of the gap: the ball meets the bore at a step's end (a touch: solver.contact.compliant."
        "TOUCH_FRACTION) and the next step ends where the penetration is contact_tol / 2 (5e-8 m), which "
        "coordinates of 1.3 m carry to 7e-15 m (1.4e-7 of it); the step control sizes the contact's steps from "
        "there. The 1e-9 rad control moves the six by up to 4.7e-7 in time, 8.8e-6 in velocities and 8.4e-5 in "
        "the impulses between frames (the turn: 2.3e-7, 5.4e-6, 4.1e-5)")

#: examples that still differ beyond their tolerance, and why
XFAIL: dict[str, str] = {}

#: xfails whose outcome a tie decides (any change of round-off may pass them)
TIES: tuple[str, ...] = ()


def short(name: str) -> dict:
    """The example ``name`` over its horizon."""
    model = load_model(EXAMPLES / f"{name}.json")
    solver = model.setdefault("solver", {})
    solver["end_time"] = min(solver.get("end_time", 1.0), HORIZON.get(name, STEPS) * solver.get("step", 1e-3))
    return model


def _cases():
    for path in sorted(EXAMPLES.glob("*.json")):
        marks = [pytest.mark.xfail(reason=XFAIL[path.stem], strict=path.stem not in TIES)] if path.stem in XFAIL else []
        yield pytest.param(path.stem, marks=marks, id=path.stem)


@pytest.mark.parametrize("name", list(_cases()))
def test_an_example_turned_moved_and_mirrored_gives_the_same_results(name):
    model = short(name)
    shipped = simulate(model)
    assert shipped.completed, shipped.meta.get("message")
    rtols = dict.fromkeys(("node_a", "rot_a", "modal_qdd"), ACCELERATION_RTOL) | TOLERANCES.get(name, ({}, ""))[0]
    rtol = rtols.pop("*", RTOL)
    for transform in (TURNED, MIRRORED):
        moved = simulate(transform.apply(copy.deepcopy(model)))
        assert_equivalent(shipped, moved, transform, rtol, rtols)


def test_the_two_bars_turned_and_moved_strike_alike():
    """Thesis §5.1.2 turned by 37° and moved by (1.3, -0.7) m.  Before the fix the predictor's
    root (eq. 3.4) was lost to cancellation under a round-off normal acceleration and the step
    halved instead: the first contact came a step later, 263 frames instead of 288 by 0.5 ms
    (1382 instead of 902 over the example's 1.6 ms, the peak strain 7 % off).  Frames and
    events now match one for one; what remains by 0.5 ms (peak strain 2.7e-7, impulses 5.8e-9,
    energies 3.3e-8) is the sensitivity of the e = 1 chatter: the same turn by a further
    1e-9 rad moves them by 2.2e-7, 4.2e-9 and 2.6e-8."""
    model = load_model(EXAMPLES / "two_bars_impact.json")
    model["solver"]["end_time"] = 5e-4
    a, b = simulate(model), simulate(TURNED.apply(model))
    assert len(a.frames) == len(b.frames) and len(a.events) == len(b.events)
    assert [e["kind"] for e in a.events] == [e["kind"] for e in b.events]
    peak = [float(np.abs(r.stack("axial_strain")).max()) for r in (a, b)]
    assert peak[1] == pytest.approx(peak[0], rel=1e-6)
    impulse = [sum(e.get("I_n_N_s", 0.0) for e in r.events) for r in (a, b)]
    assert impulse[1] == pytest.approx(impulse[0], rel=1e-7)
    energy = [r.energies(["kinetic", "strain"])[-1] for r in (a, b)]
    np.testing.assert_allclose(energy[1], energy[0], rtol=1e-7, atol=1e-7 * float(energy[0].sum()))
    times = [np.array([e["time_s"] for e in r.events]) for r in (a, b)]
    np.testing.assert_allclose(times[1], times[0], rtol=0, atol=1e-7 * 5e-4)  # 2e-5 of a step


def test_newtons_stopping_test_does_not_depend_on_the_axes():
    """The flying beam (thesis Ex. 2) turned by 37°: Newton stopped when the largest component
    of its correction fell below the tolerance, so a turn changed its iteration count (4 against
    3 at one step) and the beam's axial force by 2.5e-7; now the correction's length decides
    (3e-11, as a turn by 90° or a move)."""
    model = load_model(EXAMPLES / "flying_beam.json")
    model["solver"]["end_time"] = 0.5
    turned = rotation(math.radians(37.0))
    diff = assert_equivalent(simulate(model), simulate(turned.apply(model)), turned, 1e-9)
    assert diff["axial_force"] < 1e-9


def test_newtons_tolerance_does_not_depend_on_the_origin():
    """The flexible pendulum moved by (1.3, -0.7) m: Newton's position tolerance was 1e-10 of the
    largest coordinate, so the move loosened it and the rod's accelerations came 1.7e-4 apart
    and its angular velocities 2.9e-5; now it is 1e-10 of the model's size (3.9e-7 and 5e-9)."""
    model = load_model(EXAMPLES / "pendulum_flexible_corotational_newton.json")
    model["solver"]["end_time"] = 200 * model["solver"]["step"]
    moved = translation(1.3, -0.7)
    diff = assert_equivalent(simulate(model), simulate(moved.apply(model)), moved, RTOL,
                             {"node_a": ACCELERATION_RTOL, "rot_a": ACCELERATION_RTOL})
    assert diff["rot_v"] < 1e-8
