"""Playback as a user drives it: the playback bar's buttons, slider and choices, and what
the canvas draws for the frame shown (deformed links, strain colours, contact force
arrows, traces, the time text).

Results of the bundled examples are computed once per session and handed to the
playback controller the way :class:`~app.shell.simulation_ui.SimulationUi` does after a run;
one test runs a model with F5 and checks that the animation starts before the run ends.
Bounds on time are generous (two shared cores): orders of magnitude, never tight timings.
"""
from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from app.canvas import geometry as geo
from app.document.units import format_quantity
from app.document.entities import EntityRef
from app.playback.controller import CONTACT_EVENT_KINDS
from solver.results.frames import CONTACT_STATES

#: generous: runs and timers share two cores with other work
RUN_TIMEOUT_MS = 120_000


@pytest.fixture
def big_window(window):
    """The main window, large enough for the whole playback bar to show."""
    window.resize(1800, 1000)
    return window


def play_results(window, name: str, results):
    """Open example ``name`` and hand ``results`` of it to playback as a finished run."""
    assert window.open_example(name)
    sim = window.simulation
    model = window.document.model
    sim.layer.set_run(model, results.layout)
    sim.layer.set_size(geo.model_size(model))
    sim.playback.set_frames(results.frames, results.events)
    sim.playback.finish(results.frames, results.events)
    return sim


def click(qtbot, bar, action) -> None:
    """Click the tool button of ``action`` on the playback bar."""
    button = bar.widgetForAction(action)
    assert button is not None and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def drawn_flexible_points(layer) -> np.ndarray:
    """The points of the flexible links' drawn segments, in order (one link: its mesh nodes)."""
    lines = [line for _pen, group in layer.flexible.segments() for line in group]
    assert lines
    return np.array([[ln.x1(), ln.y1()] for ln in lines] + [[lines[-1].x2(), lines[-1].y2()]])


def choose(qtbot, combo, value) -> None:
    """Pick the entry of ``combo`` whose data is ``value`` with the keyboard."""
    target = combo.findData(value)
    assert target >= 0
    combo.setFocus()
    while combo.currentIndex() != target:
        key = Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up
        qtbot.keyClick(combo, key)


