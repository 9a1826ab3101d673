"""What validation accepts compiles and runs: the cases the fuzz harness (test_fuzz.py) found,
each kept as a regression test, and the limits of solver/model/limits.py and geometry_rules.py."""
from __future__ import annotations

import copy
import json

import pytest

from solver.api import SolverError, simulate
from solver.model.io import examples_dir
from solver.model.limits import MAX_ELEMENTS
from solver.model.validate import validate
from solver.system.compile import compile_model

from .test_fuzz import first_steps


def _example(name: str) -> dict:
    return json.loads((examples_dir() / f"{name}.json").read_text(encoding="utf-8"))


def _problems(doc: dict) -> list[str]:
    return [str(p) for p in validate(doc)]


def test_flexible_link_without_mesh_has_four_elements():
    """Was ``KeyError: 'mesh'`` in compile.py (issue 11): the mesh defaults like every field."""
    doc = _example("slider_crank_flexible")
    del doc["links"][1]["mesh"]
    assert _problems(doc) == []
    assert compile_model(doc).beams.count == 4


def test_integer_written_with_a_decimal_point_compiles():
    """JSON's 4.0 is the integer 4 (numpy refused a float element count)."""
    doc = _example("slider_crank_flexible")
    doc["links"][1]["mesh"]["elements"] = 4.0
    assert _problems(doc) == []
    assert compile_model(doc).beams.count == 4


def test_dynamic_friction_is_checked_against_the_default_static_one():
    """mu_s left out is 0, as the solver reads it (was a ValueError in contact/routh.py)."""
    doc = _example("rod_floor_flexible")
    del doc["contacts"][0]["mu_s"]
    doc["contacts"][0]["mu_d"] = 0.8
    assert _problems(doc) == ["contacts[tip-floor].mu_d: must be <= mu_s (0 when not given)"]


@pytest.mark.parametrize(("value", "accepted"), [(1e15, True), (-1e15, True), (1e-30, True), (0.0, True),
                                                  (1.0000001e15, False), (9e-31, False), (10**16, False)])
def test_magnitude_limits(value, accepted):
    doc = _example("slider_crank_flexible")
    doc["gravity"] = {"y": value}
    assert (_problems(doc) == []) is accepted


def test_element_limit_gives_the_estimate():
    doc = _example("slider_crank_flexible")
    doc["links"][1]["mesh"]["elements"] = MAX_ELEMENTS
    assert _problems(doc) == []
    doc["links"][1]["mesh"]["elements"] = 100_000
    assert _problems(doc) == ["links[rod].mesh.elements: 100000 elements need about 0.4 GB of memory; "
                              "at most 20000 elements in a model"]


def test_nodes_of_a_link_a_nanometre_apart_coincide():
    doc = _example("pendulum_flexible_corotational_newton")
    doc["nodes"][1].update(x=1e-9, y=0.0)
    assert _problems(doc) == ["links[rod].nodes[1]: node 'tip' coincides with node 'O' of this link (1e-09 m apart; "
                              "at least 1e-09 m, a millionth of the model's size or distance from the origin, or 1 nm)"]


def test_modal_link_whose_modes_cannot_be_computed_is_a_solver_error():
    """A 50 nm modal link: its mass matrix is not positive definite in floats (was LinAlgError)."""
    doc = _example("pendulum_flexible_modal3_newton")
    doc["nodes"][1]["x"] = 5e-8
    assert _problems(doc) == []
    with pytest.raises(SolverError, match=r"links\[rod\]: its vibration modes cannot be computed"):
        first_steps(doc)


def test_impulse_on_a_body_too_heavy_to_move_is_a_solver_error():
    """A rod of 1e15 kg striking the ground: its inverse inertia is not finite (was ValueError:
    D must be a finite 2x2 matrix, in contact/routh.py)."""
    doc = copy.deepcopy(_example("rod_impact_rigid"))
    doc["links"][0]["mass"] = 1e15
    assert _problems(doc) == []
    with pytest.raises(SolverError, match=r"t = 0 s: the impulse of contact 'B-ground' cannot be computed"):
        simulate(doc)


def test_the_bytes_of_a_runs_frames_are_estimated_for_the_windows_disk_check():
    """The window writes a run's frames to a scratch folder and starts it when the disk has room
    for this estimate: the 2000-element cantilever's full record, 10 001 frames of 467 kB."""
    from solver.model.limits import results_bytes
    from tests.benchmarks.bench_results_memory import cantilever

    model = cantilever()
    assert _problems(model) == []
    assert results_bytes(model) == pytest.approx(10_001 * 467e3, rel=2e-3)
