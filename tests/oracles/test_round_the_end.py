"""A pendulum that swings past a block just beyond its tip (issue #26, off the benchmark path):
the block goes round the rod's end, never through its face, so no model may strike it."""
from __future__ import annotations

import math

import pytest

from solver.api import simulate

#: m: the block's centre from the pivot, beside the 0.5 m rod's tip by 3 mm less its 1 mm radius
REACH = 0.503
#: rad: where the block is round the pivot, from straight down, and where the rod starts
BLOCK_AT, ROD_FROM = 0.1, -0.2


def pendulum_past_a_block(kind: str) -> dict:
    """A 1 kg rigid rod turning at 2 rad/s about its pinned end, no gravity, past a 1 kg block
    at rest 3 mm beyond its tip's circle: the block is beside the tip when the rod passes it, and
    when the rod has turned 0.11 rad past it the block projects onto the rod again, 56 mm behind
    its face.  That was taken for a contact at t = 0.205 s: an impulse from behind (impulse,
    Lagrange), or a compliant law 56 mm deep whose Newton failed there and stopped the run."""
    tip = (0.5 * math.sin(ROD_FROM), -0.5 * math.cos(ROD_FROM))
    block = (REACH * math.sin(BLOCK_AT), -REACH * math.cos(BLOCK_AT))
    model = {"kind": kind}
    if kind == "compliant":
        model.update(point_material="steel", target_material="steel")
    return {
        "format": "flexmech", "version": 1,
        "materials": [{"id": "steel", "E": 2.1e11, "density": 7850.0}],
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": tip[0], "y": tip[1]}],
        "links": [{"id": "rod", "kind": "rigid", "nodes": ["O", "tip"], "mass": 1.0}],
        "joints": [{"id": "pivot", "kind": "ground", "node": "O"}],
        "bodies": [{"id": "block", "kind": "point", "x": block[0], "y": block[1], "mass": 1.0}],
        "initial_velocities": [{"link": "rod", "omega": 2.0}],
        "contacts": [{"id": "hit", "point": {"body": "block", "radius": 0.001},
                      "target": {"kind": "link", "link": "rod", "side": "left"},
                      "e": 0.5 if kind == "compliant" else 0.0, "model": model}],  # a compliant c_e is in (0, 1]
        "solver": {"end_time": 0.25, "step": 0.001},
    }


@pytest.mark.parametrize("kind", ["impulse", "lagrange", "compliant"])
def test_a_block_the_swinging_rod_passes_beyond_its_tip_is_never_struck(kind):
    results = simulate(pendulum_past_a_block(kind))
    assert results.meta["status"] == "completed", results.meta["message"]
    assert [e for e in results.events if e["kind"] in ("contact_start", "impulse")] == []
    last = results.frames[-1]
    assert abs(last.node_v[results.layout.nodes.index("block")]).max() == 0.0  # m/s: at rest
    assert last.rot_v[0] == pytest.approx(2.0, rel=1e-6)  # rad/s: the rod turns on (Newton tolerance)


def test_a_block_within_the_tips_circle_is_struck():
    """The control: 3 mm inside the tip's circle the rod strikes the block, a first, plastic
    impulse of v / (1/M + r^2/I_O) at the contact's distance r from the pivot (I_O = m L^2 / 3);
    then it pushes it along."""
    model = pendulum_past_a_block("impulse")
    r = 0.497  # m
    model["bodies"][0].update(x=r * math.sin(BLOCK_AT), y=-r * math.cos(BLOCK_AT))
    results = simulate(model)
    impulses = [e for e in results.events if e["kind"] == "impulse"]
    assert impulses
    r_contact = math.sqrt(r * r - 0.001 ** 2)  # m: the block's surface touches the face
    expected = 2.0 * r_contact / (1.0 + r_contact ** 2 / (1.0 * 0.5 ** 2 / 3.0))  # N s
    assert impulses[0]["I_n_N_s"] == pytest.approx(expected, rel=1e-3)
