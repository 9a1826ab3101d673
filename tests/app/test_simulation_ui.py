"""The simulation half of the main window, driven like a user: F5 runs, Esc cancels,
the slider scrubs, plots follow playback, File > Export writes CSV, GIF and bundles."""
from __future__ import annotations

import re

import csv
import json

import imageio.v3 as iio
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.document.entities import EntityRef
from app.running.controller import CANCELLED, COMPLETED, FAILED
from solver.model.io import examples_dir, load_model, save_model

#: generous: runs share two cores with other work
RUN_TIMEOUT_MS = 120_000


def run_with_f5(qtbot, window) -> None:
    """Press F5 and wait for the run to end."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # shortcuts go to the active window
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.simulation.runs.state != "idle"
    qtbot.waitUntil(lambda: not window.simulation.runs.running, timeout=RUN_TIMEOUT_MS)
    window.simulation.runs.wait()


@pytest.fixture
def bar_mass_run(qtbot, window):
    """The bar-mass example opened from the Examples menu and run with F5."""
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    return window


def save_dialog_returns(monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


def test_run_scrub_and_the_plotted_contact_force_is_the_solvers(bar_mass_run):
    window = bar_mass_run
    results = window.simulation.runs.results
    slider = window.simulation.bar.slider
    index = int(np.argmax([f.contact["F_n_N"][0] for f in results.frames]))  # the peak, at about 0.3 s
    slider.setValue(index)  # the user drags the slider there
    t = results.frames[index].time
    assert window.simulation.playback.time == pytest.approx(t)
    window.results_ui.plots.apply_preset("contact forces vs time")  # the impulses come first
    panel = window.results_ui.plots.panels[0]
    plotted = panel.values_at(t)
    force_key = next(k for k in plotted if k.endswith("/F_n"))
    assert plotted[force_key] == pytest.approx(results.frames[index].contact["F_n_N"][0], rel=1e-12)
    assert plotted[force_key] > 0.1
    assert panel.cursor.value() == pytest.approx(t)  # the plots' time cursor followed


def test_the_plotted_series_export_as_csv_and_read_back(bar_mass_run, monkeypatch, tmp_path):
    window = bar_mass_run
    save_dialog_returns(monkeypatch, tmp_path / "forces.csv")
    window.results_ui.export_series_action.trigger()
    with open(tmp_path / "forces.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, data = rows[0], np.array(rows[1:], dtype=float)
    assert header[0] == "event_time_s" and any("N" in h for h in header[1:])  # the bar-mass's impulses at their instants
    curves = window.results_ui.plots.plotted()
    np.testing.assert_allclose(data[:, 0], curves[0].x)
    np.testing.assert_allclose(data[:, 1], curves[0].y)


def test_the_plotted_impulses_and_force_export_with_distinct_columns_and_overlay_back_in_line(
        bar_mass_run, monkeypatch, tmp_path, message_boxes):
    """I_n, F_n and I_t plotted: the export wrote event_time_s twice (I_n's and I_t's instants, around the
    forces' time_s), and CSV > Overlay a CSV File… refused the file ('column names must be present and
    distinct'). The columns are distinct, and the file overlaid on the same plot lines up with its curves."""
    window = bar_mass_run
    panel = window.results_ui.plots.panels[0]
    panel.set_series(["contact/striker-end/I_n", "contact/striker-end/F_n", "contact/striker-end/I_t"])
    save_dialog_returns(monkeypatch, tmp_path / "plotted.csv")
    window.results_ui.export_series_action.trigger()
    with open(tmp_path / "plotted.csv", newline="", encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert len(set(header)) == len(header) and {"event_time_s", "time_s"} <= set(header)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "plotted.csv"), ""))
    panel.csv.load_action.trigger()  # CSV ▸ Overlay a CSV File…
    assert message_boxes == [] and panel.csv.note.isHidden()
    loaded = {o.column: o for o in panel.overlaid() if o.origin == "csv"}
    curves = panel.plotted()
    assert sorted(loaded) == sorted(c.y_series.column for c in curves)
    for curve in curves:
        overlay = loaded[curve.y_series.column]
        assert overlay.x_column.rpartition(": ")[2] == curve.x_series.column
        finite = np.isfinite(overlay.x)
        np.testing.assert_allclose(overlay.x[finite], curve.x, rtol=1e-12)
        np.testing.assert_allclose(overlay.y[finite], curve.y, rtol=1e-12)


