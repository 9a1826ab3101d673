"""The consistent initial velocity (issue 18): sparse, equal to its dense definition, and
with memory linear in the number of elements."""
from __future__ import annotations

import copy
import tracemalloc

import numpy as np
import pytest
import scipy.linalg as sla

from solver.errors import SolverError
from solver.model.io import examples_dir, load_model
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import (deformation_rates, explicit_velocity, initial_state, rigid_velocity_correction,
                                   velocity_constraints)
from solver.system.rigid_fields import rigid_fields
from tests.benchmarks.bench_setup import pendulum



def dense_correction(asm: Assembly, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The definition, with dense matrices (the implementation before issue 18): ``dv = dv_p + N z``
    with ``dv_p`` the least change meeting ``G v = h``, N an orthonormal null space of G and
    ``z`` the least-norm least-squares solution of ``B N z = -B (v + dv_p)``."""
    G, h = velocity_constraints(asm, q, 0.0)
    G = G.toarray()
    dv_p = sla.lstsq(G, h - G @ v)[0]
    N = sla.null_space(G)
    B = deformation_rates(asm, q).toarray()
    z = sla.lstsq(B @ N, -B @ (v + dv_p))[0] if B.size and N.size else np.zeros(N.shape[1])
    return dv_p + N @ z


def welded_frame() -> dict:
    """Flexible links pinned and welded to each other and to rigid links, one node grounded."""
    sec = {"kind": "per_length", "EA": 1e9, "EI": 100.0, "rhoA": 1.0}

    def flex(i, a, z):
        return {"id": i, "kind": "flexible", "nodes": [a, z], "section": sec, "mesh": {"elements": 3}}

    def rigid(i, a, z):
        return {"id": i, "kind": "rigid", "nodes": [a, z], "mass": 1.0}

    xy = [("A", 0, 0), ("B", 1, 0), ("C", 2, 0), ("D", 1, 1), ("E", 2, 1)]
    return {"format": "flexmech", "version": 1, "nodes": [{"id": k, "x": x, "y": y} for k, x, y in xy],
            "links": [flex("a", "A", "B"), rigid("r", "B", "C"), flex("b", "C", "E"), rigid("s", "E", "D"),
                      flex("c", "D", "B"), flex("d", "B", "E")],
            "joints": [{"id": "g", "kind": "ground", "node": "A"},
                       {"id": "w1", "kind": "weld", "node": "B", "links": ["a", "r"]},
                       {"id": "w2", "kind": "weld", "node": "E", "links": ["b", "s"]}],
            "masses": [{"id": "m", "node": "C", "mass": 2.0, "inertia": 0.3}],
            "initial_velocities": [{"link": "a", "vx": 0.3, "vy": -0.2, "omega": 2.0}],
            "solver": {"end_time": 0.1, "step": 0.01}}


def spun(name: str, link: str | None) -> dict:
    """The example ``name``, with ``link`` (when given) moving as a rigid body at first."""
    doc = load_model(examples_dir() / f"{name}.json")
    if link is not None:
        doc["initial_velocities"] = [{"link": link, "vx": 0.3, "vy": -0.2, "omega": 2.0}]
    return doc


CASES = {
    "four-bar, driven": lambda: spun("four_bar_flexible", None),
    "slider-crank with a block, rod spun": lambda: spun("slider_crank_block", "rod"),
    "clearance joint (tied centres), rod spun": lambda: spun("slider_crank_clearance_flexible", "rod"),
    "modal robot arm, arm spun": lambda: spun("robot_arm_modal", "arm"),
    "beam welded to a rigid hub, beam spun": lambda: spun("rotating_beam_stop", "beam"),
    "two bars, 40 + 80 elements, fixed bar spun": lambda: spun("two_bars_impact", "fixed-bar"),
    "welded and pinned frame": welded_frame,
    "pendulum, 200 elements": lambda: pendulum(200),
}


@pytest.mark.parametrize("case", CASES)
def test_correction_meets_the_joints_and_equals_its_dense_definition(case):
    """To 1e-10 of the largest velocity, on mechanisms with drivers, pins between flexible links,
    welds to rigid links, modal links, clearance ties and free rigid motions."""
    system = compile_model(CASES[case]())
    asm = Assembly(system)
    q, v = system.q0, explicit_velocity(system)
    dv = rigid_velocity_correction(asm, q, v, 0.0)
    reference = dense_correction(asm, q, v)
    scale = max(1.0, np.abs(v + reference).max())
    assert np.abs(dv - reference).max() <= 1e-10 * scale
    G, h = velocity_constraints(asm, q, 0.0)
    assert np.abs(G @ (v + dv) - h).max() <= 1e-12 * scale


def test_pendulum_turns_about_its_pin_at_the_least_change_rate():
    """A rod spinning at w about its centre, pinned at x = 0: the least change to a rotation
    about the pin at w' minimises ``sum (w' x_i - w (x_i - 1/2))^2 + R (w' - w)^2`` over the
    nodes' y velocities and the R rotation dofs: ``w' = w (sum x_i (x_i - 1/2) + R) / (sum x_i^2 + R)``."""
    w = 2.0
    system = compile_model(pendulum(200, omega=w))
    asm = Assembly(system)
    v = initial_state(asm).v
    x = system.q0[system.node_dofs[:, 0]]
    R = system.rot_dofs.size
    w_pin = w * (np.sum(x * (x - 0.5)) + R) / (np.sum(x * x) + R)
    np.testing.assert_allclose(v[system.rot_dofs], w_pin, rtol=1e-12)
    np.testing.assert_allclose(v[system.node_dofs[:, 1]], w_pin * x, rtol=0, atol=1e-12)
    assert np.abs(v[system.node_dofs[:, 0]]).max() <= 1e-12
    assert np.abs(deformation_rates(asm, system.q0) @ v).max() <= 1e-9  # rigid (B has entries up to 1/L = 200)


def test_rigid_fields_are_all_the_fields_without_deformation_rates():
    """``P a`` with ``C a = 0`` (the pins' conditions) deforms nothing, and such fields span
    the whole null space of the deformation rates B."""
    system = compile_model(welded_frame())
    asm = Assembly(system)
    P, C = rigid_fields(system, system.q0)
    assert P.shape[1] < system.n and C.shape[0] > 0
    fields = P @ sla.null_space(C.toarray())
    B = deformation_rates(asm, system.q0).toarray()
    assert np.abs(B @ fields).max() <= 1e-12
    assert np.linalg.matrix_rank(fields) == system.n - np.linalg.matrix_rank(B)


def test_set_up_memory_is_linear_in_the_elements():
    """Compiling, assembling and starting a 3000-element pendulum (9003 dofs) allocates less
    than 100 MB in numpy arrays: one dense n x n matrix alone would take 648 MB."""
    initial_state(Assembly(compile_model(pendulum(10))))  # compiled kernels loaded outside the count
    tracemalloc.start()
    try:
        system = compile_model(pendulum(3000))
        initial_state(Assembly(system))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert system.n == 9003
    assert peak < 100e6


def test_redundant_joints_leave_no_consistent_velocity():
    """A rigid bar pinned at both ends and driven: the run cannot start, and says why."""
    doc = pendulum(4)
    doc["nodes"].append({"id": "P", "x": 0.0, "y": 1.0})
    doc["links"].append({"id": "bar", "kind": "rigid", "nodes": ["O", "P"], "mass": 1.0})
    doc["joints"].append({"id": "pin2", "kind": "ground", "node": "P"})
    doc["drivers"] = [{"id": "d", "kind": "speed", "link": "bar", "pivot": "O",
                       "function": {"kind": "constant", "value": 1.0}}]
    with pytest.raises(SolverError, match="no consistent initial velocity"):
        initial_state(Assembly(compile_model(copy.deepcopy(doc))))
