"""The plots dock: series from a run, presets, growing runs, the shared time cursor."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QToolButton

from app.document.units import format_quantity
from app.results.series import catalogue, outer_fibre_strain, presets, x_axes
from app.results.plots import PlotPanel, frame_index_at
from app.results.plots_dock import PlotsDock
from solver.api import load_model, output_layout, simulate
from solver.results.frames import Results

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def dock(shown, bar_mass) -> PlotsDock:
    """The bar struck by a mass (an impulse-model pair), its contact forces chosen."""
    d = shown(PlotsDock(), 700, 600)
    d.set_results(bar_mass)
    d.apply_preset("contact forces vs time")
    return d


def contact_force(results: Results, t: float) -> float:
    """The solver's normal force of the first contact pair in the frame shown at ``t``."""
    i = frame_index_at(results.time, t)
    return float(results.frames[i].contact["F_n_N"][0])


def test_the_forces_preset_plots_the_contact_force_the_solver_computed(dock, bar_mass):
    assert dock.preset_combo.currentText() == "contact forces vs time"
    (panel,) = dock.panels
    assert panel.selected_series() == ["contact/striker-end/F_n", "contact/striker-end/F_t"]
    force = dock.plotted()[0]
    np.testing.assert_array_equal(force.x, bar_mass.time)
    np.testing.assert_array_equal(force.y, [f.contact["F_n_N"][0] for f in bar_mass.frames])
    t = bar_mass.time[np.argmax(force.y)]
    dock.set_time(t)
    assert panel.cursor.value() == t
    assert panel.values_at(t)["contact/striker-end/F_n"] == contact_force(bar_mass, t) > 0.0
    assert f"= {format_quantity(contact_force(bar_mass, t), 'N', 6)}" in panel.readout.text()  # 250.694 mN


def test_checking_a_series_in_the_tree_draws_it(dock, bar_mass):
    panel = dock.panels[0]
    panel.filter_edit.setText("end vx")
    item = panel.series_item("node/end/vx")
    assert not item.isHidden() and panel.series_item("node/end/vy").isHidden()
    item.setCheckState(0, Qt.CheckState.Checked)
    assert panel.selected_series()[-1] == "node/end/vx"
    np.testing.assert_array_equal(panel.plotted()[-1].y, bar_mass.stack("node_v")[:, bar_mass.node_index("end"), 0])
    panel.series_item("contact/striker-end/F_t").setCheckState(0, Qt.CheckState.Unchecked)
    assert panel.selected_series() == ["contact/striker-end/F_n", "node/end/vx"]
    # the two curves and the wave-theory overlays of F_n (curve and peak) and of the end's vx
    assert [o.column for o in panel.overlaid()] == ["contact.striker-end.F_n_N", "node.end.vx_m_s",
                                                    "contact.striker-end.F_n_N"]
    assert len(panel.plot.getPlotItem().legend.items) == 2 + 3


def test_displacement_is_measured_from_the_first_frame(bar_mass):
    series = catalogue(bar_mass)["node/striker/ux"]
    panel = PlotPanel()
    panel.set_results(bar_mass)
    panel.set_series([series.key])
    xy = bar_mass.stack("node_xy")[:, bar_mass.node_index("striker"), 0]
    np.testing.assert_allclose(panel.plotted()[0].y, xy - xy[0], rtol=0, atol=1e-15)
    panel.deleteLater()


def test_outer_fibre_strain_is_the_larger_fibre_strain():
    axial, bending = np.array([1.0, -1.0, 2.0, -2.0]), np.array([0.5, 0.5, -3.0, -3.0])
    expected = [max(a + b, a - b, key=abs) for a, b in zip(axial, bending)]
    np.testing.assert_array_equal(outer_fibre_strain(axial, bending), expected)


def test_panels_are_added_and_removed(dock, qtbot):
    panel = dock.add_panel("time", ["energy/kinetic", "energy/strain"])
    assert len(dock.panels) == 2 and panel.selected_series() == ["energy/kinetic", "energy/strain"]
    (close,) = [b for b in panel.findChildren(QToolButton) if b.text() == "✕"]
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert len(dock.panels) == 1 and panel not in dock.panels
    dock.apply_preset("energy ledger")
    assert [p.selected_series()[0] for p in dock.panels] == ["energy/kinetic"]


