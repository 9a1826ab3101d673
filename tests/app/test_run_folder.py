"""A run started in the window writes its frames to a scratch folder as it goes (issue 17, big
models): its results are read from there, play back and export, are saved by linking the folder,
and the folder goes when nothing shows the run any more, when the window closes, or at the next
start after a crash."""
from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections import namedtuple
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog

from app.document.checks import model_problems
from app.running.controller import CANCELLED, COMPLETED, FAILED
from app.running.run_frames import RunFrames
from app.running.scratch import RunFolder
from app.shell.cli import main as cli_main
from app.shell.main_window import MainWindow
from solver.model.io import examples_dir, load_model, save_model
from solver.results.files import load_results
from solver.results.integrity import locate_tables, read_summary
from solver.results.lazy import LazyFrames

from .test_simulation_ui import RUN_TIMEOUT_MS, run_with_f5

#: the frame tables a run of the bar struck by a mass writes (each a Parquet file or a member of tables.zip)
FRAME_TABLES = ("nodes", "elements", "energy", "contacts")


def run_example(qtbot, window, name: str = "bar_mass_impact"):
    """Open an example from the Examples menu, press F5 and wait: the run's results."""
    window.example_actions[name].trigger()
    run_with_f5(qtbot, window)
    return window.simulation.runs.results


def without_timings(summary):
    """``summary.json`` without what differs between two runs of one model: how long their parts took
    (and so the hash of its own text)."""
    if isinstance(summary, dict):
        return {k: without_timings(v) for k, v in summary.items()
                if not (k.endswith("wall_s") or k in ("wall_time_s", "summary_sha256"))}
    return [without_timings(v) for v in summary] if isinstance(summary, list) else summary


def lock_of(folder: Path) -> Path:
    return folder.with_suffix(".lock")


def test_a_runs_frames_are_read_from_its_folder_and_play_and_export_from_there(qtbot, window, isolated_scratch,
                                                                              monkeypatch, tmp_path):
    results = run_example(qtbot, window)
    runs = window.simulation.runs
    assert runs.state == COMPLETED
    assert isinstance(results.frames, LazyFrames) and runs.frames is results.frames  # not a list in memory
    folder = Path(results.folder)
    assert folder.parent == isolated_scratch and lock_of(folder).exists()
    located = locate_tables(folder, read_summary(folder))
    assert all(located[table].rows > 0 for table in FRAME_TABLES)
    assert load_results(folder).meta["status"] == "completed"

    # playback: the user drags the slider to the largest impulse (the plots' first preset)
    peak = int(np.argmax([f.contact["I_n_N_s"][0] for f in results.frames]))
    window.simulation.bar.slider.setValue(peak)
    assert window.simulation.playback.frame.time == results.frames[peak].time
    panel = window.results_ui.plots.panels[0]
    assert all(len(x) == len(results.frames) for _, x, _ in panel._curves.values())  # every frame plotted
    impulse = next(k for k in panel.values_at(results.frames[peak].time) if k.endswith("/I_n"))
    assert panel.values_at(results.frames[peak].time)[impulse] == results.frames[peak].contact["I_n_N_s"][0]

    # File > Export > Results Table as CSV, and Plots as PNG
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("energy", True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "energy.csv"), ""))
    window.results_ui.export_table_action.trigger()
    rows = (tmp_path / "energy.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == len(results.frames) + 1 and rows[0].startswith("time_s")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "plots.png"), ""))
    window.results_ui.export_plots_action.trigger()
    assert any(p.name.startswith("plots") and p.stat().st_size > 1000 for p in tmp_path.glob("plots*.png"))


def test_saving_a_runs_results_links_its_folder_the_one_flexmech_run_writes(qtbot, window, monkeypatch, tmp_path):
    results = run_example(qtbot, window)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "saved"))
    window.results_ui.export_results_action.trigger()  # File > Export > Results Bundle
    saved = tmp_path / "saved"
    assert cli_main(["run", str(examples_dir() / "bar_mass_impact.json"), "--out", str(tmp_path / "cli"),
                     "--quiet"]) == 0
    names = sorted(p.name for p in saved.iterdir())
    assert names == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in names:
        if name != "summary.json":
            assert (saved / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
        assert (saved / name).samefile(Path(results.folder) / name)  # linked, not gathered again
    ours, theirs = (json.loads((folder / "summary.json").read_text(encoding="utf-8")) for folder in (saved, tmp_path / "cli"))
    assert without_timings(ours) == without_timings(theirs)
    # the saved folder outlives the run's: another model, then the window closes
    window.example_actions["robot_arm"].trigger()
    window.close()
    assert not Path(results.folder).exists()
    assert len(load_results(saved).frames) == len(results.frames)


def test_cancel_and_failure_keep_their_partial_results_in_the_folder(qtbot, window, tmp_path, newton_fails_at,
                                                                     message_boxes):
    model = load_model(examples_dir() / "slider_crank_flexible.json")
    model["solver"]["end_time"] *= 200  # minutes of solving: cancelled long before
    save_model(model, tmp_path / "long.json")
    window.open_path(tmp_path / "long.json")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    runs = window.simulation.runs
    qtbot.waitUntil(lambda: len(runs.frames) > 30, timeout=RUN_TIMEOUT_MS)
    assert isinstance(runs.frames, RunFrames)  # while it runs: the frames so far, in bounded memory
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not runs.running, timeout=RUN_TIMEOUT_MS)
    runs.wait()
    cancelled = runs.results
    assert runs.state == CANCELLED and isinstance(cancelled.frames, LazyFrames) and len(cancelled.frames) > 30
    assert window.simulation.playback.count == len(cancelled.frames)
    on_disk = load_results(cancelled.folder)
    assert on_disk.meta["status"] == "cancelled" and len(on_disk.frames) == len(cancelled.frames)

    newton_fails_at(0.25)
    failed = run_example(qtbot, window)
    assert runs.state == FAILED and isinstance(failed.frames, LazyFrames)
    on_disk = load_results(failed.folder)
    assert on_disk.meta["status"] == "failed" and "stopped at t = 0.25" in on_disk.meta["message"]
    assert 10 < len(on_disk.frames) == window.simulation.playback.count
    assert message_boxes[-1][1] == "Run failed"


