"""A tapered, shear-flexible or heated flexible link shows and edits in the property panel."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from app.document.entities import EntityRef


def value_of(view, field):
    return view.table.item(view.row_of(field), 1).text()


def test_typing_the_end_section_makes_the_rod_tapered(qtbot, window):
    """The rod's end diameter is an empty row until typed in; then the link is tapered and
    its elements stiffen toward the thicker end."""
    window.open_example("slider_crank_flexible")
    window.selection.replace((EntityRef("links", "rod"),))
    view = window.properties
    assert value_of(view, "section.d_end") == ""  # not set: uniform
    table = view.table
    table.setFocus()
    table.setCurrentCell(view.row_of("section.d_end"), 1)
    qtbot.keyClicks(table, "9")
    editor = table.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, " mm")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: value_of(view, "section.d_end") == "0.009")
    rod = next(lk for lk in window.document.model["links"] if lk["id"] == "rod")
    assert rod["section"]["d"] == 0.006 and rod["section"]["d_end"] == 0.009
    assert window.undo_action.text() == "&Undo Set links[rod].section.d_end"
    from solver.system.compile import compile_model

    EI = compile_model(window.document.model).beams.EI
    assert (EI[1:] > EI[:-1]).all()  # thicker toward the second node
    window.undo_action.trigger()
    assert value_of(view, "section.d_end") == ""


def test_the_tapered_and_heated_examples_show_their_fields(window):
    window.open_example("tapered_cantilever")
    window.selection.replace((EntityRef("links", "beam"),))
    view = window.properties
    assert value_of(view, "section.h") == "0.02" and value_of(view, "section.h_end") == "0.01"
    assert value_of(view, "section.shear") == "false"
    window.open_example("bimetal_strip_heated")
    window.selection.replace((EntityRef("links", "strip"),))
    assert value_of(window.properties, "free_strains.temperature_change") == "100"
    assert value_of(window.properties, "free_strains.temperature_function.kind") == "ramp"
