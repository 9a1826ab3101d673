"""The impact events panel: the event table and the Routh diagram of the selected impulse."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.document.units import format_quantity
from app.results.events_view import COLUMNS, EventsView, cell_text
from app.results.routh_diagram import RouthDiagram, clip_segment
from solver.contact.base import impulse_event
from solver.api import simulate
from solver.contact.routh import routh_impulse
from solver.results.frames import Results


@pytest.fixture(scope="module")
def pendulum(example_results) -> Results:
    return example_results("pendulum_impact")


@pytest.fixture(scope="module")
def rod(example_results) -> Results:
    return example_results("rod_impact_rigid")


@pytest.fixture
def view(shown, pendulum) -> EventsView:
    v = shown(EventsView(), 900, 400)
    v.set_results(pendulum)
    return v


def test_table_rows_match_the_event_log(view, pendulum):
    assert view.table.rowCount() == len(pendulum.events) > 0
    for row, event in enumerate(pendulum.events):
        assert view.row_texts(row) == [cell_text(event, key, fmt) for _, key, fmt in COLUMNS]
        assert view.row_texts(row)[0] == format_quantity(event["time_s"], "s", 6)  # 152.626 ms
        assert view.row_texts(row)[1:4] == [event.get("type") or "", event["kind"], event["contact"]]
    impulse = next(r for r, e in enumerate(pendulum.events) if e["kind"] == "impulse")
    assert float(view.row_texts(impulse)[4]) == pytest.approx(pendulum.events[impulse]["I_n_N_s"], rel=1e-4)


def test_clicking_an_impulse_row_emits_its_time_and_draws_its_routh_diagram(view, qtbot, pendulum):
    row = next(r for r, e in enumerate(pendulum.events) if e["kind"] == "impulse")
    event = pendulum.events[row]
    rect = view.table.visualRect(view.table.model().index(row, 1))
    with qtbot.waitSignal(view.time_selected) as blocker:
        qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [event["time_s"]]
    drawn = view.diagram.routh
    assert drawn is not None
    np.testing.assert_allclose(drawn.path[-1], (event["I_n_N_s"], event["I_t_N_s"]), rtol=1e-12, atol=1e-15)
    assert drawn.end == (event["I_n_N_s"], event["I_t_N_s"])
    assert drawn.compression_end[0] == pytest.approx(event["I_nc_N_s"], rel=1e-12)
    curves = view.diagram.getPlotItem().listDataItems()
    path = next(c for c in curves if c.name() == "impulse path")
    np.testing.assert_array_equal(np.column_stack(path.getData()), drawn.path)


def test_other_events_clear_the_diagram(view, qtbot, pendulum):
    row = next(r for r, e in enumerate(pendulum.events) if e["kind"] == "separation")
    with qtbot.waitSignal(view.time_selected):
        view.select_event(row)
    assert view.diagram.routh is None


def test_routh_lines_of_the_rod_of_the_paper(qtbot, rod):
    """The rod of the LAJSS paper §6: slip stops in compression and the contact sticks (SCS)."""
    event = next(e for e in rod.events if e["kind"] == "impulse")
    diagram = RouthDiagram()
    qtbot.addWidget(diagram)
    assert diagram.show_event(event)
    g = diagram.routh
    assert g.impact.kind == event["type"] == "SCS"
    a, b, c = event["a"], event["b"], event["c"]
    for I_n, I_t in g.sticking:            # v_t = v_t0 + c I_n + b I_t = 0 along the sticking line
        assert event["v_t_pre_m_s"] + c * I_n + b * I_t == pytest.approx(0.0, abs=1e-12)
    for I_n, I_t in g.compression:         # v_n = 0 along the line of maximum compression
        assert event["v_n_pre_m_s"] + a * I_n + c * I_t == pytest.approx(0.0, abs=1e-12)
    I_nh, I_th = g.slip_stop               # slip along the limiting friction line until it stops
    assert I_th == pytest.approx(-np.sign(event["v_t_pre_m_s"]) * event["mu_d"] * I_nh)
    assert event["v_t_pre_m_s"] + c * I_nh + b * I_th == pytest.approx(0.0, abs=1e-12)
    assert set(g.friction) == {f"±μD = {event['mu_d']:g}", f"±μs = {event['mu_s']:g}"}


def test_the_diagram_of_an_unsymmetric_d_redraws_its_impulse(qtbot):
    """An onset while a held pair slid stores ``c_tn = D[1, 0]`` (D unsymmetric): the diagram
    replays that impulse (slip stops in compression and sticks under mu_s = 0.7 >= |c_tn|/b,
    where the mean of c and c_tn would say 0.275) and its sticking line is v_t = 0."""
    D = np.array([[3.0, 0.05], [-0.6, 1.0]])
    r = routh_impulse(D, -1.0, 0.2, 0.7, 0.4, 0.82, "energetic", symmetric=False)
    event = {"kind": "impulse", "time_s": 0.0, "contact": "B", **impulse_event(r)}
    diagram = RouthDiagram()
    qtbot.addWidget(diagram)
    assert diagram.show_event(event)
    g = diagram.routh
    assert g.impact.kind == event["type"] == "SCS" and g.impact.I_n == r.I_n
    for I_n, I_t in g.sticking:
        assert 0.2 - 0.6 * I_n + I_t == pytest.approx(0.0, abs=1e-12)
    for I_n, I_t in g.compression:
        assert -1.0 + 3.0 * I_n + 0.05 * I_t == pytest.approx(0.0, abs=1e-12)


def test_lines_are_clipped_to_the_diagram():
    box = (0.0, 1.0, -1.0, 1.0)
    np.testing.assert_allclose(clip_segment(np.array([[-1.0, 0.5], [3.0, 0.5]]), box), [[0.0, 0.5], [1.0, 0.5]])
    np.testing.assert_allclose(clip_segment(np.array([[0.5, -3.0], [0.5, 3.0]]), box), [[0.5, -1.0], [0.5, 1.0]])
    np.testing.assert_allclose(clip_segment(np.array([[-1.0, -2.0], [2.0, 4.0]]), box), [[0.0, 0.0], [0.5, 1.0]])
    assert clip_segment(np.array([[2.0, 0.0], [3.0, 5.0]]), box).shape == (0, 2)


def test_an_onset_jump_says_it_is_the_models_plastic_onset_not_a_restitution(shown, example_results):
    """A Lagrange pair does not use its e: the onset jump's row and Routh diagram say what the model did
    (a perfectly plastic jump), never "e = 0" as if a restitution had been applied (issue 26)."""
    res = example_results("bar_mass_impact_lagrange")
    view = shown(EventsView(), 900, 400)
    view.set_results(res)
    row = next(r for r, e in enumerate(res.events) if e.get("onset"))
    e_column = next(k for k, (_h, key, _f) in enumerate(COLUMNS) if key == "e_achieved")
    assert view.row_texts(row)[e_column] == "0: plastic onset"
    view.select_event(row)
    title = view.diagram.getPlotItem().titleLabel.text
    assert "perfectly plastic" in title and "e = " not in title
    other = next(e for e in example_results("pendulum_impact").events if e["kind"] == "impulse")
    assert view.diagram.show_event(other)
    assert f"e = {other['e']:g}" in view.diagram.getPlotItem().titleLabel.text


def test_a_ball_dropped_square_on_a_frictionless_floor_is_typed_normal_not_stick(shown):
    """The ball of the newcomer's tour on a floor without friction: its impulse's row types it
    ``normal`` (no tangential motion, no friction), never ``stick``, which says friction held it;
    the Routh diagram's title says the same."""
    from tests.solver.test_resting_contact import block_on_floor

    doc = block_on_floor("impulse")
    doc["bodies"][0]["y"], doc["contacts"][0]["e"], doc["solver"]["end_time"] = 0.05, 1.0, 0.15
    res = simulate(doc)
    view = shown(EventsView(), 900, 400)
    view.set_results(res)
    row = next(r for r, e in enumerate(res.events) if e["kind"] == "impulse")
    type_column = next(k for k, (_h, key, _f) in enumerate(COLUMNS) if key == "type")
    assert view.row_texts(row)[type_column] == "normal"
    view.select_event(row)
    assert ": normal," in view.diagram.getPlotItem().titleLabel.text


