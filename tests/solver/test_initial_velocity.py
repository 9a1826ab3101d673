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
from solver.system.assembly import Assembly, dense_matrices
from solver.system.compile import compile_model
from solver.system.initial import (deformation_rates, explicit_velocity, initial_state, rigid_velocity_correction,
                                   stated_rates, velocity_constraints)
from solver.system.rigid_fields import rigid_fields
from tests.benchmarks.bench_setup import pendulum



def dense_correction(asm: Assembly, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The definition, with dense matrices: ``dv = dv_p + N z`` with ``dv_p`` the least change
    meeting ``G v = h``, N an orthonormal null space of G and ``z`` a least-squares solution of
    ``B N z = -B (v + dv_p)``; among those (they differ by the rigid motions ``R = N null(B N)``)
    the one of least kinetic energy ``dv^T M dv`` that keeps the stated links' rates, where the
    joints allow it."""
    G, h = velocity_constraints(asm, q, 0.0)
    G = G.toarray()
    dv_p = sla.lstsq(G, h - G @ v)[0]
    N = sla.null_space(G)
    B = deformation_rates(asm, q).toarray()
    if not (B.size and N.size):
        return dv_p
    z = sla.lstsq(B @ N, -B @ (v + dv_p))[0]
    dv, R = dv_p + N @ z, N @ sla.null_space(B @ N)
    M = dense_matrices(asm, q)[0]
    rates = stated_rates(asm.sys)
    k, r = R.shape[1], len(rates)
    K = np.block([[R.T @ M @ R, R[rates].T], [R[rates], np.zeros((r, r))]])
    w = sla.lstsq(K, np.concatenate([R.T @ M @ dv, dv[rates]]))[0][:k]
    if r and np.abs(R[rates] @ w - dv[rates]).max() > 1e-9 * max(1.0, np.abs(dv[rates]).max()):
        w = sla.solve(R.T @ M @ R, R.T @ M @ dv)  # the rates cannot be kept
    return dv - R @ w


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


def test_pendulum_turns_about_its_pin_at_the_rate_it_was_given():
    """A rod spinning at w about its centre, pinned at x = 0: it turns at w about the pin (its
    centre's stated velocity, 0, is what the pin cannot keep).  Before, the least ``|dv|`` gave
    ``w (sum x_i (x_i - 1/2) + R) / (sum x_i^2 + R)`` over the R nodes: a rate the mesh set."""
    w = 2.0
    system = compile_model(pendulum(200, omega=w))
    asm = Assembly(system)
    v = initial_state(asm).v
    x = system.q0[system.node_dofs[:, 0]]
    np.testing.assert_allclose(v[system.rot_dofs], w, rtol=1e-12)
    np.testing.assert_allclose(v[system.node_dofs[:, 1]], w * x, rtol=0, atol=1e-12)
    assert np.abs(v[system.node_dofs[:, 0]]).max() <= 1e-12
    assert np.abs(deformation_rates(asm, system.q0) @ v).max() <= 1e-9  # rigid (B has entries up to 1/L = 200)


def test_a_rigid_pendulum_turns_about_its_pin_at_the_rate_it_was_given():
    """The same rule without beams: a rigid rod pinned at A, given 2 rad/s about its centre, turns
    at 2 rad/s about A (before: 1.714 rad/s, the least ``|dv|`` over its dofs)."""
    doc = {"format": "flexmech", "version": 1,
           "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 0.4, "y": 0.3}],
           "links": [{"id": "rod", "kind": "rigid", "nodes": ["A", "B"], "mass": 1.0}],
           "joints": [{"id": "pin", "kind": "ground", "node": "A"}],
           "initial_velocities": [{"link": "rod", "omega": 2.0}]}
    system = compile_model(doc)
    v = initial_state(Assembly(system)).v
    x, y, phi = system.rigid_bodies[0][1]
    np.testing.assert_allclose(v[[x, y, phi]], [-0.3, 0.4, 2.0], rtol=0, atol=1e-12)  # the centre at (0.2, 0.15) m


def _turning_rod(mesh: dict, pinned: bool) -> dict:
    """A 0.5 m steel rod at 37 deg given (0.3, -0.2) m/s at its centre and 2 rad/s, free or pinned
    at its first node, meshed by ``mesh``."""
    return {"format": "flexmech", "version": 1,
            "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 0.4, "y": 0.3}],
            "links": [{"id": "rod", "kind": "flexible", "nodes": ["A", "B"], "mesh": mesh,
                       "section": {"kind": "circle", "material": "steel", "d": 0.01}}],
            "materials": [{"id": "steel", "E": 2.1e11, "density": 7850.0}],
            "joints": [{"id": "pin", "kind": "ground", "node": "A"}] if pinned else [],
            "initial_velocities": [{"link": "rod", "vx": 0.3, "vy": -0.2, "omega": 2.0}],
            "gravity": {"x": 0.0, "y": 0.0}}


def _momenta(doc: dict) -> tuple[float, float, float, float]:
    """Kinetic energy (J), linear momentum (N s) and angular momentum about the origin (N m s) at
    t = 0, from the consistent mass matrix."""
    system = compile_model(doc)
    asm = Assembly(system)
    state = initial_state(asm)
    p = dense_matrices(asm, state.q)[0] @ state.v
    xy, rot = system.node_dofs, system.rot_dofs
    q = state.q
    angular = float(np.sum(q[xy[:, 0]] * p[xy[:, 1]] - q[xy[:, 1]] * p[xy[:, 0]]) + np.sum(p[rot]))
    return asm.kinetic_energy(q, state.v), float(p[xy[:, 0]].sum()), float(p[xy[:, 1]].sum()), angular


@pytest.mark.parametrize("pinned", [False, True], ids=["free", "pinned"])
def test_a_links_initial_velocity_does_not_depend_on_its_mesh(pinned):
    """2 elements (a node at 0.3 of the rod) and 8 equal ones: the same kinetic energy and momenta
    at t = 0 to 1e-12.  Before, the field turned about the mean of the mesh's nodes (0.43 of the
    rod for the 2 elements: 19 % less kinetic energy free), and the pin's correction was the least
    ``|dv|`` over the nodes (0.3 % apart at 2 and 8 equal elements).  Free, the rod moves as given;
    pinned, it turns at the rate given about the pin: ``T = (m L^2/3 + J) w^2 / 2``."""
    two = _momenta(_turning_rod({"kind": "stations", "stations": [0.0, 0.3, 1.0]}, pinned))
    eight = _momenta(_turning_rod({"elements": 8}, pinned))
    np.testing.assert_allclose(two, eight, rtol=1e-12, atol=1e-12 * max(map(abs, eight)))
    rho, area, second_moment, length, w = 7850.0, np.pi * 0.01 ** 2 / 4, np.pi * 0.01 ** 4 / 64, 0.5, 2.0
    m, J = rho * area * length, rho * second_moment * length
    if pinned:
        assert eight[0] == pytest.approx(0.5 * (m * length ** 2 / 3 + J) * w ** 2, rel=1e-12)
        assert eight[3] == pytest.approx((m * length ** 2 / 3 + J) * w, rel=1e-12)  # about the pin
    else:
        assert eight[0] == pytest.approx(0.5 * m * (0.3 ** 2 + 0.2 ** 2) + 0.5 * (m * length ** 2 / 12 + J) * w ** 2,
                                         rel=1e-12)


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


def test_a_joint_holding_what_a_driver_moves_is_refused():
    """A rigid bar pinned at both ends and driven: the run cannot start, and says why, naming the pin
    and the driver (:mod:`solver.system.redundant_joints`)."""
    doc = pendulum(4)
    doc["nodes"].append({"id": "P", "x": 0.0, "y": 1.0})
    doc["links"].append({"id": "bar", "kind": "rigid", "nodes": ["O", "P"], "mass": 1.0})
    doc["joints"].append({"id": "pin2", "kind": "ground", "node": "P"})
    doc["drivers"] = [{"id": "d", "kind": "speed", "link": "bar", "pivot": "O",
                       "function": {"kind": "constant", "value": 1.0}}]
    with pytest.raises(SolverError, match="'pin2', 'd' contradict each other"):
        initial_state(Assembly(compile_model(copy.deepcopy(doc))))
