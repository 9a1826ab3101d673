"""A layout that fits 1280 × 800: property rows, the events table's essential columns and
the plots readable; View > Reset Layout.  (Kept between sessions: test_main_window.py.)"""
from __future__ import annotations

from PySide6.QtCore import Qt

from app.document.entities import EntityRef
from app.shell.layout import DEFAULT_SIZE
from app.shell.main_window import MainWindow

#: columns of the events table that must show without scrolling: time, type, event, pair, I_n
ESSENTIAL_COLUMNS = 5


def in_front(dock) -> bool:
    """Whether ``dock`` shows (Qt 6.11 moves a tab group's hidden docks away rather than hiding them)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def big(qtbot, window) -> MainWindow:
    window.resize(*DEFAULT_SIZE)
    qtbot.waitUntil(lambda: window.width() == DEFAULT_SIZE[0])
    return window


def test_at_1280_by_800_the_panels_show_their_content(qtbot, window, example_results):
    window = big(qtbot, window)
    window.open_example("slider_crank_block")
    window.selection.replace((EntityRef("links", "rod"),))
    table = window.properties.table
    last = table.rowCount() - 1
    assert last >= 7
    assert table.rowViewportPosition(last) + table.rowHeight(last) <= table.viewport().height()  # every row
    window.results_ui.show_results(example_results("slider_crank_block"))
    events = window.results_ui.events.table
    window.results_ui.events_dock.raise_()
    qtbot.waitUntil(lambda: events.viewport().width() > 0)
    essential = events.columnViewportPosition(ESSENTIAL_COLUMNS - 1) + events.columnWidth(ESSENTIAL_COLUMNS - 1)
    assert essential <= events.viewport().width()
    assert events.viewport().height() >= 6 * events.rowHeight(0)  # six events at a glance
    plot = window.results_ui.plots.panels[0].plot
    qtbot.waitUntil(lambda: plot.width() >= 250 and plot.height() >= 180)  # once laid out
    assert window.sketch.width() >= 600 and window.sketch.height() >= 300


def test_view_reset_layout_puts_every_panel_and_tool_bar_back(qtbot, window):
    window.history_dock.raise_()
    window.problems_dock.hide()
    window.simulation.bar.hide()
    window.property_dock.setFloating(True)
    window.reset_layout_action.trigger()
    assert not window.problems_dock.isHidden() and not window.simulation.bar.isHidden()
    assert not window.property_dock.isFloating() and in_front(window.property_dock)
    assert window.dockWidgetArea(window.property_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert window.dockWidgetArea(window.results_ui.plots) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.tabifiedDockWidgets(window.results_ui.events_dock) == [window.results_ui.compare_dock]


def window_on_screen(qtbot, settings, monkeypatch, available) -> MainWindow:
    """A new window shown on a screen whose available geometry is ``available`` (a QRect), fitted to it."""
    from app.shell import layout

    monkeypatch.setattr(layout, "available_geometry", lambda window: available)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: available.contains(window.frameGeometry()))
    return window


def test_the_window_fits_the_available_geometry_of_its_screen_frame_included(qtbot, settings, monkeypatch):
    """Issue #27: on a 1280 x 800 screen whose task bar takes 30 px, the window, its frame
    and title bar fit in what is left and the status bar is on the screen."""
    from PySide6.QtCore import QRect

    available = QRect(0, 30, 1280, 770)
    window = window_on_screen(qtbot, settings, monkeypatch, available)
    bar = window.statusBar()
    assert bar.isVisible()
    bottom_left = bar.mapToGlobal(bar.rect().bottomLeft())
    assert available.contains(bottom_left)
    # a geometry saved on a larger screen is brought back onto this one
    window.setGeometry(QRect(200, 100, 1600, 1000))
    window.close()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    qtbot.waitUntil(lambda: available.contains(again.frameGeometry()))


def test_fitted_keeps_a_known_frame_inside_and_a_window_that_fits_where_it_is():
    from PySide6.QtCore import QRect

    from app.shell.layout import fitted

    available = QRect(0, 0, 1280, 800)
    client, frame = QRect(4, 30, 1280, 800), QRect(0, 0, 1288, 834)  # a 26 px title bar, 4 px borders
    out = fitted(client, frame, available)
    assert (out.x(), out.y(), out.width(), out.height()) == (4, 30, 1272, 766)
    small = QRect(104, 130, 600, 400)
    assert fitted(small, QRect(100, 100, 608, 434), available) == small


def test_at_1280_by_800_every_tool_bar_button_shows_without_the_overflow_arrow(qtbot, window):
    """On a 1280 x 800 screen the window is 1270 x 760 inside its frame (``layout.fitted``):
    Snap to grid and Material, the tool bar's last buttons, were hidden behind its » arrow."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QToolButton

    from app.shell.layout import fitted

    screen = QRect(0, 0, *DEFAULT_SIZE)
    size = fitted(screen, screen, screen).size()
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size)
    bar = window.tool_bar
    qtbot.waitUntil(lambda: bar.widgetForAction(bar.actions_by_name["select"]).isVisible())
    assert not bar.findChild(QToolButton, "qt_toolbar_ext_button").isVisible()
    hidden = [action.text() for action in bar.actions()
              if not action.isSeparator() and not bar.widgetForAction(action).isVisible()]
    assert hidden == []


