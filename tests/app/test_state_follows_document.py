"""State that follows the document: another model clears the previous run's results,
plots, events and playback (finished runs stay in Compare runs, labelled by model); the
status bar describes the current run; exports propose a file name."""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from app.shell import results_ui

from .test_simulation_ui import run_with_f5


def test_doctests():
    assert doctest.testmod(results_ui).failed == 0


@pytest.fixture
def ran(qtbot, window):
    """The bar-mass example run with F5."""
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    return window


def assert_no_run_shown(window) -> None:
    ui, sim = window.results_ui, window.simulation
    assert ui.results is None and ui.plots.panels == [] and ui.plots.preset_combo.count() == 0
    assert ui.events.table.rowCount() == 0 and ui.events.events == []
    assert sim.playback.count == 0 and sim.layer.layout is None
    assert not any(action.isEnabled() for action in ui.export_actions)
    assert not sim.status.isVisible() and sim.status.label.text() == ""


@pytest.mark.parametrize("how", ["new", "example", "open"])
def test_another_model_clears_the_run_but_compare_keeps_it_by_model(ran, how, tmp_path):
    window = ran
    assert window.results_ui.plots.panels and window.results_ui.events.table.rowCount() > 0
    if how == "new":
        window.new_action.trigger()
    elif how == "example":
        window.example_actions["pendulum_impact"].trigger()
    else:
        path = Path(__file__).resolve().parents[2] / "resources" / "examples" / "rod_impact_rigid.json"
        assert window.open_path(path)
    assert_no_run_shown(window)
    assert [label[:-10] for label, _results in window.results_ui.compare.runs] == ["1: Bar struck by a rigid mass"]


def test_the_status_bar_describes_the_current_run(qtbot, ran):
    window = ran
    status = window.simulation.status
    frames = len(window.simulation.runs.results.frames)
    assert status.isVisible() and status.label.text().startswith(f"Run completed: {frames} frames, t = ")
    assert not status.bar.isVisible() and not status.cancel_button.isVisible()
    window.statusBar().showMessage("something about the previous run")
    window.simulation.run()
    assert window.statusBar().currentMessage() == ""
    assert status.label.text().startswith(("Run starting", "Running: t = ")) and status.bar.isVisible()
    qtbot.waitUntil(lambda: not window.simulation.runs.running, timeout=120_000)
    window.simulation.runs.wait()
    assert status.label.text().startswith("Run completed")


def test_a_model_without_a_name_labels_its_runs_by_its_file(qtbot, window, tmp_path):
    source = Path(__file__).resolve().parents[2] / "resources" / "examples" / "rod_impact_rigid.json"
    model = json.loads(source.read_text())
    del model["name"]
    path = tmp_path / "my_rod.json"
    path.write_text(json.dumps(model))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    assert window.results_ui.compare.runs[0][0][:-10] == "1: my_rod"


def test_exports_propose_a_name_after_the_model(ran, monkeypatch, tmp_path):
    window = ran
    proposed = []

    def dialog(parent, title, start, filters):
        proposed.append(start)
        return str(tmp_path / Path(start).name), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    window.results_ui.export_series_action.trigger()
    assert Path(proposed[0]).name == "bar-struck-by-a-rigid-mass-series.csv"
    assert (tmp_path / "bar-struck-by-a-rigid-mass-series.csv").exists()
    window.results_ui.export_plots_action.trigger()  # the next one goes to the folder of the last
    assert Path(proposed[1]) == tmp_path / "bar-struck-by-a-rigid-mass-plots.png"
