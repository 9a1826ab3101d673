"""The problems panel: validation errors, what cannot run, degrees of freedom; clicking selects."""
from __future__ import annotations

import copy
import doctest

import pytest
from PySide6.QtCore import Qt

from app.document import checks as model_checks
from app.document.commands import set_field
from app.document.entities import EntityRef
from app.panels.field_edit import plan
from app.document.checks import gruebler_count, model_problems
from solver.model.io import list_examples, load_model
from solver.model.paths import get_path

from .test_property_edit import press_f2, value_of

EXAMPLES = {name: path for name, path, _desc in list_examples()}


def test_docstring_examples():
    assert doctest.testmod(model_checks).failed == 0


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_has_only_information(name):
    problems = model_problems(load_model(EXAMPLES[name]))
    assert [p.severity for p in problems] == ["info"]
    assert problems[0].message.startswith("degrees of freedom")


@pytest.mark.parametrize("name, mobility, drivers", [
    ("slider_crank_flexible", 1, 1), ("four_bar_flexible", 1, 1), ("pendulum_impact", 1, 0),
    ("slider_crank_block", 3, 1), ("two_link_flight", 4, 0), ("rotating_beam_stop", 1, 0),
    ("bar_mass_impact", 2, 0),
])
def test_gruebler_count_of_the_examples(name, mobility, drivers):
    assert gruebler_count(load_model(EXAMPLES[name])) == (mobility, drivers)


def messages(doc, severity="warning"):
    return [str(p) for p in model_problems(doc) if p.severity == severity]


def test_a_driven_link_that_is_clamped_is_a_warning(all_kinds_model):
    doc = copy.deepcopy(all_kinds_model)
    doc["joints"][4] = {"id": "C-clamp", "kind": "fixed", "node": "O"}  # clamps the driven crank
    assert "drivers[motor]: link 'crank' is clamped by joint 'C-clamp' and cannot also be driven" in messages(doc)


def test_two_drivers_on_one_link_and_a_driven_grounded_node(all_kinds_model):
    doc = copy.deepcopy(all_kinds_model)
    doc["drivers"].append({"id": "motor2", "kind": "speed", "link": "crank", "pivot": "O", "function": {"value": 1.0}})
    doc["drivers"].append({"id": "shake", "kind": "displacement", "node": "O", "direction": "x", "function": {"value": 0.0}})
    found = messages(doc)
    assert "drivers[motor2]: link 'crank' is already driven by 'motor'" in found
    assert "drivers[shake]: node 'O' is held by joint 'O-ground' and cannot also be driven" in found


def test_unreachable_contact_targets(all_kinds_model):
    doc = copy.deepcopy(all_kinds_model)
    doc["contacts"] += [
        {"id": "self", "point": {"node": "B"}, "target": {"kind": "node", "node": "B"}},
        {"id": "own-link", "point": {"node": "D"}, "target": {"kind": "link", "link": "beam"}},
        {"id": "stuck", "point": {"node": "O"}, "target": {"kind": "ground_line", "y": -1.0}},
    ]
    found = messages(doc)
    assert "contacts[self]: the point and the target are the same node" in found
    assert "contacts[own-link]: node 'D' belongs to the target link 'beam'" in found
    assert "contacts[stuck]: neither node 'O' (held by joint 'O-ground') nor the target can move" in found
    assert not any(m.startswith("contacts[floor]") for m in found)


def test_a_node_target_beside_the_points_side_of_its_link_is_a_warning():
    """A block above a pendulum's tip strikes the arm's side: a node target there is the arm's
    end face (issue 26), the warning leads to the link target; a block beyond the end is right."""
    doc = {"format": "flexmech", "version": 1,
           "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 0.5, "y": 0.0}],
           "links": [{"id": "arm", "kind": "rigid", "nodes": ["O", "tip"], "mass": 1.0}],
           "joints": [{"id": "pin", "kind": "ground", "node": "O"}],
           "bodies": [{"id": "block", "x": 0.5, "y": 0.02, "mass": 0.1}],
           "contacts": [{"id": "drop", "point": {"body": "block"},
                         "target": {"kind": "node", "node": "tip", "angle": 1.570796}}]}
    assert "contacts[drop]: the point is beside link 'arm', whose end node 'tip' is the target: a node target " \
           "is the link's end face, struck from beyond the end; to strike the link's side, make the target the " \
           "link" in messages(doc)
    doc["bodies"][0]["x"] = 0.6
    assert not any(m.startswith("contacts[drop]") for m in messages(doc))


def test_over_constrained_count_is_a_warning():
    """A flexible link pinned at both ends: more constraints than the rigid count's freedoms, none held
    twice (the link stretches)."""
    doc = {"format": "flexmech", "version": 1, "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}],
           "materials": [{"id": "steel", "E": 2e11, "density": 7850}],
           "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"],
                      "section": {"kind": "area", "material": "steel", "A": 2e-4, "I": 1.7e-9, "c": 0.005}}],
           "joints": [{"id": "pinA", "kind": "ground", "node": "A"}, {"id": "pinB", "kind": "ground", "node": "B"}]}
    assert messages(doc) == ["the count finds 1 more constraint than freedoms: redundant constraints or conflicting drivers"]


def test_a_pin_holding_what_the_motor_moves_is_an_error_naming_both():
    """The slider-crank's rigid crank pinned at its tip too: the run would stop at its start; the panel
    says why, naming the pin and the motor (before: a count of constraints)."""
    doc = load_model(EXAMPLES["slider_crank_flexible"])
    doc["joints"].append({"id": "A-ground", "kind": "ground", "node": "A"})
    assert messages(doc) == []
    assert [m.split(" twice")[0] for m in messages(doc, "error")] == [
        "joints: 'A-ground', 'motor' contradict each other: they hold the y of node 'A'"]


