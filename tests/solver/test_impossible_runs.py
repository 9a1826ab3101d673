"""Issue 29, points 7-9: runs that left the physics end with a warning that says so, and a
failure is named by its cause.  (The models ``validate`` used to accept and ``run`` crashed
on -- a ball as wide as its bore, a clearance of 1e-30 m, a modal link of 20 000 elements, a
disc starting inside a beam -- are refused at validation: ``tests/data/malformed``.)"""
from __future__ import annotations

import json

import pytest

from app.shell import cli
from solver.api import simulate
from solver.model.io import examples_dir
from solver.results.validity import PENETRATION_WARNING, penetration_warning, run_warnings

from .builders import driven_link_struck


def _example(name: str) -> dict:
    return json.loads((examples_dir() / f"{name}.json").read_text(encoding="utf-8"))


def test_a_journal_pushed_through_its_bearing_is_warned_of():
    """Exponent 10 with the stiffness of eqs. 3-5 holds nothing: the journal ends 88 mm into a
    10 mm bearing of 0.5 mm clearance (the run completes; before, without a word)."""
    model = _example("slider_crank_clearance_hertz")
    next(j for j in model["joints"] if j["kind"] == "clearance")["exponent"] = 10
    model["solver"]["end_time"] = 0.004
    results = simulate(model)
    depth = results.meta["compliant_contacts"]["B-clearance"]["max_penetration_m"]
    assert depth > 100 * PENETRATION_WARNING * 0.0005  # 0.088 m against a clearance of 0.5 mm
    warning = penetration_warning(results)
    assert warning in run_warnings(results)
    assert "'B-clearance' 0.0876 m, more than its radial clearance (0.0005 m)" in warning


def test_a_sound_pin_in_a_bore_is_not_warned_of():
    results = simulate(_example("cylinders_goldsmith"))
    assert results.meta["compliant_contacts"]["bore"]["max_penetration_m"] < 1e-4  # 36 um in 0.5 mm
    assert penetration_warning(results) is None


def test_a_moving_support_held_at_a_pinned_end_is_named_not_a_contact_pair(tmp_path, capsys):
    """A support whose position starts outside the link (s = -1 m) is held at the link's pinned
    end: the rows are singular, and the message says why -- the model has no contact pairs."""
    model = _example("moving_support_beam")
    model["moving"][0]["position"] = {"kind": "ramp", "t0": 0.0, "t1": 1.0, "v0": -1.0, "v1": 2.0}
    model["solver"]["end_time"] = 0.01
    path = tmp_path / "support.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert "the moving supports' and masses' constraints are redundant with the joints" in err
    assert "outside the link" in err and "pairs" not in err


@pytest.mark.parametrize("holders, says", [
    (("moving",), "redundant with the joints"),
    (("lagrange",), "remove one of the pairs that touch together"),
    (("lagrange", "moving"), "or see whether a moving support held where a joint"),
])
def test_the_redundancy_message_names_what_holds_the_rows(holders, says):
    from solver.system.bordered import redundant_rows

    assert says in redundant_rows(holders)


#: what both steps say of the driven tip (:func:`~tests.solver.builders.driven_link_struck`)
HELD_TIP = ("stopped at t = 0.00110557 s: the impulse of contact 'tip-ground' cannot be computed: its point cannot "
            "move along the contact, driver 'motor' and the joints hold it there (the masses would take ")


@pytest.mark.parametrize("step", [5e-4, 2.5e-4])
def test_a_driven_links_tip_struck_stops_naming_the_driver_at_any_step(step):
    """The tip's contact-space inverse inertia is round-off: D_nn = 1.7e-27 at the drawn step, which passed the
    check ``D_nn > 0``, gave an impulse of 2.3e27 N s and a failure 53 s later that read 'the energy jumped in one
    step ...; try a smaller step'; -1.1e-27 at half the step, which said the cause.  The masses' share of a unit
    impulse (round-off, 6e-17 and 7e-16) says it at both steps, naming the driver and what to do instead."""
    from solver.errors import SolverError

    with pytest.raises(SolverError) as raised:
        simulate(driven_link_struck(step))
    message = str(raised.value)
    assert message.startswith(HELD_TIP)
    assert message.endswith("of the impulse); a prescribed motion does not give way to an impact: drive the link by "
                            "a load (a torque or force) rather than a driver, or end the driven motion before the "
                            "point reaches the target")


def test_a_run_stopped_by_a_solver_error_says_when_and_keeps_its_frames(tmp_path, capsys):
    """The CLI's line says when the run stopped and where the frames kept end, once each, and the frames of
    every step taken are kept: before, the frames gathered into a block not yet full were lost with the error
    (1 frame kept instead of 5) and the line read 'stopped at t = 0 s (its last frame): stopped at t =
    0.00110557 s: ...'."""
    from solver.results.files import load_results

    path = tmp_path / "tip.json"
    path.write_text(json.dumps(driven_link_struck(2.5e-4)), encoding="utf-8")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert err.startswith(f"flexmech: the run failed: {HELD_TIP}") and err.count("stopped at") == 1
    assert err.endswith(f"; the frames kept end at t = 0.001 s; partial results written to {tmp_path / 'out'}\n")
    results = load_results(tmp_path / "out")
    assert results.meta["status"] == "failed" and results.meta["message"] in err
    assert results.frames.times.tolist() == pytest.approx([0.0, 2.5e-4, 5e-4, 7.5e-4, 1e-3], abs=1e-15)
