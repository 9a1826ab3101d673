"""A run whose numbers depend on its step says so in the status bar (issue 26 item 3)."""
from __future__ import annotations

import json

from tests.oracles.test_trust import _tip_onto_ground

from .test_simulation_ui import run_with_f5


def test_a_step_sensitive_run_says_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes):
    """The flexible link's tip striking the ground, a Lagrange pair: the tip leaves the ground for
    less than a frame at 3.2 ms.  The run completes, the status bar says its results depend on the
    step and its tool tip gives the warning; no box (the numbers are what the step made, not a
    broken balance)."""
    path = tmp_path / "tip.json"
    path.write_text(json.dumps(_tip_onto_ground()))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == "completed"
    label = window.simulation.status.label
    assert label.text().endswith("warning: results depend on the step")
    assert "Contact 'tip-ground' opened for one frame only at t = 0.00322827 s" in label.toolTip()
    assert message_boxes == []
