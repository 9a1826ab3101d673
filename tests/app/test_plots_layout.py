"""The plots as a user meets them (issue 27 point 3): in front and large when a run starts, series
names that can be read, a second unit on a right axis, engineering prefixes on every axis."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtWidgets import QStyleOptionViewItem

from app.results.plots import PlotPanel
from app.shell.layout import DEFAULT_SIZE
from app.shell.main_window import MainWindow
from app.sweeps.results_view import SweepResultsView

RUN_TIMEOUT_MS = 120_000


def in_front(dock) -> bool:
    """Whether ``dock`` shows (Qt moves a tab group's hidden docks away rather than hiding them)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def run(qtbot, window) -> None:
    """F5, as a user starts a run, and wait for its end."""
    sim = window.simulation
    window.activateWindow()
    window.sketch.setFocus()
    qtbot.keyClick(window.sketch, Qt.Key.Key_F5)
    if not sim.runs.running and not sim.runs.results:  # the offscreen platform may not route shortcuts
        sim.run_action.trigger()
    qtbot.waitUntil(lambda: not sim.runs.running, timeout=RUN_TIMEOUT_MS)
    sim.runs.wait()


def test_a_run_brings_the_plots_forward_and_large(qtbot, window):
    window.resize(*DEFAULT_SIZE)
    qtbot.waitUntil(lambda: window.width() == DEFAULT_SIZE[0])
    plots, sweeps = window.results_ui.plots, window.sweeps_ui
    sweeps.reveal(sweeps.table_dock)                       # a sweep's table, tabbed in front of the plots
    qtbot.waitUntil(lambda: in_front(sweeps.table_dock))
    assert not in_front(plots)
    window.resizeDocks([plots], [120], Qt.Orientation.Vertical)  # a remembered strip
    assert window.open_example("rod_impact_rigid")
    run(qtbot, window)
    qtbot.waitUntil(lambda: in_front(plots) and bool(plots.panels))
    assert not in_front(sweeps.table_dock)
    qtbot.waitUntil(lambda: plots.height() >= window.height() / 3)
    plot = plots.panels[0].plot
    assert plot.width() >= 250 and plot.height() >= 180
    assert window.sketch.height() >= 250                  # the canvas keeps room to play the run back


def test_the_plots_are_large_with_the_help_open_beside_the_model(qtbot, window):
    """Getting Started read at 1280 x 800 beside the model tree: the bottom row is what is left
    of the width (about 500 px), too little for the plots' share and the impact events beside
    them, which go a tab behind the plots (the plot was 90 px wide)."""
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.width() == 1280)
    window.reset_layout_action.trigger()
    window.help.show_getting_started()
    qtbot.waitUntil(lambda: in_front(window.help.dock) and window.tree_dock.width() >= 300)  # the column settled
    assert window.open_example("rod_impact_rigid")
    run(qtbot, window)
    plots = window.results_ui.plots
    qtbot.waitUntil(lambda: in_front(plots) and bool(plots.panels))
    qtbot.waitUntil(lambda: plots.panels[0].plot.width() >= 250)
    assert plots.panels[0].plot.height() >= 180 and in_front(window.help.dock)
    assert window.results_ui.events_dock in window.tabifiedDockWidgets(plots)  # a tab away


