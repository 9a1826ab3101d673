"""Moving supports, masses and forces in the window (issue 15): the example opens, its moving
mass is listed in the model tree, drawn on its link, and edited in the property panel."""
from __future__ import annotations

import doctest
import math
import time

import pytest
from PySide6.QtCore import Qt

from app.canvas import geometry as geo
from app.document.entities import EntityRef
from app.sweeps.optimum_dialog import OptimumDialog
from solver.model.validate import validate

from .test_modal_link import type_into
from .test_property_edit import value_of

CART = EntityRef("moving", "cart")
#: length of the beam of moving_support_beam, m
BEAM_LENGTH = 4.0


def test_a_moving_mass_is_listed_drawn_and_edited(qtbot, window):
    window.open_example("moving_mass_beam")
    item = window.tree.item_for(CART)
    assert item is not None and item.text(1) == "mass along beam"
    # drawn where it starts: the left end of the beam (s(0) = 0)
    assert geo.moving_point(window.document.model, window.document.model["moving"][0]) == pytest.approx((0.0, 0.0))
    assert geo.outline(window.document.model, CART).points == [pytest.approx((0.0, 0.0))]
    window.selection.replace((CART,))
    view = window.properties
    assert value_of(view, "mass").startswith("50")
    type_into(qtbot, view, "mass", "80 kg")
    qtbot.waitUntil(lambda: window.document.model["moving"][0]["mass"] == pytest.approx(80.0))
    assert validate(window.document.model) == []
    type_into(qtbot, view, "position.rate", "20 m/s")
    qtbot.waitUntil(lambda: window.document.model["moving"][0]["position"]["rate"] == pytest.approx(20.0))


def test_the_optimum_dialog_plots_the_objective_against_the_support_position(qtbot, window):
    """Sweeps > Optimum of a Field… on the sliding-support example: the stop of the support is
    offered, three positions are scanned and refined, the objective is plotted against them."""
    window.open_example("moving_support_beam")
    assert window.sweeps_ui.optimum_action.isEnabled()
    dialog = window.sweeps_ui.find_optimum()
    qtbot.addWidget(dialog)
    assert dialog.field.currentText() == "moving[prop].position.v1"
    # the link travelled, a twentieth of it off the clamped root
    assert (dialog.low.value(), dialog.high.value()) == (pytest.approx(BEAM_LENGTH / 20), pytest.approx(BEAM_LENGTH))
    dialog.low.setValue(2.0)
    dialog.high.setValue(4.0)
    dialog.scan.setValue(3)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.optimum is not None, timeout=240_000)
    opt = dialog.optimum
    assert 2.5 < opt.x < 3.5 and len(opt.runs) > 3
    xs, ys = dialog.curve.getData()
    assert list(xs) == sorted(x for x, _v in opt.runs) and min(ys) == pytest.approx(opt.value)
    assert dialog.status.text().startswith("Optimum: moving[prop].position.v1 = ")
    dialog.close()


def test_a_search_over_the_offered_bounds_runs_at_both(qtbot, window):
    """The shipped example's search with the bounds the dialog offers: they ran from 0, where the clamp
    already holds the beam, and the first run failed ('Cannot search: the moving supports' and masses'
    constraints are redundant with the joints'). They start a twentieth of the beam off the clamp, and the
    runs at both bounds go through."""
    from app.sweeps import optimum_dialog

    assert doctest.testmod(optimum_dialog).failed == 0
    window.open_example("moving_support_beam")
    window.sweeps_ui.optimum_action.trigger()        # Sweeps > Optimum of a Field…
    dialog = window.findChild(OptimumDialog)
    dialog.scan.setValue(3)                          # the bounds and the middle
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text().startswith(("3 runs", "Cannot search")), timeout=240_000)
    assert dialog.status.text().startswith("3 runs; last: 4 → ")
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    assert dialog.status.text().startswith("Cancelled; best so far: moving[prop].position.v1 = ")
    assert [x for x, _v in dialog.optimum.runs[:3]] == pytest.approx([0.2, 2.1, 4.0])
    assert all(math.isfinite(v) for _x, v in dialog.optimum.runs[:3])
    dialog.close()


def test_a_search_that_cannot_start_leaves_no_optimum_of_the_search_before(qtbot, window, monkeypatch):
    """A search found its optimum (its star drawn), then one with an objective the run lacks: 'Cannot
    search', and the star and the optimum of the first search stayed, under the new objective's axis."""
    from app.sweeps import optimum_dialog
    from solver.sweeps import Optimum

    window.open_example("moving_support_beam")
    dialog = window.sweeps_ui.find_optimum()
    qtbot.addWidget(dialog)
    real = optimum_dialog.find_optimum
    monkeypatch.setattr(optimum_dialog, "find_optimum", lambda model, path, bounds, objective, **_k: Optimum(
        path, objective, bounds, x=3.0, value=1.0, runs=[(2.0, 2.0), (3.0, 1.0), (4.0, 2.0)]))  # a search done
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.optimum is not None and dialog.run_button.isEnabled())
    assert list(dialog.best.getData()[0]) == [3.0]
    monkeypatch.setattr(optimum_dialog, "find_optimum", real)
    dialog.objective.setCurrentText("max(contact/nowhere/F_n)")
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Cannot search"), timeout=60_000)
    assert dialog.optimum is None
    assert dialog.best.getData()[0] is None or not len(dialog.best.getData()[0])
    dialog.close()


