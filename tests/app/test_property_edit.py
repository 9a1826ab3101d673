"""The editable property panel: units, ranges from the schema, choices, check boxes, undo."""
from __future__ import annotations

import doctest
import math
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from app.panels import field_edit
from app.document import section_presets, units
from app.document.entities import EntityRef
from app.panels.field_edit import EditError, editor_for, plan
from app.document.units import UnitError, parse_quantity
from solver.model.validate import validate

from .canvas_user import CanvasUser

ROD = EntityRef("links", "rod")


@pytest.mark.parametrize("module", [units, field_edit, section_presets])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("text, unit, value", [
    ("6 mm", "m", 0.006), ("0.006", "m", 0.006), ("6mm", "m", 0.006), ("1e-3 km", "m", 1.0),
    ("71 GPa", "Pa", 71e9), ("2.7 g/cm^3", "kg/m^3", 2700.0), ("90 deg", "rad", 1.5707963267949),
    ("3000 rpm", "rad/s", 314.159265358979), ("5 N mm", "N m", 0.005), ("20 mm^4", "m^4", 2e-11),
    ("-9.81 m/s^2", "m/s^2", -9.81), ("1.5 kg m^2", "kg m^2", 1.5), ("10 ms", "s", 0.01), ("2 kHz", "Hz", 2000.0),
    ("50 Hz", "rad/s", 314.159265358979), ("3000 rpm", "Hz", 50.0), ("314.159265358979 rad/s", "Hz", 50.0),
    ("10 1/s", "rad/s", 10.0), ("2 deg", "-", 0.0349065850398866),
])
def test_quantities_are_read_in_si(text, unit, value):
    assert parse_quantity(text, unit) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text, unit, message", [
    ("abc", "m", "must be a number"), ("6 kg", "m", "'kg' is not a unit of m"),
    ("6 furlong", "m", "unknown unit 'furlong'"), ("3 mm", "N/m^n", "give a number in N/m^n"),
    ("10 1/s", "Hz", "'1/s' is not a unit of Hz"), ("1,5 mm", "m", "use a decimal point: 1.5 mm, not 1,5 mm"),
])
def test_bad_quantities_are_refused(text, unit, message):
    with pytest.raises(UnitError, match=re.escape(message)):
        parse_quantity(text, unit)


@pytest.fixture
def crank(all_kinds_model):
    return all_kinds_model


def test_plan_reads_units_and_checks_the_schema_range(all_kinds_model):
    beam = EntityRef("links", "beam")
    assert plan(all_kinds_model, beam, ["section", "d"], "6 mm") == (["section", "d"], 0.006)
    assert plan(all_kinds_model, beam, ["section", "d"], "0.006") == (["section", "d"], 0.006)
    with pytest.raises(EditError, match="^must be > 0$"):
        plan(all_kinds_model, beam, ["section", "d"], "-1 mm")
    with pytest.raises(EditError, match="^must be an integer$"):
        plan(all_kinds_model, beam, ["mesh", "elements"], "2.5")
    with pytest.raises(EditError, match="^must be >= 1$"):
        plan(all_kinds_model, beam, ["mesh", "elements"], "0")
    contact = EntityRef("contacts", "floor")
    with pytest.raises(EditError, match="^must be <= 1$"):
        plan(all_kinds_model, contact, ["e"], "1.5")


def test_the_range_messages_are_the_validators(all_kinds_model):
    import copy
    bad = copy.deepcopy(all_kinds_model)
    bad["links"][2]["section"]["d"] = -0.001
    assert [p.message for p in validate(bad)] == ["must be > 0"]


def test_plan_refuses_what_validate_refuses(all_kinds_model):
    # mu_d > mu_s is a cross-field rule of the validator, not a range
    all_kinds_model["contacts"][0]["mu_s"] = 0.2
    with pytest.raises(EditError, match="must be <= mu_s"):
        plan(all_kinds_model, EntityRef("contacts", "floor"), ["mu_d"], "0.3")
    with pytest.raises(EditError, match="no node with id 'Q'"):
        plan(all_kinds_model, EntityRef("joints", "A-pin"), ["node"], "Q")