def test_a_short_gif_is_exported(bar_mass_run, monkeypatch, tmp_path):
    window = bar_mass_run
    window.simulation.bar.speed.setCurrentIndex(window.simulation.bar.speed.findData(1.0))
    save_dialog_returns(monkeypatch, tmp_path / "impact.gif")
    window.results_ui.export_animation_action.trigger()
    frames = iio.imread(tmp_path / "impact.gif", index=None)
    duration = window.simulation.playback.times[-1] - window.simulation.playback.times[0]
    assert frames.shape[0] == pytest.approx(duration * 25, abs=2)
    assert frames.shape[1] > 100 and frames.shape[2] > 100


def test_a_results_bundle_reopens_for_playback_without_solving(bar_mass_run, monkeypatch, tmp_path):
    window = bar_mass_run
    frames = len(window.simulation.runs.results.frames)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "bundle"))
    window.results_ui.export_results_action.trigger()
    window.new_document()
    assert window.simulation.playback.count == 0
    window.results_ui.open_results_action.trigger()
    assert window.document.model["name"] == "Bar struck by a rigid mass"
    assert window.simulation.playback.count == frames
    assert window.results_ui.events.table.rowCount() == len(window.simulation.runs.results.events)


def test_selecting_an_impulse_in_the_events_table_moves_playback_there(bar_mass_run, qtbot):
    window = bar_mass_run
    view = window.results_ui.events
    row = next(r for r, e in enumerate(window.results_ui.results.events) if e["kind"] == "impulse" and r > 3)
    view.select_event(row)
    assert window.simulation.playback.time == pytest.approx(window.results_ui.results.events[row]["time_s"])


