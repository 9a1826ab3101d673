"""A node target is a finite face (``target.reach``), not the infinite line through the node.

Getting Started's recipe (a free block against the node it strikes) tried on a pendulum: a
block thrown onto the tip of a pinned flexible arm bounces off within 15 ms; 0.28 s later
the arm has swung down under it and the block, falling, crosses the horizontal line through
the tip 0.59-0.65 m away from it.  A line target struck it there again (impulses of 0.02-0.13
N s, a compliant force of 2.6 kN); the node's face, reaching half the arm (0.25 m) from the
tip, is far from it.  (With the face, the compliant model first stalled there: it took a gap
below the face's line, beside the face, for a contact starting within the step.)
"""
import math

import numpy as np
import pytest

from solver.api import simulate
from solver.model.validate import validate
from solver.system.compile import compile_model

from .builders import struck_pendulum

MODELS = [{"kind": "impulse"}, {"kind": "lagrange"}, {"kind": "compliant", "law": "hooke", "stiffness": 1e8}]

#: the block has left the tip (the last impulse of the first impact is at 14.5 ms)
LEFT = 0.05


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m["kind"])
def test_a_block_that_left_a_pendulums_tip_is_not_struck_again(model):
    res = simulate(struck_pendulum(model))
    assert res.meta["status"] == "completed"  # the compliant model's steps stalled at 0.2726 s, 2e-11 s each
    first = next(e for e in res.events if e["kind"] == "contact_start")
    # the genuine impact: 20 mm at 2 m/s under gravity, arm and block falling together at first
    assert first["time_s"] == pytest.approx(0.01, abs=5e-4)
    assert sum(e.get("I_n_N_s", 0.0) for e in res.events) > 0.0 or model["kind"] == "compliant"
    assert [e for e in res.events if e["time_s"] > LEFT] == []
    late = [f for f in res.frames if f.time > LEFT]
    assert max(abs(f.contact["F_n_N"][0]) for f in late) == 0.0
    assert max(abs(f.contact["I_n_N_s"][0]) for f in late) == 0.0
    # the block is far from the tip when the line through the tip passes it
    tip, block = res.node_index("tip"), res.node_index("block")
    apart = late[-1].node_xy[block] - late[-1].node_xy[tip]
    assert abs(apart[0]) > 0.4


def _geometry(block_xy, tip_xy=(0.5, 0.0), reach=None):
    doc = struck_pendulum({"kind": "impulse"}, reach=reach)
    system = compile_model(doc)
    pair = system.contacts[0]
    q = system.q0.copy()
    q[list(pair.point)] = block_xy
    q[list(pair.target)] = tip_xy
    return pair.geometry(q)


@pytest.mark.parametrize("block, reachable", [
    ((0.5, 0.01), True),     # above the tip
    ((0.74, -0.01), True),   # 0.24 m aside, 10 mm in: on the face (reach 0.25 m)
    ((0.76, 0.01), False),   # beyond the face's edge
    ((0.5, -0.26), False),   # further behind the face than its reach
    ((1.1, -0.4), False),    # where the line through the tip struck it again
])
def test_the_node_face_reaches_half_the_arm_across_the_normal_and_behind(block, reachable):
    g = _geometry(block)
    assert g.reachable is reachable
    assert g.gap == pytest.approx(block[1])


def test_a_given_reach_sizes_the_face():
    assert _geometry((0.52, 0.0), reach=0.01).reachable is False
    assert _geometry((0.509, 0.0), reach=0.01).reachable is True


def test_a_node_target_on_no_link_needs_a_reach():
    doc = struck_pendulum({"kind": "impulse"})
    doc["nodes"].append({"id": "lone", "x": 0.5, "y": -0.1})
    doc["masses"] = [{"id": "weight", "node": "lone", "mass": 1.0}]
    doc["contacts"][0]["target"]["node"] = "lone"
    problems = [str(p) for p in validate(doc)]
    assert problems == ["contacts[drop].target.reach: is required: node 'lone' is on no link to take the "
                        "reach of its face from"]
    doc["contacts"][0]["target"]["reach"] = 0.05
    assert validate(doc) == []
    assert math.isclose(compile_model(doc).contacts[0].params["reach"], 0.05)