def test_editors_come_from_the_schema(all_kinds_model):
    doc = all_kinds_model
    assert editor_for(doc, EntityRef("links", "beam"), ["kind"]).options == ("rigid", "flexible", "modal")
    assert editor_for(doc, EntityRef("links", "beam"), ["section", "material"]).options == ("steel",)
    assert editor_for(doc, EntityRef("contacts", "floor"), ["law"]).options == ("newton", "poisson", "energetic")
    assert editor_for(doc, EntityRef("contacts", "ring"), ["target", "inside"]).kind == "check"
    assert editor_for(doc, EntityRef("joints", "A-pin"), ["node"]).options == tuple(sorted("OABCDE"))
    assert editor_for(doc, EntityRef("loads", "tip-force"), ["link"]).options[0] == ""  # optional: may be left out
    assert editor_for(doc, EntityRef("nodes", "A"), ["id"]).kind == "text"  # renames the references too
    assert editor_for(doc, EntityRef("nodes", "A"), ["x"]).kind == "text"


def test_changing_a_kind_keeps_the_fields_that_still_apply(all_kinds_model):
    keys, value = plan(all_kinds_model, EntityRef("joints", "A-pin"), ["kind"], "ground")
    assert (keys, value) == ([], {"kind": "ground", "id": "A-pin", "node": "A"})
    # a new kind's required fields start at a value the user edits next
    assert plan(all_kinds_model, EntityRef("drivers", "motor"), ["function", "kind"], "ramp") == (
        ["function"], {"kind": "ramp", "t1": 1.0})
    assert plan(all_kinds_model, EntityRef("contacts", "floor"), ["target", "kind"], "link") == (
        ["target"], {"kind": "link", "link": "arm"})
    keys, table = plan(all_kinds_model, EntityRef("drivers", "motor"), ["function", "kind"], "table")
    assert table == {"kind": "table", "t": [0.0, 1.0], "v": [0.0, 1.0]}
    # what still breaks a rule is refused with the validator's words
    with pytest.raises(EditError, match="give the clearance or journal_radius"):
        plan(all_kinds_model, EntityRef("joints", "A-pin"), ["kind"], "clearance")


@pytest.mark.parametrize("kind", ["circle", "rectangle", "tube", "area", "per_length"])
def test_a_section_changes_shape_keeping_size_or_properties(all_kinds_model, kind):
    from solver.system.compile import section_properties
    beam = EntityRef("links", "beam")
    keys, value = plan(all_kinds_model, beam, ["section", "kind"], kind)
    assert keys == ["section"] and value["kind"] == kind
    materials = {m["id"]: m for m in all_kinds_model["materials"]}
    old = section_properties(all_kinds_model["links"][2]["section"], materials)
    new = section_properties(value, materials)
    if kind in ("circle", "area", "per_length"):  # the same round section, described another way
        assert new == pytest.approx(old, rel=1e-9)
    else:
        assert new[4] == pytest.approx(old[4])  # same outer size


# ---------------------------------------------------------------- the panel in the window
def select_rod(window):
    window.open_example("slider_crank_flexible")
    window.selection.replace((ROD,))
    return window.properties


def value_of(view, field):
    return view.table.item(view.row_of(field), 1).text()


def press_f2(qtbot, view, field: str):
    """Make ``field``'s value the current cell and press F2, which opens its editor."""
    table = view.table
    table.setFocus()
    table.setCurrentCell(view.row_of(field), 1)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    return table.focusWidget()


def test_typing_a_value_with_a_unit_becomes_an_undoable_command(qtbot, window):
    view = select_rod(window)
    table = view.table
    editor = press_f2(qtbot, view, "section.d")  # F2 opens the editor on the current value
    assert isinstance(editor, QLineEdit) and editor.text() == "0.006"
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.keyClicks(table, "8")  # typing opens it too, with what was typed
    editor = table.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, " mm")
    assert editor.text() == "8 mm"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: value_of(view, "section.d") == "0.008")
    assert window.document.model["links"][1]["section"]["d"] == 0.008
    assert window.undo_action.text() == "&Undo Set links[rod].section.d"
    assert window.windowTitle().endswith("*")
    window.undo_action.trigger()
    assert value_of(view, "section.d") == "0.006"