# ---------------------------------------------------------------------- clock
def test_play_advances_time_at_the_real_time_factor_and_pause_stops(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, bar = sim.playback, sim.bar
    choose(qtbot, bar.speed, 0.1)
    assert playback.speed == pytest.approx(0.1)
    assert playback.index == 0 and not playback.playing
    clock = []
    playback.playing_changed.connect(lambda _playing: clock.append(time.perf_counter()))
    click(qtbot, bar, bar.play_action)
    assert playback.playing
    qtbot.wait(600)
    click(qtbot, bar, bar.play_action)
    assert not playback.playing and len(clock) == 2
    wall = clock[1] - clock[0]
    # simulated time advanced by (wall time) x 0.1, less at most a tick or two
    assert 0.5 * 0.1 * wall < playback.time <= 0.1 * wall * 1.01 + 1e-9
    assert playback.index > 0 and playback.times[playback.index] <= playback.time
    paused = playback.time, playback.index
    qtbot.wait(200)
    assert (playback.time, playback.index) == paused


def test_one_thousandth_real_time_creeps_through_an_impact(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, bar = sim.playback, sim.bar
    choose(qtbot, bar.speed, 1e-3)
    playback.set_time(0.1)
    start = playback.time
    began = time.perf_counter()
    click(qtbot, bar, bar.play_action)
    qtbot.waitUntil(lambda: playback.time > start)  # a busy machine may delay the first tick
    qtbot.wait(200)
    click(qtbot, bar, bar.play_action)
    played = time.perf_counter() - began
    assert 0.0 < playback.time - start <= 1e-3 * played  # a thousandth of the wall time it played (0.2-0.4 ms idle)


def test_play_at_the_end_restarts_and_stops_at_the_end_without_loop(qtbot, big_window, example_results):
    results = example_results("pendulum_impact")
    sim = play_results(big_window, "pendulum_impact", results)
    playback, bar = sim.playback, sim.bar
    choose(qtbot, bar.speed, 2.0)
    playback.set_index(playback.count - 1)
    ended = []
    playback.playing_changed.connect(ended.append)
    click(qtbot, bar, bar.play_action)
    assert playback.index < playback.count - 1  # restarted from the start
    qtbot.waitUntil(lambda: ended == [True, False], timeout=20_000)
    assert playback.index == playback.count - 1 and playback.time == playback.times[-1]


def test_loop_wraps_to_the_start(qtbot, big_window, example_results):
    results = example_results("pendulum_impact")
    sim = play_results(big_window, "pendulum_impact", results)
    playback, bar = sim.playback, sim.bar
    click(qtbot, bar, bar.loop_action)
    assert bar.loop_action.isChecked() and playback.loop
    choose(qtbot, bar.speed, 2.0)
    playback.set_index(playback.count - 5)
    seen = []
    playback.frame_changed.connect(seen.append)
    click(qtbot, bar, bar.play_action)
    qtbot.waitUntil(lambda: any(b < a for a, b in zip(seen, seen[1:])), timeout=20_000)
    assert playback.playing  # still going after the wrap
    wrap = next(i for i, (a, b) in enumerate(zip(seen, seen[1:])) if b < a)
    assert seen[wrap + 1] < 10
    click(qtbot, bar, bar.play_action)
    assert not playback.playing


# ---------------------------------------------------------------------- cursor
def test_step_buttons_move_exactly_one_frame(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, bar = sim.playback, sim.bar
    playback.set_index(10)
    click(qtbot, bar, bar.step_forward_action)
    assert playback.index == 11 and playback.time == bar_mass.frames[11].time
    click(qtbot, bar, bar.step_forward_action)
    assert playback.index == 12
    click(qtbot, bar, bar.step_back_action)
    click(qtbot, bar, bar.step_back_action)
    click(qtbot, bar, bar.step_back_action)
    assert playback.index == 9 and playback.time == bar_mass.frames[9].time
    assert bar.slider.value() == 9
    playback.set_index(0)
    click(qtbot, bar, bar.step_back_action)
    assert playback.index == 0  # clamped at the first frame


def test_step_pauses_playback(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, bar = sim.playback, sim.bar
    choose(qtbot, bar.speed, 1e-3)
    click(qtbot, bar, bar.play_action)
    assert playback.playing
    before = playback.index
    click(qtbot, bar, bar.step_forward_action)
    assert not playback.playing and playback.index == before + 1


def test_slider_scrubs_the_frames(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, slider = sim.playback, sim.bar.slider
    assert slider.minimum() == 0 and slider.maximum() == len(bar_mass.frames) - 1
    slider.setFocus()
    qtbot.keyClick(slider, Qt.Key.Key_End)
    assert playback.index == len(bar_mass.frames) - 1
    assert playback.time == bar_mass.frames[-1].time
    qtbot.keyClick(slider, Qt.Key.Key_Home)
    for _ in range(3):
        qtbot.keyClick(slider, Qt.Key.Key_Right)
    assert playback.index == 3 and playback.time == bar_mass.frames[3].time
    assert sim.layer.frame is bar_mass.frames[3]
    # a click on the groove near its right end moves the handle towards it
    qtbot.mouseClick(slider, Qt.MouseButton.LeftButton, pos=QPoint(slider.width() - 4, slider.height() // 2))
    assert slider.value() > 3 and playback.index == slider.value()
    assert sim.layer.frame is bar_mass.frames[slider.value()]


def test_next_and_previous_event_land_on_contact_event_times(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, bar = sim.playback, sim.bar
    times = sorted({e["time_s"] for e in bar_mass.events if e["kind"] in CONTACT_EVENT_KINDS})
    assert len(times) > 3
    frame_times = np.array([f.time for f in bar_mass.frames])
    for expected in times[:3]:
        click(qtbot, bar, bar.next_event_action)
        assert playback.time == pytest.approx(expected, abs=1e-12)
        shown = frame_times[playback.index]
        assert shown >= expected - 1e-12  # the first frame at or after the event
        assert playback.index == 0 or frame_times[playback.index - 1] < expected - 1e-12
        assert bar.slider.value() == playback.index
    click(qtbot, bar, bar.previous_event_action)
    assert playback.time == pytest.approx(times[1], abs=1e-12)
    assert frame_times[playback.index] <= times[1] + 1e-12
    click(qtbot, bar, bar.previous_event_action)
    assert playback.time == pytest.approx(times[0], abs=1e-12)
    click(qtbot, bar, bar.previous_event_action)  # none before the first: stays
    assert playback.time == pytest.approx(times[0], abs=1e-12)


@pytest.mark.parametrize("name", ["bar_mass_impact", "pendulum_impact"])
def test_playing_on_from_an_event_does_not_step_back(qtbot, big_window, example_results, name):
    # the pendulum's impacts fall between output frames: the cursor is at the event,
    # the frame shown the first after it
    sim = play_results(big_window, name, example_results(name))
    playback, bar = sim.playback, sim.bar
    click(qtbot, bar, bar.next_event_action)
    at_event = playback.index
    choose(qtbot, bar.speed, 1e-3)
    seen = []
    playback.frame_changed.connect(seen.append)
    click(qtbot, bar, bar.play_action)
    qtbot.wait(200)
    click(qtbot, bar, bar.play_action)
    assert all(index >= at_event for index in seen)


# ---------------------------------------------------------------------- drawing
def test_time_and_frame_text_shows_the_frame(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    sim.playback.set_index(42)
    text = sim.layer.text.toPlainText()
    assert f"t = {format_quantity(bar_mass.frames[42].time, 's', 6)}" in text and "94.5 ms" in text
    assert f"frame 43 / {len(bar_mass.frames)}" in text


def test_exaggeration_scales_the_deflection_from_the_chord(qtbot, big_window, example_results):
    results = example_results("slider_crank_flexible")
    sim = play_results(big_window, "slider_crank_flexible", results)
    playback, layer, bar = sim.playback, sim.layer, sim.bar
    index = int(np.argmax([abs(f.midspan[0]) for f in results.frames]))
    playback.set_index(index)
    frame = results.frames[index]
    ((rows, fractions, _ids),) = layer._flex
    true = frame.node_xy[rows]
    chord = true[0] + fractions[:, None] * (true[-1] - true[0])
    drawn = drawn_flexible_points(layer)
    np.testing.assert_allclose(drawn, true, atol=1e-12)
    deflection = np.linalg.norm(true - chord, axis=1).max()
    assert deflection > 0
    choose(qtbot, bar.exaggeration, 100.0)
    drawn = drawn_flexible_points(layer)
    np.testing.assert_allclose(drawn - chord, 100.0 * (true - chord), atol=1e-9)
    np.testing.assert_allclose(drawn[[0, -1]], true[[0, -1]], atol=1e-12)  # the ends stay
    playback.set_index(index - 1)  # the factor stays for the next frame
    before = results.frames[index - 1].node_xy[rows]
    chord = before[0] + fractions[:, None] * (before[-1] - before[0])
    np.testing.assert_allclose(drawn_flexible_points(layer) - chord, 100.0 * (before - chord), atol=1e-9)


def test_strain_colouring_colours_the_links_and_shows_a_colour_bar(qtbot, big_window, example_results):
    results = example_results("slider_crank_flexible")
    sim = play_results(big_window, "slider_crank_flexible", results)
    playback, layer, bar = sim.playback, sim.layer, sim.bar
    playback.set_index(len(results.frames) // 2)

    def colours() -> set[str]:
        return {pen.color().name() for pen, group in layer.flexible.segments() if group}

    plain = colours()
    assert len(plain) == 1
    assert layer.colour_bar.scene() is None
    choose(qtbot, bar.strain, "combined")
    coloured = colours()
    assert coloured and coloured.isdisjoint(plain) and len(coloured) > 1
    assert layer.colour_bar.scene() is big_window.sketch.scene() and layer.colour_bar.isVisible()
    low, high = layer.colour_bar.levels()
    assert low == -high and high > 0  # µε, symmetric
    choose(qtbot, bar.strain, "axial")
    assert colours() and colours().isdisjoint(plain)
    choose(qtbot, bar.strain, "")
    assert colours() == plain and layer.colour_bar.scene() is None


def arrow_length(layer) -> float:
    x, y = layer.arrows.getData()
    if x is None or not len(x):
        return 0.0
    return float(np.hypot(x[1] - x[0], y[1] - y[0]))


def test_contact_force_arrows_scale_with_the_normal_force(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, layer = sim.playback, sim.layer
    f_n = np.array([f.contact["F_n_N"][0] for f in bar_mass.frames])
    strongest = int(np.argmax(f_n))
    weaker = int(np.argmin(np.where(f_n > 0.05 * f_n.max(), np.abs(f_n - 0.5 * f_n.max()), np.inf)))
    playback.set_index(strongest)
    long = arrow_length(layer)
    assert long > 0
    playback.set_index(weaker)
    assert arrow_length(layer) / long == pytest.approx(f_n[weaker] / f_n[strongest], rel=1e-6)
    none = int(np.flatnonzero(f_n == 0)[0])
    playback.set_index(none)
    assert arrow_length(layer) == 0.0
    # the contact point shows its state's colour (a frictionless pair slides while in contact)
    states = [CONTACT_STATES[int(f.contact["state"][0])] for f in bar_mass.frames]
    playback.set_index(states.index("slide"))
    slide = layer.points.points()[0].brush().color().name()
    playback.set_index(states.index("open"))
    assert layer.points.points()[0].brush().color().name() != slide


def test_arrow_of_a_frame_does_not_depend_on_the_frames_seen_before(qtbot, big_window, bar_mass):
    sim = play_results(big_window, "bar_mass_impact", bar_mass)
    playback, layer = sim.playback, sim.layer
    f_n = np.array([f.contact["F_n_N"][0] for f in bar_mass.frames])
    weak = int(np.flatnonzero(f_n > 0)[0])
    playback.set_index(weak)
    first = arrow_length(layer)
    playback.set_index(int(np.argmax(f_n)))
    playback.set_index(weak)
    assert arrow_length(layer) == pytest.approx(first)


def trace_points(layer) -> int:
    x, _y = layer.traces.getData()
    return 0 if x is None else len(x)


def test_traces_of_the_selected_nodes_grow_with_the_frames(qtbot, big_window, example_results):
    results = example_results("slider_crank_flexible")
    sim = play_results(big_window, "slider_crank_flexible", results)
    playback, layer, bar = sim.playback, sim.layer, sim.bar
    node = big_window.document.model["links"][0]["nodes"][-1]
    big_window.selection.replace((EntityRef("nodes", node),))
    playback.set_index(20)
    assert trace_points(layer) == 0
    click(qtbot, bar, bar.trace_action)
    assert bar.trace_action.isChecked()
    x, y = layer.traces.getData()
    row = results.layout.nodes.index(node)
    assert len(x) == 21 + 1  # the path to frame 20 and a break
    np.testing.assert_allclose(np.column_stack([x, y])[:21], [f.node_xy[row] for f in results.frames[:21]])
    for _ in range(5):
        click(qtbot, bar, bar.step_forward_action)
    assert trace_points(layer) == 26 + 1
    click(qtbot, bar, bar.step_back_action)
    assert trace_points(layer) == 25 + 1
    click(qtbot, bar, bar.trace_action)
    assert trace_points(layer) == 0


# ---------------------------------------------------------------------- live
def test_animation_starts_while_the_run_goes_on(qtbot, big_window):
    assert big_window.open_example("bar_mass_impact")
    # a run long enough to watch however fast the machine (it is cancelled once frames were shown)
    big_window.document.model["solver"]["end_time"] *= 30
    sim = big_window.simulation
    drawn_while_running = []
    sim.playback.frame_changed.connect(
        lambda index: drawn_while_running.append(index) if sim.runs.running else None)
    big_window.activateWindow()
    big_window.sketch.setFocus()
    qtbot.keyClick(big_window.sketch, Qt.Key.Key_F5)
    if not sim.runs.running:  # the offscreen platform may not route shortcuts
        sim.run_action.trigger()
    assert sim.runs.running
    qtbot.waitUntil(lambda: len(drawn_while_running) > 2 or not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    assert len(drawn_while_running) > 2, "no frame was shown during the run"
    assert drawn_while_running == sorted(drawn_while_running)  # following the newest frame
    assert sim.layer.frame is not None
    assert sim.bar.slider.maximum() >= drawn_while_running[-1]
    sim.cancel_action.trigger()
    qtbot.waitUntil(lambda: not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    sim.runs.wait()
    assert sim.playback.count == len(sim.runs.results.frames)
    click(qtbot, sim.bar, sim.bar.step_back_action)
    assert sim.layer.frame is sim.playback.frame


def test_scrubbing_during_a_run_stops_following(qtbot, big_window):
    assert big_window.open_example("bar_mass_impact")
    big_window.document.model["solver"]["end_time"] *= 3
    sim = big_window.simulation
    sim.run_action.trigger()
    qtbot.waitUntil(lambda: sim.playback.count > 5 or not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    sim.bar.slider.setFocus()
    qtbot.keyClick(sim.bar.slider, Qt.Key.Key_Home)
    assert sim.playback.index == 0
    qtbot.waitUntil(lambda: not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    sim.runs.wait()
    assert sim.playback.index == 0


def test_a_body_with_a_radius_is_drawn_at_its_radius_during_playback(qtbot, big_window, example_results):
    """Issue #27: the disc (r = 50 mm) of disc_rolling_beam is drawn 100 mm across in every frame,
    in metres like the sketch, not as a node's 7-pixel dot."""
    results = example_results("disc_rolling_beam")
    sim = play_results(big_window, "disc_rolling_beam", results)
    sim.playback.set_index(len(results.frames) // 2)
    layer = sim.layer
    assert layer.bodies.opts["pxMode"] is False
    assert layer.bodies.data["size"].tolist() == [0.1]  # m: the diameter
    row = results.layout.nodes.index("disc")
    np.testing.assert_allclose(layer.bodies.data["x"], [sim.playback.frame.node_xy[row, 0]])
    assert len(layer.nodes.data) == len(big_window.document.model["nodes"])  # the disc is no node dot
