"""Joints that hold one motion twice (:mod:`solver.system.redundant_joints`): a rigid link pinned to
the ground at both ends (a shelf), a parallelogram with a third crank, a node on two collinear
guides.  Their dependent rows are dropped at compile time, the runs go as those of the same
mechanism held once (every contact model), the joints are named and their reactions are the split
of least norm.  On the old code every run here stopped: "no consistent initial velocity"."""
import copy

import numpy as np
import pytest

from solver.api import joint_problems, simulate
from solver.errors import SolverError
from solver.results.validity import run_warnings
from solver.system.compile import compile_model
from solver.system.redundant_joints import least_norm_multipliers

MASS, BALL, G, V0, E = 2.0, 0.5, 9.81, 1.0, 0.6
#: the ball's fall (m) to the shelf; its speed there, sqrt(V0^2 + 2 g h) (m/s), and the time (s)
DROP = 0.05
V_IMPACT = np.sqrt(V0 ** 2 + 2 * G * DROP)
T_IMPACT = (V_IMPACT - V0) / G


def shelf(**solver) -> dict:
    """A rigid link (2 kg, 1 m) pinned to the ground at both ends, under gravity."""
    return {"format": "flexmech", "version": 1, "gravity": {"x": 0.0, "y": -G},
            "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 1.0, "y": 0.0}],
            "links": [{"id": "shelf", "kind": "rigid", "nodes": ["A", "B"], "mass": MASS}],
            "joints": [{"id": "pinA", "kind": "ground", "node": "A"}, {"id": "pinB", "kind": "ground", "node": "B"}],
            "solver": {"end_time": 0.1, "step": 1e-3, "output_interval": 1e-3, **solver}}


def roller(doc: dict) -> dict:
    """The same link held once: pinned at A, on a horizontal slider at B."""
    doc = copy.deepcopy(doc)
    doc["joints"][1] = {"id": "rollerB", "kind": "slider", "node": "B", "angle": 0.0}
    return doc


def dropped_on(doc: dict, model: dict, e: float = 1.0) -> dict:
    """A 0.5 kg ball DROP above the middle of the link, thrown down at V0, striking it through ``model``."""
    doc = copy.deepcopy(doc)
    doc["bodies"] = [{"id": "ball", "kind": "point", "x": 0.5, "y": DROP, "mass": BALL}]
    doc["initial_velocities"] = [{"body": "ball", "vy": -V0}]
    doc["contacts"] = [{"id": "ball-shelf", "point": {"body": "ball"}, "target": {"kind": "link", "link": "shelf"},
                        "e": e, "model": model, **({"law": "newton"} if model["kind"] == "impulse" else {})}]
    return doc


def ball_velocity(results) -> np.ndarray:
    return results.stack("node_v")[:, results.node_index("ball"), 1]


def test_a_shelf_under_gravity_stays_at_rest_with_m_g_over_two_on_each_pin():
    """At rest to round-off (1e-12 m), pinB's row along the link dropped and named, each pin carrying
    m g / 2 = 9.81 N up and nothing along the link (least norm), within 1e-9 N; the energy constant."""
    r = simulate(shelf())
    assert r.meta["status"] == "completed"
    xy = r.stack("node_xy")
    assert np.abs(xy - xy[0]).max() < 1e-12
    reactions = r.meta["joint_reactions"]
    for pin in ("joints[pinA]", "joints[pinB]"):
        np.testing.assert_allclose(reactions[pin], [0.0, MASS * G / 2], atol=1e-9)
    assert sum(f[1] for f in reactions.values()) == pytest.approx(MASS * G, abs=1e-9)
    assert np.ptp(r.total_energy()) < 1e-12
    warnings = run_warnings(r)
    assert any("joint 'pinB' holds the x of node 'B'" in w and "'pinA'" in w for w in warnings)
    assert any("one admissible split (least norm): 'pinA' (" in w for w in warnings)