def test_a_motor_speed_typed_in_hz_turns_2_pi_rad_per_cycle(qtbot, window):
    """``50 Hz`` typed as a speed driver's value is 50 turns a second, 314.16 rad/s (it was
    taken as 50 rad/s: Hz read as 1/s, while rpm counted 2 pi per turn)."""
    window.open_example("slider_crank_flexible")
    user = CanvasUser(qtbot, window)
    user.click_tree(EntityRef("drivers", "motor"))
    user.type_field("function.value", "50 Hz")
    assert window.document.model["drivers"][0]["function"]["value"] == pytest.approx(100 * math.pi, rel=1e-12)


@pytest.mark.parametrize("driver, keys, text, value", [
    ("speed", ["function", "value"], "300 rpm", 31.4159265358979),
    ("speed", ["function", "value"], "20 rad/s", 20.0),
    ("speed", ["function", "value"], "1000 deg/s", 17.4532925199433),
    ("speed", ["function", "value"], "150", 150.0),
    ("angle", ["function", "value"], "90 deg", 1.5707963267949),
    ("angle", ["function", "value"], "1 rad", 1.0),
    ("displacement", ["function", "value"], "5 mm", 0.005),
])
def test_drivers_take_the_units_of_their_kind(all_kinds_model, driver, keys, text, value):
    model = all_kinds_model
    motor = model["drivers"][0]
    if driver == "displacement":
        motor = model["drivers"][1]
        motor["function"] = {"kind": "constant", "value": 0.0}
    else:
        motor["kind"] = driver
        motor["function"] = {"kind": "constant", "value": 1.0}
    assert plan(model, EntityRef("drivers", motor["id"]), keys, text) == (keys, pytest.approx(value, rel=1e-12))


def test_units_follow_the_driver_kind_in_the_rows_and_refuse_other_dimensions(all_kinds_model):
    from app.panels.properties import entity_rows
    model = all_kinds_model
    motor = EntityRef("drivers", "motor")  # an angle driver, f(t) = rate t
    units_of = {row.field: row.unit for row in entity_rows(model, motor)}
    assert units_of["function.rate"] == "rad/s"
    model["drivers"][0].update(kind="speed")
    assert {row.field: row.unit for row in entity_rows(model, motor)}["function.rate"] == "rad/s^2"
    model["drivers"][0]["function"] = {"kind": "table", "t": [0.0, 1.0], "v": [0.0, 10.0]}
    units_of = {row.field: row.unit for row in entity_rows(model, motor)}
    assert (units_of["function.t"], units_of["function.v"]) == ("s", "rad/s")
    push = {row.field: row.unit for row in entity_rows(model, EntityRef("drivers", "push"))}
    assert (push["function.amplitude"], push["function.frequency"], push["function.phase"]) == ("m", "Hz", "rad")
    load = {row.field: row.unit for row in entity_rows(model, EntityRef("loads", "tip-force"))}
    assert (load["fx"], load["function.value"]) == ("N", "-")
    with pytest.raises(EditError, match="'deg' is not a unit of m"):
        plan(model, EntityRef("drivers", "push"), ["function", "amplitude"], "3 deg")
    with pytest.raises(EditError, match="'rpm' is not a unit of a pure number"):
        plan(model, EntityRef("loads", "tip-force"), ["function", "value"], "3 rpm")