def test_validation_errors_come_first_and_alone():
    doc = load_model(EXAMPLES["slider_crank_flexible"])
    doc["links"][1]["section"]["d"] = -1.0
    assert [str(p) for p in model_problems(doc)] == ["links[rod].section.d: must be > 0"]


def test_the_panel_lists_problems_and_clicking_one_selects_its_entity(qtbot, window, all_kinds_model):
    doc = copy.deepcopy(all_kinds_model)
    doc["contacts"].append({"id": "self", "point": {"node": "B"}, "target": {"kind": "node", "node": "B"}})
    window.document.replace(doc, None)
    rows = window.problems.rows()
    assert rows[0] == ("warning", "contacts[self]", "the point and the target are the same node")
    assert rows[-1][0] == "info" and rows[-1][1] == "model"
    assert window.problems.ref_at(len(rows) - 1) is None
    window.check_action.trigger()
    assert window.problems_dock.isVisible()
    item = window.problems.topLevelItem(0)
    rect = window.problems.visualItemRect(item)
    qtbot.mouseClick(window.problems.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.selection.refs == (EntityRef("contacts", "self"),)
    assert "contacts[self]" in window.properties.title.text()


def test_the_panel_follows_edits(window):
    window.open_example("slider_crank_flexible")
    assert [r[0] for r in window.problems.rows()] == ["info"]
    slider = EntityRef("joints", "B-slider")
    keys, value = plan(window.document.model, slider, ["kind"], "ground")
    window.document.push(set_field(window.document, slider, keys, value))
    assert window.problems.rows()[0][:2] == ("warning", "model")
    window.undo_action.trigger()
    assert [r[0] for r in window.problems.rows()] == ["info"]


def _click_row(qtbot, view, row: int) -> None:
    rect = view.visualItemRect(view.topLevelItem(row))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_problems_of_awkward_ids_name_them_as_vary_does_and_clicking_selects_them(qtbot, window, all_kinds_model):
    """A contact 'self[B]' and a link 'crank[1]': the panel wrote contacts[self[B]] and links[crank[1]].mass,
    paths --vary cannot read, and clicking them selected nothing (the entity's id was cut at its first ']').
    They are quoted as the sweeps' paths are, and a click selects the entity; an edit of its fields is
    refused naming the field only, as for any id."""
    doc = copy.deepcopy(all_kinds_model)
    doc["contacts"].append({"id": "self[B]", "point": {"node": "B"}, "target": {"kind": "node", "node": "B"},
                            "mu_s": 0.2})
    window.document.replace(doc, None)
    assert window.problems.rows()[0] == ("warning", 'contacts["self[B]"]', "the point and the target are the same node")
    window.check_action.trigger()
    _click_row(qtbot, window.problems, 0)
    assert window.selection.refs == (EntityRef("contacts", "self[B]"),)
    view = window.properties
    assert not view.commit_field("mu_d", "0.3")
    assert view.error_at(view.row_of("mu_d")) == "must be <= mu_s"
    doc = copy.deepcopy(all_kinds_model)
    doc["links"][0].update(id="crank[1]", mass=-1.0)
    doc["drivers"][0]["link"] = "crank[1]"
    window.document.replace(doc, None)
    assert window.problems.rows() == [("error", 'links["crank[1]"].mass', "must be > 0")]
    _click_row(qtbot, window.problems, 0)
    assert window.selection.refs == (EntityRef("links", "crank[1]"),)


def test_a_problem_of_an_initial_velocity_selects_it_and_the_panel_names_it_as_the_validator_does(qtbot, window):
    """The validator names an initial velocity, which has no id, by its index (initial_velocities[1].vy,
    the path --vary reads); the panel named it by the id it goes by (initial_velocities[striker], a path
    nothing reads), and clicking the problem selected nothing -- or here, where a node is called '1',
    that node's velocity. Now the click selects the striker's velocity, the panel's title and its edits
    name it initial_velocities[1], and an edit the validator refuses names the field only."""
    doc = load_model(EXAMPLES["two_bars_impact"])
    doc["nodes"][3]["id"] = "1"
    doc["links"][1]["nodes"] = ["front", "1"]
    doc["initial_velocities"] = [{"node": "1", "vx": -10.0}, {"link": "striker", "vx": -10.0, "vy": 1e300}]
    window.document.replace(doc, None)
    too_large = "1e+300 is too large: the magnitude must be at most 1e+15"
    assert window.problems.rows() == [("error", "initial_velocities[1].vy", too_large)]
    window.check_action.trigger()
    _click_row(qtbot, window.problems, 0)
    assert window.selection.refs == (EntityRef("initial_velocities", "striker"),)
    view = window.properties
    assert view.title.text().startswith("<b>initial_velocities[1]</b>")
    model = window.document.model
    editor = press_f2(qtbot, view, "vy")
    editor.selectAll()
    qtbot.keyClicks(editor, "0.5")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: value_of(view, "vy") == "0.5")
    assert window.problems.rows()[0][0] == "info"
    assert get_path(model, "initial_velocities[1].vy") == 0.5 and model["initial_velocities"][0] == {"node": "1", "vx": -10.0}
    assert window.undo_action.text() == "&Undo Set initial_velocities[1].vy"
    editor = press_f2(qtbot, view, "vy")
    editor.selectAll()
    qtbot.keyClicks(editor, "1e300")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.error_at(view.row_of("vy")) is not None)
    assert view.error_at(view.row_of("vy")) == too_large
    assert get_path(model, "initial_velocities[1].vy") == 0.5
