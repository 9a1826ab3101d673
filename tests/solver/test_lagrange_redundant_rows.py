"""Contact rows that hold one motion twice (:func:`solver.system.bordered.schur_inverse`): a rigid
rod lying on the floor on two Lagrange pairs slides to rest as Coulomb's law has it, its two
sticking rows on its one sliding motion taking the multipliers of least norm (before: 'the contact
constraints are redundant' as the ends stuck), the same in the compiled runs and the steps one by
one; rows that ask different values of one motion still stop the run, saying so."""
import numpy as np
import pytest

from solver.api import simulate
from solver.errors import SolverError
from solver.results.tables import contact_values
from solver.system.banded import BandLU, BandPattern
from solver.system.bordered import ContactRows, bordered_solve

from .test_lagrange_closed_steps import runs
from .test_lagrange_open_steps import assert_same_run

MASS, MU, V0, G = 1.0, 0.4, 0.8, 9.81
#: the rod's slide to rest, s = V0^2 / (2 mu g) (m), and its time V0 / (mu g) (s)
DISTANCE, STOP = V0 ** 2 / (2 * MU * G), V0 / (MU * G)


def rod_on_floor(**solver) -> dict:
    """A rigid rod (1 kg, 0.4 m) lying on a ground line, each end a Lagrange pair (mu 0.4), thrown
    along it at 0.8 m/s (the trust hunt's model of ``tests/oracles/found_defects.json``)."""
    pair = {"target": {"kind": "ground_line", "x": 0.0, "y": 0.0}, "mu_s": MU, "mu_d": MU, "e": 0.0,
            "model": {"kind": "lagrange"}}
    return {"format": "flexmech", "version": 1, "gravity": {"x": 0.0, "y": -G},
            "nodes": [{"id": "a", "x": 0.0, "y": 0.0}, {"id": "b", "x": 0.4, "y": 0.0}],
            "links": [{"id": "rod", "kind": "rigid", "nodes": ["a", "b"], "mass": MASS}],
            "contacts": [{"id": "a-floor", "point": {"node": "a"}, **pair},
                         {"id": "b-floor", "point": {"node": "b"}, **pair}],
            "initial_velocities": [{"link": "rod", "vx": V0}],
            "solver": {"end_time": 0.3, "step": 1e-3, **solver}}


def test_a_rigid_rod_slides_to_rest_on_two_sticking_pairs():
    """Slides 0.0815494 m (V0^2 / (2 mu g) = 0.0815494, within 1e-6) and sticks at 0.203874 s
    (V0 / (mu g), within a step), its normal forces m g / 2 each throughout, the friction force
    -mu m g while it slides (split evenly, the pairs equally loaded) and zero at rest (within
    1e-12 N), and friction takes its kinetic energy 1/2 m V0^2 = 0.32 J (within 1e-6).  Before:
    SolverError 'the contact constraints are redundant' as both ends stuck."""
    results = simulate(rod_on_floor())
    assert results.meta["status"] == "completed", results.meta.get("message")
    sticks = [e for e in results.events if e["kind"] == "stick"]
    assert sorted(e["contact"] for e in sticks) == ["a-floor", "b-floor"]
    assert sticks[0]["time_s"] == pytest.approx(STOP, abs=1e-3)
    travel = results.stack("node_xy")[:, results.node_index("a"), 0]
    assert travel[-1] - travel[0] == pytest.approx(DISTANCE, rel=1e-6)
    forces = contact_values(results.frames, ["F_n_N", "F_t_N"])
    touching = results.time > 0.0
    assert forces["F_n_N"][touching] == pytest.approx(np.full((touching.sum(), 2), MASS * G / 2), rel=1e-9)
    sliding, resting = touching & (results.time < sticks[0]["time_s"]), results.time > sticks[0]["time_s"]
    assert forces["F_t_N"][sliding].sum(axis=1) == pytest.approx(-MU * MASS * G, rel=1e-9)
    assert forces["F_t_N"][sliding] == pytest.approx(np.full((sliding.sum(), 2), -MU * MASS * G / 2), rel=1e-9)
    assert np.abs(forces["F_t_N"][resting]).max() < 1e-12
    assert results.energy("dissipated_friction")[-1] == pytest.approx(0.5 * MASS * V0 ** 2, rel=1e-6)
    assert results.energy("kinetic")[-1] < 1e-12


def test_rows_held_twice_are_the_same_in_the_compiled_runs_and_the_steps_one_by_one(monkeypatch):
    """The rod's steps at rest, its four rows of rank three, taken in compiled runs of closed steps
    are those the loop takes one by one, to the bit."""
    compiled, stepped, taken = runs(rod_on_floor(end_time=0.25, output_interval=0.0, record={"steps": True}),
                                    monkeypatch)
    assert taken > 0.8 * compiled.meta["impact_steps"]
    assert_same_run(compiled, stepped)


def test_a_point_a_driver_moves_along_the_floor_slides_and_does_not_stick():
    """The rod driven at its end a along the floor, x = 0.01 sin(4 pi t) m: where its slip turns
    (0.125 s) its pairs slide on, friction turned, as no stick can hold a motion the driver sets;
    friction takes mu m g times the path, 0.0141221 m (within 1e-4).  Before: both ends stuck, and
    Newton failed at 0.125 s (now without the guard the steps shrink to 1e-7 s)."""
    doc = rod_on_floor(end_time=0.2)
    doc["initial_velocities"] = []
    doc["drivers"] = [{"id": "push", "kind": "displacement", "node": "a", "direction": "x",
                       "function": {"kind": "sine", "amplitude": 0.01, "frequency": 2.0}}]
    results = simulate(doc)
    assert results.meta["status"] == "completed", results.meta.get("message")
    assert not [e for e in results.events if e["kind"] == "stick"]
    path = 0.01 + 0.01 * (1.0 - np.sin(0.8 * np.pi))
    assert results.energy("dissipated_friction")[-1] == pytest.approx(MU * MASS * G * path, rel=1e-4)


def _two_rows(rhs: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """``bordered_solve`` of a unit mass (x, y) whose x two rows hold, at ``rhs``, with y free."""
    lu = BandLU.of(BandPattern(np.array([0, 1]), np.array([0, 1]), 2), np.array([1.0, 1.0]))
    rows = ContactRows.build(2)
    rows.row[:, 0] = rows.col[:, 0] = 1.0
    rows.holders = ("lagrange", "lagrange")
    return bordered_solve(lu, rows, np.array([2.0, 3.0]), np.array(rhs))


def test_rows_that_agree_take_the_least_norm_multipliers_and_rows_that_contradict_stop():
    """Two rows holding x at 0.5: x = 0.5, the force 1.5 N that takes it there (from 2) split evenly,
    y untouched; holding it at 0.5 and 0.7 cannot be met (before: 'redundant' for both)."""
    x, lam = _two_rows((0.5, 0.5))
    assert x.tolist() == pytest.approx([0.5, 3.0], rel=1e-14)
    assert lam.tolist() == pytest.approx([-0.75, -0.75], rel=1e-14)
    with pytest.raises(SolverError, match="the contact constraints contradict each other"):
        _two_rows((0.5, 0.7))
