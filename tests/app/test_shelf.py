"""A shelf drawn by mouse: a rigid link pinned to the ground at both ends.  Its second pin holds the
link's stretching twice (:mod:`solver.system.redundant_joints`); before, F5 failed with "no
consistent initial velocity"."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.document.entities import MODEL_SETTINGS, SOLVER_SETTINGS
from app.running.controller import COMPLETED
from solver.system.compile import compile_model

from .canvas_user import CanvasUser
from .test_simulation_ui import run_with_f5

G = 9.81  # m/s^2


def test_a_link_pinned_at_both_ends_runs_and_says_its_pins_hold_a_motion_twice(qtbot, window, message_boxes):
    """Link, ground pin at each end, gravity, F5: the run completes with the link at rest, the problems
    panel and the status bar name the second pin, the tool tip gives each pin half the weight."""
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.05, 0.65, grid=0.01)
    user.tool(Qt.Key.Key_L, (0.0, 0.0), (0.5, 0.0))
    user.tool(Qt.Key.Key_G, (0.0, 0.0))
    user.tool(Qt.Key.Key_G, (0.5, 0.0))
    user.key(Qt.Key.Key_Escape)
    model = window.document.model
    assert [j["kind"] for j in model["joints"]] == ["ground", "ground"]
    second = model["joints"][1]["id"]
    user.click_tree(MODEL_SETTINGS)
    user.type_field("gravity.y", f"-{G} m/s^2")
    user.click_tree(SOLVER_SETTINGS)
    user.type_field("end_time", "0.05 s")
    warnings = [row for row in window.problems.rows() if row[0] == "warning"]
    assert [row[1] for row in warnings] == [f"joints[{second}]"]
    assert f"joint '{second}' holds the x of node" in warnings[0][2]
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    results = window.simulation.runs.results
    xy = results.stack("node_xy")
    assert abs(xy - xy[0]).max() < 1e-12
    weight = -compile_model(model).gravity.sum()  # N: the link's weight (g along -y)
    reactions = results.meta["joint_reactions"]
    assert set(reactions) == {f"joints[{j['id']}]" for j in model["joints"]}
    ys = [force[1] for force in reactions.values()]
    assert ys[0] == pytest.approx(ys[1], rel=1e-9) and ys[0] > 0
    assert sum(ys) == pytest.approx(weight, rel=1e-9) and weight > 0
    label = window.simulation.status.label
    assert label.text().endswith("note: joints hold a motion twice, their reactions are one admissible split")
    assert f"Joint '{second}' holds the x of node" in label.toolTip()
    assert "one admissible split (least norm)" in label.toolTip()
    assert message_boxes == []
