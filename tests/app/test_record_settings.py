"""What a run records, chosen in the solver settings of the property panel, and any results
table exported as CSV from File > Export."""
from __future__ import annotations

import csv

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog

from app.document.entities import SOLVER_SETTINGS
from solver.results.series import catalogue
from tests.app.canvas_user import CanvasUser
from tests.app.test_contact_models import choose

from .test_simulation_ui import run_with_f5


def test_record_settings_are_chosen_in_the_solver_panel_and_the_run_keeps_to_them(qtbot, window):
    window.open_example("slider_crank_flexible")
    user = CanvasUser(qtbot, window)
    user.click_tree(SOLVER_SETTINGS)
    view = window.properties
    user.type_field("end_time", "0.004")
    user.type_field("record.element_stations", "0, 0.5")
    choose(qtbot, view, "record.precision", "single")
    qtbot.waitUntil(lambda: window.document.model["solver"].get("record", {}).get("precision") == "single")
    rates = view.table.item(view.row_of("record.rates"), 1)
    assert rates.checkState() == Qt.CheckState.Checked
    rates.setCheckState(Qt.CheckState.Unchecked)
    qtbot.waitUntil(lambda: window.document.model["solver"].get("record", {}).get("rates") is False)
    assert window.document.model["solver"]["record"] == {"element_stations": [0.0, 0.5], "precision": "single",
                                                         "rates": False}

    run_with_f5(qtbot, window)
    results = window.results_ui.results
    assert results.layout.stations == (0.0, 0.5) and not results.layout.rates
    assert results.frames[-1].node_xy.dtype == np.float32
    offered = catalogue(results)
    assert "node/B/ux" in offered and "node/B/vx" not in offered and "rotation/rod/B/omega" not in offered


def test_any_results_table_is_exported_as_csv(window, monkeypatch, tmp_path):
    from tests.solver.test_results_io import make_results

    window.results_ui.show_results(make_results())
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("elements", True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "el.csv"), ""))
    window.results_ui.export_table_action.trigger()
    with open(tmp_path / "el.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["time_s", "link", "element", "station", "s_m", "axial_force_N", "axial_strain",
                       "bending_strain", "bending_moment_N_m"]
    assert len(rows) == 1 + 7 * 2 * 5


def _type_refused(qtbot, view, field: str, text: str) -> str:
    """Type ``text`` into ``field`` and press Enter; the reason it was refused."""
    table = view.table
    table.setFocus()
    table.setCurrentCell(view.row_of(field), 1)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.error_at(view.row_of(field)) is not None)
    return view.error_at(view.row_of(field))


def test_the_links_a_run_records_are_typed_in_the_solver_panel_and_playback_still_draws_every_link(qtbot, window):
    window.open_example("four_bar_flexible")
    user = CanvasUser(qtbot, window)
    user.click_tree(SOLVER_SETTINGS)
    view = window.properties
    cell = lambda field: view.table.item(view.row_of(field), 1).text()  # noqa: E731
    record = lambda: window.document.model["solver"].get("record", {})  # noqa: E731
    assert cell("record.links") == "all" and cell("record.contacts") == "all" and "links" not in record()
    user.type_field("end_time", "0.002")
    user.type_field("record.links", "none")
    assert record()["links"] == [] and cell("record.links") == "none"
    user.type_field("record.links", "coupler")
    assert record()["links"] == ["coupler"] and cell("record.links") == "coupler"
    assert "no link with id 'rood'" in _type_refused(qtbot, view, "record.links", "coupler, rood")
    assert record()["links"] == ["coupler"]
    window.undo_action.trigger()  # back to none, and again to all (the field left out)
    assert record()["links"] == []
    window.undo_action.trigger()
    assert "links" not in record()
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert record()["links"] == ["coupler"]
    user.type_field("record.contacts", "none")
    user.type_field("record.contacts", "all")  # leaves the field out again
    assert "contacts" not in record() and cell("record.contacts") == "all"

    run_with_f5(qtbot, window)
    results = window.results_ui.results
    assert results.layout.flexible_links == ["coupler"] and list(results.layout.unrecorded_links) == ["crank", "follower"]
    assert {e[0] for e in results.layout.elements} == {"coupler"}
    offered = catalogue(results)
    assert "midspan/coupler" in offered and "midspan/crank" not in offered
    # playback draws the three links, in strain colours the recorded one and in the sketch colour the others
    layer = window.simulation.layer
    layer.set_strain_mode("axial")
    drawn = sum(len(group) for _pen, group in layer.flexible.segments())
    assert drawn == sum(len(nodes) - 1 for nodes, _f, _i in results.layout.chains().values())
