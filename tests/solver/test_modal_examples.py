"""The chapter-2 examples with their flexible link modal (issue 14): the robot arm (Ex. 1)
and the flexible slider-crank (Ex. 4) agree with the corotational runs on their reported
peaks within 1 % (docs/validation.md: how the difference falls with the number of modes)."""
import functools

import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.model.io import examples_dir

#: the corotational examples' reported peaks (docs/validation.md): the robot arm's mid-span
#: deflection / L after the hub stops, the slider-crank's in its second revolution and the
#: crank angle there (the Exudyn reference is -0.015521 at 670.98 deg)
ARM_PEAK = -0.1445
CRANK_PEAK, CRANK_ANGLE_DEG = -0.015521, 671.06


@functools.lru_cache(maxsize=None)
def run(name, **changes):
    doc = load_model(examples_dir() / f"{name}.json")
    link = next(lk for lk in doc["links"] if lk["kind"] == "modal")
    link.update(changes)
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    return res


def peak(res):
    mid = res.stack("midspan")[:, 0]
    i = int(np.argmax(np.abs(mid)))
    return mid[i], i


def test_modal_slider_crank_agrees_with_the_corotational_rod():
    """3 pinned-pinned modes with geometric stiffening: peak within 1 % of the corotational
    rod's (measured +0.02 %), at the same crank angle within 1 deg; the motor's work balances
    kinetic + strain energy to 1e-4 of the kinetic energy."""
    res = run("slider_crank_modal")
    value, i = peak(res)
    assert value == pytest.approx(CRANK_PEAK, rel=1e-2)
    assert np.degrees(res.stack("driver_angle")[i, 0]) == pytest.approx(CRANK_ANGLE_DEG, abs=1.0)
    balance = res.energy("kinetic") + res.energy("strain") - res.energy("work_drivers")
    assert np.ptp(balance) < 1e-4 * res.energy("kinetic").max()


def test_the_slider_crank_needs_geometric_stiffening():
    """Without it (the classical linear floating frame) the rod's axial force does not stiffen
    its bending and the first-revolution peak is 21 % too large (0.01876 against 0.01552)."""
    value, _i = peak(run("slider_crank_modal", stiffening=False))
    assert abs(value) > 1.15 * abs(CRANK_PEAK)


def test_modal_robot_arm_agrees_with_the_corotational_arm():
    """12 free-free modes with geometric stiffening: the peak mid-span deflection after the
    hub stops (14 % of the length) within 1 % of the corotational arm's (measured +0.5 %); the
    hub holds 1.5 rad; the held arm's free vibration keeps its energy within 0.2 %."""
    res = run("robot_arm_modal")
    value, _i = peak(res)
    assert value == pytest.approx(ARM_PEAK, rel=1e-2)
    angle = res.stack("driver_angle")[:, 0]
    assert angle[-1] == pytest.approx(1.5, abs=1e-12)
    held = res.time >= 2.5 - 1e-12
    energy = (res.energy("kinetic") + res.energy("strain"))[held]
    assert np.ptp(energy) < 2e-3 * energy.mean()


def test_the_robot_arm_frame_must_follow_the_arm():
    """The frame clamped at the hub sees the tip 6 m (60 % of the length) off its axis, far
    beyond the small deformation the modes describe: the peak misses by more than 10 %,
    where the free-free frame, which follows the arm, is within 1 %."""
    value, _i = peak(run("robot_arm_modal", reference="clamped"))
    assert abs(value / ARM_PEAK - 1) > 0.1
