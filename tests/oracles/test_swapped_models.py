"""Shipped contact examples with their pairs switched to another contact model, as a user
switches them in the window (issue 26, trust off the benchmark path): each runs to its end
and keeps its energy balance within the oracle's bound (:func:`.test_balance.check_balance`),
or is refused before its first step, by the API as by ``validate`` and ``flexmech run``."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from app.shell import cli
from solver.api import ModelError, SolverError, iter_simulation, output_layout, simulate
from solver.model.validate import validate
from solver.results.trust import force_spike_warning
from solver.results.validity import run_warnings

from .runs import run
from .test_balance import check_balance

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def swapped(name: str, model: dict, end_time: float | None = None) -> dict:
    """The example ``name`` with every contact pair's ``model`` replaced by ``model``."""
    doc = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    for pair in doc["contacts"]:
        pair["model"] = dict(model)
    if end_time is not None:
        doc["solver"]["end_time"] = end_time
    return doc


def test_the_five_mode_pendulum_under_the_lagrange_model_runs_through_its_onsets():
    """The 5-mode modal pendulum (Predebon §7) under the Lagrange model stopped at 0.1676 s, "the
    energy jumped in one step": its onset jump started from the velocities the last (3 ms) step
    left, which meet the modal link's joints only to the step's error (1.1e-3 m/s at the tip); the
    steps taken again to find the slip's end, however short, took that error back as a jump of
    twice its size, read as a slip reversing at once, until a stick from "rest" on a 9e-9 s step
    held the tip with 1.7e8 N.  The onset now starts from the velocities the joints allow (their
    impulse's work booked with the onset's restitution): the run completes through four onsets."""
    doc = swapped("pendulum_flexible_modal5_newton", {"kind": "lagrange"}, end_time=0.2)
    results = run(doc)
    check_balance(results, doc)
    onsets = [e for e in results.events if e["kind"] == "impulse"]
    assert len(onsets) >= 4 and all(-1e-6 < e.get("W_joints_J", 0.0) <= 0.0 for e in onsets)  # J: a loss


def rolling_point_strike() -> dict:
    """The side strike of :mod:`.test_struck_links` with a rolling pair on a point body (a rolling
    pair's point must be a round rigid body)."""
    from .test_struck_links import side_strike

    return side_strike("rolling")


@pytest.mark.parametrize("doc", [swapped("rod_impact_rigid", {"kind": "compliant"}), rolling_point_strike()],
                         ids=["compliant-without-stiffness", "rolling-point-body"])
def test_the_api_refuses_what_validate_and_run_refuse_naming_the_same_fields(doc, tmp_path, capsys):
    """``simulate`` ran models ``validate`` refuses: a pair switched to ``{"kind": "compliant"}``
    without a stiffness or materials raised a TypeError deep in the solver, the rolling side strike
    on a point body ran.  The API now refuses them with the ModelError ``validate`` and ``flexmech
    run`` give, field by field, before the first step (and ``output_layout`` alike)."""
    problems = [str(p) for p in validate(doc)]
    assert problems
    for call in (simulate, output_layout, lambda d: next(iter_simulation(d))):
        with pytest.raises(ModelError) as refused:
            call(copy.deepcopy(doc))
        assert [str(p) for p in refused.value.problems] == problems
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == cli.EXIT_INVALID
    assert capsys.readouterr().err.splitlines() == [f"flexmech: {p}" for p in problems]


def test_a_pair_that_presses_nothing_is_not_warned_of_a_force_spike():
    """The Dubowsky-Freudenstein cylinders switched to the Lagrange model: the pair closed on a bore
    it does not press carries round-off (6.6e-24 N on one frame, nothing beside), which the run
    warned of as a force spike "6.62e+276 times the frames beside it".  A normal force whose work
    over the model's size is below 1e-9 of the energy in play is round-off now: no warning."""
    results = run(swapped("cylinders_dubowsky_freudenstein", {"kind": "lagrange"}))
    assert results.meta["status"] == "completed"
    assert force_spike_warning(results) is None and run_warnings(results) == []


def test_a_pendulum_whose_tip_cannot_stick_slides_on():
    """The rigid pendulum striking a surface (mu = 1) under the Lagrange model: after the onset its tip
    stuck, and the stick's two rows held what the pin leaves one way to move: the compiled closed
    steps raised numpy's LinAlgError (an "unexpected error" in ``flexmech run``), the steps one by
    one "remove one of the pairs" -- of one.  The 3-mode pendulum at a quarter of its step stuck
    with multipliers of 1e9-1e16 N until Newton met a singular matrix at t = 0.1527 s.  A pair whose
    point moves (nearly) one way only (det D < 1e-3 D_nn D_tt) now slides on, its friction turning
    with the slip: both complete within the oracle's balance."""
    for doc in (swapped("pendulum_impact", {"kind": "lagrange"}),
                swapped("pendulum_flexible_modal3_newton", {"kind": "lagrange"}, end_time=0.155)):
        doc["solver"]["step"] /= 4
        check_balance(run(doc), doc)