def test_a_refused_entry_stays_red_in_the_current_cell(qtbot, window):
    view = select_rod(window)
    table = view.table
    row = view.row_of("section.d")
    editor = press_f2(qtbot, view, "section.d")
    editor.selectAll()
    qtbot.keyClicks(editor, "-2 mm")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.error_at(row) is not None)
    cell = table.item(row, 1)
    assert cell.text() == "-2 mm" and table.currentRow() == row
    assert cell.toolTip() == "Refused: must be > 0 (the value stays 0.006)"
    image = table.viewport().grab().toImage()
    centre = table.visualItemRect(cell).center()
    colour = image.pixelColor(centre.x() + 30, centre.y())  # pink, not the selection's blue
    assert colour.red() > colour.green() + 30 and colour.red() > colour.blue() + 20
    assert window.document.model["links"][1]["section"]["d"] == 0.006


def test_an_invalid_entry_is_refused_with_the_schema_message(qtbot, window):
    view = select_rod(window)
    before = window.document.model["links"][1]["section"]["d"]
    assert not view.commit_field("section.d", "-2 mm")
    row = view.row_of("section.d")
    assert view.error_at(row) == "must be > 0"
    assert "must be > 0" in view.table.item(row, 1).toolTip()
    assert view.table.item(row, 1).background().color() == field_edit_error_colour()
    assert window.statusBar().currentMessage() == "section.d: must be > 0"
    assert window.document.model["links"][1]["section"]["d"] == before
    assert window.document.undo_stack.count() == 0
    assert not view.commit_field("mesh.elements", "3.5")
    assert view.error_at(view.row_of("mesh.elements")) == "must be an integer"


def field_edit_error_colour():
    from app.panels.property_view import ERROR_BACKGROUND
    return ERROR_BACKGROUND


def open_choice(view, field: str) -> QComboBox:
    """Start editing ``field`` (a choice) and return its combo box."""
    table = view.table
    row = view.row_of(field)
    table.setCurrentCell(row, 1)
    table.editItem(table.item(row, 1))
    return table.findChild(QComboBox)


def test_choices_are_combo_boxes_of_existing_ids(qtbot, window):
    combo = open_choice(select_rod(window), "section.material")
    assert [combo.itemText(i) for i in range(combo.count())] == sorted(
        m["id"] for m in window.document.model["materials"])


def test_link_kind_toggle_is_one_command(qtbot, window):
    view = select_rod(window)
    assert view.commit_field("kind", "rigid")
    link = window.document.model["links"][1]
    assert link["kind"] == "rigid" and "mesh" not in link
    assert window.undo_action.text() == "&Undo Make link rod rigid"
    assert validate(window.document.model) == []
    window.undo_action.trigger()
    assert window.document.model["links"][1]["kind"] == "flexible"


def test_check_boxes_edit_booleans(qtbot, window, all_kinds_model):
    # the ball on the ring: inside it or outside, it starts on the surface (never inside the target)
    all_kinds_model["contacts"][2]["target"]["y"] = 0.45 - 0.12
    window.document.replace(all_kinds_model, None)
    ring = EntityRef("contacts", "ring")
    window.selection.replace((ring,))
    view = window.properties
    cell = view.table.item(view.row_of("target.inside"), 1)
    assert cell.checkState() == Qt.CheckState.Checked
    cell.setCheckState(Qt.CheckState.Unchecked)
    qtbot.waitUntil(lambda: window.document.model["contacts"][2]["target"]["inside"] is False)
    assert window.undo_action.text() == "&Undo Set contacts[ring].target.inside"


def test_entering_the_same_value_adds_no_history(window):
    view = select_rod(window)
    assert view.commit_field("section.d", "6 mm")
    assert window.document.undo_stack.count() == 0


def test_double_click_opens_the_editor(qtbot, window):
    view = select_rod(window)
    table = view.table
    cell = table.visualItemRect(table.item(view.row_of("section.d"), 1)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)  # a double-click's first press
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.isVisible() and editor.text() == "0.006"
    editor.selectAll()
    qtbot.keyClicks(editor, "5e-3")
    qtbot.keyClick(editor, Qt.Key.Key_Enter)
    qtbot.waitUntil(lambda: window.document.model["links"][1]["section"]["d"] == 0.005)


