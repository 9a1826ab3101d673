"""Closing the window while a worker does not stop within its bound: a run, a sweep, an optimum search
or a Lyapunov twin polling no cancel. The close raised RunThreadStuck (SweepThreadStuck, ...) out of
closeEvent, after the user had agreed to close: a traceback reached the exception hook (an unexpected-
error dialog) and what the close does after it -- the other workers stopped, the layout kept -- was
skipped. Now the window closes, the user is told in a message box, and the log has a line."""
from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt

from app.sweeps.optimum_dialog import OptimumDialog
from tests.analysis_runs import CLEARANCE, dry  # noqa: F401 (fixture)

from .test_sweeps_ui import start_sweep_from_the_menu

#: the bound of the wait, s (300 s in the app)
BOUND_S = 0.2


def _stuck(release: threading.Event):
    """A stand-in for a worker's solver call that ignores its cancel until ``release``."""
    def stuck(*_args, **_kwargs):
        release.wait(60)  # bounded too: the test cannot hang if it breaks
        raise RuntimeError("released")
    return stuck


def _start_run(window, qtbot, monkeypatch, release, _tmp_path, _dry):
    def stuck_in_set_up(model, cancel=None, frames=None):
        release.wait(60)
        yield from ()

    monkeypatch.setattr("app.running.worker.iter_simulation", stuck_in_set_up)
    monkeypatch.setattr("app.running.controller.STOP_LIMIT_S", BOUND_S)
    window.open_example("bar_mass_impact")
    window.simulation.run_action.trigger()                      # Simulation > Run (F5)
    assert window.simulation.runs.running
    return lambda: window.simulation.runs.running


def _start_sweep(window, qtbot, monkeypatch, release, tmp_path, _dry):
    monkeypatch.setattr("app.sweeps.worker.run_sweep", _stuck(release))
    monkeypatch.setattr("app.sweeps.controller.STOP_LIMIT_S", BOUND_S)
    window.open_example("rod_impact_rigid")
    start_sweep_from_the_menu(qtbot, window, tmp_path / "s", [("contacts[B-ground].e", "0:1:4")])
    qtbot.waitUntil(lambda: window.sweeps_ui.controller.running)
    return lambda: window.sweeps_ui.controller.running


def _start_search(window, qtbot, monkeypatch, release, _tmp_path, _dry):
    monkeypatch.setattr("app.sweeps.optimum_dialog.find_optimum", _stuck(release))
    monkeypatch.setattr("app.sweeps.optimum_dialog.STOP_LIMIT_S", BOUND_S)
    window.open_example("moving_support_beam")
    window.sweeps_ui.optimum_action.trigger()                   # Sweeps > Optimum of a Field…
    dialog = window.findChild(OptimumDialog)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.running
    return lambda: dialog.running


def _start_twin(window, qtbot, monkeypatch, release, _tmp_path, dry_folder):
    monkeypatch.setattr("solver.api.simulate", _stuck(release))
    monkeypatch.setattr("app.results.lyapunov_tab.STOP_LIMIT_S", BOUND_S)
    assert window.results_ui.open_results(dry_folder)
    window.analysis_ui.actions["lyapunov"].trigger()           # Analysis > Lyapunov Exponent…
    tab = window.analysis_ui.view.lyapunov
    qtbot.mouseClick(tab.draw_button, Qt.MouseButton.LeftButton)
    assert tab.message.text() == "Running the twin…"
    return lambda: not tab.draw_button.isEnabled()


@pytest.mark.parametrize("start, said", [
    (_start_run, "the run did not end within 0.2 s of being asked to"),
    (_start_sweep, "the sweep did not end within 0.2 s of being asked to"),
    (_start_search, "the optimum search did not end within 0.2 s of being cancelled"),
    (_start_twin, "the Lyapunov twin did not end within 0.2 s of being stopped"),
], ids=["run", "sweep", "search", "twin"])
def test_a_worker_that_does_not_stop_at_close_is_told_not_raised(qtbot, window, monkeypatch, message_boxes, tmp_path,
                                                                   dry, start, said):
    release = threading.Event()
    going_on = start(window, qtbot, monkeypatch, release, tmp_path, dry)
    window.settings.remove("main_window")
    window.quit_action.trigger()                                # File > Quit, no unsaved changes
    assert not window.isVisible()                               # closed; nothing reached the hook (conftest)
    assert window.settings.value("main_window/state") is not None   # the close went on to keep the layout
    assert len(message_boxes) == 1
    kind, title, text = message_boxes[0]
    assert (kind, title) == ("warning", "Closing Flexmech")
    assert text.startswith("Flexmech closes, but what it asked to stop did not stop:\n\n• " + said)
    assert "It is left to end on its own" in text
    log = (tmp_path / "log" / "flexmech.log").read_text(encoding="utf-8")
    assert "what it asked to stop did not stop" in log and said in log
    assert not window.findChildren(OptimumDialog) or not window.findChild(OptimumDialog).isVisible()
    release.set()
    qtbot.waitUntil(lambda: not going_on(), timeout=60_000)     # it ends on its own
