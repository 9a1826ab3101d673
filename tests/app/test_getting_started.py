"""Issue #27: docs/getting-started.md followed click by click, with the values it gives, as
a newcomer would: draw the rod pinned at one end, make it flexible, add the block, its
velocity and the contact pair, run, jump to the impact with Event ▸, export the contact
impulses as CSV, then run again with each of the other two contact models (section 5).  At every step
the test checks what the user sees: no refusal in the property panel or the status bar, a
completed run, a contact force in the plots, the CSV's promised columns.

The page's figure of these steps is taken here, at 1280 x 800, when ``FLEXMECH_SHOTS``
names a folder::

    FLEXMECH_SHOTS=docs/screenshots QT_QPA_PLATFORM=offscreen python -m pytest tests/app/test_getting_started.py
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from app.document.entities import SOLVER_SETTINGS, EntityRef
from app.running.controller import COMPLETED
from app.shell.layout import LEFT_WIDTH
from solver.model.validate import validate

from .canvas_user import CanvasUser
from .test_contact_models import choose
from .test_newcomer import choose_preset
from .test_simulation_ui import run_with_f5

PAIR = EntityRef("contacts", "contact1")


def shot(window, name: str) -> None:
    """Save the window as the page's figure ``name`` when ``FLEXMECH_SHOTS`` names a folder."""
    folder = os.environ.get("FLEXMECH_SHOTS")
    if folder:
        for _ in range(5):
            QApplication.processEvents()
        window.grab().save(str(Path(folder) / name))


def no_refusal(window) -> None:
    """Nothing the user typed was refused: no red cell, no "Refused" in the status bar."""
    view = window.properties
    assert all(view.error_at(r) is None for r in range(view.table.rowCount()))
    assert "efused" not in window.statusBar().currentMessage()


def draw_as_the_page_says(qtbot, window) -> CanvasUser:
    """Sections 1-2 of the page, in its order and with its values, on the canvas as File > New
    shows it (no zoom or pan: the page asks for none)."""
    user = CanvasUser(qtbot, window)
    window.resize(1280, 800)                        # the screen the page is written for
    qtbot.waitUntil(lambda: window.width() == 1280)
    window.reset_layout_action.trigger()            # the docks at their default sizes for it
    window.help.show_getting_started()              # the page open beside the canvas, as it is read
    qtbot.waitUntil(lambda: window.tree_dock.width() >= LEFT_WIDTH - 10)  # the column settled beside it
    window.new_action.trigger()                     # 1.1 File > New, the solver's end time and step
    user.click_tree(SOLVER_SETTINGS)
    user.type_field("end_time", "40 ms")
    user.type_field("step", "0.02 ms")
    no_refusal(window)
    canvas = window.sketch.viewport().rect()
    assert all(canvas.contains(user.pixel(x, y)) for x, y in ((0.0, 0.0), (0.4, 0.0), (0.5, 0.0)))  # all in view
    user.tool(Qt.Key.Key_L, (0.0, 0.0), (0.4, 0.0))  # 1.2 the rod
    user.tool(Qt.Key.Key_G, (0.0, 0.0))             # 1.3 ground pin
    user.tool(Qt.Key.Key_S, (0.2, 0.0))             # 1.4 select the rod, make it flexible
    user.type_field("kind", "flexible")
    no_refusal(window)
    user.tool(Qt.Key.Key_B, (0.5, 0.0))             # 2.1 free body
    user.key(Qt.Key.Key_V)                          # 2.2 drag from the block 50 px to the left: -5 m/s
    start = user.pixel(0.5, 0.0)
    user.drag_pixels(start, start - QPoint(50, 0))
    user.key(Qt.Key.Key_Escape)
    user.tool(Qt.Key.Key_C, (0.5, 0.0), (0.4, 0.0))  # 2.3 the block, then the rod's right end
    no_refusal(window)
    return user


def impact_and_force(qtbot, window) -> float:
    """Run with F5, press Event ▸: the time of the first impact, the contact force there > 0."""
    run_with_f5(qtbot, window)
    sim = window.simulation
    assert sim.runs.state == COMPLETED and sim.status.label.text().startswith("Run completed")
    assert "warning" not in sim.status.label.text()  # the rod made flexible is meshed finely enough to strike
    assert sim.playback.index == sim.playback.count - 1  # the run was followed to its end
    sim.bar.next_event_action.trigger()             # Event ▸, as the page says (no Home first)
    results = sim.runs.results
    first = next(e for e in results.events if e["kind"] in ("impulse", "contact_start"))
    after = sim.playback.times[sim.playback.times >= first["time_s"] - 1e-12][0]
    assert sim.playback.time == after                # the first frame at or after the impact
    assert 0.018 < first["time_s"] < 0.021          # s: 0.1 m at 5 m/s, less the compliant block's radius
    force = np.array([f.contact["F_n_N"][0] for f in results.frames])
    assert force.max() > 0.0                        # N: a contact-force curve, not a flat line
    return first["time_s"]


def export_preset(qtbot, window, monkeypatch, path, preset: str) -> list[list[str]]:
    """Section 5: choose the preset, File > Export > Plotted Series as CSV."""
    choose_preset(qtbot, window.results_ui.plots, preset)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.results_ui.export_series_action.trigger()
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.mark.slow
def test_getting_started_as_written_with_the_three_contact_models(qtbot, window, monkeypatch, tmp_path,
                                                                      message_boxes):
    draw_as_the_page_says(qtbot, window)
    model = window.document.model
    assert validate(model) == []
    assert model["contacts"][0]["target"]["kind"] == "node"  # the block strikes the rod's end face
    assert model["initial_velocities"] == [{"body": "body1", "vx": -5.0}]

    impulse_time = impact_and_force(qtbot, window)
    rows = export_preset(qtbot, window, monkeypatch, tmp_path / "impulses.csv", "contact impulses vs time")
    window.results_ui.events_dock.raise_()
    shot(window, "impact_run.png")
    assert rows[0] == ["event_time_s", "contact.contact1.I_n_N_s", "contact.contact1.I_t_N_s"]  # at the impacts' instants
    assert sum(float(r[1]) for r in rows[1:]) > 5.0  # N s: the block's momentum, 5 N s, is reversed

    for kind in ("lagrange", "compliant"):            # 6. the other two models
        window.selection.replace(())
        CanvasUser(qtbot, window).click_tree(PAIR)
        choose(qtbot, window.properties, "model.kind", kind)
        qtbot.waitUntil(lambda: window.document.model["contacts"][0]["model"]["kind"] == kind)
        no_refusal(window)
        assert validate(window.document.model) == []
        if kind == "compliant":
            view = window.properties
            assert float(view.table.item(view.row_of("model.stiffness"), 1).text()) == pytest.approx(1.088e10)
        assert impact_and_force(qtbot, window) == pytest.approx(impulse_time, abs=1e-3)
        rows = export_preset(qtbot, window, monkeypatch, tmp_path / f"{kind}.csv", "contact forces vs time")
        assert rows[0] == ["time_s", "contact.contact1.F_n_N", "contact.contact1.F_t_N"]
        assert max(float(r[1]) for r in rows[1:]) > 0.0
    labels = [label for label, _results in window.results_ui.compare.runs]
    assert len(labels) == 3
    assert message_boxes == []
