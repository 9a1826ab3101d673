"""Undo commands: every kind restores the exact prior document, alone and in sequences."""
from __future__ import annotations

import copy
import doctest

import pytest
from PySide6.QtGui import QKeySequence

from app.document import commands, edits
from app.document.commands import AddEntity, MoveNodes, RemoveEntities, set_field, toggle_link_kind
from app.document.model_document import ModelDocument
from app.document.entities import EntityRef
from solver.model.io import list_examples, load_model
from solver.model.validate import validate


@pytest.fixture
def document(qapp, all_kinds_model) -> ModelDocument:
    doc = ModelDocument()
    doc.replace(all_kinds_model, None)
    return doc


def test_edits_docstring_examples():
    assert doctest.testmod(edits).failed == 0


def undo_redo_round_trip(document: ModelDocument, command) -> tuple[dict, dict]:
    """Push, undo, redo; check each state; return (before, after)."""
    before = copy.deepcopy(document.model)
    document.push(command)
    after = copy.deepcopy(document.model)
    assert after != before
    document.undo_stack.undo()
    assert document.model == before
    document.undo_stack.redo()
    assert document.model == after
    return before, after


def test_set_field(document):
    cmd = set_field(document, EntityRef("links", "beam"), ["section", "d"], 0.02)
    assert cmd.text() == "Set links[beam].section.d"
    _before, after = undo_redo_round_trip(document, cmd)
    assert after["links"][2]["section"]["d"] == 0.02


def test_set_absent_field_removes_it_and_its_parents_on_undo(document):
    cmd = set_field(document, EntityRef("links", "beam"), ["mesh", "elements"], 6)
    before, after = undo_redo_round_trip(document, cmd)
    assert "mesh" not in before["links"][2]
    assert after["links"][2]["mesh"] == {"elements": 6}


def test_set_field_to_missing_deletes_it(document):
    cmd = set_field(document, EntityRef("bodies", "block"), ["radius"], edits.MISSING)
    _before, after = undo_redo_round_trip(document, cmd)
    assert "radius" not in after["bodies"][0]


def test_add_entity_to_existing_and_to_absent_collection(document):
    cmd = AddEntity(document, "nodes", {"id": "N3", "x": 1.0, "y": 2.0})
    assert cmd.text() == "Add node N3"
    undo_redo_round_trip(document, cmd)
    document.model.pop("initial_velocities", None)
    cmd = AddEntity(document, "initial_velocities", {"node": "A", "vx": 1.0})
    before, after = undo_redo_round_trip(document, cmd)
    assert "initial_velocities" not in before and after["initial_velocities"] == [{"node": "A", "vx": 1.0}]


def test_remove_link_removes_what_refers_to_it_and_undo_restores_all(document):
    cmd = RemoveEntities(document, [EntityRef("links", "beam")])
    assert cmd.text() == "Delete link beam"
    _before, after = undo_redo_round_trip(document, cmd)
    assert [l["id"] for l in after["links"]] == ["crank", "plate", "arm"]
    gone = {str(r) for r in cmd.removed_refs}
    assert gone == {"links[beam]", "joints[B-weld]", "joints[D-gap]", "contacts[hit-beam]"}
    assert validate(after) == []


def test_remove_node_cascades_through_links(document):
    cmd = RemoveEntities(document, [EntityRef("nodes", "A")])
    _before, after = undo_redo_round_trip(document, cmd)
    assert {str(r) for r in cmd.removed_refs} == {
        "nodes[A]", "links[crank]", "links[plate]", "joints[A-pin]", "joints[B-weld]",
        "drivers[motor]", "loads[tip-torque]", "contacts[hit-node]"}
    assert validate(after) == []


def test_remove_several_and_initial_velocities_without_ids(document):
    document.model["initial_velocities"] = [{"node": "E", "vy": 1.0}, {"body": "ball", "vx": 2.0}]
    cmd = RemoveEntities(document, [EntityRef("nodes", "E"), EntityRef("bodies", "block")])
    assert cmd.text() == "Delete 2 entities"
    _before, after = undo_redo_round_trip(document, cmd)
    assert after["initial_velocities"] == [{"body": "ball", "vx": 2.0}]
    assert validate(after) == []


def test_move_nodes_merge_into_one_entry(document):
    before = copy.deepcopy(document.model)
    for step in range(1, 4):
        document.push(MoveNodes(document, {"A": (0.2 + 0.1 * step, 0.1), "B": (0.5, 0.1 * step)}))
    assert document.undo_stack.count() == 1
    assert document.undo_stack.text(0) == "Move 2 nodes"
    assert (document.model["nodes"][1]["x"], document.model["nodes"][2]["y"]) == pytest.approx((0.5, 0.3))
    document.undo_stack.undo()
    assert document.model == before
    document.push(MoveNodes(document, {"A": (1.0, 1.0)}))
    document.push(MoveNodes(document, {"B": (1.0, 1.0)}))
    assert [document.undo_stack.text(i) for i in range(2)] == ["Move node A", "Move node B"]


def test_toggle_link_kind_both_ways(document):
    cmd = toggle_link_kind(document, "crank")
    assert cmd.text() == "Make link crank flexible"
    _before, after = undo_redo_round_trip(document, cmd)
    assert after["links"][0] == {"id": "crank", "kind": "flexible", "nodes": ["O", "A"],
                                 "section": {"kind": "circle", "material": "steel", "d": 0.01},
                                 "mesh": {"kind": "uniform", "elements": 8}}
    assert validate(after) == []
    cmd = toggle_link_kind(document, "beam")
    assert cmd.text() == "Make link beam rigid"
    _before, after = undo_redo_round_trip(document, cmd)
    assert after["links"][2]["kind"] == "rigid" and validate(after) == []


