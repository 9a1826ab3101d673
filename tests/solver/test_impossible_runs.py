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
