"""Sweeps in the window, driven like a user: the dialog, the progress dock with cancel,
the results table and plot (a click opens the run), and the impact-type map."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLineEdit

from app.document.entities import EntityRef
from app.sweeps.dialog import SweepDialog
from app.sweeps.worker import SweepWorker
from solver.contact.routh import routh_impulse
from solver.model.io import examples_dir, load_model
from solver.sweeps import SweepSpec, build_variants, parse_vary, read_rows
from solver.sweeps.table import write_sweep

SWEEP_TIMEOUT_MS = 120_000


@pytest.fixture
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


def type_into_cell(qtbot, table, row: int, column: int, text: str) -> None:
    """Select a cell, press F2, type ``text`` and press Enter, as a user edits a table."""
    table.setCurrentCell(row, column)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    cell = table.visualItemRect(table.item(row, column))
    editor = next(w for w in table.viewport().findChildren(QLineEdit)       # the editor over that cell
                  if w.isVisible() and not isinstance(w.parent(), QComboBox)
                  and cell.contains(w.mapTo(table.viewport(), w.rect().center())))
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.item(row, column).text() == text)     # the delegate commits queued


def choose_path(dialog: SweepDialog, row: int, path: str) -> None:
    combo = dialog.table.cellWidget(row, 0)
    combo.setCurrentIndex(combo.findText(path))


def test_the_dialog_counts_the_runs_and_refuses_invalid_variants(qtbot, rod, tmp_path):
    dialog = SweepDialog(rod, str(tmp_path / "s"))
    qtbot.addWidget(dialog)
    dialog.show()
    assert "contacts[B-ground].mu_s" in dialog.paths
    choose_path(dialog, 0, "contacts[B-ground].e")
    type_into_cell(qtbot, dialog.table, 0, 1, "0.2:1:5")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    choose_path(dialog, 1, "contacts[B-ground].mu_s")
    type_into_cell(qtbot, dialog.table, 1, 1, "0.5, 0.9")
    assert dialog.summary.text() == "10 runs"
    dialog.design.setCurrentIndex(dialog.design.findText("Side by side (zip)"))
    assert "every parameter needs as many values" in dialog.summary.text()
    dialog.design.setCurrentIndex(0)
    # mu_s = 0.5 is below the model's mu_d = 0.7: the variants are checked before anything runs
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.request() is None
    assert "contacts[B-ground].mu_d: must be &lt;= mu_s" in dialog.summary.text()
    type_into_cell(qtbot, dialog.table, 1, 1, "0.75, 0.9")
    dialog.remote.setChecked(True)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert "Scheduler: give the address" in dialog.summary.text()
    dialog.local.setChecked(True)
    dialog.workers.setValue(2)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    request = dialog.request()
    assert [p.describe() for p in request.spec.parameters] == ["contacts[B-ground].e=0.2:1:5",
                                                                "contacts[B-ground].mu_s=0.75,0.9"]
    assert (request.scheduler, request.workers, request.folder) == (None, 2, tmp_path / "s")


def run_sweep_from_the_menu(qtbot, window, folder, rows, keep=False, workers=1):
    """Sweeps ▸ New Sweep…, fill in the dialog and press Run; wait for the sweep's end."""
    start_sweep_from_the_menu(qtbot, window, folder, rows, keep, workers)
    qtbot.waitUntil(lambda: not window.sweeps_ui.controller.running, timeout=SWEEP_TIMEOUT_MS)


def start_sweep_from_the_menu(qtbot, window, folder, rows, keep=False, workers=1):
    """Sweeps ▸ New Sweep…, fill in the dialog and press Run."""
    def fill():
        dialog = QApplication.activeModalWidget()
        for k, (path, values) in enumerate(rows):
            if k:
                qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
            choose_path(dialog, k, path)
            type_into_cell(qtbot, dialog.table, k, 1, values)
        dialog.folder.setText(str(folder))
        dialog.workers.setValue(workers)
        dialog.keep_results.setChecked(keep)
        qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    window.sweeps_ui.new_action.trigger()


