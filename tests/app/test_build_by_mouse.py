"""Done-when test of the canvas tools: the flexible slider-crank struck by a free block, built by mouse.

The model of ``resources/examples/slider_crank_block.json`` is drawn with the tools
(chosen by their shortcuts), its numbers, name and solver settings typed into the
property panel, saved with File > Save As and compared with the example; reopened,
it compares again.
"""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFileDialog

from app.document.entities import MODEL_SETTINGS, SOLVER_SETTINGS
from solver.model.io import list_examples

from .canvas_user import CanvasUser


def example() -> dict:
    """The example as the GUI writes it: a link made flexible has its mesh written whole, and
    the steel the GUI adds its expansion coefficient."""
    path = next(p for name, p, _d in list_examples() if name == "slider_crank_block")
    model = json.loads(path.read_text())
    model["links"][1]["mesh"] = {"kind": "uniform", "elements": 8}
    model["materials"][0]["expansion"] = 1.2e-5
    return model


def same(a, b) -> bool:
    """Equal as JSON, numbers to a relative 1e-9, key order ignored."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return b == pytest.approx(a, rel=1e-9, abs=1e-12)
    return a == b


def build_slider_crank_block(qtbot, window) -> None:
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.05, 0.8, grid=0.01)  # points snap to the centimetre

    window.tool_bar.material_action.trigger()  # "steel"
    user.type_field("E", "200 GPa")
    user.type_field("density", "7870")

    user.key(Qt.Key.Key_L)
    user.click(0.0, 0.0)
    user.click(0.15, 0.0)
    user.type_field("id", "crank")
    user.type_field("mass", "0.0333778511")
    user.drag((0.15, 0.0), (0.45, 0.0))
    user.type_field("id", "rod")
    user.type_field("kind", "flexible")
    user.type_field("section.d", "6 mm")  # 8 elements: the starter mesh of a link made flexible
    assert window.document.model["links"][1]["mesh"] == {"kind": "uniform", "elements": 8}

    user.key(Qt.Key.Key_Escape)
    for (x, y), name in (((0.0, 0.0), "O"), ((0.15, 0.0), "A"), ((0.45, 0.0), "B")):
        user.click(x, y)
        user.type_field("id", name)

    user.tool(Qt.Key.Key_G, (0.0, 0.0))
    user.type_field("id", "O-ground")
    user.tool(Qt.Key.Key_D, (0.45, 0.0), (0.55, 0.0))
    user.type_field("id", "B-slider")
    user.tool(Qt.Key.Key_A, (0.45, 0.0))
    user.type_field("id", "slider")
    user.type_field("mass", "0.0333778511")

    user.key(Qt.Key.Key_B)
    user.click(0.6, 0.0)
    user.type_field("id", "block")
    user.type_field("x", repr(example()["bodies"][0]["x"]))
    user.type_field("mass", "0.1668892555")

    user.key(Qt.Key.Key_M)
    user.click(0.075, 0.0)
    user.click(0.0, 0.0)
    user.type_field("id", "motor")
    user.type_field("function.value", "150")

    block = (example()["bodies"][0]["x"], 0.0)
    user.key(Qt.Key.Key_C)
    user.click(*block)
    user.click(0.45, 0.0)
    user.type_field("id", "block-slider")

    user.key(Qt.Key.Key_V)
    start = user.pixel(*block)
    user.drag_pixels(start, start - QPoint(150, 0))  # 0.1 m/s per pixel, to the left
    user.key(Qt.Key.Key_Escape)

    expected = example()
    user.click_tree(MODEL_SETTINGS)
    for field in ("name", "description", "source"):
        user.type_field(field, expected[field])
    user.click_tree(SOLVER_SETTINGS)
    for field, value in expected["solver"].items():
        user.type_field(field, repr(value))


def save_as(window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(path), ""))
    window.save_as_action.trigger()


def test_the_slider_crank_with_a_free_block_is_built_by_mouse(qtbot, window, monkeypatch, tmp_path):
    build_slider_crank_block(qtbot, window)
    saved = tmp_path / "built.json"
    save_as(window, monkeypatch, saved)
    assert same(json.loads(saved.read_text()), example())


def test_the_built_model_reopens_the_same(qtbot, window, monkeypatch, tmp_path):
    build_slider_crank_block(qtbot, window)
    saved = tmp_path / "built.json"
    save_as(window, monkeypatch, saved)
    assert window.open_path(saved)
    again = tmp_path / "again.json"
    save_as(window, monkeypatch, again)
    assert same(json.loads(again.read_text()), example())
    assert same(window.document.model, example())
