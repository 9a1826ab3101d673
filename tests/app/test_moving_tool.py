"""The Moving support / mass / force tools (issue 15): a click on a flexible link adds the
entity where it was clicked, crossing to the link's far end by the end time; it is drawn
there, selected by a click, edited in the property panel, deleted and undone; during
playback it is drawn at s(t) on the deformed link."""
from __future__ import annotations

import copy
import doctest

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.canvas import geometry as geo
from app.canvas.tools import moving
from app.document.entities import EntityRef
from solver.model.validate import validate

from .test_playback import play_results

ROD = EntityRef("links", "rod")
SHIFT = Qt.KeyboardModifier.ShiftModifier


def test_docstring_examples():
    assert doctest.testmod(moving).failed == 0
    assert doctest.testmod(geo).failed == 0


def shift_key(user, key: Qt.Key) -> None:
    user.view.setFocus()
    user.qtbot.keyClick(user.view, key, SHIFT)


@pytest.fixture
def flexible_rod(user):
    """The tool tests' sketch with its rod made flexible in the property panel."""
    user.click_tree(ROD)
    assert user.window.properties.commit_field("kind", "flexible")
    user.qtbot.waitUntil(lambda: user.window.document.model["links"][1]["kind"] == "flexible")
    user.window.document.undo_stack.clear()
    return user


def test_a_click_on_a_flexible_link_adds_a_moving_mass_that_is_edited_selected_and_deleted(flexible_rod):
    user, window = flexible_rod, flexible_rod.window
    shift_key(user, Qt.Key.Key_A)
    assert window.tools.tool.name == "moving_mass" and window.tool_bar.actions_by_name["moving_mass"].isChecked()
    user.click(0.05, 0.0)  # the rigid crank: refused, the prompt says what to click
    assert "moving" not in window.document.model
    assert "flexible link" in window.statusBar().currentMessage()
    user.click(0.2, 0.003)  # on the rod, 0.1 m from its first node A
    model = window.document.model
    assert model["moving"] == [{"id": "moving_mass1", "kind": "mass", "link": "rod", "mass": 1.0, "fy": -9.81,
                                "position": {"kind": "ramp", "t0": 0.0, "t1": 1.0, "v0": 0.1, "v1": 0.2}}]
    assert validate(model) == []
    assert window.undo_action.text() == "&Undo Add moving moving_mass1"
    mass = EntityRef("moving", "moving_mass1")
    assert window.selection.refs == (mass,)
    assert geo.moving_point(model, model["moving"][0]) == pytest.approx((0.2, 0.0))
    user.type_field("mass", "250 g")
    user.type_field("position.t1", "20 ms")
    assert model["moving"][0]["mass"] == 0.25 and model["moving"][0]["position"]["t1"] == 0.02

    user.key(Qt.Key.Key_Escape)  # Select: a click on its symbol selects it, not the rod under it
    window.selection.clear()
    user.click(0.2, 0.0)
    assert window.selection.refs == (mass,)
    window.delete_action.trigger()
    assert "moving" not in window.document.model or window.document.model["moving"] == []
    window.undo_action.trigger()
    assert window.document.model["moving"][0]["mass"] == 0.25
    user.key(Qt.Key.Key_X)  # the Delete tool
    user.click(0.2, 0.0)
    assert window.document.model["moving"] == []


@pytest.mark.parametrize("key, kind, extra", [(Qt.Key.Key_G, "support", {}), (Qt.Key.Key_F, "force", {"fy": -1.0})])
def test_moving_supports_and_forces_start_where_clicked(flexible_rod, key, kind, extra):
    user, window = flexible_rod, flexible_rod.window
    before = copy.deepcopy(window.document.model)
    shift_key(user, key)
    user.click(0.3, 0.0)  # on the rod's second node: crosses back to its first
    item = window.document.model["moving"][-1]
    assert item == {"id": f"moving_{kind}1", "kind": kind, "link": "rod", **extra,
                    "position": {"kind": "ramp", "t0": 0.0, "t1": 1.0, "v0": 0.2, "v1": 0.0}}
    assert validate(window.document.model) == []
    window.undo_action.trigger()
    assert window.document.model == before


def test_a_rigid_only_sketch_has_nothing_to_click(user):
    shift_key(user, Qt.Key.Key_A)
    user.click(0.2, 0.0)
    assert "moving" not in user.window.document.model


def test_playback_draws_the_moving_mass_at_s_of_t(window, example_results):
    """The example's mass runs at 15.71 m/s from the left end: at t = 0.4 s it is at 6.28 m."""
    results = example_results("moving_mass_beam")
    sim = play_results(window, "moving_mass_beam", results)
    index = int(np.argmin([abs(f.time - 0.4) for f in results.frames]))
    sim.playback.set_index(index)
    (spot,) = sim.layer.moving.points()
    x, y = spot.pos().x(), spot.pos().y()
    t = results.frames[index].time
    assert x == pytest.approx(15.707963 * t, abs=1e-3 * 10)  # along the chord, to the deflection's shortening
    assert y < 0  # on the beam, deflected under the mass
    assert spot.data() == "cart"


def test_the_three_tools_share_one_tool_bar_button_that_shows_the_last_chosen(qtbot, window):
    button = window.tool_bar.family_buttons["moving"]
    assert [a.text() for a in button.menu().actions()] == ["Moving mass", "Moving support", "Moving force"]
    assert button.defaultAction().text() == "Moving mass"
    button.menu().actions()[2].trigger()  # chosen in the button's menu
    assert window.tools.tool.name == "moving_force"
    assert button.defaultAction().text() == "Moving force" and button.isChecked()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the button itself: the tool it shows
    assert window.tools.tool.name == "moving_force"
    window.tool_bar.actions_by_name["select"].trigger()
    assert not button.isChecked()