def click_point(qtbot, plot, x: float, y: float) -> None:
    """A left click on the plot at data coordinates ``(x, y)``."""
    vb = plot.getPlotItem().vb
    pos = plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_a_sweep_from_the_menu_fills_the_table_and_a_click_replays_its_run(qtbot, window, tmp_path):
    window.open_example("rod_impact_rigid")
    run_sweep_from_the_menu(qtbot, window, tmp_path / "e", [("contacts[B-ground].e", "0.3, 0.6, 0.9")])
    ui = window.sweeps_ui
    assert ui.progress.counts.text() == "3 completed, 0 failed, 0 already in the table"
    assert ui.progress_dock.isVisible() and not ui.progress.cancel_button.isEnabled()
    view = ui.table
    assert view.table.rowCount() == 3 and len(read_rows(tmp_path / "e")) == 3
    assert view.x_combo.currentText() == "contacts[B-ground].e"
    assert view.y_combo.currentText() == "contact.B-ground.first_I_n_N_s"
    points = sorted(view.points())
    for (e, I_n, _run), expected_e in zip(points, (0.3, 0.6, 0.9)):
        assert e == pytest.approx(expected_e)
        assert I_n == pytest.approx(routh_impulse([[2.5, -1.5], [-1.5, 2.5]], -1, 0.6, 0.73, 0.7, e, "energetic").I_n,
                                    abs=1e-9)
    # the user clicks the point e = 0.6: that run is simulated again and played back
    e, I_n, rid = points[1]
    view.plot.getPlotItem().vb.autoRange()
    QApplication.processEvents()
    click_point(qtbot, view.plot, e, I_n)
    qtbot.waitUntil(lambda: window.simulation.runs.results is not None and not window.simulation.runs.running,
                    timeout=60_000)
    played = window.simulation.runs.results
    assert played.model["contacts"][0]["e"] == 0.6
    impulse = next(ev for ev in played.events if ev["kind"] == "impulse")
    assert impulse["I_n_N_s"] == pytest.approx(I_n, rel=1e-12)
    assert window.document.model["contacts"][0]["e"] == 0.82            # the model is not changed
    assert not window.document.is_modified


def test_kept_results_open_without_solving_and_a_reopened_folder_shows_the_sweep(qtbot, window, tmp_path):
    window.open_example("rod_impact_rigid")
    run_sweep_from_the_menu(qtbot, window, tmp_path / "k", [("contacts[B-ground].mu_s", "0.75, 0.95")], keep=True)
    ui = window.sweeps_ui
    rows = read_rows(tmp_path / "k")
    assert all((tmp_path / "k" / r["results"]).is_dir() for r in rows)
    ui.table.table.clearContents()
    assert ui.open_folder(tmp_path / "k")
    assert ui.table.table.rowCount() == 2
    runs_before = window.simulation.runs.state
    ui.table.run_chosen.emit(rows[1]["run"])        # a double-click on the row does the same
    assert window.simulation.runs.state == runs_before          # nothing was simulated
    assert window.results_ui.results.model["contacts"][0]["mu_s"] == 0.95
    assert window.simulation.playback.frames


def hold_after_each_report(monkeypatch) -> None:
    """Make a sweep's thread wait after each run's report until the sweep is cancelled (at most 30 s), as a
    sweep of longer runs would still be going on."""
    work = SweepWorker.work

    def waiting_for_the_cancel(self, progress, cancel):
        def reported(p):
            progress(p)
            self._cancel.wait(30)
        return work(self, reported, cancel)

    monkeypatch.setattr(SweepWorker, "work", waiting_for_the_cancel)