def test_a_horizontal_push_is_split_evenly_between_the_pins():
    """4 N along the link at A: -2 N on each pin (least norm of the joints' rows), the weight as before."""
    doc = shelf(end_time=0.01)
    doc["loads"] = [{"id": "push", "node": "A", "fx": 4.0}]
    reactions = simulate(doc).meta["joint_reactions"]
    for pin in ("joints[pinA]", "joints[pinB]"):
        np.testing.assert_allclose(reactions[pin], [-2.0, MASS * G / 2], atol=1e-9)


def test_the_least_norm_split_of_rows_held_twice():
    """Two equal rows on one dof carry half the force each; independent rows are solved exactly."""
    np.testing.assert_allclose(least_norm_multipliers(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]]),
                                                      np.array([3.0, 4.0])), [1.5, 1.5, 2.0], rtol=1e-14)


@pytest.mark.parametrize("model", [{"kind": "impulse"}, {"kind": "lagrange"},
                                   {"kind": "compliant", "law": "hertz", "stiffness": 1e7}],
                         ids=["impulse", "lagrange", "compliant"])
def test_a_ball_dropped_on_the_shelf_moves_as_on_the_roller_supported_link(model):
    """The ball's velocity is that on the link pinned at A and on a roller at B, to 1e-12 m/s, the shelf
    still (1e-12 m) and the energy balance the same to 1e-12 J: impulse (Newton, e = 0.6) rebounds at
    e V_IMPACT, -e (V0^2 + 2 g h)^(1/2), then flies (0.270968 m/s at 0.1 s); Lagrange (plastic onset) lies
    on the shelf, the pins carrying (m + m_ball) g / 2 each; hertz (elastic) leaves at the speed it came."""
    e = E if model["kind"] == "impulse" else 1.0
    a, b = simulate(dropped_on(shelf(), model, e)), simulate(dropped_on(roller(shelf()), model, e))
    assert a.meta["status"] == b.meta["status"] == "completed"
    np.testing.assert_allclose(ball_velocity(a), ball_velocity(b), rtol=0, atol=1e-12)
    assert np.abs(a.stack("node_xy")[:, :2] - a.stack("node_xy")[0, :2]).max() < 1e-12
    np.testing.assert_allclose(a.total_energy(), b.total_energy(), rtol=0, atol=1e-12)
    v_end = ball_velocity(a)[-1]
    if model["kind"] == "impulse":
        assert v_end == pytest.approx(E * V_IMPACT - G * (0.1 - T_IMPACT), abs=1e-6)
        assert np.ptp(a.total_energy()) < 1e-9  # the impulse's loss is booked
    elif model["kind"] == "lagrange":
        assert abs(v_end) < 1e-9
        for pin in ("joints[pinA]", "joints[pinB]"):
            assert a.meta["joint_reactions"][pin][1] == pytest.approx((MASS + BALL) * G / 2, abs=1e-6)
    else:  # left the shelf at the speed it struck it (to the step's resolution of the contact)
        t_out = a.time[np.argmax((a.time > T_IMPACT) & (a.stack("node_xy")[:, a.node_index("ball"), 1] > 0))]
        assert v_end + G * (0.1 - t_out) == pytest.approx(V_IMPACT, rel=2e-2)


def parallelogram(third: bool, **solver) -> dict:
    """Cranks of 1 kg (0.583 m) from the ground at x = 0, 1 (and 2, ``third``) to a coupler (2 kg) through
    C1, C2, C3; without the third crank the first weighs 2 kg (the two move alike: the same motion)."""
    nodes = [("O1", 0.0, 0.0), ("O2", 1.0, 0.0), ("C1", 0.3, 0.5), ("C2", 1.3, 0.5), ("C3", 2.3, 0.5)]
    links = [("crank1", ["O1", "C1"], 1.0 if third else 2.0), ("crank2", ["O2", "C2"], 1.0),
             ("coupler", ["C1", "C2", "C3"], 2.0)]
    if third:
        nodes.append(("O3", 2.0, 0.0))
        links.append(("crank3", ["O3", "C3"], 1.0))
    return {"format": "flexmech", "version": 1, "gravity": {"x": 0.0, "y": -G},
            "nodes": [{"id": n, "x": x, "y": y} for n, x, y in nodes],
            "links": [{"id": i, "kind": "rigid", "nodes": ns, "mass": m} for i, ns, m in links],
            "joints": [{"id": f"g{k}", "kind": "ground", "node": f"O{k}"} for k in (1, 2, 3)[: 3 if third else 2]],
            "solver": {"end_time": 0.5, "step": 1e-3, "output_interval": 0.01, "tol_rel": 1e-12, "tol_abs": 1e-12,
                       "modified_newton": False, **solver}}


