"""Defects the generated models of :mod:`.generated` found, each kept as its smallest model."""
from __future__ import annotations

import pytest

from solver.api import simulate

from .open_defects import OPEN_DEFECTS
from .runs import run


def _two_lagrange_pairs() -> dict:
    """A flexible link turning onto the ground while a block lands beside it, both pairs Lagrange
    with friction: the link's tip sticks (a second row) while the block's pair is closed."""
    friction = {"mu_s": 0.2, "mu_d": 0.2, "model": {"kind": "lagrange"}}
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.3, "y": 0.0}],
        "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "flexible", "mesh": {"elements": 4},
                   "section": {"kind": "per_length", "EA": 2e5, "EI": 50.0, "rhoA": 2.0, "c": 0.01}}],
        "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}],
        "bodies": [{"id": "body", "kind": "rigid", "x": 1.0, "y": -0.087848989, "mass": 0.05, "inertia": 2.5e-06,
                    "radius": 0.01}],
        "contacts": [{"id": "tip-ground", "point": {"node": "n1"},
                      "target": {"kind": "ground_line", "y": -0.0024765267587520206}, **friction},
                     {"id": "body-ground", "point": {"body": "body"}, "target": {"kind": "ground_line", "y": -0.1},
                      **friction}],
        "initial_velocities": [{"body": "body", "vx": -0.039216, "vy": -0.5, "omega": 5.0},
                               {"link": "link0", "omega": -10.0}],
        "solver": {"end_time": 0.006, "step": 0.0005},
    }


def test_a_lagrange_pair_switching_before_another_reads_its_own_rows():
    """Two Lagrange pairs closed at once, the first sticking or slipping at the end of a step:
    the second read its normal force at the row it would have after the switch (before: an
    IndexError, a bug; the pairs are now switched from the last: with the old order this model
    still stops with the IndexError)."""
    results = simulate(_two_lagrange_pairs())
    assert results.meta["status"] == "completed", results.meta.get("message")
    kinds = {(e["contact"], e["kind"]) for e in results.events}
    assert {("tip-ground", "stick"), ("tip-ground", "slip"), ("body-ground", "contact_start")} <= kinds



@pytest.mark.parametrize("defect", OPEN_DEFECTS, ids=[f"open{i}" for i in range(len(OPEN_DEFECTS))])
@pytest.mark.xfail(strict=True, reason="open (issue 26): a generated model the solver fails on (open_defects.json)")
def test_an_open_defect_still_fails(defect):
    """Each generated model of ``open_defects.json`` still fails the balance oracle as its reason
    says (strict: a fix shows as a pass, and the model then leaves the file)."""
    from .test_balance import check_balance

    check_balance(run(defect["model"]), defect["model"])