def test_growing_run_extends_the_curves(qtbot, bar_mass):
    started = Results(model=bar_mass.model, layout=output_layout(bar_mass.model))
    dock = PlotsDock()
    qtbot.addWidget(dock)
    dock.set_results(started)    # a run just started: its layout, no frames yet
    dock.panels[0].set_series(["contact/striker-end/F_n", "node/striker/ux", "node/end/ux"])
    for start in range(0, len(bar_mass.frames), 40):
        dock.append_frames(bar_mass.frames[start:start + 40])
    growing = dock.plotted()
    dock.set_results(bar_mass)   # the complete run at the end keeps the panels
    complete = dock.plotted()
    assert [c.y_series.key for c in complete] == ["contact/striker-end/F_n", "node/striker/ux", "node/end/ux"]
    for grown, whole in zip(growing, complete, strict=True):
        np.testing.assert_array_equal(grown.x, whole.x)
        np.testing.assert_array_equal(grown.y, whole.y)
    partial = Results(model=bar_mass.model, layout=bar_mass.layout, frames=bar_mass.frames[:10])
    dock.set_results(partial)
    dock.append_frames(bar_mass.frames[10:])
    for grown, whole in zip(dock.plotted(), complete):
        np.testing.assert_array_equal(grown.x, whole.x)
        np.testing.assert_array_equal(grown.y, whole.y)


