"""A layout that fits 1280 × 800: property rows, the events table's essential columns and
the plots readable; the layout kept between sessions; View > Reset Layout."""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt

from app.document.entities import EntityRef
from app.shell.layout import DEFAULT_SIZE
from app.shell.main_window import MainWindow

#: columns of the events table that must show without scrolling: time, pair, event, type, I_n
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


def test_the_layout_is_kept_between_sessions_and_reset_from_the_view_menu(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "layout.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.history_dock.raise_()
    first.problems_dock.hide()
    first.simulation.bar.hide()
    first.close()

    second = MainWindow(settings)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert second.problems_dock.isHidden() and second.simulation.bar.isHidden()
    assert in_front(second.history_dock) and not in_front(second.property_dock)  # its tab was in front
    second.property_dock.setFloating(True)
    second.reset_layout_action.trigger()
    assert not second.problems_dock.isHidden() and not second.simulation.bar.isHidden()
    assert not second.property_dock.isFloating() and in_front(second.property_dock)
    assert second.dockWidgetArea(second.property_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert second.dockWidgetArea(second.results_ui.plots) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert second.tabifiedDockWidgets(second.results_ui.events_dock) == [second.results_ui.compare_dock]