def test_cancel_in_the_progress_dock_stops_the_sweep_and_keeps_the_finished_runs(qtbot, window, tmp_path,
                                                                                 monkeypatch):
    """Cancel pressed at the first run's report: the sweep stops with the finished runs in its table.  The sweep's
    thread waits for the press after that report (at most 30 s) as a user's sweep of longer runs would go on: the
    rigid rod's 40 runs of 0.1 s could all finish before the click reached the sweep on a busy machine (they
    did once in a fresh clone's suite)."""
    hold_after_each_report(monkeypatch)
    window.open_example("rod_impact_rigid")
    ui = window.sweeps_ui
    ui.controller.progressed.connect(lambda _p: qtbot.mouseClick(ui.progress.cancel_button, Qt.MouseButton.LeftButton)
                                     if ui.progress.cancel_button.isEnabled() else None)
    run_sweep_from_the_menu(qtbot, window, tmp_path / "c", [("contacts[B-ground].e", "0:1:40")])
    kept = read_rows(tmp_path / "c")
    assert 1 <= len(kept) < 40
    assert ui.progress.title.text().startswith("Sweep cancelled")
    assert ui.table.table.rowCount() == len(kept)


def test_closing_asks_first_so_cancel_leaves_the_sweep_going_and_discard_stops_it(qtbot, window, tmp_path,
                                                                                   monkeypatch):
    """A sweep going on and a change unsaved, File > Quit: the sweep was cancelled and its cluster shut down
    before 'Save the changes?' was asked, so Cancel kept the window open with its sweep already stopped.
    The question comes first: Cancel leaves the sweep and its cluster going; Discard stops them and closes."""
    from PySide6.QtWidgets import QMessageBox

    hold_after_each_report(monkeypatch)
    button = QMessageBox.StandardButton
    answer, asked = {"button": button.Cancel}, []
    monkeypatch.setattr(QMessageBox, "warning", lambda _w, _title, text, *_a: asked.append(text) or answer["button"])
    window.open_example("rod_impact_rigid")
    window.apply_edit(EntityRef("contacts", "B-ground"), ["e"], 0.8)  # what the property panel does
    ui = window.sweeps_ui
    reports = []
    ui.controller.progressed.connect(reports.append)
    start_sweep_from_the_menu(qtbot, window, tmp_path / "s", [("contacts[B-ground].e", "0:1:40")])
    qtbot.waitUntil(lambda: len(reports) > 0, timeout=SWEEP_TIMEOUT_MS)
    window.quit_action.trigger()
    assert asked == ["Save the changes to Rigid rod striking the ground with friction?"] and window.isVisible()
    assert ui.controller.running and ui.controller.kept.running
    answer["button"] = button.Discard
    window.quit_action.trigger()
    assert len(asked) == 2 and not window.isVisible()
    assert not ui.controller.kept.running
    qtbot.waitUntil(lambda: not ui.controller.running, timeout=5_000)  # its thread has ended: its last signal comes
    assert 1 <= len(read_rows(tmp_path / "s")) < 40


def test_a_sweep_that_cannot_reach_its_scheduler_says_so(qtbot, window, tmp_path, message_boxes, monkeypatch):
    monkeypatch.setattr("solver.sweeps.cluster.CONNECT_TIMEOUT_S", 1)
    window.open_example("rod_impact_rigid")

    def fill():
        dialog = QApplication.activeModalWidget()
        choose_path(dialog, 0, "contacts[B-ground].e")
        type_into_cell(qtbot, dialog.table, 0, 1, "0.5")
        dialog.folder.setText(str(tmp_path / "x"))
        dialog.remote.setChecked(True)
        dialog.scheduler.setText("tcp://127.0.0.1:1")
        qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, fill)
    window.sweeps_ui.new_action.trigger()
    qtbot.waitUntil(lambda: not window.sweeps_ui.controller.running, timeout=SWEEP_TIMEOUT_MS)
    assert message_boxes[-1][:2] == ("warning", "The sweep could not run")
    assert "scheduler tcp://127.0.0.1:1: cannot connect" in message_boxes[-1][2]