def _covered_points(diagram: RouthDiagram) -> tuple[int, int]:
    """``(points of the curves under the legend, points in all)``, each segment sampled 200 times."""
    item = diagram.getPlotItem()
    rect = item.getViewBox().mapSceneToView(item.legend.sceneBoundingRect()).boundingRect()
    points = np.vstack([np.linspace(c[i], c[i + 1], 200) for c in
                        (np.column_stack(curve.getData()) for curve in item.listDataItems()) for i in range(len(c) - 1)])
    under = (points[:, 0] > rect.left()) & (points[:, 0] < rect.right()) \
        & (points[:, 1] > rect.top()) & (points[:, 1] < rect.bottom())
    return int(np.count_nonzero(under)), len(points)


def test_the_legend_leaves_the_lines_of_the_lajss_rod_in_view(shown, qtbot, rod):
    """The rod of LAJSS Table 1 (SCS): the legend, always at the top left, hid the +mu lines of
    limiting friction (729 of their points at 600 x 400 px); it goes to the corner that hides least."""
    diagram = shown(RouthDiagram(), 600, 400)
    event = next(e for e in rod.events if e["kind"] == "impulse")
    assert diagram.show_event(event)
    box = diagram.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: box.viewRange()[0][0] < 0.0)  # the range taken in (padded left of 0), the legend placed
    qtbot.waitUntil(lambda: _covered_points(diagram)[0] < 0.01 * _covered_points(diagram)[1])  # the legend moved


