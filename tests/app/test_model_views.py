"""The Qt-free parts of the views: entity lookup, geometry, property rows."""
from __future__ import annotations

import doctest
import math

import pytest

from app.document import entities
from app.canvas import geometry

from app.panels import properties
from app.document.entities import EntityRef, describe, find_entity
from app.canvas.geometry import label_direction, mesh_points, model_bounds, outline, view_bounds
from app.panels.properties import entity_rows, format_value
from solver.model.io import examples_dir, load_model


@pytest.mark.parametrize("module", [entities, geometry, properties])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0


@pytest.fixture
def slider_crank() -> dict:
    return load_model(examples_dir() / "slider_crank_flexible.json")


def test_mesh_points_follow_elements_and_stations(all_kinds_model):
    beam, arm = all_kinds_model["links"][2], all_kinds_model["links"][3]
    assert len(mesh_points(all_kinds_model, beam)) == 3  # default 4 elements
    pts = mesh_points(all_kinds_model, arm)
    assert [c for p in pts for c in p] == pytest.approx([0.7 + 0.3 * 0.2, 0.3 * 0.2, 0.7 + 0.5 * 0.2, 0.5 * 0.2])


def test_bounds_take_in_bodies_targets_and_slider_guides(all_kinds_model, slider_crank):
    xmin, xmax, ymin, ymax = model_bounds(all_kinds_model)
    assert (xmin, xmax) == pytest.approx((0.0, 1.3))
    assert (ymin, ymax) == pytest.approx((-0.1, 0.57))
    assert view_bounds(slider_crank)[1] > model_bounds(slider_crank)[1]


def test_outlines(all_kinds_model):
    assert outline(all_kinds_model, EntityRef("nodes", "B")).points == [(0.5, 0.1)]
    plate = outline(all_kinds_model, EntityRef("links", "plate")).polylines[0]
    assert plate[0] == plate[-1]  # a rigid plate of three nodes is closed
    steel = outline(all_kinds_model, EntityRef("materials", "steel"))
    assert len(steel.polylines) == 1  # the one link made of steel
    wall = outline(all_kinds_model, EntityRef("contacts", "wall"))
    assert wall.points == [(0.9, 0.2)] and wall.polylines == [[(1.3, -0.1), (1.3, 0.5)]]
    assert outline(all_kinds_model, EntityRef("nodes", "nobody")).points == []


def test_find_and_describe(slider_crank):
    assert find_entity(slider_crank, EntityRef("links", "rod"))[0] == 1
    assert find_entity(slider_crank, EntityRef("links", "nobody")) is None
    assert describe("links", slider_crank["links"][1]) == "flexible A–B"
    assert describe("drivers", slider_crank["drivers"][0]) == "speed of crank about O"


def test_property_rows_carry_schema_units_and_defaults(slider_crank):
    rows = {r.field: r for r in entity_rows(slider_crank, EntityRef("links", "rod"))}
    assert list(rows)[:2] == ["id", "kind"]
    assert rows["section.d"].unit == "m" and "diameter" in rows["section.d"].help
    assert rows["mesh.kind"].is_default and rows["mesh.kind"].value == "uniform"
    assert not rows["mesh.elements"].is_default
    contact_rows = {r.field: r for r in entity_rows(
        {"nodes": [{"id": "N", "x": 0, "y": 0}],
         "contacts": [{"id": "c", "point": {"node": "N"}, "target": {"kind": "ground_line"}}]},
        EntityRef("contacts", "c"))}
    assert contact_rows["target.angle"].unit == "rad" and contact_rows["target.angle"].is_default
    assert contact_rows["law"].value == "energetic" and contact_rows["law"].is_default


def test_format_value():
    assert format_value(1.616e-10) == "1.616e-10"
    assert format_value([0.0, 0.5, 1.0]) == "0, 0.5, 1"


def test_node_labels_go_where_nothing_else_is_drawn(slider_crank):
    # O: crank to the right, ground symbol below -> up-left; B: rod left, slider guide -> up
    assert math.degrees(label_direction(slider_crank, "O")) == pytest.approx(135)
    assert math.degrees(label_direction(slider_crank, "B")) == pytest.approx(90)
    assert math.degrees(label_direction({"nodes": [{"id": "N", "x": 0, "y": 0}]}, "N")) == pytest.approx(45)


def test_an_initial_velocity_is_described_with_its_units():
    """The model tree's line for the block's velocity reads as Getting Started types it."""
    assert describe("initial_velocities", {"body": "block", "vx": -15.0}) == "vx = -15 m/s"
    assert describe("initial_velocities", {"node": "A", "vy": 2.0, "omega": 3.0}) == "vy = 2 m/s, omega = 3 rad/s"
    assert describe("initial_velocities", {"node": "A"}) == "at rest"
