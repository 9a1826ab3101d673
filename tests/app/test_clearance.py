"""The revolute joint with clearance in the window: made by the joint tool, drawn as a journal
in its bearing, edited in the property panel, run with F5 and reported in plots and playback."""
from __future__ import annotations

import numpy as np
import pytest

from app.canvas.items import CLEARANCE
from app.canvas.symbols import Glyph
from app.document.entities import EntityRef
from app.results.series import catalogue, presets
from solver.model.validate import validate

from .test_simulation_ui import run_with_f5
from .conftest import small_model
from .test_tools import tool_key

A, B, ON_ROD = (0.1, 0.0), (0.3, 0.0), (0.2, 0.0)


def test_the_joint_tool_puts_a_clearance_joint_at_a_link_end_with_a_material(user):
    window = user.window
    user.key(tool_key(window, "clearance"))
    assert window.tool_bar.actions_by_name["clearance"].isChecked()
    user.click(*ON_ROD)
    user.click(*A)
    model = window.document.model
    assert model["joints"][-1] == {"id": "clearance1", "kind": "clearance", "node": "A", "links": ["rod"],
                                   "bearing_radius": 0.01, "journal_radius": 0.0095, "length": 0.015,
                                   "material": "steel"}
    assert model["materials"] == [{"id": "steel", "E": 2.1e11, "density": 7850.0, "expansion": 1.2e-5}]
    assert validate(model) == []
    stack = window.document.undo_stack
    assert stack.count() == 1 and stack.text(0) == "Add joint clearance1"
    assert window.selection.refs == (EntityRef("joints", "clearance1"),)
    window.undo_action.trigger()
    assert window.document.model == small_model()


def test_a_link_end_with_nothing_else_to_carry_the_bearing_is_refused(user):
    window = user.window
    user.key(tool_key(window, "clearance"))
    user.click(*ON_ROD)
    user.click(*B)
    assert window.document.undo_stack.count() == 0
    assert window.statusBar().currentMessage() == (
        "No clearance joint at B: nothing else at node 'B' carries the bearing (a link, a lumped mass, a slider "
        "or a ground pin)")


def test_it_is_drawn_as_a_journal_in_its_bearing(user):
    window = user.window
    user.key(tool_key(window, "clearance"))
    user.click(*ON_ROD)
    user.click(*A)
    glyphs = [i for i in window.sketch.getPlotItem().items if isinstance(i, Glyph)
              and i._pen.color().name() == CLEARANCE]
    assert len(glyphs) == 1
    assert glyphs[0].pos().x() == pytest.approx(A[0])
    assert not glyphs[0]._symbol.fill.isEmpty()  # the journal, filled, inside the bearing ring
    window.grab()


def test_the_property_panel_edits_its_law(user):
    window = user.window
    user.key(tool_key(window, "clearance"))
    user.click(*ON_ROD)
    user.click(*A)
    user.type_field("law", "hertz")
    user.type_field("friction", "0.05")
    joint = window.document.model["joints"][-1]
    assert joint["law"] == "hertz" and joint["friction"] == 0.05
    view = window.properties
    for field in ("restitution", "friction_law", "friction_velocity", "stiffness", "clearance", "offset.x"):
        assert view.row_of(field) >= 0, field


def test_a_clearance_run_reports_eccentricity_penetration_and_impacts(qtbot, window):
    """The seed's slider-crank, run for a tenth of a revolution: its clearance joint is a
    contact pair of the run, plotted and drawn in playback."""
    window.example_actions["slider_crank_clearance_lankarani_nikravesh"].trigger()
    window.document.model["solver"]["end_time"] = 0.0012
    run_with_f5(qtbot, window)
    runs = window.simulation.runs
    assert runs.state == "completed"
    results = runs.results
    assert results.layout.contacts == ["B-clearance"]
    series = catalogue(results)
    for name in ("eccentricity", "penetration", "impacts", "F_n"):
        assert f"contact/B-clearance/{name}" in series
    assert "clearance joints" in presets(results)
    ecc = np.array([f.contact["eccentricity_m"][0] for f in results.frames])
    assert ecc[0] == 0.0 and ecc.max() > 0.0005  # it struck the bearing
    assert results.frames[-1].contact["impacts"][0] >= 2
    window.grab()  # playback draws the pair's force arrow at the journal