def test_a_remembered_layout_does_not_keep_the_plots_small(qtbot, settings):
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.resize(*DEFAULT_SIZE)
    first.show()
    qtbot.waitExposed(first)
    first.resizeDocks([first.results_ui.plots], [100], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: first.results_ui.plots.height() < DEFAULT_SIZE[1] / 4)
    first.close()
    again = MainWindow(QSettings(settings.fileName(), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.open_example("rod_impact_rigid")
    run(qtbot, again)
    qtbot.waitUntil(lambda: again.results_ui.plots.height() >= again.height() / 3)


@pytest.fixture
def panel(shown, bar_mass) -> PlotPanel:
    p = shown(PlotPanel(), 900, 400)
    p.set_results(bar_mass)
    return p


def test_series_names_elide_the_pair_first_whole_in_the_tooltip(panel, qtbot):
    item = panel.series_item("contact/striker-end/F_t")
    title = "striker-end tangential force averaged over Δt = 5 ms (N)"
    assert item.text(0) == title and item.toolTip(0) == title
    assert panel.tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    tree = panel.tree
    tree.expandAll()
    qtbot.waitUntil(lambda: tree.viewport().width() > 0)
    assert tree.fontMetrics().horizontalAdvance(title) > tree.visualItemRect(item).width()  # it is elided
    shown = shown_text(tree, item)
    assert shown.startswith("…tang") and shown.endswith("(N)")  # every name here starts "striker-end ": the quantity, the unit
    splitter = panel.splitter
    wide = splitter.sizes()[0] + 200
    splitter.setSizes([wide, sum(splitter.sizes()) - wide])           # as the user drags the handle
    assert splitter.sizes()[0] == wide and tree.visualItemRect(item).width() > 300


def row_image(tree, item):
    """The pixels of ``item``'s row as the user sees it."""
    return tree.viewport().grab(tree.visualItemRect(item)).toImage()


def test_a_clearance_joints_two_forces_read_apart_in_the_list_at_1280_by_800(qtbot, window):
    """Both forces of a clearance joint, elided in the middle at the window's default size, read
    ``B-clea…ce (N)``; the start every series of the pair shares goes first, the quantity's start
    and the unit stay."""
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.width() == 1280)
    window.reset_layout_action.trigger()
    assert window.open_example("slider_crank_clearance_hertz")
    window.document.model["solver"]["end_time"] = 5e-5
    run(qtbot, window)
    plots = window.results_ui.plots
    qtbot.waitUntil(lambda: in_front(plots) and bool(plots.panels))
    tree = plots.panels[0].tree
    normal, tangential = (plots.panels[0].series_item(f"contact/B-clearance/{k}") for k in ("F_n", "F_t"))
    assert normal.checkState(0) == tangential.checkState(0) == Qt.CheckState.Checked
    width = tree.visualItemRect(normal).width()
    assert tree.fontMetrics().horizontalAdvance(normal.text(0)) > width      # too long for the list: elided
    assert row_image(tree, normal) != row_image(tree, tangential)            # and still told apart
    shown = [shown_text(tree, item) for item in (normal, tangential)]
    assert shown[0].startswith("…norm") and shown[0].endswith("(N)")   # "B-clearance " is every name's start
    assert shown[1].startswith("…tang") and shown[1].endswith("(N)")


def shown_text(tree, item) -> str:
    """The text the list paints for ``item``."""
    option = QStyleOptionViewItem()
    option.rect, option.widget = tree.visualItemRect(item), tree
    tree.itemDelegate().initStyleOption(option, tree.indexFromItem(item))
    return option.text


def test_a_second_unit_gets_the_right_axis_a_third_is_refused(panel):
    plot = panel.plot.getPlotItem()
    panel.set_series(["contact/striker-end/F_n"])
    assert panel.axis_units() == ("N",) and not plot.getAxis("right").isVisible()
    panel.set_series(["contact/striker-end/F_n", "node/end/vx"])
    assert panel.axis_units() == ("N", "m/s")
    assert plot.getAxis("right").isVisible()
    left, right = plot.getAxis("left").labelString(), plot.getAxis("right").labelString()
    assert "N)" in left and "m/s)" in right
    vx = panel.curve_item("node/end/vx")
    assert vx in panel.right_axis.items and vx.getViewBox() is panel.right_axis.view
    np.testing.assert_array_equal(vx.getData()[1], panel.plotted()[1].y)
    panel.set_series(["contact/striker-end/F_n", "node/end/vx", "energy/kinetic"])
    assert panel.selected_series() == ["contact/striker-end/F_n", "node/end/vx"]
    assert not panel.unit_note.isHidden() and "kinetic (J)" in panel.unit_note.text()
    assert panel.series_item("energy/kinetic").checkState(0) == Qt.CheckState.Unchecked
    panel.set_series(["node/end/vx"])                                   # one unit again: on the left
    assert panel.axis_units() == ("m/s",) and not plot.getAxis("right").isVisible()
    assert panel.unit_note.isHidden()


def test_axes_carry_engineering_prefixes(panel, qtbot):
    panel.set_series(["contact/striker-end/F_n"])
    panel.autoscale()
    axis = panel.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: "(mN)" in axis.labelString())              # the bar's forces are ~0.2 N
    assert "x0.001" not in axis.labelString()


def test_strains_are_plotted_in_microstrain_as_the_colour_bar_gives_them(panel, qtbot):
    """Issue 27: the strain plot was in plain strain while the playback's colour bar is in µε."""
    key = next(k for k in panel._series if k.startswith("strain/") and k.endswith("/axial"))
    panel.set_series([key])
    panel.autoscale()
    axis = panel.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: "(µε)" in axis.labelString())
    assert axis.scale == 1e6 and "x0.001" not in axis.labelString()
    panel.set_series(["contact/striker-end/F_n"])  # back to a force: ticks unscaled again
    qtbot.waitUntil(lambda: "(mN)" in axis.labelString())
    assert axis.scale == 1.0