def test_the_impact_type_map_of_the_rod_puts_mu_c_at_0_6_and_exports(qtbot, window, tmp_path, monkeypatch):
    window.open_example("rod_impact_rigid")
    window.sweeps_ui.map_action.trigger()
    view = window.sweeps_ui.map
    assert window.sweeps_ui.map_dock.isVisible() and view.map is not None
    # the user sets e on the y axis, 0 .. 1, and draws again
    y = view.y_axis
    y.quantity.setCurrentIndex(y.quantity.findData("e"))
    x = view.x_axis
    x.low.setValue(0.2)
    x.high.setValue(1.0)
    qtbot.mouseClick(view.draw_button, Qt.MouseButton.LeftButton)
    m = view.map
    assert (m.x.name, m.y.name) == ("mu_s", "e")
    assert view.kind_at(0.55, 0.5) == "SCD" and view.kind_at(0.65, 0.5) == "SCS"
    assert m.boundaries["mu_c"][..., 0] == pytest.approx(0.6, abs=1e-9)
    assert "μc = |c|/b = 0.6" in view.message.text()
    for suffix, button in ((".png", view.png_button), (".csv", view.csv_button)):
        target = tmp_path / f"map{suffix}"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, t=target, **k: (str(t), ""))
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert target.stat().st_size > 0
    # an impulse of a run is an instant too
    window.simulation.run()
    qtbot.waitUntil(lambda: not window.simulation.runs.running and window.simulation.runs.results is not None,
                    timeout=60_000)
    assert view.instant.count() == 2
    view.instant.setCurrentIndex(1)
    qtbot.mouseClick(view.draw_button, Qt.MouseButton.LeftButton)
    assert view.map.instant.source.startswith("impulse of B-ground at t = 0 s")
    assert np.isclose(view.map.instant.mu_c, 0.6)


def test_a_run_with_more_impulses_than_the_map_lists_says_how_many_it_left_out(qtbot, window):
    """A chattering run has thousands of impulses; the map offers the first 500 as instants and says so in a
    line that cannot be chosen (before: the list stopped at 500 without a word)."""
    from types import SimpleNamespace

    from app.results.map_view import LISTED_IMPULSES

    window.open_example("rod_impact_rigid")
    window.sweeps_ui.map_action.trigger()
    view = window.sweeps_ui.map
    impulses = [{"kind": "impulse", "contact": "B-ground", "time_s": 1e-4 * k, "type": "S"} for k in range(620)]
    view.set_results(SimpleNamespace(events=impulses))  # a run's results: the map reads their events
    assert view.instant.count() == 1 + LISTED_IMPULSES + 1
    last = view.instant.count() - 1
    assert view.instant.itemText(last) == "… 120 later impulses not listed (the first 500 of the run's 620 are)"
    assert not view.instant.model().item(last).isEnabled() and view.instant.itemData(last) is None


def test_a_map_of_a_model_with_problems_says_why(qtbot, window):
    window.open_example("rod_impact_rigid")
    window.sweeps_ui.map_action.trigger()
    view = window.sweeps_ui.map
    view.x_axis.low.setValue(0.9)
    view.x_axis.high.setValue(0.1)
    qtbot.mouseClick(view.draw_button, Qt.MouseButton.LeftButton)
    assert "x axis mu_s: need finite low &lt; high" in view.message.text()
    # the map drawn at first (it stayed under the red line, PNG… and CSV… writing it) is gone
    assert view.map is None and not view.csv_button.isEnabled() and not view.png_button.isEnabled()
    assert view.image.image is None and not view.plot.getPlotItem().listDataItems()


def test_a_sweep_that_does_not_stop_gives_an_error_not_a_hang(qtbot, monkeypatch, tmp_path):
    """Waiting for a sweep's thread is bounded, as a run's is."""
    import threading

    from app.sweeps.controller import SweepController, SweepThreadStuck
    from app.sweeps.dialog import SweepRequest

    release = threading.Event()

    def stuck_sweep(model, spec, folder, **_options):
        release.wait(60)  # bounded too: the test cannot hang if it breaks
        raise RuntimeError("released")

    monkeypatch.setattr("app.sweeps.worker.run_sweep", stuck_sweep)
    controller = SweepController()
    ended = []
    controller.ended.connect(lambda outcome, message: ended.append(message))
    controller.start({}, SweepRequest(spec=None, folder=tmp_path, scheduler=None, workers=1))
    controller.cancel()
    with pytest.raises(SweepThreadStuck, match="did not end within 0.2 s"):
        controller.wait(limit_s=0.2)
    release.set()
    qtbot.waitUntil(lambda: not controller.running, timeout=60_000)
    assert ended == ["RuntimeError: released"]