def test_after_a_run_at_1280_by_800_the_events_type_column_reads_without_scrolling(qtbot, window):
    """A run gives the plots 45 % of the row (RUN_SHARE): the events table beside them is some 215 px
    wide, and the pendulum's type column (SRD), fourth after time (152.626 ms), pair (tip-surface)
    and event, was off its right edge.  It comes second, after the time, whole."""
    from app.results.events_view import COLUMNS

    from .test_simulation_ui import run_with_f5

    window = big(qtbot, window)
    window.reset_layout_action.trigger()
    window.example_actions["pendulum_impact"].trigger()
    run_with_f5(qtbot, window)
    events = window.results_ui.events
    qtbot.waitUntil(lambda: events.table.rowCount() > 0 and events.table.viewport().width() < 300)
    row = next(r for r, e in enumerate(events.events) if e["kind"] == "impulse")
    column = next(k for k, (_h, key, _f) in enumerate(COLUMNS) if key == "type")
    assert events.row_texts(row)[column] == "SRD"
    right = events.table.columnViewportPosition(column) + events.table.columnWidth(column)
    assert right <= events.table.viewport().width()
    assert events.table.fontMetrics().horizontalAdvance("SRD") < events.table.columnWidth(column)


def test_at_1024_by_768_getting_started_opens_beside_the_model_inside_the_screen(qtbot, settings, monkeypatch):
    """F1 on a 1024 x 768 screen: the help beside the model tree made the window 1059 px wide
    (its docks' least widths: the comparison's and the plots' empty choosers asked 79 px each),
    its tool bar and playback bar past the screen's edge. Now it fits (with a run's plots too:
    1002 px, the plot's abscissa chooser narrowed as well)."""
    from PySide6.QtCore import QRect

    from app.shell import layout

    available = QRect(0, 0, 1024, 768)
    window = window_on_screen(qtbot, settings, monkeypatch, available)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F1)
    if not window.help.dock.isVisible():  # the offscreen platform may not route shortcuts
        window.help.getting_started_action.trigger()
    qtbot.waitUntil(lambda: window.help.dock.isVisible() and window.help.dock.width() > 100)
    assert window.minimumSizeHint().width() <= available.width() - layout.FRAME_ALLOWANCE[0]
    qtbot.wait(50)
    assert available.contains(window.frameGeometry())
    assert window.help.dock.width() >= 200 and window.window_layout.docks.tree.width() >= 100


def test_at_1280_by_800_a_run_with_four_plots_scrolls_them_rather_than_crush_the_canvas(qtbot, window):
    """The translational-clearance slider-crank's run shows four plots (a contact force for each corner of the
    slider): the plots dock took the four panels' least heights, 590 px of the 800, and left the canvas above
    it 95 px (50 px at 1270 x 760 under Xvfb).  The panels now scroll in the dock: the canvas keeps 300 px and
    each plot its height (78 px)."""
    from PySide6.QtWidgets import QScrollArea

    from .test_simulation_ui import run_with_f5

    window = big(qtbot, window)
    window.reset_layout_action.trigger()
    window.example_actions["slider_crank_translational_clearance"].trigger()
    window.document.model["solver"]["end_time"] = 0.02  # the plots, without the whole run
    run_with_f5(qtbot, window)
    dock = window.results_ui.plots
    qtbot.waitUntil(lambda: len(dock.panels) == 4 and window.sketch.height() >= 300)
    assert min(p.plot.height() for p in dock.panels) >= 60
    assert dock.findChild(QScrollArea).verticalScrollBar().maximum() > 0  # the last plot a scroll away
