"""A block resting on the floor: the momentum-balance model lets it sink, and the run says so."""
from __future__ import annotations

import json

import pytest

from app.shell.cli import main

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


def test_the_command_line_measures_no_balance_by_the_energy_of_a_block_at_rest(tmp_path, capsys):
    """The block held by the Lagrange model hardly moves: the balance's round-off (1e-20 J) was
    given as 5e+11 times its largest kinetic and strain energy (8e-32 J)."""
    path = tmp_path / "resting.json"
    path.write_text(json.dumps(block_on_floor("lagrange")))
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("energy balance"))
    assert " of the largest kinetic" not in line and "the kinetic and strain energy staying below it" in line


def test_a_block_held_by_the_lagrange_model_stays_on_the_floor():
    results = simulate(block_on_floor("lagrange"))
    block = results.frames[-1].node_xy[results.layout.nodes.index("block")]
    assert block[1] == pytest.approx(0.0, abs=1e-6)  # m: within TOL
    assert sinking_warning(results) is None
