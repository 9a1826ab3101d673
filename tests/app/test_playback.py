"""Run from the main window (F5), play back the frames, scrub, step, jump between contact events."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from app.playback import frame_at
from app.playback_items import combined_strain, exaggerated
from app.run_controller import COMPLETED, FAILED

RUN_TIMEOUT_MS = 120_000


def run_example(qtbot, window, name: str):
    window.open_example(name)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    sim = window.simulation
    assert not sim.run_action.isEnabled()
    qtbot.waitUntil(lambda: not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    sim.runs.wait()
    return sim


def test_f5_runs_bar_mass_and_playback_scrubs_steps_and_jumps(qtbot, window):
    sim = run_example(qtbot, window, "bar_mass_impact")
    assert sim.runs.state == COMPLETED and sim.run_action.isEnabled()
    results = sim.runs.results
    playback = sim.playback
    assert playback.count == len(results.frames)
    times = []
    playback.time_changed.connect(times.append)
    playback.set_time(0.35)
    index = frame_at(results.time, 0.35)
    assert playback.index == index and times[-1] == 0.35
    assert sim.bar.slider.value() == index
    assert sim.layer.frame is results.frames[index]
    assert "frame" in sim.layer.text.toPlainText()
    playback.step(1)
    assert playback.index == index + 1
    sim.bar.step_back_action.trigger()
    assert playback.index == index
    playback.set_time(0.0)
    playback.next_event()
    first = min(e["time_s"] for e in results.events if e["kind"] in ("impulse", "contact_start"))
    assert playback.time == first and results.time[playback.index] >= first
    playback.next_event()
    playback.previous_event()
    assert playback.time == first
    sim.bar.strain.setCurrentIndex(3)
    sim.bar.exaggeration.setCurrentIndex(2)
    assert sim.layer.strain_mode == "combined" and sim.layer.exaggeration == 100.0


def test_play_advances_at_the_speed_and_stops_at_the_end(qtbot, window):
    sim = run_example(qtbot, window, "rod_impact_rigid")
    playback = sim.playback
    sim.bar.speed.setCurrentText("1×")
    playback.set_index(0)
    playback.play()
    assert playback.playing
    qtbot.waitUntil(lambda: not playback.playing, timeout=30_000)
    assert playback.index == playback.count - 1


def test_run_refuses_a_model_with_errors(qtbot, window, message_boxes):
    window.open_example("pendulum_impact")
    window.document.model["links"][0]["nodes"] = ["nowhere", "nowhere-else"]
    assert not window.simulation.run()
    assert message_boxes and message_boxes[-1][1] == "Cannot run"


def test_failed_run_shows_the_message_and_keeps_the_frames(qtbot, window, message_boxes, monkeypatch):
    from solver.newmark import NewmarkIntegrator, NewtonFailure

    original = NewmarkIntegrator.step

    def failing_step(self, s, h, breakpoint=None):
        if s.t >= 0.25:
            raise NewtonFailure("Newton did not converge (test)")
        return original(self, s, h, breakpoint)

    monkeypatch.setattr(NewmarkIntegrator, "step", failing_step)
    sim = run_example(qtbot, window, "bar_mass_impact")
    assert sim.runs.state == FAILED
    kind, title, text = message_boxes[-1]
    assert title == "Run failed" and "stopped at t = 0.25" in text and "(test)" in text
    assert sim.playback.count == len(sim.runs.results.frames) > 10


def test_exaggeration_scales_the_offset_from_the_chord():
    pts = np.array([[0.0, 0.0], [0.5, 0.01], [1.0, 0.0]])
    out = exaggerated(pts, np.array([0.0, 0.5, 1.0]), 10.0)
    assert np.allclose(out, [[0, 0], [0.5, 0.1], [1, 0]])


def test_combined_strain_is_the_larger_outer_fibre():
    assert np.allclose(combined_strain(np.array([1.0, -1.0]), np.array([2.0, 0.5])), [3.0, -1.5])
