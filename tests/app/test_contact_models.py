"""Both contact models side by side in the window: the user runs the bar struck by a mass, switches
its contact pair to the Lagrange-multiplier model in the property panel, runs again, and Compare
runs overlays the two contact forces."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from app.document.entities import EntityRef
from app.running.controller import COMPLETED
from solver.model.validate import validate

from .test_simulation_ui import run_with_f5

PAIR = EntityRef("contacts", "striker-end")


def choose(qtbot, view, field: str, option: str) -> None:
    """Open the value's combo box in the property table, pick ``option`` and press Return."""
    table = view.table
    row = view.row_of(field)
    table.setFocus()
    table.setCurrentCell(row, 1)
    table.editItem(table.item(row, 1))
    combo = table.findChild(QComboBox)
    assert combo is not None and option in [combo.itemText(i) for i in range(combo.count())]
    combo.setCurrentIndex(combo.findText(option))
    qtbot.keyClick(combo, Qt.Key.Key_Return)


def test_switch_a_pair_to_lagrange_in_the_panel_and_compare_the_two_runs(qtbot, window):
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    window.selection.replace((PAIR,))
    view = window.properties
    choose(qtbot, view, "model.kind", "lagrange")
    qtbot.waitUntil(lambda: window.document.model["contacts"][0]["model"]["kind"] == "lagrange")
    assert window.undo_action.text() == "&Undo Set contacts[striker-end].model"
    assert validate(window.document.model) == []
    # the model's own field, from the schema, with its default shown
    qtbot.waitUntil(lambda: view.row_of("model.stick_tolerance") >= 0)
    assert view.table.item(view.row_of("model.stick_tolerance"), 1).text() == "0.001"
    assert view.commit_field("model.stick_tolerance", "0.002")
    assert window.document.model["contacts"][0]["model"]["stick_tolerance"] == 0.002
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    lagrange = window.simulation.runs.results
    assert [e["kind"] for e in lagrange.events][:2] == ["contact_start", "impulse"]
    assert lagrange.events[1]["onset"] is True

    compare = window.results_ui.compare
    labels = [label for label, _results in compare.runs]
    assert labels == ["1: Bar struck by a rigid mass", "2: Bar struck by a rigid mass (lagrange)"]
    compare.series_combo.setCurrentIndex(compare.series_combo.findData("contact/striker-end/F_n"))
    compare.series_combo.activated.emit(compare.series_combo.currentIndex())
    curves = compare.plotted()
    assert [c.run for c in curves] == labels
    np.testing.assert_array_equal(curves[1].y, [f.contact["F_n_N"][0] for f in lagrange.frames])
    for curve in curves:  # both peak near the wave theory's 0.2135 N after the reflected wave
        assert 0.19 < curve.y.max() < 0.24
        assert 0.29 < curve.x[np.argmax(curve.y)] < 0.33
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.document.model["contacts"][0]["model"] == {"kind": "impulse"}