def test_the_legend_covers_no_line_of_a_small_diagram(shown, qtbot, rod, pendulum):
    """At 600 x 400 px no corner of the diagram is free: the legend still hid 3 of the LAJSS rod's
    1800 points and 177 of the pendulum's 1400, its impulse path among them.  The view now widens
    on the legend's side just enough to clear it, and again when the plot is resized (the
    pendulum's diagram drawn at 900 x 400 px, then made 600 x 400)."""
    for results, width in ((rod, 600), (pendulum, 900)):
        diagram = shown(RouthDiagram(), width, 400)
        assert diagram.show_event(next(e for e in results.events if e["kind"] == "impulse"))
        qtbot.waitUntil(lambda: _covered_points(diagram)[0] == 0)
        assert diagram.getPlotItem().getViewBox().viewRange()[0][0] < 0.0  # the origin in view, padded
    box = diagram.getPlotItem().getViewBox()
    diagram.resize(600, 400)
    qtbot.waitUntil(lambda: box.boundingRect().width() < 600)
    assert _covered_points(diagram)[0] == 0


def wheel(widget, at, steps: int) -> None:
    """Turn the mouse wheel ``steps`` notches (positive: away from the user, zooming in) at ``at`` (px)."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    event = QWheelEvent(QPointF(at), QPointF(widget.mapToGlobal(at)), QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_a_resize_keeps_the_users_zoom_until_view_all(shown, qtbot, pendulum):
    """The pendulum's diagram zoomed in with the wheel, then the panel resized: the view went back to
    the whole diagram; it keeps the user's zoom until new data or the user's "View All"."""
    diagram = shown(RouthDiagram(), 900, 400)
    impulses = [e for e in pendulum.events if e["kind"] == "impulse"]
    assert diagram.show_event(impulses[0])
    box = diagram.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: _covered_points(diagram)[0] == 0)     # fitted, the legend placed
    fitted = box.viewRange()
    wheel(diagram.viewport(), diagram.viewport().rect().center(), 3)
    zoomed = box.viewRange()
    assert zoomed[0][1] - zoomed[0][0] < 0.9 * (fitted[0][1] - fitted[0][0])
    diagram.resize(600, 400)
    qtbot.waitUntil(lambda: box.boundingRect().width() < 600)
    np.testing.assert_allclose(box.viewRange()[0], zoomed[0], rtol=1e-9)   # the zoom kept along x
    box.menu.viewAll.trigger()                                      # the user's View All: the whole diagram
    qtbot.waitUntil(lambda: _covered_points(diagram)[0] == 0 and box.viewRange()[0][1] - box.viewRange()[0][0]
                    > zoomed[0][1] - zoomed[0][0])
    wheel(diagram.viewport(), diagram.viewport().rect().center(), 3)
    assert diagram.show_event(impulses[1])                          # new data: fitted again
    qtbot.waitUntil(lambda: _covered_points(diagram)[0] == 0 and box.viewRange()[0][0] < 0.0)


def _green_pixels_round(diagram: RouthDiagram, point: tuple[float, float], r0: float, r1: float) -> int:
    """Pixels of I_nh's green (#2ca02c) between ``r0`` and ``r1`` px from ``point`` (N s) in the drawn diagram."""
    from PySide6.QtCore import QPointF

    centre = diagram.getPlotItem().getViewBox().mapViewToScene(QPointF(*point))
    image = diagram.grab().toImage()
    count = 0
    for x in range(int(centre.x() - r1) - 1, int(centre.x() + r1) + 2):
        for y in range(int(centre.y() - r1) - 1, int(centre.y() + r1) + 2):
            colour = image.pixelColor(x, y)
            near = abs(colour.red() - 0x2c) + abs(colour.green() - 0xa0) + abs(colour.blue() - 0x2c) < 60
            count += near and r0 <= np.hypot(x + 0.5 - centre.x(), y + 0.5 - centre.y()) <= r1
    return count


