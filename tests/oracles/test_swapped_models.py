"""Shipped contact examples with their pairs switched to another contact model, as a user
switches them in the window (issue 26, trust off the benchmark path): each runs to its end
and keeps its energy balance within the oracle's bound (:func:`.test_balance.check_balance`)."""
from __future__ import annotations

import json
from pathlib import Path

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
    assert len(onsets) >= 4 and all(-1e-8 < e.get("W_joints_J", 0.0) <= 0.0 for e in onsets)  # J: a loss
