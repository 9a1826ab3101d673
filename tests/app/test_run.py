"""Runs in a worker thread: frames, progress, completion, cancel and failure reach the GUI thread."""
from __future__ import annotations

import threading
import time

import pytest

from app.running.controller import CANCELLED, COMPLETED, FAILED, RunController, RunThreadStuck
from app.running.worker import RunWorker
from solver.model.io import list_examples, load_model

EXAMPLES = {name: path for name, path, _desc in list_examples()}
#: generous: runs share two cores with other work
RUN_TIMEOUT_MS = 120_000


class Recorder:
    """Collects what a controller reports (plain methods: called in the GUI thread)."""

    def __init__(self, controller: RunController):
        self.progress: list[tuple[float, float, float, float]] = []
        self.frame_counts: list[int] = []
        self.ended: list[object] = []
        controller.progress.connect(self.on_progress)
        controller.frames_changed.connect(self.frame_counts.append)
        controller.run_ended.connect(self.ended.append)

    def on_progress(self, *args) -> None:
        self.progress.append(args)


def test_controller_runs_bar_mass_to_completion(qtbot):
    controller = RunController()
    seen = Recorder(controller)
    controller.start(load_model(EXAMPLES["bar_mass_impact"]))
    assert controller.running
    qtbot.waitUntil(lambda: not controller.running, timeout=RUN_TIMEOUT_MS)
    controller.wait()
    assert controller.state == COMPLETED
    results = controller.results
    assert results.completed and seen.ended == [results]
    assert len(controller.frames) == len(results.frames) > 1
    assert controller.layout.nodes == results.layout.nodes
    t, t_end, steps_per_s, _eta = seen.progress[-1]
    assert t == t_end and steps_per_s > 0
    assert seen.frame_counts[-1] == len(results.frames)


def long_slider_crank() -> dict:
    model = load_model(EXAMPLES["slider_crank_flexible"])
    model["solver"]["end_time"] *= 200  # about a minute of solving: cancelled long before
    return model


def test_cancel_keeps_the_frames_and_the_ui_responsive(qtbot, ticker):
    controller = RunController()
    controller.start(long_slider_crank())
    # a starved event loop would not tick while the solver runs
    qtbot.waitUntil(lambda: len(controller.frames) > 30 and ticker.ticks > 10 and controller.running,
                    timeout=RUN_TIMEOUT_MS)
    controller.cancel()
    qtbot.waitUntil(lambda: not controller.running, timeout=RUN_TIMEOUT_MS)
    controller.wait()
    assert controller.state == CANCELLED
    results = controller.results
    assert results.meta["status"] == "cancelled" and "cancelled at t =" in controller.message
    assert len(results.frames) > 30 and controller.frames is results.frames
    assert results.frames[-1].time < long_slider_crank()["solver"]["end_time"]


def test_a_window_slower_to_draw_than_the_solver_gets_fewer_frames_not_a_full_queue(qtbot, monkeypatch, ticker):
    """Drawing a frame takes 0.1 s here, the solver makes one every few ms: the worker sends the next
    frame only once the window has taken the last, so at most one is on its way (the final frame
    aside).  Before, it sent 30 a second whatever the window did: the queue grew by two frames in
    three, the event loop stopped reaching its timers (the window froze, a key never reached the
    run; the Esc test hung in the full suite, where drawing had grown slow)."""
    sent, on_way = [0], []
    send = RunWorker._send
    monkeypatch.setattr(RunWorker, "_send", lambda self, *a: (sent.__setitem__(0, sent[0] + 1), send(self, *a)))
    controller = RunController()

    def slow_window(_count: int) -> None:  # in the window's thread, as the plots and playback
        if controller.running:
            on_way.append(sent[0] - len(on_way))  # frames sent and not yet drawn, this one among them
            time.sleep(0.1)
            if len(on_way) == 10:
                controller.cancel()

    controller.frames_changed.connect(slow_window)
    controller.start(long_slider_crank())
    qtbot.waitUntil(lambda: not controller.running, timeout=RUN_TIMEOUT_MS)
    controller.wait()
    assert controller.state == CANCELLED and len(on_way) >= 10
    assert max(on_way) <= 2 and max(on_way[:10]) == 1  # the last frame goes out whatever the window did
    assert ticker.ticks > 10


def test_failed_run_reports_time_and_cause_and_keeps_partial_results(qtbot, newton_fails_at):
    newton_fails_at(0.25)
    controller = RunController()
    controller.start(load_model(EXAMPLES["bar_mass_impact"]))
    qtbot.waitUntil(lambda: not controller.running, timeout=RUN_TIMEOUT_MS)
    controller.wait()
    assert controller.state == FAILED
    assert "stopped at t = 0.25" in controller.message and "Newton did not converge (test)" in controller.message
    partial = controller.results
    assert partial.meta["status"] == "failed" and len(partial.frames) > 10
    assert partial.frames[-1].time < 0.26


def test_a_run_that_does_not_stop_gives_an_error_not_a_hang(qtbot, monkeypatch):
    """Waiting for a run's thread is bounded: a run stuck in its set-up (where cancel is not
    polled) makes :meth:`RunController.wait` raise, naming how far the run got."""
    release = threading.Event()

    def stuck_in_set_up(model, cancel=None, frames=None):
        release.wait(60)  # bounded too: the test cannot hang if it breaks
        yield from ()

    monkeypatch.setattr("app.running.worker.iter_simulation", stuck_in_set_up)
    controller = RunController()
    controller.start(load_model(EXAMPLES["bar_mass_impact"]))
    controller.cancel()
    with pytest.raises(RunThreadStuck, match=r"did not end within 0.2 s .*cancelling, 0 steps taken"):
        controller.wait(limit_s=0.2)
    release.set()
    qtbot.waitUntil(lambda: not controller.running, timeout=RUN_TIMEOUT_MS)
    controller.wait()
    assert controller.state == FAILED