def test_the_redundant_parallelogram_moves_like_the_one_held_once():
    """The coupler's points within 1e-9 m of the two-crank parallelogram's over a 0.89 m swing (1.9e-13
    measured at Newton tolerances of 1e-12); the third crank's ground row named; its pin stays put."""
    a, b = simulate(parallelogram(True)), simulate(parallelogram(False))
    assert a.meta["status"] == b.meta["status"] == "completed"
    for node in ("C1", "C2", "C3"):
        xa, xb = a.stack("node_xy")[:, a.node_index(node)], b.stack("node_xy")[:, b.node_index(node)]
        assert np.abs(xa[-1] - xa[0]).max() > 0.5
        assert np.abs(xa - xb).max() < 1e-9
    o3 = a.stack("node_xy")[:, a.node_index("O3")]
    assert np.abs(o3 - o3[0]).max() < 1e-12
    assert [p.path for p in joint_problems(parallelogram(True))] == ["joints[g3]"]
    assert not joint_problems(parallelogram(False))


def test_a_node_on_two_collinear_guides_runs_and_shares_its_weight():
    """A 2 kg bar with both ends on a horizontal guide, its end A on two: the guides at A carry m g / 4
    each (least norm), the one at B m g / 2; the second guide at A named."""
    doc = shelf(end_time=0.05)
    doc["gravity"]["x"] = 1.0
    doc["joints"] = [{"id": f"s{k}", "kind": "slider", "node": node, "angle": 0.0}
                     for k, node in ((1, "A"), (2, "A"), (3, "B"))]
    r = simulate(doc)
    assert r.meta["status"] == "completed"
    assert r.stack("node_v")[-1, 0, 0] == pytest.approx(0.05, rel=1e-9)  # slides under g_x = 1 m/s^2
    np.testing.assert_allclose([r.meta["joint_reactions"][f"joints[s{k}]"][1] for k in (1, 2, 3)],
                               [MASS * G / 4, MASS * G / 4, MASS * G / 2], atol=1e-9)
    assert "joint 's2' holds node 'A' across its guide" in r.meta["redundant_joints"][0]


def test_a_flexible_link_pinned_at_both_ends_is_not_redundant():
    """Its axial stiffness holds the distance: no row is dropped, the constraint set is as it was."""
    doc = shelf()
    doc["materials"] = [{"id": "steel", "E": 2e11, "density": 7850}]
    doc["links"] = [{"id": "shelf", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": 4},
                     "section": {"kind": "area", "material": "steel", "A": 2e-4, "I": 1.67e-9, "c": 0.005}}]
    system = compile_model(doc)
    assert system.constraints.count == 4 and system.constraints.redundant == ()
    assert joint_problems(doc) == []


def test_a_joint_holding_what_a_driver_moves_is_refused_naming_both():
    """The shelf driven about A: pinB holds what the motor moves; so are two rigid links on the same
    two nodes, which the links themselves hold twice."""
    doc = shelf()
    doc["drivers"] = [{"id": "motor", "kind": "speed", "link": "shelf", "pivot": "A",
                       "function": {"kind": "constant", "value": 1.0}}]
    with pytest.raises(SolverError, match="'pinB', 'motor' contradict each other: they hold the y of node 'B'"):
        compile_model(doc)
    assert [(p.severity, p.path) for p in joint_problems(doc)] == [("error", "joints")]
    doc = shelf()
    doc["links"].append({"id": "twin", "kind": "rigid", "nodes": ["A", "B"], "mass": 1.0})
    with pytest.raises(SolverError, match="merge those links into one"):
        compile_model(doc)
