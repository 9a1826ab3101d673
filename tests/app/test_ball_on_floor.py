"""The simplest impact a newcomer draws: a ball dropped on the floor, with no link and no node."""
from __future__ import annotations

import json
import math

import pytest
from PySide6.QtCore import Qt

from app.document.entities import MODEL_SETTINGS, SOLVER_SETTINGS
from app.running.controller import COMPLETED

from .canvas_user import CanvasUser
from .test_simulation_ui import run_with_f5

G, HEIGHT = 9.81, 0.1  # m/s^2, m


def test_a_ball_dropped_on_a_ground_line_runs_and_bounces(qtbot, window):
    """A free body 0.1 m above a ground line: the problems panel said ``nodes: needs at least 1
    items`` and the run was refused; it falls for sqrt(2 h / g) = 0.1428 s and, e = 1, leaves
    with the speed it struck at, sqrt(2 g h) = 1.401 m/s: an impulse of 2 m v = 2.801 N s."""
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.05, 0.65, grid=0.01)
    user.tool(Qt.Key.Key_B, (0.3, HEIGHT))  # a 1 kg point
    user.tool(Qt.Key.Key_R, (0.3, HEIGHT))
    user.drag((0.0, 0.0), (0.5, 0.0))  # the floor, its left side up
    user.key(Qt.Key.Key_Escape)
    user.click_tree(MODEL_SETTINGS)
    user.type_field("gravity.y", f"-{G} m/s^2")
    user.click_tree(SOLVER_SETTINGS)
    user.type_field("end_time", "0.2 s")
    assert [row[0] for row in window.problems.rows()] == ["info"]  # the freedoms counted, no error
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    impulses = [e for e in window.simulation.runs.results.events if e["kind"] == "impulse"]
    assert impulses[0]["time_s"] == pytest.approx(math.sqrt(2 * HEIGHT / G), abs=1e-3)  # s: a step of 1 ms
    assert impulses[0]["I_n_N_s"] == pytest.approx(2 * math.sqrt(2 * G * HEIGHT), rel=1e-3)


def test_a_ball_resting_under_impulses_says_it_sank(qtbot, window, tmp_path, message_boxes):
    """The ball left on the floor with the momentum-balance model sinks (0.5 mm in 0.3 s): the
    status bar says so and its tool tip names the pair and the Lagrange model as the remedy."""
    from tests.solver.test_resting_contact import block_on_floor

    path = tmp_path / "resting.json"
    path.write_text(json.dumps(block_on_floor("impulse")))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    label = window.simulation.status.label
    assert label.text().endswith("warning: points sank into their targets")
    assert "'floor'" in label.toolTip() and "model.kind to lagrange" in label.toolTip()
    assert message_boxes == []
