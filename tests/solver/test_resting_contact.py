"""A block resting on the floor: the momentum-balance model lets it sink, and the run says so."""
from __future__ import annotations

import pytest

from solver.api import simulate
from solver.results.validity import SINK_WARNING, run_warnings, sinking_warning


def block_on_floor(kind: str) -> dict:
    """A 1 kg point at rest on a ground line under gravity, for 0.3 s in steps of 1 ms."""
    return {
        "format": "flexmech", "version": 1, "nodes": [],
        "bodies": [{"id": "block", "kind": "point", "x": 0.0, "y": 0.0, "mass": 1.0}],
        "gravity": {"y": -9.81},
        "contacts": [{"id": "floor", "point": {"body": "block"}, "target": {"kind": "ground_line"},
                      "e": 0.0, "model": {"kind": kind}}],
        "solver": {"end_time": 0.3, "step": 0.001},
    }


def test_a_block_resting_under_impulses_sinks_and_the_run_says_so():
    """Each step gravity carries the block up to TOL (1 um) in and the impulse at its end stops
    it there: 0.51 mm deep after 0.3 s, with no word of it among the run's warnings."""
    results = simulate(block_on_floor("impulse"))
    depth = -results.frames[-1].node_xy[results.layout.nodes.index("block")][1]
    assert depth > SINK_WARNING * 1e-6  # m
    warning = sinking_warning(results)
    assert warning in run_warnings(results)
    assert "'floor'" in warning and "lagrange" in warning


def test_a_block_held_by_the_lagrange_model_stays_on_the_floor():
    results = simulate(block_on_floor("lagrange"))
    block = results.frames[-1].node_xy[results.layout.nodes.index("block")]
    assert block[1] == pytest.approx(0.0, abs=1e-6)  # m: within TOL
    assert sinking_warning(results) is None
