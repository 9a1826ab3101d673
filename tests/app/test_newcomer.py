"""Done-when test of issue #11: a newcomer builds the struck slider-crank with a flexible
rod using only the tools and typed values (no ``mesh`` field typed), runs it with F5,
scrubs to the impact, exports the contact impulse as CSV and reads it back; the mesh
is in the saved file.  Nothing reaches the exception hook (the fixture of
``conftest.py``) and no message box opens."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFileDialog

from app.document.entities import SOLVER_SETTINGS
from app.running.controller import COMPLETED
from solver.model.validate import validate

from .canvas_user import CanvasUser
from .test_simulation_ui import run_with_f5

BLOCK = (0.579645957, 0.0)


def build_struck_slider_crank(qtbot, window) -> None:
    """Draw it as the Getting Started page says, typing values with units."""
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.05, 0.65, grid=0.01)

    user.tool(Qt.Key.Key_L, (0.0, 0.0), (0.15, 0.0))  # the crank, link1
    user.type_field("mass", "33.3778511 g")
    user.drag((0.15, 0.0), (0.45, 0.0))        # the rod, link2
    user.type_field("kind", "flexible")        # a complete flexible link: steel section, 8 elements
    user.type_field("section.d", "6 mm")

    user.tool(Qt.Key.Key_G, (0.0, 0.0))
    user.tool(Qt.Key.Key_D, (0.45, 0.0), (0.55, 0.0))
    user.tool(Qt.Key.Key_A, (0.45, 0.0))
    user.type_field("mass", "33.3778511 g")
    user.tool(Qt.Key.Key_M, (0.075, 0.0), (0.0, 0.0))
    user.type_field("function.value", "1432.3944878 rpm")  # 150 rad/s

    user.tool(Qt.Key.Key_B, (0.6, 0.0))
    user.type_field("x", "579.645957 mm")
    user.type_field("mass", "166.8892555 g")
    user.tool(Qt.Key.Key_C, BLOCK, (0.45, 0.0))
    user.key(Qt.Key.Key_V)
    start = user.pixel(*BLOCK)
    user.drag_pixels(start, start - QPoint(150, 0))  # 0.1 m/s per pixel: 15 m/s to the left
    user.key(Qt.Key.Key_Escape)

    user.click_tree(SOLVER_SETTINGS)
    user.type_field("end_time", "83.7758041 ms")
    user.type_field("step", "41.887902 us")
    user.type_field("output_interval", "0.167551608 ms")


def choose_preset(qtbot, plots, name: str) -> None:
    """Pick the plots' preset ``name`` with the arrow keys, as a user does."""
    plots.preset_combo.setFocus()
    target = plots.preset_combo.findText(name)
    assert target >= 0, name
    while plots.preset_combo.currentIndex() != target:
        qtbot.keyClick(plots.preset_combo, Qt.Key.Key_Down if plots.preset_combo.currentIndex() < target
                       else Qt.Key.Key_Up)
    plots.preset_combo.activated.emit(target)  # what choosing it in the open list does


def test_a_newcomer_builds_runs_plays_back_and_exports_an_impact(qtbot, window, monkeypatch, tmp_path,
                                                                  message_boxes):
    build_struck_slider_crank(qtbot, window)
    model = window.document.model
    assert validate(model) == []
    rod = model["links"][1]
    assert rod["kind"] == "flexible" and rod["mesh"] == {"kind": "uniform", "elements": 8}  # trust.STRUCK_ELEMENTS
    assert model["drivers"][0]["function"]["value"] == pytest.approx(150.0, rel=1e-9)
    assert model["initial_velocities"] == [{"body": "body1", "vx": -15.0}]

    run_with_f5(qtbot, window)
    sim = window.simulation
    assert sim.runs.state == COMPLETED
    results = sim.runs.results
    impulses = [e for e in results.events if e["kind"] == "impulse"]
    assert impulses, "the block struck the slider"
    first = impulses[0]
    assert 0.02 < first["time_s"] < 0.035  # s: the example meets at a crank angle of 4 rad, 26.7 ms
    assert sim.status.label.text().startswith("Run completed")

    # scrub to the impact with the playback slider
    index = int(np.searchsorted(sim.playback.times, first["time_s"]))
    sim.bar.slider.setValue(index)
    assert sim.playback.time == pytest.approx(sim.playback.times[index])
    assert sim.playback.times[index] >= first["time_s"]  # the state after the impulse
    assert "ms" in sim.layer.text.toPlainText()

    # the contact's impulses and its force, plotted and exported as CSV
    proposed = []

    def export(preset: str, name: str) -> list[list[str]]:
        choose_preset(qtbot, window.results_ui.plots, preset)

        def save_dialog(parent, title, start, filters):
            proposed.append(start)
            return str(tmp_path / name), ""

        monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
        window.results_ui.export_series_action.trigger()
        with open(tmp_path / name, newline="", encoding="utf-8") as f:
            return list(csv.reader(f))

    rows = export("contact impulses vs time", "impulses.csv")
    assert window.results_ui.plots.panels[0].selected_series() == ["contact/contact1/I_n", "contact/contact1/I_t"]
    assert proposed[0].endswith("untitled-series.csv")
    assert rows[0] == ["event_time_s", "contact.contact1.I_n_N_s", "contact.contact1.I_t_N_s"]
    data = np.array(rows[1:], dtype=float)  # the impulses at their events' instants, where the stems stand
    np.testing.assert_allclose(data[:, 0], sorted({e["time_s"] for e in impulses}), rtol=1e-15)
    total = sum(e["I_n_N_s"] for e in impulses)
    assert data[:, 1].sum() == pytest.approx(total, rel=1e-9) and total > 0.5  # N s
    assert data[0, 0] == pytest.approx(first["time_s"], rel=1e-15) and data[0, 1] > 0.0  # the first impact's impulse

    rows = export("contact forces vs time", "force.csv")
    window_s = results.layout.force_windows["contact1"]  # an impulse pair's force: its impulses averaged
    tag = f"avg_{window_s * 1e6:.4g}us"
    assert rows[0] == ["time_s", f"contact.contact1.F_n_{tag}_N", f"contact.contact1.F_t_{tag}_N"]
    force = np.array(rows[1:], dtype=float)
    np.testing.assert_allclose(force[:, 0], sim.playback.times)
    np.testing.assert_allclose(force[:, 1], [f.contact["F_n_N"][0] for f in results.frames], rtol=1e-9)
    assert force[:, 1].min() >= 0.0 and force[index, 1] > 0.0  # N: compressive, and acting at the impact

    # saved, the file has the rod's mesh, which nobody typed
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "struck.json"), ""))
    window.save_as_action.trigger()
    saved = json.loads((tmp_path / "struck.json").read_text(encoding="utf-8"))
    assert saved["links"][1]["mesh"] == {"kind": "uniform", "elements": 8}
    assert saved["materials"] == [{"id": "steel", "E": 2.1e11, "density": 7850.0, "expansion": 1.2e-5}]
    assert message_boxes == []