def test_the_slip_stop_shows_beside_max_compression_where_they_coincide(view, qtbot, pendulum):
    """The pendulum's first impulse (SRD): slip stops 3e-6 N s after the end of compression, so the
    legend's I_nh triangle was hidden under the I_nc dot (5 green pixels round it, 41 now); drawn larger,
    under the dot, its corners show round it."""
    row = next(r for r, e in enumerate(pendulum.events) if e["kind"] == "impulse")
    assert pendulum.events[row]["type"] == "SRD"
    rect = view.table.visualRect(view.table.model().index(row, 1))
    with qtbot.waitSignal(view.time_selected):
        qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    g = view.diagram.routh
    assert np.subtract(g.slip_stop, g.compression_end) == pytest.approx((0.0, 0.0), abs=1e-5)
    assert _green_pixels_round(view.diagram, g.compression_end, 5.5, 10.0) >= 20


def test_an_impulse_between_frames_is_drawn_and_read_at_its_instant(window, qtbot, pendulum, tmp_path):
    """The pendulum's impulses (5 ms frames) act between frames: at 152.626 ms, the frame after it
    at 155 ms.  Its stems stand at the event's instant, selecting its row reads its time and its
    impulse (not the frame before, 150 ms, with no impulse), and the plotted series' CSV has both."""
    from app.results.export import write_series_csv

    window.results_ui.playback.set_frames(pendulum.frames, pendulum.events)  # as a run's end gives them
    window.results_ui.show_results(pendulum)
    panel = window.results_ui.plots.panels[0]
    assert panel.selected_series() == ["contact/tip-surface/I_n", "contact/tip-surface/I_t"]
    impulses = [(r, e) for r, e in enumerate(pendulum.events) if e["kind"] == "impulse"]
    times = np.array([e["time_s"] for _, e in impulses])
    assert not np.isin(times, pendulum.time).any()  # between frames
    t, drawn = panel.curve_item("contact/tip-surface/I_n").stems()
    np.testing.assert_array_equal(t, times)
    np.testing.assert_array_equal(drawn, [e["I_n_N_s"] for _, e in impulses])
    zero_line = panel.curve_item("contact/tip-surface/I_n").getData()[0][:2]
    np.testing.assert_array_equal(zero_line, pendulum.time[[0, -1]])  # over the run, 0 to 0.8 s
    row, event = impulses[0]
    view = window.results_ui.events
    rect = view.table.visualRect(view.table.model().index(row, 0))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    frame_t = pendulum.time[pendulum.time <= event["time_s"]][-1]  # 150 ms, before the impulse
    readout = panel.readout.text()
    assert readout.startswith(f"t = {format_quantity(event['time_s'], 's', 6)}   (frame at "
                              f"{format_quantity(frame_t, 's', 6)})")                       # 152.626 ms
    assert f"normal impulse = {format_quantity(event['I_n_N_s'], 'N s', 6)}" in readout    # 1.44158 N s
    assert panel.values_at(event["time_s"])["contact/tip-surface/I_t"] == event["I_t_N_s"]
    write_series_csv(panel.plotted(), tmp_path / "impulses.csv")
    rows = (tmp_path / "impulses.csv").read_text(encoding="utf-8").splitlines()
    assert rows[1].split(",")[:2] == [repr(event["time_s"]), repr(event["I_n_N_s"])]


def test_a_new_run_clears_the_events_and_the_routh_window_of_the_run_before(window, qtbot):
    """The bar-mass run's impulses listed and one's Routh diagram open in its window; F5 again: while
    the new run goes on, its table listed the run before's events (a click jumped to their times on
    the new run) and the window kept the old impulse's diagram. Both are of the run shown."""
    from .test_simulation_ui import run_with_f5

    window.example_actions["bar_mass_impact"].trigger()
    run_with_f5(qtbot, window)
    view = window.results_ui.events
    row = next(r for r, e in enumerate(view.events) if e["kind"] == "impulse")
    view.table.scrollToItem(view.table.item(row, 0))
    rect = view.table.visualItemRect(view.table.item(row, 0))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a double-click's
    qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # two presses
    assert view.diagram_window is not None and view.diagram_window.routh is not None
    window.simulation.run_action.trigger()  # the run's end is not waited for
    assert window.simulation.runs.running
    assert view.table.rowCount() == 0 and view.events == []
    assert view.diagram_window.routh is None
    qtbot.waitUntil(lambda: not window.simulation.runs.running, timeout=120_000)
    window.simulation.runs.wait()
    assert view.table.rowCount() == len(window.results_ui.results.events) > 0