def test_a_runs_folder_goes_once_no_view_shows_its_run_and_the_rest_when_the_window_closes(
        qtbot, window, isolated_scratch, monkeypatch):
    monkeypatch.setattr("app.shell.results_ui.MAX_COMPARED_RUNS", 1)  # Compare runs keeps the last run only
    first = Path(run_example(qtbot, window).folder)
    second = Path(run_example(qtbot, window, "rod_impact_rigid").folder)
    gc.collect()  # the first run's frames are freed: nothing shows or compares them
    assert not first.exists() and not lock_of(first).exists()
    assert second.exists()
    window.example_actions["robot_arm"].trigger()  # another model: the run stays in Compare runs
    gc.collect()
    assert second.exists()
    window.close()
    assert not second.exists() and not lock_of(second).exists()
    assert list(isolated_scratch.iterdir()) == []


def test_folders_a_crashed_session_left_are_removed_when_a_window_opens(qtbot, isolated_scratch, settings):
    crashed = subprocess.run(
        [sys.executable, "-c", "import os, sys; from pathlib import Path; from app.running.scratch import RunFolder; "
                               "folder = RunFolder(Path(sys.argv[1])); (folder.path / 'nodes.parquet').write_bytes(b'x'); "
                               "print(folder.path); os._exit(0)", str(isolated_scratch)],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    left = Path(crashed.stdout.strip())
    orphan = isolated_scratch / "run-0123456789ab"  # a folder whose deletion failed after its lock went
    orphan.mkdir()
    live = RunFolder()  # this session's: its lock is held
    assert left.exists() and lock_of(left).exists()
    window = MainWindow(settings)
    qtbot.addWidget(window)
    assert not left.exists() and not lock_of(left).exists() and not orphan.exists()
    assert live.path.exists()
    live.remove()


def test_a_model_refused_for_memory_before_now_runs(qtbot, window, monkeypatch, message_boxes):
    """The window used to keep a run's frames in memory and refused one whose frames and set-up
    exceeded the memory budget; with a budget between the set-up and that total, the model is
    valid and runs, its frames on disk."""
    from solver.model import limits
    from solver.model.fields import with_defaults
    from solver.model.schema import SOLVER

    model = load_model(examples_dir() / "bar_mass_impact.json")
    size = limits.run_size(model, with_defaults(SOLVER, model["solver"]))
    monkeypatch.setattr(limits, "MEMORY_BUDGET", size.memory + size.results // 2)
    assert size.memory + size.results > limits.MEMORY_BUDGET > size.memory
    window.document.replace(model, None)
    assert [p for p in model_problems(model) if p.severity == "error"] == []
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED and message_boxes == []
    assert isinstance(window.simulation.runs.results.frames, LazyFrames)


def test_a_run_the_disk_has_no_room_for_does_not_start_and_says_why(window, monkeypatch, message_boxes):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr("app.running.scratch.shutil.disk_usage", lambda _path: usage(10**6, 10**6 - 1000, 1000))
    window.document.replace(load_model(examples_dir() / "bar_mass_impact.json"), None)
    assert not window.simulation.run() and not window.simulation.runs.running
    (kind, title, text), = message_boxes
    assert (kind, title) == ("warning", "No room for the results")
    assert "GB of disk for their results, 1e-06 GB are free in" in text


def test_a_run_without_a_scratch_folder_does_not_start_and_says_why(window, isolated_scratch, message_boxes):
    """The cache folder cannot be made (here a file stands where it goes): a box, no traceback."""
    isolated_scratch.parent.mkdir(parents=True, exist_ok=True)
    isolated_scratch.write_text("not a folder")
    window.document.replace(load_model(examples_dir() / "bar_mass_impact.json"), None)
    assert not window.simulation.run() and not window.simulation.runs.running
    (kind, title, text), = message_boxes
    assert (kind, title) == ("critical", "Cannot run") and "No folder for the run's results" in text


def test_a_run_keeps_its_newest_frames_and_a_thinned_history_within_its_bytes():
    """While it runs the window reads every time and the frames within the live bytes: the newest
    exactly, the older every stride-th (a thinned one reads as the kept frame before it)."""
    frames = RunFrames(live_bytes=100 * 800)  # room for 100 frames of 800 B: a tail of 50
    for i in range(10_000):
        frames.append(SimpleNamespace(time=1e-3 * i, node_xy=np.full(100, float(i))))
    kept = frames.kept()
    assert len(frames) == 10_000 and len(kept) <= 101
    assert kept[-50:] == list(range(9950, 10_000))  # the tail, every frame
    assert all(i % frames.stride == 0 for i in kept[:-50]) and frames.stride == 256
    assert np.array_equal(frames.times, 1e-3 * np.arange(10_000))
    assert frames[9999].node_xy[0] == 9999 and frames[-1] is frames[9999]
    assert frames[1000].node_xy[0] == 1000 - 1000 % 256
    assert [f.node_xy[0] for f in frames[9948:9951]] == [9728.0, 9728.0, 9950.0]
    with pytest.raises(IndexError):
        frames[10_000]
