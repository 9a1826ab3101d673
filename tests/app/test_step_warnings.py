"""A run whose numbers depend on its step or its mesh says so in the status bar (issue 26 item 3)."""
from __future__ import annotations

import json

from tests.oracles.test_trust import (_struck_link, _tip_onto_ground, damped_from_the_start, damped_heavily,
                                     open_one_frame, ramped_cantilever)

from .test_simulation_ui import run_with_f5


def _run_label(qtbot, window, tmp_path, doc: dict):
    """Open ``doc``, run it with F5 to completion and return the status bar's label."""
    path = tmp_path / "tip.json"
    path.write_text(json.dumps(doc))
    assert window.open_path(path)
    run_with_f5(qtbot, window)
    assert window.simulation.runs.state == "completed"
    return window.simulation.status.label


def test_a_step_sensitive_run_says_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes, monkeypatch):
    """The flexible link's tip striking the ground, a Lagrange pair, its contact read as open for
    one frame between frames in contact (:func:`~tests.oracles.test_trust.open_one_frame`).  The
    run completes, the status bar says its results depend on the step and its tool tip gives the
    warning; no box (the numbers are what the step made, not a broken balance)."""
    open_one_frame(monkeypatch)
    label = _run_label(qtbot, window, tmp_path, _tip_onto_ground(solver={"end_time": 0.008, "step": 0.0005}))
    assert label.text().endswith("warning: results depend on the step or the mesh")
    assert "Contact 'tip-ground' opened for one frame only at t = " in label.toolTip()
    assert message_boxes == []


def test_a_coarsely_meshed_struck_link_says_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes):
    """The flexible link's tip striking the ground with the link meshed in 2 elements: the status
    bar says the results depend on the mesh and its tool tip names the contact and the node."""
    label = _run_label(qtbot, window, tmp_path, _struck_link(2))
    assert label.text().endswith("warning: results depend on the step or the mesh")
    assert "Contact 'tip-ground' strikes node 'n2' meshed coarsely" in label.toolTip()
    assert message_boxes == []


def test_a_run_switched_to_numerical_damping_says_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes):
    """Getting Started's rod struck through a compliant pair at 1 ms, damped from the start: the
    switch was only in summary.json's meta; the status bar now says it and its tool tip says why."""
    label = _run_label(qtbot, window, tmp_path, damped_from_the_start())
    assert label.text().endswith("warning: results depend on the step or the mesh (numerical damping from t = 0 s)")
    assert "The run switched to numerical damping (tau = 0.505) from the start" in label.toolTip()
    assert message_boxes == []
    label = _run_label(qtbot, window, tmp_path, damped_heavily())  # the block struck: what the damping took
    assert label.text().endswith("(numerical damping from t = 0 s, which took 73% of the energy)")
    assert "(here 73% of the largest kinetic and strain energy by the end)" in label.toolTip()


def test_accelerations_ringing_from_step_to_step_say_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes):
    """The damped cantilever with its tip torque ramped on from the sketched shape: its stiffest
    modes ring at the step's Nyquist frequency; the status bar says the results depend on the step
    and its tool tip names the node and the cure."""
    label = _run_label(qtbot, window, tmp_path, ramped_cantilever())
    assert label.text().endswith("warning: results depend on the step or the mesh")
    assert "The acceleration of node 'B' (x) alternates in sign from step to step" in label.toolTip()
    assert 'solver.initial_shape = "static"' in label.toolTip()
    assert message_boxes == []


def test_a_chain_of_strikes_fed_by_a_driver_says_so_in_the_status_bar(qtbot, window, tmp_path, message_boxes):
    """The user-drawn struck slider-crank to 32 ms, run with F5: its block leaves at a velocity the
    step sequence moves by +-7 % (a chain of 8 strikes the crank's driver feeds); the status bar
    says the results depend on the step and its tool tip names the pair, the times and the
    spread (it named the damping and the peak strain only).  No box."""
    from tests.oracles.test_step_sequence import struck_to_its_exit

    label = _run_label(qtbot, window, tmp_path, struck_to_its_exit())
    assert "warning: results depend on the step or the mesh" in label.text()
    tip = label.toolTip()
    assert "Contact 'contact1' struck 8 times in 0.294 ms (t = 0.0266664 to 0.0269603 s" in tip
    assert "+-0.33 N s (+-4.3%, half its last strike)" in tip
    assert message_boxes == []


def test_check_the_step_reruns_at_half_the_step_and_shows_what_moved(qtbot, window, tmp_path, message_boxes):
    """Simulation > Check the Step after the struck slider-crank's run: the model runs again at
    half the step, and a box gives each headline at both steps (the block 31.21 against 29.63
    m/s, 5.06 %).  Disabled before a run; the action did not exist."""
    from tests.oracles.test_step_sequence import struck_to_its_exit

    sim = window.simulation
    assert not sim.check_action.isEnabled()
    _run_label(qtbot, window, tmp_path, struck_to_its_exit())
    assert sim.check_action.isEnabled() and sim.check_action in sim.menu.actions()
    sim.check_action.trigger()
    qtbot.waitUntil(lambda: not sim.runs.running, timeout=120_000)
    sim.runs.wait()
    (kind, title, text), = [box for box in message_boxes if box[1] == "Check of the step"]
    assert kind == "information" and "half the step (20.9" in text
    assert "body 'body1' final speed, m/s: 31.2088 at the step, 29.6294 at half of it (5.06%)" in text
    assert sim.run_model["solver"]["step"] == struck_to_its_exit()["solver"]["step"] / 2.0