def test_the_impact_type_map_opens_with_room_for_its_controls_and_map(qtbot, window):
    """Issue #27: the map was squeezed into a third of the bottom dock area (its controls and
    plot scrolled in 383 x 274 px); it now opens as a window of its own, its content unscrolled."""
    window.resize(1280, 800)
    window.open_example("rod_impact_rigid")
    window.sweeps_ui.map_action.trigger()
    dock, view = window.sweeps_ui.map_dock, window.sweeps_ui.map
    qtbot.waitUntil(lambda: view.plot.isVisible())
    area = dock.widget()
    assert dock.isFloating()
    assert area.viewport().width() >= view.minimumSizeHint().width()
    assert area.viewport().height() >= view.minimumSizeHint().height()
    assert view.plot.width() >= 500 and view.plot.height() >= 300


def test_the_second_sweep_runs_on_the_cluster_the_first_started_and_closing_the_window_closes_it(qtbot, window,
                                                                                                 tmp_path):
    window.open_example("rod_impact_rigid")
    kept = window.sweeps_ui.controller.kept
    run_sweep_from_the_menu(qtbot, window, tmp_path / "a", [("contacts[B-ground].e", "0.3, 0.6")])
    address = kept.address(1)                                   # the cluster the first sweep started
    run_sweep_from_the_menu(qtbot, window, tmp_path / "b", [("contacts[B-ground].e", "0.4, 0.8")])
    assert kept.address(1) == address and len(read_rows(tmp_path / "b")) == 2
    assert window.sweeps_ui.controller.outcome.timing.workers == 1
    window.close()
    assert not kept.running


def test_the_map_offers_no_impulse_of_a_model_no_longer_open(qtbot, window):
    """The rod run, its map shown, then another example opened: the map's instants are the new
    model's start only (it kept offering the rod's impulse, drawing B-ground's map under the new
    model's contact)."""
    window.open_example("rod_impact_rigid")
    window.simulation.run()
    qtbot.waitUntil(lambda: not window.simulation.runs.running and window.simulation.runs.results is not None,
                    timeout=60_000)
    window.sweeps_ui.map_action.trigger()
    view = window.sweeps_ui.map
    assert view.instant.count() == 2
    window.open_example("slider_crank_block")
    assert [view.instant.itemText(i) for i in range(view.instant.count())] == ["start of the model"]
    window.sweeps_ui.map_action.trigger()
    assert view.instant.count() == 1
    assert view.contact.currentText() == "block-slider"


def test_a_sweep_run_chosen_while_a_run_goes_on_is_refused_saying_why(qtbot, window, tmp_path):
    """A click on a sweep's point during a run: the status bar said 'Simulating run … of the sweep'
    and nothing was simulated (a kept run's results cancelled the run going on instead)."""
    from solver.model.io import save_model
    from solver.model.paths import set_path
    from solver.sweeps.table import write_rows
    from solver.sweeps.variants import run_id

    folder, rod = tmp_path / "sweep", load_model(examples_dir() / "rod_impact_rigid.json")
    write_sweep(folder, rod, SweepSpec((parse_vary("contacts[B-ground].e=0.5"),)))
    set_path(rod, "contacts[B-ground].e", 0.5)
    rid = run_id(rod)
    write_rows(folder, [{"run": rid, "contacts[B-ground].e": 0.5, "status": "completed"}], ["run"])
    model = load_model(examples_dir() / "slider_crank_flexible.json")
    model["solver"]["end_time"] *= 200  # minutes of solving
    save_model(model, tmp_path / "long.json")
    window.open_path(tmp_path / "long.json")
    ui = window.sweeps_ui
    assert ui.open_folder(folder)
    window.simulation.run_action.trigger()
    runs = window.simulation.runs
    qtbot.waitUntil(lambda: len(runs.frames) > 3 and runs.running, timeout=60_000)
    ui.table.run_chosen.emit(rid)
    assert runs.running and window.simulation.run_model["name"] == model["name"]
    assert "a run is going on" in window.statusBar().currentMessage().lower()
    runs.cancel()
    qtbot.waitUntil(lambda: not runs.running, timeout=60_000)


