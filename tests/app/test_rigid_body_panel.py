"""A free body switched to rigid in the property panel runs (issue 26): its inertia, left
empty, is a disc's m r²/2 of its radius, shown in the panel; a body without a radius is
refused the switch, the message naming its ``inertia``.  (Before, the panel left inertia 0
and the run failed at t = 0: "Newton did not converge ... not-a-number".)"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from app.document.entities import SOLVER_SETTINGS, EntityRef
from app.running.controller import COMPLETED

from .canvas_user import CanvasUser
from .test_simulation_ui import run_with_f5

BODY = (0.0, 0.1)


def test_a_body_switched_to_rigid_lands_and_rolls_with_m_r2_over_2(qtbot, window):
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.3, 0.3, grid=0.01)
    user.tool(Qt.Key.Key_N, (0.2, 0.2))  # a model has a node
    user.tool(Qt.Key.Key_B, BODY)
    view = window.properties
    assert not view.commit_field("kind", "rigid")  # a point: no radius to take an inertia from
    assert view.error_at(view.row_of("kind")).startswith("inertia: a rigid body needs its moment of inertia")

    user.type_field("radius", "50 mm")
    user.type_field("kind", "rigid")
    row = view._rows[view.row_of("inertia")]
    assert (row.value, row.is_default) == ("0.00125", True)  # 1 kg x (0.05 m)^2 / 2
    assert "derived: a disc's m r^2 / 2" in row.help

    user.tool(Qt.Key.Key_R, BODY)  # the floor, y = 0
    user.drag((-0.2, 0.0), (0.2, 0.0))
    user.key(Qt.Key.Key_V)
    start = user.pixel(*BODY)
    user.drag_pixels(start, start + QPoint(10, 10))  # 0.1 m/s per pixel: (1, -1) m/s
    user.key(Qt.Key.Key_Escape)
    user.click_tree(EntityRef("contacts", "contact1"))
    for field, text in (("mu_s", "1"), ("mu_d", "1"), ("e", "0"), ("law", "newton")):
        user.type_field(field, text)
    user.click_tree(SOLVER_SETTINGS)
    user.type_field("end_time", "80 ms")
    user.type_field("step", "1 ms")

    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == COMPLETED
    results = window.simulation.runs.results
    # lands at 50 ms; sticking friction with e = 0: v_x' = 2 v_x / 3, omega' = -2 v_x / (3 r)
    last = results.frames[-1]
    assert last.node_v[results.node_index("body1")] == pytest.approx([2.0 / 3.0, 0.0], abs=1e-9)
    assert last.rot_v[0] == pytest.approx(-2.0 / (3 * 0.05), rel=1e-9)


def test_a_drawn_rigid_links_inertia_shows_the_m_l2_over_12_the_solver_takes(qtbot, window):
    """A new rigid link (1 kg) left its inertia empty in the panel, as if it had none, while the
    run takes a uniform rod's m L^2 / 12 about its centre: 1 kg x (0.4 m)^2 / 12 = 0.01333 kg m^2."""
    user = CanvasUser(qtbot, window)
    window.new_action.trigger()
    user.show(-0.05, 0.65, grid=0.01)
    user.tool(Qt.Key.Key_L, (0.0, 0.0), (0.4, 0.0))
    view = window.properties
    row = view._rows[view.row_of("inertia")]
    assert (row.value, row.is_default) == ("0.01333333333", True)
    assert "derived: a uniform rod's m L^2 / 12" in row.help
    user.type_field("mass", "3 kg")
    assert view._rows[view.row_of("inertia")].value == "0.04"