def _start_long_run(window, qtbot, tmp_path):
    """The flexible slider-crank, its end time 200 times as far (minutes of solving), run with F5; its runs."""
    model = load_model(examples_dir() / "slider_crank_flexible.json")
    model["solver"]["end_time"] *= 200  # minutes of solving: cancelled long before
    path = tmp_path / "long.json"
    save_model(model, path)
    window.open_path(path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    runs = window.simulation.runs
    return runs


def test_esc_cancels_a_long_run_and_keeps_its_frames_while_the_ui_kept_working(qtbot, window, tmp_path, ticker):
    runs = _start_long_run(window, qtbot, tmp_path)
    # a starved event loop would not tick while the solver runs
    qtbot.waitUntil(lambda: len(runs.frames) > 30 and ticker.ticks > 10 and runs.running, timeout=RUN_TIMEOUT_MS)
    window.sketch.setFocus()  # Esc on the canvas too: it must reach the run, not the tools
    qtbot.keyClick(window.sketch, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not runs.running, timeout=RUN_TIMEOUT_MS)
    runs.wait()
    assert runs.state == CANCELLED and len(runs.results.frames) > 30
    assert window.simulation.playback.count == len(runs.results.frames)
    assert window.tool_bar.escape_action.isEnabled()


def test_a_failed_run_shows_time_and_cause_and_keeps_the_frames(qtbot, window, newton_fails_at, message_boxes):
    newton_fails_at(0.25)
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == FAILED
    kind, _title, text = message_boxes[-1]
    assert kind == "warning" and "stopped at t = 0.25" in text and "Newton did not converge (test)" in text
    assert window.simulation.playback.count > 10
    assert window.simulation.playback.times[-1] < 0.26
    assert window.results_ui.export_series_action.isEnabled()
    assert window.results_ui.compare.runs == []  # issue #27: a failed run is not compared


def test_two_runs_with_different_friction_are_overlaid_in_compare(qtbot, window):
    window.example_actions["rod_impact_rigid"].trigger()
    contact = EntityRef("contacts", window.document.model["contacts"][0]["id"])
    for mu in (0.7, 0.95):
        window.apply_edit(contact, ["mu_s"], mu)  # what the property panel does
        window.apply_edit(contact, ["mu_d"], mu)
        run_with_f5(qtbot, window)
    compare = window.results_ui.compare
    assert len(compare.runs) == 2
    labels = {curve.run for curve in compare.plotted()}
    assert len(labels) == 2
    assert all(re.fullmatch(r"\d: Rigid rod striking the ground with friction, \d\d:\d\d:\d\d", label) for label in labels)
    assert compare.note.isHidden()  # runs of one model



def test_a_completed_run_whose_numbers_do_not_hold_says_so(qtbot, window, tmp_path, message_boxes):
    """The flexible slider-crank at 1500 rad/s, damped, on its 8 elements and the example's step:
    the run completes, its energy balance up by about 40 times the energy in play and its strains
    far past elasticity; the status bar and a warning box say so."""
    from tests.solver.test_runs_end import slider_crank_at_1500

    path = tmp_path / "fast.json"
    path.write_text(json.dumps(slider_crank_at_1500(damped=True)))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == "completed"
    label = window.simulation.status.label
    assert label.text().endswith("the numbers do not hold: energy balance off")
    assert "The energy balance rose by" in label.toolTip() and "linear elastic beam" in label.toolTip()
    (kind, title, text), = [box for box in message_boxes if box[1] == "Run completed with warnings"]
    assert kind == "warning" and "the energy balance rose by" in text and "linear elastic beam" in text


def test_a_run_straining_its_rod_past_a_linear_elastic_beam_says_so_in_the_status_bar(qtbot, window, tmp_path,
                                                                                        message_boxes):
    """The damped slider-crank at 1500 rad/s for 4 ms, on the mesh and step its motion needs: a sound
    run (no box), but its rod bends to strains of some 30 %, which the status bar says."""
    from tests.solver.test_runs_end import slider_crank_at_1500

    model = slider_crank_at_1500(16, 8, damped=True)
    model["solver"]["end_time"] = 0.004
    path = tmp_path / "fast.json"
    path.write_text(json.dumps(model))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    label = window.simulation.status.label
    assert label.text().endswith("warning: strains beyond a linear elastic beam")
    assert "linear elastic beam" in label.toolTip() and "energy balance" not in label.toolTip()
    assert message_boxes == []


def test_a_run_that_sends_no_frame_says_so_and_a_cancel_says_it_waits(qtbot, window, monkeypatch):
    """The first Lagrange run of a fresh install compiled its kernels for minutes after its first
    frames: the status bar kept 'Running: t = 19.64 ms / 40 ms · 0 steps/s · 3 s left', and after
    Cancel still the same. Now it counts the quiet seconds and says why; a cancel asked says the run
    stops after the step it is in, and then that it was cancelled, the time reached once, in the
    window's units (it read 'Run cancelled at t = 0.0200034 s: 1002 frames kept, t = 20 ms')."""
    import time

    from app.running import status, worker

    real = worker.iter_simulation

    def compiling(model, cancel=None, frames=None):  # a few frames, then a long compile
        run = real(model, cancel=cancel, frames=frames)
        for _ in range(5):
            yield next(run)
        while not cancel():
            time.sleep(0.02)
        yield from run

    monkeypatch.setattr(worker, "iter_simulation", compiling)
    monkeypatch.setattr(status, "QUIET_S", 0.5, raising=False)
    assert window.open_example("slider_crank_flexible")
    window.activateWindow()
    window.sketch.setFocus()
    qtbot.keyClick(window.sketch, Qt.Key.Key_F5)
    if not window.simulation.runs.running:  # the offscreen platform may not route shortcuts
        window.simulation.run_action.trigger()
    label = window.simulation.status.label
    qtbot.waitUntil(lambda: "no new frame for" in label.text() or "no frame yet for" in label.text())
    assert "compiles" in label.text()
    qtbot.mouseClick(window.simulation.status.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: label.text().startswith(("Cancelling", "Run cancelled")))
    qtbot.waitUntil(lambda: not window.simulation.runs.running)
    window.simulation.runs.wait()
    assert window.simulation.runs.state == CANCELLED
    assert re.fullmatch(r"Run cancelled: 5 frames kept, t = [\d.]+ µs", label.text()), label.text()   # once, in µs


def test_another_model_opened_during_a_run_is_not_shown_the_runs_end(qtbot, window, tmp_path):
    """A long run going on, the user opens an example: the run is cancelled and the window shows the
    new model only. Its end used to arrive afterwards: 'Run cancelled: 115 frames kept' in the status
    bar, the old model's frames in playback and its results in the plots and File > Export, under the
    new model. The cancelled run is kept in Compare runs, labelled by its own model."""
    runs = _start_long_run(window, qtbot, tmp_path)
    qtbot.waitUntil(lambda: len(runs.frames) > 30 and runs.running, timeout=RUN_TIMEOUT_MS)
    window.example_actions["rod_impact_rigid"].trigger()
    qtbot.waitUntil(lambda: not runs.running, timeout=RUN_TIMEOUT_MS)
    qtbot.wait(200)  # whatever the run still had queued
    assert window.document.model["name"] == load_model(examples_dir() / "rod_impact_rigid.json")["name"]
    assert window.simulation.status.label.text() == ""
    assert window.simulation.playback.count == 0
    assert window.results_ui.results is None
    assert not any(a.isEnabled() for a in window.results_ui.export_actions)
    assert "Flexible slider-crank" in window.results_ui.runs[-1][0]
    run_with_f5(qtbot, window)  # the new model runs and is shown
    assert runs.state == COMPLETED and window.results_ui.results.model["name"] == window.document.model["name"]


def test_results_of_a_failed_run_opened_again_say_it_failed_with_time_and_cause(qtbot, window, newton_fails_at,
                                                                                 message_boxes, tmp_path):
    """A failed run's bundle opened with File > Open Results: the status line said 'Opened results:
    N frames', as for a completed run; it says how the run ended, as when it ran."""
    newton_fails_at(0.25)
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == FAILED
    ran = window.simulation.status.label.text()
    window.results_ui.export_results(tmp_path / "bundle")
    window.new_document()
    assert window.results_ui.open_results(tmp_path / "bundle")
    said = window.simulation.status.label.text()
    assert said.startswith("Opened results of a failed run: stopped at t = 0.25") and "Newton did not converge" in said
    assert said.endswith(ran.removeprefix("Run failed: ")), (said, ran)


def test_a_long_status_line_ends_in_an_ellipsis_and_is_whole_in_its_tool_tip(qtbot, window, newton_fails_at,
                                                                             message_boxes):
    """A failed run's line (212 characters) at 1280 px: the status bar asked 1304 px, the line was cut at
    '…supports a' with the cursor's coordinates pushed out, and its tool tip was empty. It takes the room
    there is, ends in '…', and its tool tip holds it whole."""
    window.resize(1280, 800)
    newton_fails_at(0.25)
    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    label = window.simulation.status.label
    assert label.text().startswith("Run failed: stopped at t = 0.25") and len(label.text()) > 200
    assert window.statusBar().minimumSizeHint().width() <= 1280
    qtbot.waitUntil(lambda: label.width() < label.fontMetrics().horizontalAdvance(label.text()))
    assert label.shown().endswith("…") and label.text().startswith(label.shown()[:-1])
    assert label.toolTip() == label.text()


def test_closing_asks_first_so_cancel_leaves_the_run_going_and_discard_stops_it(qtbot, window, tmp_path,
                                                                                 monkeypatch):
    """A long run going on and a change unsaved, File > Quit: the run was cancelled before 'Save the
    changes?' was asked, so Cancel kept the window open with its run already stopped. The question
    comes first: Cancel leaves the run going (Esc cancels it as ever); Discard stops it and closes."""
    import time

    from PySide6.QtWidgets import QMessageBox

    button = QMessageBox.StandardButton
    answer, asked = {"button": button.Cancel}, []
    monkeypatch.setattr(QMessageBox, "warning", lambda _w, _title, text, *_a: asked.append(text) or answer["button"])
    runs = _start_long_run(window, qtbot, tmp_path)
    qtbot.waitUntil(lambda: len(runs.frames) > 30 and runs.running, timeout=RUN_TIMEOUT_MS)
    window.apply_edit(EntityRef("links", "rod"), ["section", "d"], 0.008)  # what the property panel does
    window.quit_action.trigger()
    assert asked == ["Save the changes to Flexible slider-crank?"] and window.isVisible()
    assert runs.state == "running"
    frames = len(runs.frames)
    qtbot.waitUntil(lambda: len(runs.frames) > frames + 10, timeout=RUN_TIMEOUT_MS)  # it goes on
    qtbot.keyClick(window, Qt.Key.Key_Escape)  # and is cancelled as ever
    qtbot.waitUntil(lambda: not runs.running, timeout=RUN_TIMEOUT_MS)
    assert runs.state == CANCELLED and window.simulation.playback.count == len(runs.results.frames) > frames
    qtbot.keyClick(window, Qt.Key.Key_F5)  # run again, then quit without saving
    qtbot.waitUntil(lambda: len(runs.frames) > 30 and runs.running, timeout=RUN_TIMEOUT_MS)
    answer["button"] = button.Discard
    start = time.monotonic()
    window.quit_action.trigger()
    assert len(asked) == 2 and not window.isVisible()
    assert time.monotonic() - start < 60.0
    qtbot.waitUntil(lambda: not runs.running, timeout=5_000)  # its thread has ended: its last signal comes
    assert runs.state == CANCELLED
