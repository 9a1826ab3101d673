"""The translational joint with clearance in the window: the shipped slider-crank opened from the
Examples menu, the slider drawn in its guide, its fields edited in the property panel, a short
run whose slider configuration is a plottable series."""
from __future__ import annotations

import pyqtgraph as pg
import pytest

from app.canvas.items import CLEARANCE, GROUND
from app.document.checks import gruebler_count
from app.document.entities import EntityRef
from app.results.series import catalogue
from solver.model.io import examples_dir, load_model

from .test_simulation_ui import run_with_f5

EXAMPLE = "slider_crank_translational_clearance"


def _curves(window, colour: str) -> list[pg.PlotCurveItem]:
    return [i for i in window.sketch.getPlotItem().items if isinstance(i, pg.PlotCurveItem)
            and i.opts["pen"].color().name() == colour]


def test_the_example_draws_the_slider_between_the_guide_surfaces_and_edits_its_clearance(user):
    window = user.window
    window.example_actions[EXAMPLE].trigger()
    (slider,) = [c for c in _curves(window, CLEARANCE) if len(c.getData()[0]) == 5]
    xs, ys = slider.getData()
    assert (xs.max() - xs.min(), ys.max() - ys.min()) == pytest.approx((0.05, 0.02))  # level, 50 x 20 mm at B
    guides = sorted(c.getData()[1][0] for c in _curves(window, GROUND) if len(c.getData()[0]) == 2)
    assert guides[:1] + guides[-1:] == pytest.approx([-0.0105, 0.0105])  # h/2 + c either side
    user.click_tree(EntityRef("joints", "guide"))
    view = window.properties
    for field in ("length", "height", "clearance", "mass", "inertia", "tilt", "offset", "stiffness", "law"):
        assert view.row_of(field) >= 0, field
    user.type_field("clearance", "0.001")
    assert window.document.model["joints"][1]["clearance"] == 0.001
    guides = sorted(c.getData()[1][0] for c in _curves(window, GROUND) if len(c.getData()[0]) == 2)
    assert guides[-1] == pytest.approx(0.011)  # redrawn
    window.grab()


def test_a_short_run_plots_the_slider_configuration(qtbot, window):
    window.example_actions[EXAMPLE].trigger()
    window.document.model["solver"]["end_time"] = 0.002
    run_with_f5(qtbot, window)
    runs = window.simulation.runs
    assert runs.state == "completed"
    assert runs.results.layout.contacts == [f"guide.{c}" for c in ("rear_lower", "front_lower", "front_upper",
                                                                  "rear_upper")]
    assert "slider/guide/configuration" in catalogue(runs.results)
    window.grab()  # playback draws the corner nodes and their pairs


def test_the_slider_counts_its_two_freedoms_across_the_guide():
    """As the revolute clearance joint frees the two of the pin it replaces: the slider-crank's
    one freedom, plus the slider's across the guide and its tilt."""
    model = load_model(examples_dir() / f"{EXAMPLE}.json")
    assert gruebler_count(model) == (3, 1)


def test_a_slider_switched_to_a_translational_clearance_joint_in_the_panel_runs_in_a_guide(user):
    """The kind chosen in the panel starts as the shipped example's slider, on the slider's guide
    line; its clearance typed in, the guide is redrawn."""
    window = user.window
    window.example_actions["slider_crank_ideal"].trigger()
    user.click_tree(EntityRef("joints", "B-slider"))
    user.type_field("kind", "translational_clearance")
    assert window.document.model["joints"][1] == {
        "id": "B-slider", "kind": "translational_clearance", "node": "B", "angle": 0.0, "length": 0.05,
        "height": 0.02, "clearance": 0.0005, "mass": 0.14, "stiffness": 1e10}
    assert [r[0] for r in window.problems.rows()] == ["info"]
    assert [c for c in _curves(window, CLEARANCE) if len(c.getData()[0]) == 5]  # the slider drawn
    user.type_field("clearance", "0.001")
    guides = sorted(c.getData()[1][0] for c in _curves(window, GROUND) if len(c.getData()[0]) == 2)
    assert guides[-1] == pytest.approx(0.011)
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.document.model["joints"][1] == {"id": "B-slider", "kind": "slider", "node": "B", "angle": 0.0}