def test_a_sweep_folder_whose_files_are_not_files_is_refused_in_a_dialog(qtbot, window, tmp_path, message_boxes):
    """Open Sweep Folder… on a folder whose sweep.json (or sweep.parquet) is a folder or a symbolic link: the
    refusal went past the dialog as an unexpected error, its traceback shown."""
    for name in ("sweep.json", "sweep.parquet"):
        folder = tmp_path / name.replace(".", "-")
        (folder / name).mkdir(parents=True)
        if name == "sweep.parquet":
            write_sweep(folder, load_model(examples_dir() / "rod_impact_rigid.json"),
                        SweepSpec((parse_vary("contacts[B-ground].e=0.5"),)))
        assert not window.sweeps_ui.open_folder(folder)
        kind, title, text = message_boxes[-1]
        assert (kind, title) == ("critical", "Cannot open the sweep") and name in text and "folder" in text, text


def test_the_dialog_refuses_what_the_sweep_would_refuse_before_closing(qtbot, rod, tmp_path):
    """A quantity to collect the runs have not, or a sweep folder that is a file: the dialog closed, a box
    then said 'The sweep could not run', and the rows typed were gone. The dialog stays, saying why."""
    (tmp_path / "a-file").write_text("mine", encoding="utf-8")
    dialog = SweepDialog(rod, str(tmp_path / "a-file"))
    qtbot.addWidget(dialog)
    dialog.show()
    choose_path(dialog, 0, "contacts[B-ground].e")
    type_into_cell(qtbot, dialog.table, 0, 1, "0.5, 0.9")
    qtbot.keyClicks(dialog.collect, "max(contact/nowhere/F_n)")
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.request() is None
    said = dialog.summary.text()
    assert "a-file: is a file; give a folder for the sweep" in said
    dialog.folder.setText(str(tmp_path / "s"))
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.request() is None
    assert "collect max(contact/nowhere/F_n): the runs have no series" in dialog.summary.text()
    dialog.collect.setText("max(contact/B-ground/F_n)")
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.request() is not None and (tmp_path / "a-file").read_text(encoding="utf-8") == "mine"


def test_fields_of_items_whose_ids_hold_brackets_or_dots_can_be_swept(qtbot, rod, tmp_path):
    """A contact 'B[ground]' and a link 'rod.1' (ids the model accepts): the dialog failed to open on
    the model, its paths unreadable. It lists them, quoting the id a bracket would cut short, and
    reads back what the user picks from the list and what they type in that form."""
    model = json.loads(json.dumps(rod).replace('"B-ground"', '"B[ground]"').replace('"rod"', '"rod.1"'))
    dialog = SweepDialog(model, str(tmp_path / "s"))
    qtbot.addWidget(dialog)
    dialog.show()
    assert 'contacts["B[ground]"].e' in dialog.paths and "links[rod.1].mass" in dialog.paths
    choose_path(dialog, 0, 'contacts["B[ground]"].e')
    type_into_cell(qtbot, dialog.table, 0, 1, "0.3, 0.6")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    typed = dialog.table.cellWidget(1, 0).lineEdit()
    typed.clear()
    qtbot.keyClicks(typed, "links[rod.1].mass")
    type_into_cell(qtbot, dialog.table, 1, 1, "1, 2")
    assert dialog.summary.text() == "4 runs"
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    spec = dialog.request().spec
    runs = {(v.model["contacts"][0]["e"], v.model["links"][0]["mass"]) for v in build_variants(model, spec)}
    assert runs == {(0.3, 1.0), (0.3, 2.0), (0.6, 1.0), (0.6, 2.0)}
