"""Playback that makes sense at first press: the default speed plays the whole run in
about 5 s, a go-to-start control, labelled event jumps, keys in the tooltips, following
the mechanism, and times with SI prefixes instead of ``(x0.001)``."""
from __future__ import annotations

import doctest

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.playback import controller
from app.playback.controller import SPEEDS, WHOLE_RUN_S, default_speed, speed_label

from .test_playback import click, play_results


@pytest.fixture(scope="module")
def struck(example_results):
    """The struck slider-crank (0.084 s of simulated time)."""
    return example_results("slider_crank_block")


def test_doctests():
    assert doctest.testmod(controller).failed == 0


@pytest.mark.parametrize("duration", [1e-4, 0.003, 0.0837758041, 0.6, 2.0, 40.0])
def test_the_default_speed_plays_any_run_in_about_five_seconds(duration):
    wall = duration / default_speed(duration)
    assert WHOLE_RUN_S / 1.6 <= wall <= WHOLE_RUN_S * 1.6
    assert default_speed(duration) in SPEEDS


def test_speed_labels_are_real_time_factors():
    assert [speed_label(f) for f in (1 / 40, 1 / 1000, 0.5, 1.0, 5.0)] == ["1/40×", "1/1000×", "1/2×", "1×", "5×"]


def test_a_run_opens_at_its_default_speed_shown_as_a_factor(qtbot, window, struck):
    sim = play_results(window, "slider_crank_block", struck)
    assert sim.playback.speed == pytest.approx(1 / 50)
    assert sim.bar.speed.currentText() == "1/50×"
    duration = sim.playback.times[-1] - sim.playback.times[0]
    assert duration / sim.playback.speed == pytest.approx(4.19, abs=0.01)  # s of wall time


def test_go_to_start_and_the_event_jumps_say_what_they_do(qtbot, window, struck):
    window.resize(1800, 1000)
    sim = play_results(window, "slider_crank_block", struck)
    bar = sim.bar
    sim.playback.set_index(120)
    click(qtbot, bar, bar.start_action)
    assert sim.playback.index == 0 and not sim.playback.playing
    assert bar.widgetForAction(bar.previous_event_action).text() == "◂ Event"
    assert bar.widgetForAction(bar.next_event_action).text() == "Event ▸"
    assert bar.widgetForAction(bar.next_event_action).toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    for action, key in ((bar.start_action, "Home"), (bar.play_action, "Ctrl+Space"),
                        (bar.next_event_action, "Ctrl+Shift+Right"), (bar.step_back_action, "Ctrl+Left")):
        assert action.toolTip().endswith(f"({key})")
    click(qtbot, bar, bar.next_event_action)
    impact = next(e["time_s"] for e in struck.events if e["kind"] == "impulse")
    assert sim.playback.time == pytest.approx(impact)


def test_event_at_the_end_of_a_run_goes_to_its_first_impact(qtbot, window, struck):
    """Issue #27's paced trial: a run is followed to its last frame, and the newcomer's first
    Event ▸ found no event after it and did nothing; it now wraps to the first impact."""
    sim = play_results(window, "slider_crank_block", struck)
    sim.playback.set_index(sim.playback.count - 1)
    click(qtbot, sim.bar, sim.bar.next_event_action)
    first = min(e["time_s"] for e in struck.events if e["kind"] in controller.CONTACT_EVENT_KINDS)
    assert sim.playback.time == pytest.approx(first, abs=1e-12)
    assert sim.playback.times[sim.playback.index] >= first - 1e-12


def test_home_goes_to_the_start(qtbot, window, struck):
    sim = play_results(window, "slider_crank_block", struck)
    sim.playback.set_index(200)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.sketch.setFocus()
    qtbot.keyClick(window.sketch, Qt.Key.Key_Home)
    assert sim.playback.index == 0


def test_the_time_is_shown_with_an_si_prefix(qtbot, window, struck):
    sim = play_results(window, "slider_crank_block", struck)
    sim.playback.set_index(100)
    end = struck.frames[-1].time * 1e3
    assert sim.bar.time_label.text() == f"{struck.frames[100].time * 1e3:.4g} ms / {end:.4g} ms"
    assert "ms" in sim.layer.text.toPlainText()


def test_following_keeps_the_mechanism_in_the_middle_of_the_view(qtbot, window, struck):
    sim = play_results(window, "slider_crank_block", struck)
    click(qtbot, sim.bar, sim.bar.follow_action)
    assert sim.bar.follow_action.isChecked()
    last = len(struck.frames) - 1
    sim.playback.set_index(last)  # the block has flown far to the right
    xy = struck.frames[last].node_xy
    (x0, x1), (y0, y1) = window.sketch.getViewBox().viewRange()
    centre = 0.5 * (xy.min(axis=0) + xy.max(axis=0))
    assert (0.5 * (x0 + x1), 0.5 * (y0 + y1)) == pytest.approx(tuple(centre), abs=1e-6 * (x1 - x0) + 1e-9)
    assert x0 < xy[:, 0].min() and xy[:, 0].max() < x1  # all of it in view
    click(qtbot, sim.bar, sim.bar.follow_action)
    before = window.sketch.getViewBox().viewRange()
    sim.playback.set_index(0)
    assert np.allclose(window.sketch.getViewBox().viewRange(), before)  # not following: the view stays


def test_plot_time_axes_read_ms_not_a_scale_factor(qtbot, window, struck):
    window.results_ui.show_results(struck)
    panel = window.results_ui.plots.panels[0]
    panel.x_combo.setCurrentIndex(panel.x_combo.findData("time"))  # the preset plots against the crank angle
    axis = panel.plot.getPlotItem().getAxis("bottom")
    panel.plot.getPlotItem().enableAutoRange()
    qtbot.waitUntil(lambda: "(ms)" in axis.labelString())
    assert "x0.001" not in axis.labelString() and "time" in axis.labelString()