def drag(widget, start: QPoint, end: QPoint) -> None:
    """Press the left button at ``start``, move in steps to ``end``, release."""
    QApplication.sendEvent(widget, QMouseEvent(QEvent.Type.MouseButtonPress, QPointF(start), QPointF(start),
                                               Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton,
                                               Qt.KeyboardModifier.NoModifier))
    for k in range(1, 6):
        p = QPointF(start + (end - start) * (k / 5))
        QApplication.sendEvent(widget, QMouseEvent(QEvent.Type.MouseMove, p, p, Qt.MouseButton.NoButton,
                                                   Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    QApplication.sendEvent(widget, QMouseEvent(QEvent.Type.MouseButtonRelease, QPointF(end), QPointF(end),
                                               Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton,
                                               Qt.KeyboardModifier.NoModifier))


def test_dragging_the_time_cursor_scrubs(dock, qtbot, bar_mass):
    second = dock.add_panel("time", ["energy/kinetic"])
    panel = dock.panels[0]
    dock.set_time(0.05)
    view = panel.plot
    vb = panel.plot.getPlotItem().vb

    def to_view(t: float) -> QPoint:
        y = vb.viewRange()[1][0] * 0.5 + vb.viewRange()[1][1] * 0.5
        return view.mapFromScene(vb.mapViewToScene(QPointF(t, y)))

    scrubbed = []
    dock.time_scrubbed.connect(scrubbed.append)
    drag(view.viewport(), to_view(0.05), to_view(0.15))
    assert len(scrubbed) > 1 and scrubbed == sorted(scrubbed)
    t = scrubbed[-1]
    assert 0.14 < t < 0.16 and t in bar_mass.time
    assert second.cursor.value() == t


def test_dragging_onto_an_impulse_reads_it_during_and_after_the_run(shown, example_results):
    """The pendulum's impulse of 152.626 ms (5 ms frames): while the run goes on its stem stands at
    the frame that sums it, 155.626 ms, and says since when; once the event log has come, at its
    instant, where the dragged cursor stops and reads it (it snapped to the frame of 150 ms: 0 N s)."""
    results = example_results("pendulum_impact")
    times, normal, _ = impulse_events(results, "tip-surface")
    dock = shown(PlotsDock(), 700, 500)
    dock.set_results(Results(model=results.model, layout=output_layout(results.model)))  # a run starts
    dock.append_frames(list(results.frames))
    panel = dock.panels[0]
    frame = results.time[np.searchsorted(results.time, times[0])]                 # 155.626 ms
    stems, _ = panel.curve_item("contact/tip-surface/I_n").stems()
    assert stems[0] == frame
    scrubbed = drag_cursor(dock, 0.147, frame + 0.5e-3)
    assert scrubbed[-1] == frame
    assert f"normal impulse = {format_quantity(normal[0], 'N s', 6)} since 150 ms" in panel.readout.text()
    dock.set_results(results)                                                      # the run ended: its events came
    stems, _ = panel.curve_item("contact/tip-surface/I_n").stems()
    np.testing.assert_array_equal(stems, times)
    scrubbed = drag_cursor(dock, 0.147, times[0] + 1e-3)                           # past the stem, before the frame
    assert scrubbed[-1] == times[0]
    assert panel.readout.text().startswith(f"t = {format_quantity(times[0], 's', 6)}   (frame at 150 ms)")
    assert f"normal impulse = {format_quantity(normal[0], 'N s', 6)}" in panel.readout.text()   # 1.44158 N s


def drag_cursor(dock: PlotsDock, start: float, end: float) -> list[float]:
    """Zoom the first plot onto 140-170 ms, drag its time cursor from ``start`` to ``end`` (s);
    the times the dock said were scrubbed."""
    dock.set_time(start)
    panel = dock.panels[0]
    vb = panel.plot.getPlotItem().vb
    vb.setRange(xRange=(0.14, 0.17), padding=0)
    y = sum(vb.viewRange()[1]) / 2

    def pixel(t: float) -> QPoint:
        return panel.plot.mapFromScene(vb.mapViewToScene(QPointF(t, y)))

    scrubbed: list[float] = []
    dock.time_scrubbed.connect(scrubbed.append)
    drag(panel.plot.viewport(), pixel(start), pixel(end))
    dock.time_scrubbed.disconnect(scrubbed.append)
    return scrubbed


def test_driver_angle_abscissa_and_presets():
    results = simulate(load_model(EXAMPLES / "slider_crank_flexible.json"))
    names = presets(results)
    assert next(iter(names)) == "mid-span deflection vs driver angle"
    assert list(x_axes(results)) == ["time", "driver/motor/value", "driver/motor/angle"]
    dock = PlotsDock()
    dock.set_results(results)
    (curve,) = dock.plotted()
    assert curve.x_series.key == "driver/motor/angle" and curve.x_series.column == "driver.motor.angle_deg"
    np.testing.assert_allclose(curve.x, np.degrees(results.stack("driver_angle")[:, 0]), rtol=1e-15)
    np.testing.assert_array_equal(curve.y, results.stack("midspan")[:, 0])
    panel = dock.panels[0]
    panel.set_x_axis("driver/motor/value")
    np.testing.assert_array_equal(panel.plotted()[0].x, results.stack("driver_angle")[:, 0])
    t = results.time[len(results.time) // 2]
    dock.set_time(t)
    assert panel.cursor.value() == results.frames[frame_index_at(results.time, t)].driver_angle[0]
    curve = panel.plotted()[0]
    scrubbed = []
    dock.time_scrubbed.connect(scrubbed.append)
    panel.cursor.setValue(curve.x[100] + 1e-9)       # as a drag does, then the drag's signal
    panel.cursor.sigDragged.emit(panel.cursor)
    assert scrubbed == [results.time[100]]           # the frame whose angle is nearest
    dock.deleteLater()


def test_the_impulse_series_add_up_to_the_impulses_of_the_events(example_results):
    results = example_results("slider_crank_block")
    from app.results.series import catalogue, presets, series_xy, x_axes
    assert presets(results)["contact impulses vs time"] == [("time", ("contact/block-slider/I_n",
                                                                         "contact/block-slider/I_t"))]
    _t, impulses = series_xy(results.frames, x_axes(results)["time"], catalogue(results)["contact/block-slider/I_n"])
    from_events = sum(e["I_n_N_s"] for e in results.events if e["kind"] == "impulse")
    assert impulses.sum() == pytest.approx(from_events, rel=1e-12) and from_events > 1.0  # N s
    assert catalogue(results)["contact/block-slider/I_n"].column == "contact.block-slider.I_n_N_s"


# ---------------------------------------------------------------- impulse-model pairs (issue 26)
def impulse_events(results: Results, pair: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The event log's impulses of ``pair``: times (s), normal and tangential impulses (N s)."""
    events = [e for e in results.events if e["kind"] == "impulse" and e["contact"] == pair]
    return tuple(np.array([e[k] for e in events], dtype=float) for k in ("time_s", "I_n_N_s", "I_t_N_s"))


@pytest.mark.parametrize("name, pair", [("bar_mass_impact", "striker-end"), ("rod_impact_rigid", "B-ground")])
def test_an_impulse_pair_shows_its_impulses_as_stems_by_default(shown, example_results, name, pair):
    results = example_results(name)
    dock = shown(PlotsDock(), 700, 500)
    dock.set_results(results)
    assert dock.preset_combo.currentText() == "contact impulses vs time"
    panel = dock.panels[0]
    assert panel.selected_series() == [f"contact/{pair}/I_n", f"contact/{pair}/I_t"]
    times, normal, tangential = impulse_events(results, pair)
    t, drawn = panel.curve_item(f"contact/{pair}/I_n").stems()
    np.testing.assert_array_equal(t, times)                   # a stem at every impulse's instant
    np.testing.assert_allclose(drawn, normal, rtol=1e-12)     # N s, as the event log has it
    t, drawn = panel.curve_item(f"contact/{pair}/I_t").stems()
    np.testing.assert_array_equal(t, times[tangential != 0.0])
    np.testing.assert_allclose(drawn, tangential[tangential != 0.0], rtol=1e-12)
    assert panel.axis_units() == ("N s",)
    assert "N s)" in panel.plot.getPlotItem().getAxis("left").labelString()


def test_the_rigid_rods_impulse_is_the_energetic_laws(example_results):
    """LAJSS 2024 Table 1 (e = 0.82, energetic law): I_ne = 0.7681 N s, drawn at t = 0."""
    _times, normal, _tangential = impulse_events(example_results("rod_impact_rigid"), "B-ground")
    assert normal.sum() == pytest.approx(0.7681, abs=5e-5)


def test_an_impulse_pairs_force_is_named_by_its_window(dock, bar_mass, tmp_path):
    from app.results.export import write_series_csv
    from solver.results.summary import summarize

    assert bar_mass.layout.force_windows == {"striker-end": 0.005}  # solver.impulse_force_window of the example
    force = catalogue(bar_mass)["contact/striker-end/F_n"]
    assert force.label == "striker-end normal force averaged over Δt = 5 ms"
    assert force.window == 0.005 and not force.impulsive
    assert dock.panels[0].series_item("contact/striker-end/F_n").toolTip(0) == force.title
    write_series_csv(dock.plotted(), tmp_path / "force.csv")
    header = (tmp_path / "force.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "time_s,contact.striker-end.F_n_avg_5ms_N,contact.striker-end.F_t_avg_5ms_N"
    periods = summarize(bar_mass)["contacts"]["striker-end"]["periods"]
    assert periods and all("peak_normal_force_N" not in p for p in periods)
    assert all(p["force_window_s"] == 0.005 and p["peak_averaged_normal_force_N"] > 0 for p in periods)


def test_a_lagrange_pairs_force_is_a_force(example_results):
    results = example_results("bar_mass_impact")
    model = {**results.model, "contacts": [{**c, "model": {"kind": "lagrange"}} for c in results.model["contacts"]]}
    layout = output_layout(model)
    assert layout.force_windows == {}
    series = catalogue(Results(model, layout))
    assert series["contact/striker-end/F_n"].label == "striker-end normal force"
    assert series["contact/striker-end/F_n"].column == "contact.striker-end.F_n_N"
    assert presets(Results(model, layout))["contact forces vs time"] == next(iter(presets(Results(model, layout)).values()))


def test_stems_stay_stems_when_the_plot_downsamples(shown, bar_mass):
    dock = shown(PlotsDock(), 700, 500)
    dock.set_results(bar_mass)
    panel = dock.panels[0]
    stems = panel.curve_item("contact/striker-end/I_n")
    panel.plot.getPlotItem().setDownsampling(ds=4, auto=False, mode="mean")   # the plot's context menu
    panel.plot.getPlotItem().setClipToView(True)
    assert stems.opts["downsample"] == 1 and not stems.opts["autoDownsample"] and not stems.opts["clipToView"]


def test_a_rerun_keeps_the_preset_chooser_on_the_plots_shown(dock, bar_mass):
    """A run with the same outputs keeps the panels; the chooser names what they show,
    not the first preset of its refilled list."""
    assert next(iter(presets(bar_mass))) != "contact forces vs time"
    dock.set_results(bar_mass)
    assert dock.preset_combo.currentText() == "contact forces vs time"
    assert dock.panels[0].selected_series() == ["contact/striker-end/F_n", "contact/striker-end/F_t"]


def test_a_driven_flexible_mechanism_struck_shows_its_impulses_first(shown, example_results):
    """Getting Started's slider-crank (a driven flexible rod struck by a block): a run shows
    its contact, as docs/gui-simulation.md says, not the rod's mid-span deflection."""
    results = example_results("slider_crank_block")
    assert list(presets(results))[:3] == ["contact impulses vs time", "contact forces vs time",
                                          "mid-span deflection vs driver angle"]
    dock = shown(PlotsDock(), 700, 500)
    dock.set_results(results)
    assert dock.preset_combo.currentText() == "contact impulses vs time"
    assert dock.panels[0].selected_series() == ["contact/block-slider/I_n", "contact/block-slider/I_t"]


def _stems_under_the_legend(panel: PlotPanel) -> int:
    """How many drawn impulse stems (from 0 to the impulse, at its instant) cross the legend's box."""
    item = panel.plot.getPlotItem()
    rect = item.getViewBox().mapSceneToView(item.legend.sceneBoundingRect()).boundingRect()
    crossing = 0
    for key in panel.selected_series():
        t, impulse = panel.curve_item(key).stems()
        low, high = np.minimum(impulse, 0.0), np.maximum(impulse, 0.0)
        crossing += np.count_nonzero((rect.left() < t) & (t < rect.right()) & (low < rect.bottom()) & (rect.top() < high))
    return crossing


def test_the_legend_hides_no_impulse_of_a_plot_at_the_docks_size(shown, qtbot, example_results):
    """The pendulum's three impulses (0.15, 0.41, 0.62 s of 0.8 s) on a plot of the dock's default size:
    the legend, always at the top right, hid the last; it goes where it hides least, the view widened
    on its side just enough to hide none, again when the plot is resized."""
    panel = shown(PlotPanel(), 560, 280)
    panel.set_results(example_results("pendulum_impact"))
    panel.set_series(["contact/tip-surface/I_n", "contact/tip-surface/I_t"])
    box = panel.plot.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: box.viewRange()[0][1] > 0.8)  # the run's span in view
    assert sum(len(panel.curve_item(k).stems()[0]) for k in panel.selected_series()) == 6
    qtbot.waitUntil(lambda: _stems_under_the_legend(panel) == 0)
    panel.resize(450, 250)
    qtbot.waitUntil(lambda: box.boundingRect().width() < 300)
    assert _stems_under_the_legend(panel) == 0


def test_the_legend_placements_docstring_examples():
    import doctest

    from app.results import legend_room

    assert doctest.testmod(legend_room).failed == 0


def _points_under_the_legend(panel: PlotPanel, items, view) -> int:
    """How many drawn points of ``items`` (curves of view box ``view``) the legend's box covers."""
    legend = panel.plot.getPlotItem().legend.sceneBoundingRect()
    count = 0
    for item in items:
        x, y = item.getData()
        count += sum(legend.contains(view.mapViewToScene(QPointF(a, b))) for a, b in zip(x, y) if np.isfinite(b))
    return count


def in_view(item, view) -> bool:
    """Whether the whole of ``item``'s curve is within ``view``'s range (it has been fitted)."""
    _, y = item.getData()
    low, high = view.viewRange()[1]
    return low <= np.nanmin(y) and np.nanmax(y) <= high


def test_the_legend_hides_no_curve_of_the_right_axis(shown, qtbot, bar_mass):
    """The striker's velocity (m/s, right axis) beside the contact force (N, left): the legend went
    where it hid the fewest of the force's points, over 165 of the velocity's; now it counts both."""
    panel = shown(PlotPanel(), 560, 280)
    panel.set_results(bar_mass)
    panel.set_series(["contact/striker-end/F_n", "node/striker/vx"])
    left, right = panel.plot.getPlotItem().vb, panel.right_axis.view
    force, velocity = panel.curve_item("contact/striker-end/F_n"), panel.curve_item("node/striker/vx")
    for width, height in ((560, 280), (450, 250)):
        panel.resize(width, height)
        qtbot.waitUntil(lambda: panel.plot.width() < width - 150 and in_view(velocity, right))
        assert _points_under_the_legend(panel, [velocity], right) == 0
        assert _points_under_the_legend(panel, [force], left) == 0


def test_a_pan_moves_and_freezes_both_axes_until_autoscale(shown, qtbot, bar_mass):
    """A force on the left axis, a velocity on the right, a run growing: a drag in the plot moved
    the left curves alone (the right's ordinate stayed, so the velocity slid against the force it
    goes with). Now both ordinates move by the same fraction, neither follows the run while it
    grows, and Autoscale (or View All) fits and follows with both again."""
    panel = shown(PlotPanel(), 900, 400)
    panel.set_results(Results(model=bar_mass.model, layout=bar_mass.layout, frames=bar_mass.frames[:300]))
    panel.set_series(["contact/striker-end/F_n", "node/end/vx"])
    left, right = panel.plot.getPlotItem().vb, panel.right_axis.view
    assert panel.axis_units() == ("N", "m/s")

    def spans() -> list[float]:
        return [*left.viewRange()[0], *left.viewRange()[1], *right.viewRange()[1]]

    def fraction(before, after) -> float:
        """How far the range ``before`` moved to ``after``, in its width."""
        return (after[0] - before[0]) / (before[1] - before[0])

    before = spans()
    centre = panel.plot.viewport().rect().center()
    drag(panel.plot.viewport(), centre, centre + QPoint(60, 40))      # down and right
    panned = spans()
    assert fraction(before[2:4], panned[2:4]) > 0.05                   # the left ordinate moved
    assert fraction(before[4:], panned[4:]) == pytest.approx(fraction(before[2:4], panned[2:4]), rel=1e-6)
    panel.append_frames(bar_mass.frames[300:])                          # the run goes on: both stay
    assert spans() == panned
    (autoscale,) = [b for b in panel.findChildren(QToolButton) if b.text() == "Autoscale"]
    qtbot.mouseClick(autoscale, Qt.MouseButton.LeftButton)
    fitted = spans()
    vx = bar_mass.stack("node_v")[:, bar_mass.node_index("end"), 0]
    assert right.viewRange()[1][0] <= vx.min() and right.viewRange()[1][1] >= vx.max()   # the whole run
    assert fitted[2:] != panned[2:]
    drag(panel.plot.viewport(), centre, centre + QPoint(-30, 20))
    left.menu.viewAll.trigger()                                          # the plot's menu: View All
    assert spans() == pytest.approx(fitted)


def test_a_small_plot_keeps_its_curves_over_most_of_its_view(shown, qtbot, bar_mass):
    """Four plots of the translational-clearance slider-crank at 1280 x 800 are some 350 x 70 px: the view was
    widened as far as cleared the legend, up to ten times the run (-1.87 to 0.21 s for a 0.2 s run, the curves a
    tenth of the plot; here 8 times).  A legend that needs the view widened beyond 1 / (1 - LEGEND_ROOM) times the
    curves' box now lies over the curves: the run spans the view's width and the force its height (as
    pyqtgraph pads an automatic range)."""
    panel = shown(PlotPanel(), 380, 150)
    panel.set_results(bar_mass)
    panel.set_series(["contact/striker-end/F_n", "contact/striker-end/F_t"])
    box = panel.plot.getPlotItem().getViewBox()
    span = float(bar_mass.time[-1] - bar_mass.time[0])
    qtbot.waitUntil(lambda: box.viewRange()[0][1] >= bar_mass.time[-1])  # the run's span in view
    (x0, x1), (y0, y1) = box.viewRange()
    force = panel.curve_item("contact/striker-end/F_n").getData()[1]
    assert span / (x1 - x0) >= 0.85
    assert np.ptp(force[np.isfinite(force)]) / (y1 - y0) >= 0.8