def test_renaming_in_the_panel_renames_references_and_keeps_the_selection(window):
    view = select_rod(window)
    assert view.commit_field("id", "conrod")
    assert window.selection.refs == (EntityRef("links", "conrod"),)
    assert window.undo_action.text() == "&Undo Rename link rod to conrod"
    assert validate(window.document.model) == []
    assert not view.commit_field("id", "crank")
    assert view.error_at(view.row_of("id")) == "duplicate id 'crank'"


def test_leaving_an_editor_unchanged_changes_nothing(qtbot, window):
    window.open_example("slider_crank_flexible")
    window.document.model["masses"][0]["mass"] = 0.033377851123456  # more digits than shown
    window.selection.replace((EntityRef("masses", "slider"),))
    view = window.properties
    table = view.table
    table.setFocus()
    table.setCurrentCell(view.row_of("mass"), 1)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    qtbot.keyClick(table.focusWidget(), Qt.Key.Key_Return)
    qtbot.wait(10)
    assert window.document.model["masses"][0]["mass"] == 0.033377851123456
    assert window.document.undo_stack.count() == 0


def test_model_and_solver_settings_are_edited_in_the_panel(window):
    from app.document.entities import MODEL_SETTINGS, SOLVER_SETTINGS
    window.open_example("slider_crank_flexible")
    assert window.tree.item_for(MODEL_SETTINGS) is not None
    window.selection.replace((MODEL_SETTINGS,))
    view = window.properties
    assert [view.table.item(r, 0).text() for r in range(view.table.rowCount())][:3] == ["name", "description", "source"]
    assert view.commit_field("name", "Crank")
    assert window.document.model["name"] == "Crank"
    assert window.windowTitle().startswith("Flexmech — Crank")
    assert view.commit_field("gravity.y", "-9.81")
    assert window.document.model["gravity"] == {"y": -9.81}
    window.selection.replace((SOLVER_SETTINGS,))
    assert value_of(view, "nu") == ""  # optional, no default: shown empty
    assert view.commit_field("nu", "0.3")
    assert window.document.model["solver"]["nu"] == 0.3
    assert view.commit_field("step", "0.5 ms")
    assert window.document.model["solver"]["step"] == 0.0005
    assert window.undo_action.text() == "&Undo Set settings[solver].step"
    assert not view.commit_field("tau", "0.4")
    window.delete_action.trigger()  # settings cannot be deleted
    assert "solver" in window.document.model


def test_an_initial_velocity_is_listed_by_what_it_starts_and_edited(window):
    window.open_example("slider_crank_block")
    ref = EntityRef("initial_velocities", "block")
    assert window.tree.item_for(ref) is not None
    window.selection.replace((ref,))
    view = window.properties
    assert value_of(view, "vx") == "-15"
    assert view.commit_field("vx", "-12 m/s")
    assert window.document.model["initial_velocities"] == [{"body": "block", "vx": -12.0}]
    window.delete_action.trigger()
    assert window.document.model["initial_velocities"] == []
    window.undo_action.trigger()
    window.selection.replace((EntityRef("bodies", "block"),))
    window.delete_action.trigger()  # the body takes its velocity and contact with it
    assert window.document.model["initial_velocities"] == [] and window.document.model["contacts"] == []


def test_a_choice_double_clicked_opens_its_list_and_a_click_picks(qtbot, window):
    """Issue #27's paced trial: making the rod flexible took a double-click, a click on the
    closed box and a click in its list; the double-click now opens the list."""
    view = select_rod(window)
    table = view.table
    cell = table.visualItemRect(table.item(view.row_of("kind"), 1)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)  # a double-click's first press
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.waitUntil(lambda: table.findChild(QComboBox) is not None and table.findChild(QComboBox).view().isVisible(),
                    timeout=5000)
    combo = table.findChild(QComboBox)
    list_view = combo.view()
    target = list_view.visualRect(combo.model().index(combo.findText("rigid"), 0)).center()
    qtbot.mouseMove(list_view.viewport(), target)
    qtbot.mouseClick(list_view.viewport(), Qt.MouseButton.LeftButton, pos=target)
    qtbot.waitUntil(lambda: window.document.model["links"][1]["kind"] == "rigid")


