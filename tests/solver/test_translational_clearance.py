"""The translational joint with clearance (issue 30 point 2; Flores et al., J. Comput. Nonlinear
Dyn. 3, 2008): a slider of length L and height h in a guide h + 2c wide, its four corners on
the guide's surfaces through a compliant law."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from solver.api import simulate
from solver.model.io import examples_dir, load_model
from solver.model.validate import validate
from solver.results.series import catalogue, series_values
from solver.results.files import load_results, write_results
from solver.results.summary import summarize
from solver.results.validity import penetration_warning
from solver.results.slider_configurations import CONFIGURATIONS
from solver.system.compile import compile_model

L, H, C, MASS, G = 0.05, 0.02, 0.0005, 1.0, 9.81


def slider_in_guide(**joint) -> dict:
    """A free 1 kg slider (50 x 20 mm) in a horizontal guide with 0.5 mm on each side, 5 µm above
    the lower surface, under gravity."""
    fields = {"id": "guide", "kind": "translational_clearance", "node": "S", "length": L, "height": H,
              "clearance": C, "mass": MASS, "offset": -(C - 5e-6), "stiffness": 1e9, "restitution": 0.5}
    fields.update(joint)
    return {"format": "flexmech", "version": 1, "name": "slider in a guide",
            "nodes": [{"id": "S", "x": 0.0, "y": 0.0}],
            "joints": [{k: v for k, v in fields.items() if v is not None}],
            "gravity": {"x": 0.0, "y": -G},
            "solver": {"end_time": 0.05, "step": 1e-4, "contact_accuracy": 1e-4}}


def configurations(results) -> np.ndarray:
    return series_values(results.frames, catalogue(results)["slider/guide/configuration"]).astype(int)


def test_a_slider_resting_in_a_horizontal_guide_carries_half_its_weight_on_each_lower_corner():
    results = simulate(slider_in_guide())
    last = results.frames[-1]
    assert results.layout.contacts == ["guide.rear_lower", "guide.front_lower", "guide.front_upper", "guide.rear_upper"]
    np.testing.assert_allclose(last.contact["F_n_N"][:2], 0.5 * MASS * G, rtol=1e-3)
    assert list(last.contact["F_n_N"][2:]) == [0.0, 0.0]
    assert configurations(results)[-1] == CONFIGURATIONS.index("two adjacent corners")


def test_a_slider_tilted_by_a_torque_and_released_passes_through_the_configurations_of_flores_2008():
    """A torque tilts the slider lying on its lower surface until it jams between two opposite
    corners; released, it falls back on one corner, then on the two of its lower side."""
    model = slider_in_guide()
    model["loads"] = [{"id": "twist", "node": "S", "torque": 1.0,
                       "function": {"kind": "window", "t_on": 0.01, "t_off": 0.04}}]
    model["solver"]["end_time"] = 0.055
    seen = configurations(simulate(model))
    names = [CONFIGURATIONS[k] for k in dict.fromkeys(seen)]
    assert {"one corner", "two adjacent corners", "two opposite corners"} <= set(names)
    after = seen[np.flatnonzero(seen == 3)[-1]:]
    after = after[np.r_[True, np.diff(after) != 0]]  # the configurations in turn once unjammed
    assert after[1] == 1 and 2 in after[2:]  # on one corner first, later down on the two of its lower side


def test_the_corners_are_nodes_on_the_slider_and_the_guide_lines_face_into_the_guide():
    system = compile_model(slider_in_guide(tilt=0.01, offset=0.0, angle=math.radians(30)))
    (pair_low, *_), a = system.contacts, math.radians(30)
    assert system.node_ids[1:] == ["guide.rear_lower", "guide.front_lower", "guide.front_upper", "guide.rear_upper"]
    gaps = [p.geometry(system.q0).gap for p in system.contacts]
    drop = 0.5 * L * math.sin(0.01) - 0.5 * H * (1 - math.cos(0.01))  # the rear end tilted down, the front up
    assert gaps[0] == pytest.approx(C - drop, rel=1e-9) and gaps[2] == pytest.approx(C - drop, rel=1e-9)
    assert gaps[1] == pytest.approx(C + drop + H * (1 - math.cos(0.01)), rel=1e-9)
    assert pair_low.params["angle"] == pytest.approx(a) and system.contacts[2].params["angle"] == pytest.approx(a + math.pi)
    assert system.mass_diag[:3] == pytest.approx([MASS, MASS, MASS * (L * L + H * H) / 12])


@pytest.mark.parametrize("joint, field, words", [
    ({"law": "goldsmith"}, "law", "a pin's in a bore"),
    ({"clearance": 0.02}, "clearance", "turn over"),
    ({"offset": 0.001}, "offset", "starts outside its guide"),
    ({"tilt": 0.1}, "tilt", "starts outside its guide"),
    ({"tilt": 1.3}, "tilt", "stand across its guide"),
    ({"friction_velocity_1": 1e-5}, "friction_velocity_1", "v1 > v0"),
    ({"stiffness": None}, "stiffness", "required"),
    ({"height": -0.02}, "height", ""),
])
def test_bad_input_is_named_by_its_field(joint, field, words):
    problems = validate(slider_in_guide(**joint))
    assert problems and all(p.path.startswith("joints[guide]") for p in problems), problems
    assert any(p.path.endswith(field) and words in p.message for p in problems), problems


def test_a_node_guided_twice_is_refused():
    model = slider_in_guide()
    model["joints"].append({"id": "line", "kind": "slider", "node": "S"})
    assert [str(p) for p in validate(model)] == [
        "joints[guide].node: node 'S' is held by a ground pin, clamp or slider: the joint's guide holds it"]


def test_the_shipped_slider_crank_runs_with_its_slider_between_the_guide_surfaces():
    model = load_model(examples_dir() / "slider_crank_translational_clearance.json")
    model["solver"]["end_time"] = 0.03  # the crank run up to 300 rpm
    results = simulate(model)
    seen = set(configurations(results).tolist())
    assert {0, 1, 2} <= seen, seen  # dropped into the guide, tipped onto a corner by the rod, laid flat
    penetration = -min(f.contact["gap_m"].min() for f in results.frames)
    assert 0.0 < penetration < 0.05 * model["joints"][1]["clearance"]


def test_a_corner_sunk_beyond_the_guide_clearance_is_warned_of():
    """A soft law (K = 1e4 N/m^1.5) lets the 1 kg slider sink (m g / 2 K)^(2/3) = 6.2 mm into the lower surface, more
    than the 0.5 mm clearance: the run warns as it does for a pin in a bore."""
    model = slider_in_guide(stiffness=1e4)
    model["solver"]["end_time"] = 0.2
    results = simulate(model)
    warning = penetration_warning(results)
    assert "'guide.rear_lower'" in warning and "the guide's clearance (0.0005 m)" in warning


def test_the_summary_lists_the_slider_configurations_in_turn_with_the_time_in_each(tmp_path):
    results = simulate(slider_in_guide())
    sliders = summarize(results)["sliders"]["guide"]
    assert [p["name"] for p in sliders["periods"]] == ["free", "two adjacent corners"]
    assert sliders["periods"][-1]["end_s"] == pytest.approx(0.05)
    assert sum(sliders["time_s"].values()) == pytest.approx(0.05)
    write_results(results, tmp_path / "run")
    assert load_results(tmp_path / "run").meta is not None
