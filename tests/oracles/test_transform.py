"""The model transforms of the invariance oracle: every field of the schema has a rule, and the
rules keep what the physics needs (a line's normal on its side, a driver's sense)."""
from __future__ import annotations

import math

import pytest

from tests.oracles.transform import (UnknownField, Untransformable, mirrored, reflection, rotated, rotation,
                                     rule, schema_paths, translated, translation)


def model(**extra) -> dict:
    return {"format": "flexmech", "version": 1,
            "nodes": [{"id": "a", "x": 0.0, "y": 0.0}, {"id": "b", "x": 1.0, "y": 0.5}], **extra}


def test_every_field_of_the_schema_has_a_rule():
    missing = [p for p in schema_paths() if rule(p) is None]
    assert not missing, f"fields the transforms do not know: {missing}"


def test_a_field_the_schema_lacks_is_refused():
    with pytest.raises(UnknownField, match=r"nodes\[\]\.z"):
        rotated(model(nodes=[{"id": "a", "x": 0.0, "y": 0.0, "z": 1.0}]), 0.3)


def _gap(target: dict, x: float, y: float) -> float:
    """Signed distance of (x, y) from a ground line or segment, positive on the normal's side."""
    if target["kind"] == "ground_line":
        a = target.get("angle", 0.0)
        return -math.sin(a) * (x - target.get("x", 0.0)) + math.cos(a) * (y - target.get("y", 0.0))
    dx, dy = target["x2"] - target["x1"], target["y2"] - target["y1"]
    return (-dy * (x - target["x1"]) + dx * (y - target["y1"])) / math.hypot(dx, dy)


@pytest.mark.parametrize("transform", [rotation(0.7, (1.0, 2.0)).then(translation(0.3, -4.0)),
                                       reflection((0.5, 0.0), 1.1)], ids=["turned", "mirrored"])
def test_points_stay_on_their_side_of_lines_and_segments(transform):
    targets = [{"kind": "ground_line", "y": -0.2, "angle": 0.1},
               {"kind": "ground_segment", "x1": -1.0, "y1": 0.0, "x2": 2.0, "y2": -0.3}]
    doc = model(contacts=[{"id": f"c{i}", "point": {"node": "b"}, "target": t} for i, t in enumerate(targets)])
    moved = transform.apply(doc)
    x, y = moved["nodes"][1]["x"], moved["nodes"][1]["y"]
    for before, after in zip(targets, (c["target"] for c in moved["contacts"])):
        assert _gap(after, x, y) == pytest.approx(_gap(before, 1.0, 0.5), abs=1e-12)


def test_a_mirror_reverses_senses_of_rotation_and_sides():
    doc = model(links=[{"id": "l", "kind": "rigid", "nodes": ["a", "b"], "com": {"n": 0.1}}],
                drivers=[{"id": "m", "kind": "speed", "link": "l", "pivot": "a",
                          "function": {"kind": "ramp", "t1": 1.0, "v1": 5.0}}],
                loads=[{"id": "f", "node": "b", "fy": 2.0, "torque": 3.0, "follower": True}],
                initial_velocities=[{"link": "l", "vx": 1.0, "omega": 4.0}],
                contacts=[{"id": "c", "point": {"node": "a"}, "target": {"kind": "link", "link": "l"}}])
    m = mirrored(doc)
    assert m["drivers"][0]["function"] == {"kind": "ramp", "t1": 1.0, "v0": -0.0, "v1": -5.0}
    assert (m["loads"][0]["fy"], m["loads"][0]["torque"]) == (-2.0, -3.0)  # a follower's fy is to the left
    assert m["links"][0]["com"]["n"] == -0.1 and m["initial_velocities"][0]["omega"] == -4.0
    assert m["contacts"][0]["target"]["side"] == "right"
    assert m["initial_velocities"][0]["vx"] == pytest.approx(-1.0)


def test_turning_and_moving_back_gives_the_model_again():
    doc = model(gravity={"y": -9.81}, joints=[{"id": "s", "kind": "slider", "node": "b", "angle": 0.4}],
                bodies=[{"id": "d", "x": 2.0, "y": 1.0, "mass": 1.0, "angle": 0.2}])
    back = translated(rotated(rotated(translated(doc, 1.3, -0.7), 0.9, (0.2, 0.1)), -0.9, (0.2, 0.1)), -1.3, 0.7)
    assert back["joints"][0]["angle"] == pytest.approx(0.4)
    assert back["bodies"][0]["angle"] == pytest.approx(0.2)
    assert back["gravity"]["y"] == pytest.approx(-9.81) and back["gravity"]["x"] == pytest.approx(0.0, abs=1e-15)
    assert [(n["x"], n["y"]) for n in back["nodes"]] == [pytest.approx((0.0, 0.0), abs=1e-15),
                                                         pytest.approx((1.0, 0.5))]


def test_a_displacement_driver_moves_only_to_an_axis():
    doc = model(drivers=[{"id": "p", "kind": "displacement", "node": "b", "direction": "x",
                          "function": {"kind": "sine", "frequency": 2.0}}])
    quarter = rotated(doc, math.pi / 2)["drivers"][0]
    assert quarter["direction"] == "y" and quarter["function"].get("amplitude", 1.0) == 1.0  # x -> +y
    assert mirrored(doc)["drivers"][0]["function"]["amplitude"] == -1.0  # x -> -x
    with pytest.raises(Untransformable, match="along no axis"):
        rotated(doc, math.radians(37.0))