def test_a_choice_picked_in_the_open_list_applies_at_once(qtbot, window):
    combo = open_choice(select_rod(window), "kind")
    combo.showPopup()  # what a click on it does
    qtbot.waitUntil(lambda: combo.view().isVisible())
    index = combo.model().index(combo.findText("rigid"), 0)
    list_view = combo.view()
    target = list_view.visualRect(index).center()
    qtbot.mouseMove(list_view.viewport(), target)
    qtbot.mouseClick(list_view.viewport(), Qt.MouseButton.LeftButton, pos=target)
    qtbot.waitUntil(lambda: window.document.model["links"][1]["kind"] == "rigid")  # no Enter needed
    assert window.undo_action.text() == "&Undo Make link rod rigid"


def test_an_entry_left_open_goes_to_its_entity_when_another_is_clicked(qtbot, window):
    """y of node A typed, then a click on node B in the model tree (no Enter): the entry closed with
    the click, after the panel had turned to B, and set B's y (a link clicked: refused on its row's
    field, 'nodes: needs at least 2 items'). It goes to A's y; one refused says A's field."""
    window.open_example("slider_crank_flexible")
    model = window.document.model
    tree, view = window.tree, window.properties

    def type_then_click(node: str, text: str, other: EntityRef) -> None:
        window.selection.replace((EntityRef("nodes", node),))
        editor = press_f2(qtbot, view, "y")
        editor.selectAll()
        qtbot.keyClicks(editor, text)
        rect = tree.visualItemRect(tree.item_for(other))
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert window.selection.refs == (other,)

    type_then_click("A", "30 mm", EntityRef("nodes", "B"))
    qtbot.waitUntil(lambda: window.document.undo_stack.count() == 1)
    assert [n["y"] for n in model["nodes"]] == [0.0, 0.03, 0.0]
    assert window.undo_action.text() == "&Undo Set nodes[A].y"
    type_then_click("A", "3 kg", EntityRef("links", "crank"))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "nodes[A].y: 'kg' is not a unit of m")
    assert window.document.undo_stack.count() == 1 and [n["y"] for n in model["nodes"]] == [0.0, 0.03, 0.0]
    assert view.ref == EntityRef("links", "crank") and not any(view.error_at(r) for r in range(view.table.rowCount()))


def test_run_save_and_close_take_the_entry_still_in_its_editor(qtbot, window, tmp_path, message_boxes):
    """end_time typed as 10 ms, then F5 before Enter: the run ran the 0.6 s shown before, the entry
    left in its open editor (Ctrl+S saved the file without it; closing dropped it). The entry is
    committed first; one refused stops the run and says why."""
    from solver.model.io import examples_dir, load_model, save_model

    model = load_model(examples_dir() / "bar_mass_impact.json")
    save_model(model, tmp_path / "bar.json")
    window.open_path(tmp_path / "bar.json")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    solver = EntityRef("settings", "solver")

    def type_end_time(text: str) -> QLineEdit:
        window.selection.replace((solver,))
        editor = press_f2(qtbot, window.properties, "end_time")
        editor.selectAll()
        qtbot.keyClicks(editor, text)
        return editor

    type_end_time("10 ms")
    qtbot.keyClick(window, Qt.Key.Key_F5)
    runs = window.simulation.runs
    assert runs.state != "idle" and window.simulation.run_model["solver"]["end_time"] == pytest.approx(0.01)
    qtbot.waitUntil(lambda: not runs.running, timeout=120_000)
    runs.wait()
    assert float(runs.results.frames[-1].time) == pytest.approx(0.01)
    type_end_time("20 ms")
    window.save_action.trigger()
    assert load_model(tmp_path / "bar.json")["solver"]["end_time"] == pytest.approx(0.02)
    type_end_time("20 kg")
    assert not window.simulation.run() and not runs.running
    assert window.statusBar().currentMessage() == "end_time: 'kg' is not a unit of s"
    assert window.document.model["solver"]["end_time"] == pytest.approx(0.02)