def test_a_sweeps_dimensionless_axis_is_plain_numbers(shown, qtbot):
    view = shown(SweepResultsView(), 800, 400)
    rows = [{"run": f"r{k}", "status": "completed", "contacts.tip.e": e, "contact.tip.peak_F_n_N": 1500.0 * (1 + e)}
            for k, e in enumerate((0.5, 0.6, 0.7, 0.8, 0.9))]
    view.set_rows(rows, ["contacts.tip.e"])
    assert view.x_combo.currentText() == "contacts.tip.e" and view.y_combo.currentText() == "contact.tip.peak_F_n_N"
    plot = view.plot.getPlotItem()
    plot.vb.autoRange()
    bottom, left = plot.getAxis("bottom"), plot.getAxis("left")
    qtbot.waitUntil(lambda: "(kN)" in left.labelString())
    assert "x0.001" not in bottom.labelString() and "(" not in bottom.labelString()
    ticks = [float(value) for level in bottom.tickValues(*plot.vb.viewRange()[0], 400) for value in level[1]]
    assert ticks and 0.4 <= min(ticks) and max(ticks) <= 1.0       # the restitution's own values
    assert bottom.autoSIPrefixScale == 1.0


def test_the_series_names_docstring_examples(qapp):
    import doctest

    from app.results import series_tree

    assert doctest.testmod(series_tree).failed == 0


def covered(panel, rect) -> int:
    """How many drawn points of the panel's curves (both axes) lie in scene ``rect``."""
    plot = panel.plot.getPlotItem()
    items = [(plot.vb, c) for c in plot.listDataItems()] + [(panel.right_axis.view, c) for c in panel.right_axis.items]
    count = 0
    for view, curve in items:
        x, y = curve.getData()
        for xi, yi in zip(x, y):
            count += rect.contains(view.mapViewToScene(QPointF(float(xi), float(yi))))
    return count


def test_a_legend_wider_than_a_narrow_plot_fits_and_hides_no_curve(shown, bar_mass, qtbot):
    """Three long names (``striker-end tangential force averaged over Δt = 5 ms (N)``) over a plot
    of 145 px: the legend was 391 px wide, cut at the plot's edge over the curves. Now smaller and
    cut with the unit kept, the pair's shared words left out so the two forces read apart, whole
    in their tooltips, and whole again when the panel widens."""
    panel = shown(PlotPanel(), 420, 300)
    panel.set_results(bar_mass)
    keys = ["contact/striker-end/F_n", "contact/striker-end/F_t", "node/end/vx"]
    for key in keys:                                      # checked in the list, as a user picks them
        item = panel.series_item(key)
        panel.tree.scrollToItem(item)
        rect = panel.tree.visualItemRect(item)
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(rect.left() + panel.tree.indentation() // 2 + 4, rect.center().y()))
        qtbot.waitUntil(lambda key=key: key in panel.selected_series())
    plot = panel.plot.getPlotItem()
    legend, view = plot.legend, plot.vb.sceneBoundingRect()
    qtbot.waitUntil(lambda: legend.sceneBoundingRect().width() < view.width())
    assert view.contains(legend.sceneBoundingRect())
    assert covered(panel, legend.sceneBoundingRect()) == 0
    names = [label.text for _, label in legend.items]
    assert len(set(names)) == 3 and all(n.endswith(("(N)", "(m/s)")) for n in names)
    assert names[0].startswith("…normal") and names[1].startswith("…tang")
    assert [label.toolTip() for _, label in legend.items] == [panel.series_item(k).toolTip(0) for k in keys]
    panel.resize(1400, 400)
    qtbot.waitUntil(lambda: [label.text for _, label in legend.items] == [panel.series_item(k).toolTip(0) for k in keys])
    assert plot.vb.sceneBoundingRect().contains(legend.sceneBoundingRect())


def test_the_legend_fit_docstring_examples(qapp):
    import doctest

    from app.results import legend_fit
    assert doctest.testmod(legend_fit).failed == 0


def test_a_sweep_plot_coloured_by_a_column_some_runs_lack_says_so(shown):
    """Colour by a scalar two runs of five have not (no second impact): the points were drawn plain,
    the note under the plot empty, as if no colour had been chosen. They still are, and the note says why;
    so it does of a run not drawn (failed: it was left out unsaid)."""
    view = shown(SweepResultsView(), 800, 400)
    rows = [{"run": f"r{k}", "status": "completed", "contacts.tip.e": e, "contact.tip.peak_F_n_N": 1500.0 * (1 + e),
             "contact.tip.second_I_n_N_s": 0.1 * e if k < 3 else None} for k, e in enumerate((0.5, 0.6, 0.7, 0.8, 0.9))]
    view.set_rows(rows, ["contacts.tip.e"])
    view.colour_combo.setCurrentText("contact.tip.second_I_n_N_s")
    assert view.colour_note.text() == ("not coloured: contact.tip.second_I_n_N_s is missing in 2 of the 5 runs "
                                       "drawn (r3, r4)")
    view.colour_combo.setCurrentText("contacts.tip.e")
    assert view.colour_note.text().startswith("colour: contacts.tip.e from 0.5 (purple)")
    view.set_rows([*rows, {"run": "r5", "status": "failed", "contacts.tip.e": 1.0}], ["contacts.tip.e"])
    assert view.colour_note.text().startswith("1 of 6 runs not drawn (no number for both columns); colour: ")