def test_a_link_made_flexible_in_a_model_without_material_brings_steel_in_one_entry(document):
    document.model.pop("materials")
    document.model["links"] = [link for link in document.model["links"] if link["kind"] == "rigid"]
    document.model["joints"] = []
    document.model["contacts"] = []
    document.model["drivers"] = []
    before = copy.deepcopy(document.model)
    document.push(toggle_link_kind(document, "crank"))
    assert document.undo_stack.count() == 1 and document.undo_stack.text(0) == "Make link crank flexible"
    assert document.model["materials"] == [{"id": "steel", "E": 2.1e11, "density": 7850.0, "expansion": 1.2e-5}]
    assert document.model["links"][0]["section"] == {"kind": "circle", "material": "steel", "d": 0.01}
    assert validate(document.model) == []
    document.undo_stack.undo()
    assert document.model == before
    document.undo_stack.redo()
    assert document.model["materials"][0]["id"] == "steel"


def test_a_long_sequence_undoes_to_the_start_and_redoes_to_the_end(document):
    start = copy.deepcopy(document.model)
    document.push(AddEntity(document, "nodes", {"id": "N1", "x": 0.0, "y": -0.2}))
    document.push(AddEntity(document, "links", {"id": "l1", "kind": "rigid", "nodes": ["O", "N1"], "mass": 1.0}))
    document.push(set_field(document, EntityRef("links", "l1"), ["mass"], 2.0))
    document.push(MoveNodes(document, {"N1": (0.1, -0.3)}))
    document.push(toggle_link_kind(document, "l1"))
    document.push(RemoveEntities(document, [EntityRef("nodes", "O")]))
    document.push(set_field(document, EntityRef("contacts", "floor"), ["e"], 0.5))
    end = copy.deepcopy(document.model)
    assert document.is_modified
    while document.undo_stack.canUndo():
        document.undo_stack.undo()
    assert document.model == start
    assert not document.is_modified
    while document.undo_stack.canRedo():
        document.undo_stack.redo()
    assert document.model == end


@pytest.mark.parametrize("name", [n for n, _p, _d in list_examples()])
def test_deleting_each_entity_of_each_example_round_trips(qapp, name):
    model = load_model(dict((n, p) for n, p, _d in list_examples())[name])
    document = ModelDocument()
    document.replace(model, None)
    start = copy.deepcopy(model)
    for coll in ("nodes", "links", "materials", "bodies"):
        for item in start.get(coll, []):
            document.push(RemoveEntities(document, [EntityRef(coll, item["id"])]))
            assert validate(document.model) == [] or coll in ("nodes",)
            document.undo_stack.undo()
            assert document.model == start


def test_document_emits_changed_and_clears_history_on_replace(document, qtbot):
    with qtbot.waitSignal(document.changed):
        document.push(set_field(document, EntityRef("nodes", "A"), ["x"], 0.3))
    assert document.undo_stack.count() == 1
    document.replace({"format": "flexmech", "version": 1, "nodes": []}, None)
    assert document.undo_stack.count() == 0 and not document.is_modified


def test_singular_names():
    assert [commands.singular(c) for c in ("links", "bodies", "masses", "nodes")] == ["link", "body", "mass", "node"]


def test_edit_menu_undo_redo_and_delete_in_the_window(window):
    window.open_example("slider_crank_flexible")
    start = copy.deepcopy(window.document.model)
    assert not window.undo_action.isEnabled()
    window.selection.replace((EntityRef("links", "rod"),))
    window.delete_action.trigger()
    assert window.undo_action.text() == "&Undo Delete link rod"
    assert window.windowTitle() == "Flexmech — Flexible slider-crank*"
    assert window.tree.item_for(EntityRef("links", "rod")) is None
    assert window.selection.refs == ()
    assert window.history.model().rowCount() == 2  # "<opened>" and the deletion
    window.undo_action.trigger()
    assert window.document.model == start
    assert window.tree.item_for(EntityRef("links", "rod")) is not None
    assert window.windowTitle() == "Flexmech — Flexible slider-crank"
    assert window.redo_action.text() == "&Redo Delete link rod"
    window.redo_action.trigger()
    assert "rod" not in [l["id"] for l in window.document.model["links"]]
    assert window.undo_action.shortcut().matches(QKeySequence(QKeySequence.StandardKey.Undo)) == QKeySequence.SequenceMatch.ExactMatch


def test_an_edit_keeps_the_selection_and_refreshes_the_properties(window):
    window.open_example("slider_crank_flexible")
    ref = EntityRef("links", "rod")
    window.selection.replace((ref,))
    window.document.push(set_field(window.document, ref, ["section", "d"], 0.008))
    table = window.properties.table
    values = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert values["section.d"] == "0.008"
    assert window.selection.refs == (ref,)
    assert window.tree.item_for(ref).isSelected()


def test_rename_updates_every_reference_and_undo_restores(document):
    cmd = commands.rename_entity(document, EntityRef("nodes", "B"), "hinge")
    assert cmd.text() == "Rename node B to hinge"
    _before, after = undo_redo_round_trip(document, cmd)
    assert validate(after) == []
    text = repr(after)
    assert "'B'" not in text and after["links"][1]["nodes"] == ["A", "hinge", "C"]
    assert after["contacts"][4]["target"]["node"] == "hinge"
    cmd = commands.rename_entity(document, EntityRef("links", "beam"), "girder")
    _before, after = undo_redo_round_trip(document, cmd)
    assert validate(after) == [] and after["joints"][2]["links"] == ["plate", "girder"]
