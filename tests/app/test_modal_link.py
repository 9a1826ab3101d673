"""A modal link in the window, driven like a user (issue 14): the rod of the flexible
slider-crank made modal from its kind's list, its modes shown in the property panel,
edited, run with F5, its modal coordinates plotted, its flexible example opened and run."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.document.entities import SOLVER_SETTINGS, EntityRef
from app.panels.properties import MODE_DAMPING, MODE_FREQUENCIES
from app.running.controller import COMPLETED
from solver.analysis.modal import modal_link_modes
from solver.model.validate import validate

from .test_property_edit import open_choice, press_f2, select_rod, value_of
from .test_simulation_ui import run_with_f5

ROD = EntityRef("links", "rod")


def pick(qtbot, combo, text: str) -> None:
    """Open the combo's list and click ``text`` in it, as a user does."""
    combo.showPopup()
    qtbot.waitUntil(lambda: combo.view().isVisible())
    index = combo.model().index(combo.findText(text), 0)
    view = combo.view()
    target = view.visualRect(index).center()
    qtbot.mouseMove(view.viewport(), target)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=target)


def type_into(qtbot, view, field: str, text: str) -> None:
    editor = press_f2(qtbot, view, field)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


def test_a_link_made_modal_shows_its_modes_and_runs(qtbot, window):
    view = select_rod(window)
    combo = open_choice(view, "kind")
    assert [combo.itemText(i) for i in range(combo.count())] == ["rigid", "flexible", "modal"]
    pick(qtbot, combo, "modal")
    qtbot.waitUntil(lambda: window.document.model["links"][1]["kind"] == "modal")
    link = window.document.model["links"][1]
    assert link["mesh"] == {"elements": 8} and link["modes"] == 4 and link["reference"] == "clamped"
    assert window.undo_action.text() == "&Undo Make link rod modal"
    assert validate(window.document.model) == []
    # the panel shows the modes' frequencies (computed from the link's mesh), read-only
    shown = [float(x) for x in value_of(view, MODE_FREQUENCIES).split(",")]
    expected = modal_link_modes(window.document.model, "rod").frequencies
    np.testing.assert_allclose(shown, expected, rtol=1e-4)
    assert len(shown) == 4 and value_of(view, MODE_DAMPING) == "0, 0, 0, 0"
    cell = view.table.item(view.row_of(MODE_FREQUENCIES), 1)
    assert not cell.flags() & Qt.ItemFlag.ItemIsEditable
    # pinned at both ends: the frame follows the rod's chord; two modes
    pick(qtbot, open_choice(view, "reference"), "pinned")
    qtbot.waitUntil(lambda: window.document.model["links"][1]["reference"] == "pinned")
    type_into(qtbot, view, "modes", "2")
    qtbot.waitUntil(lambda: window.document.model["links"][1]["modes"] == 2)
    qtbot.waitUntil(lambda: len(value_of(view, MODE_FREQUENCIES).split(",")) == 2)
    # pinned-pinned bending of the rod (EI = 12.72 N m^2, rhoA = 0.2225 kg/m, 0.3 m): 132 Hz
    assert float(value_of(view, MODE_FREQUENCIES).split(",")[0]) == pytest.approx(
        np.pi / 2 / 0.3**2 * np.sqrt(2e11 * np.pi * 0.006**4 / 64 / (7870 * np.pi * 0.006**2 / 4)), rel=1e-3)
    # a short run (a quarter of a revolution): its results carry the modal coordinates, and
    # the plots offer them
    window.selection.replace((SOLVER_SETTINGS,))
    type_into(qtbot, window.properties, "end_time", "10 ms")
    qtbot.waitUntil(lambda: window.document.model["solver"]["end_time"] == pytest.approx(0.01))
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    results = window.simulation.runs.results
    assert results.layout.modes == [("rod", 1), ("rod", 2)]
    assert np.abs(results.frames[-1].modal_q).max() > 0
    pick(qtbot, window.results_ui.plots.preset_combo, "modal coordinates and energy per mode")
    qtbot.waitUntil(lambda: "mode/rod/1/q" in window.results_ui.plots.panels[0].values_at(0.0))
    plotted = window.results_ui.plots.panels[0].values_at(results.frames[-1].time)
    assert plotted["mode/rod/1/q"] == pytest.approx(results.frames[-1].modal_q[0], rel=1e-12)


def test_the_modal_pendulum_example_opens_and_plays_its_impact(qtbot, window):
    window.example_actions["pendulum_flexible_modal3_energetic"].trigger()
    window.selection.replace((EntityRef("links", "rod"),))
    frequencies = [float(x) for x in value_of(window.properties, MODE_FREQUENCIES).split(",")]
    assert len(frequencies) == 3 and frequencies[0] == pytest.approx(58.624, rel=1e-4)  # free-free, 1 kg steel rod
    run_with_f5(qtbot, window)
    results = window.simulation.runs.results
    assert window.simulation.runs.state == COMPLETED
    impulses = [e for e in results.events if e["kind"] == "impulse"]
    assert len(impulses) == 7 and impulses[0]["type"] == "SRD"
    # the deformed rod is drawn from the frames: every mesh node of the modal link is a node there
    assert [n for n in results.layout.nodes if n.startswith("rod.")] == [f"rod.{k}" for k in range(1, 20)]
    slider = window.simulation.bar.slider
    index = int(np.searchsorted(results.time, impulses[0]["time_s"]))
    slider.setValue(index)
    assert window.simulation.playback.time == pytest.approx(results.time[index])


def test_mode_rows_say_why_they_are_empty():
    """While the model has a problem the modes are not computed: the rows are empty and their
    help names the first problem."""
    from app.panels.properties import modal_rows
    from solver.model.io import examples_dir, load_model

    doc = load_model(examples_dir() / "slider_crank_modal.json")
    doc["links"][1]["modes"] = 99
    rows = modal_rows(doc, "rod")
    assert [r.value for r in rows] == ["", ""]
    assert rows[0].help.startswith("not computed: links[rod].modes: must be at most 24")
