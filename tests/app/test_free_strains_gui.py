"""Thermal and creep strains from the property panel (issue 15): a flexible link without
``free_strains`` shows it as an unchecked box; checking it adds the object at its defaults
(one undo entry), its fields are then typed with units, unchecking removes it.  The
material's expansion and the section's shear and taper fields are edited the same way."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.document.checks import model_problems
from app.document.entities import EntityRef
from solver.model.validate import validate

from .canvas_user import CanvasUser
from .test_tapered_link import value_of

ROD = EntityRef("links", "rod")


def rod(window) -> dict:
    return next(link for link in window.document.model["links"] if link["id"] == "rod")


def toggle_with_space(qtbot, window, field: str) -> None:
    """Make ``field``'s value cell current and press Space, as a keyboard user checks a box."""
    view, stack = window.properties, window.document.undo_stack
    before = stack.index()
    view.table.setFocus()
    view.table.setCurrentCell(view.row_of(field), 1)
    qtbot.keyClick(view.table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: stack.index() == before + 1)


def test_thermal_strains_are_added_typed_and_removed_in_the_panel(qtbot, window):
    window.open_example("slider_crank_flexible")
    user = CanvasUser(qtbot, window)
    user.click_tree(ROD)
    view = window.properties
    assert "free_strains" not in rod(window)
    row = view.row_of("free_strains")
    assert view.editor_at(row).kind == "check"
    assert view.table.item(row, 1).checkState() == Qt.CheckState.Unchecked
    assert "thermal" in view.table.item(row, 1).toolTip()

    toggle_with_space(qtbot, window, "free_strains")
    assert rod(window)["free_strains"] == {
        "temperature_change": 0.0, "temperature_gradient": 0.0, "creep_strain": 0.0,
        "temperature_function": {"kind": "constant", "value": 1.0},
        "creep_function": {"kind": "constant", "value": 1.0}}
    assert window.undo_action.text() == "&Undo Add links[rod].free_strains"
    assert value_of(view, "free_strains.temperature_change") == "0"

    user.type_field("free_strains.temperature_change", "50 K")
    user.type_field("free_strains.temperature_gradient", "2000 K/m")
    user.type_field("free_strains.temperature_function.kind", "ramp")
    user.type_field("free_strains.temperature_function.t1", "5 ms")
    strains = rod(window)["free_strains"]
    assert strains["temperature_change"] == 50.0 and strains["temperature_gradient"] == 2000.0
    assert strains["temperature_function"]["kind"] == "ramp" and strains["temperature_function"]["t1"] == 0.005
    assert validate(window.document.model) == []
    # steel without an expansion coefficient: the problems panel says the heat strains nothing
    warned = [p for p in model_problems(window.document.model) if p.path == "materials[steel].expansion"]
    assert warned and warned[0].severity == "warning" and "link 'rod'" in warned[0].message
    problems = window.problems
    row = next(r for r, (_s, where, _m) in enumerate(problems.rows()) if where == "materials[steel].expansion")
    item = problems.topLevelItem(row)
    problems.scrollToItem(item)
    qtbot.mouseClick(problems.viewport(), Qt.MouseButton.LeftButton, pos=problems.visualItemRect(item).center())
    assert window.selection.refs == (EntityRef("materials", "steel"),)  # a click on it selects the material
    user.type_field("expansion", "1.2e-5 1/K")
    assert window.document.model["materials"][0]["expansion"] == pytest.approx(1.2e-5)
    assert not [p for p in model_problems(window.document.model) if p.path == "materials[steel].expansion"]

    user.click_tree(ROD)
    toggle_with_space(qtbot, window, "free_strains")
    assert "free_strains" not in rod(window)
    assert window.undo_action.text() == "&Undo Remove links[rod].free_strains"
    window.undo_action.trigger()
    assert rod(window)["free_strains"]["temperature_change"] == 50.0
    window.undo_action.trigger()  # the expansion
    window.undo_action.trigger()  # t1
    window.undo_action.trigger()  # ramp
    window.undo_action.trigger()  # gradient
    window.undo_action.trigger()  # change
    window.undo_action.trigger()  # the object
    assert "free_strains" not in rod(window)


def test_shear_and_taper_of_a_section_are_edited_in_the_panel(qtbot, window):
    window.open_example("slider_crank_flexible")
    user = CanvasUser(qtbot, window)
    user.click_tree(ROD)
    toggle_with_space(qtbot, window, "section.shear")
    assert rod(window)["section"]["shear"] is True
    user.type_field("section.shear_coefficient", "0.9")
    user.type_field("section.d_end", "8 mm")
    assert rod(window)["section"]["shear_coefficient"] == 0.9 and rod(window)["section"]["d_end"] == 0.008
    assert validate(window.document.model) == []


def test_a_rigid_link_offers_no_thermal_strains(window):
    window.open_example("slider_crank_flexible")
    window.selection.replace((EntityRef("links", "crank"),))
    fields = [window.properties.table.item(r, 0).text() for r in range(window.properties.table.rowCount())]
    assert "free_strains" not in fields and "com" in fields  # com: a rigid link's optional object