def test_a_search_whose_every_run_failed_says_so_and_draws_no_star(qtbot, window, monkeypatch):
    """Every run of a search failed (its objective nan): the dialog drew its optimum's star at nan, which the plot
    could not place (an unexpected-error report, 'All-NaN slice encountered', at each paint), and said
    'Optimum: … = nan'. It draws no star and says that no run gave a value."""
    from app.sweeps import optimum_dialog
    from solver.sweeps import Optimum

    window.open_example("moving_support_beam")
    dialog = window.sweeps_ui.find_optimum()
    qtbot.addWidget(dialog)
    nan = float("nan")
    monkeypatch.setattr(optimum_dialog, "find_optimum", lambda model, path, bounds, objective, **_k: Optimum(
        path, objective, bounds, runs=[(2.0, nan), (3.0, nan), (4.0, nan)]))  # a search of failed runs
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.optimum is not None and dialog.run_button.isEnabled())
    assert dialog.status.text() == "no run gave a value of mean(energy/strain) (3 runs, each failed)"
    assert dialog.best.getData()[0] is None or not len(dialog.best.getData()[0])
    dialog.plot.grab()  # painted: nothing reaches the exception hook
    dialog.close()


def test_closing_the_window_during_a_search_stops_it_and_waits(qtbot, window):
    """An optimum search going on when the window closed was not stopped: its dialog stayed open and its
    thread ran the whole search on. Closing the window cancels the search, the run under way stopping at
    its next step, waits for its thread (a bounded wait) and closes the dialog."""
    window.open_example("moving_support_beam")
    window.sweeps_ui.optimum_action.trigger()        # Sweeps > Optimum of a Field…
    dialog = window.findChild(OptimumDialog)
    dialog.low.setValue(2.0)                         # within the beam, away from its held ends
    dialog.high.setValue(4.0)
    dialog.scan.setValue(50)                         # 50 runs scanned first: a minute or more of searching
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("1 runs"), timeout=120_000)
    assert dialog.running
    start = time.monotonic()
    window.close()
    assert time.monotonic() - start < 30.0
    assert not dialog.running and not dialog.isVisible()


def test_a_search_that_does_not_stop_gives_an_error_not_a_hang(qtbot, window, monkeypatch):
    """Waiting for a search's thread is bounded, as a run's and a sweep's are (it waited forever)."""
    import threading

    from app.sweeps import optimum_dialog

    release = threading.Event()

    def stuck_search(model, path, bounds, objective, **_options):
        release.wait(60)  # bounded too: the test cannot hang if it breaks
        raise RuntimeError("released")

    monkeypatch.setattr(optimum_dialog, "find_optimum", stuck_search)
    window.open_example("moving_support_beam")
    window.sweeps_ui.optimum_action.trigger()
    dialog = window.findChild(OptimumDialog)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    with pytest.raises(optimum_dialog.OptimumThreadStuck, match="did not end within 0.2 s of being cancelled"):
        dialog.stop(limit_s=0.2)
    release.set()
    qtbot.waitUntil(lambda: dialog.status.text() == "Cannot search:\nRuntimeError: released", timeout=60_000)
    assert not dialog.running
    dialog.close()


def test_the_offered_bounds_of_a_support_keep_off_another_support_on_the_link(qtbot, window):
    """A second support on the example's beam, added with the Moving support tool and left standing at
    1 m: the bounds offered for either support's stop ran over the other (0.2 to 4 m for both: a run
    putting one on the other holds the beam twice there, and cannot go on). Each support's bounds now
    end a twentieth of the beam off the other's travel, as off the clamp; its start time keeps the
    bounds of any field, about its value."""
    from .canvas_user import CanvasUser

    window.open_example("moving_support_beam")
    user = CanvasUser(qtbot, window)
    window.sketch.setFocus()
    qtbot.keyClick(window.sketch, Qt.Key.Key_G, Qt.KeyboardModifier.ShiftModifier)  # the Moving support tool
    assert window.tools.tool.name == "moving_support"
    user.click(1.0, 0.0)
    model = window.document.model
    assert [m["kind"] for m in model["moving"]] == ["support", "support"]
    post = model["moving"][1]
    user.type_field("position.v1", f"{post['position']['v0']} m")  # it stands where it was put
    stand = post["position"]["v0"]
    assert post["position"]["v1"] == stand and 0.5 < stand < 1.5
    assert validate(model) == []
    dialog = window.sweeps_ui.find_optimum()
    qtbot.addWidget(dialog)
    margin = BEAM_LENGTH / 20
    assert dialog.field.currentText() == f"moving[{post['id']}].position.v1"
    assert (dialog.low.value(), dialog.high.value()) == (pytest.approx(margin), pytest.approx(2.4 - margin))
    dialog.field.setCurrentText("moving[prop].position.v1")   # travels from the tip to 2.4 m
    assert (dialog.low.value(), dialog.high.value()) == (pytest.approx(stand + margin), pytest.approx(BEAM_LENGTH))
    dialog.field.setCurrentText("moving[prop].position.t1")   # a time: about its value, 1 s
    assert (dialog.low.value(), dialog.high.value()) == (0.5, 1.5)
    dialog.close()
