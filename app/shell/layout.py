"""The window's layout: where the docks go by default, kept between sessions, and
View > Reset Layout.

The default is made to be read at 1280 × 800: a left column the window's full height
with the model tree, the property panel (History in a tab behind it) and the problems
list; below the canvas the plots beside the impact events (Compare runs in a tab
behind them).  The window takes the layout saved at the end of the last session when
it is made; without one, it is arranged when first shown (not before: tab groups made
before leave a stray tab bar in Qt 6.11).  Geometry and dock state
are saved in QSettings (``main_window/geometry``, ``main_window/state``) when the window
closes; a state saved by a version of the app with another arrangement
(:data:`LAYOUT_VERSION`) is ignored.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar

#: the window's size when no geometry was saved, px (shrunk to the screen if it is smaller)
DEFAULT_SIZE = (1280, 800)
#: width of the left column, px
LEFT_WIDTH = 310
#: heights of the model tree, the property panel and the problems list, px (in proportion)
LEFT_HEIGHTS = (190, 320, 110)
#: height of the plots and events below the canvas, px
BOTTOM_HEIGHT = 300
#: widths of the plots and the events beside them, px (in proportion)
BOTTOM_WIDTHS = (400, 440)
#: the arrangement's version: a saved state of another one is not restored
LAYOUT_VERSION = 2


@dataclass(frozen=True)
class Docks:
    """The window's docks and tool bars, by place."""

    tree: QDockWidget
    properties: QDockWidget
    history: QDockWidget
    problems: QDockWidget
    plots: QDockWidget
    events: QDockWidget
    compare: QDockWidget
    #: ``(area, tool bar)`` in the order they are put back
    toolbars: tuple[tuple[Qt.ToolBarArea, QToolBar], ...] = ()


class WindowLayout(QObject):
    """Arranges ``docks`` in ``window``, restores and saves the layout in ``settings``."""

    def __init__(self, window: QMainWindow, settings: QSettings, docks: Docks):
        super().__init__(window)
        self.window, self.settings, self.docks = window, settings, docks
        self._shown = False
        window.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        window.setCorner(Qt.Corner.TopLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        geometry = settings.value("main_window/geometry")
        if not (isinstance(geometry, QByteArray) and window.restoreGeometry(geometry)):
            window.resize(*default_size())
        saved = settings.value("main_window/state")
        self._restored = isinstance(saved, QByteArray) and window.restoreState(saved, LAYOUT_VERSION)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self.window and event.type() == QEvent.Type.Show and not self._shown:
            self._shown = True
            if not self._restored:
                self.arrange()
            else:  # laying out the restored docks may widen the window: keep the size it had
                size = self.window.size()
                QTimer.singleShot(0, lambda: self.window.resize(size))
        return False

    def arrange(self) -> None:
        """Put every dock in its default place, size and tab order."""
        w, d = self.window, self.docks
        left, bottom = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        for area, toolbar in d.toolbars:
            w.addToolBar(area, toolbar)
            toolbar.show()
        for dock in (d.tree, d.properties, d.problems):
            w.addDockWidget(left, dock, Qt.Orientation.Vertical)
        w.tabifyDockWidget(d.properties, d.history)
        w.addDockWidget(bottom, d.plots)
        w.addDockWidget(bottom, d.events, Qt.Orientation.Horizontal)
        w.tabifyDockWidget(d.events, d.compare)
        for dock in (d.tree, d.properties, d.history, d.problems, d.plots, d.events, d.compare):
            dock.show()
        d.properties.raise_()
        d.events.raise_()
        w.resizeDocks([d.tree], [LEFT_WIDTH], Qt.Orientation.Horizontal)
        w.resizeDocks([d.tree, d.properties, d.problems], list(LEFT_HEIGHTS), Qt.Orientation.Vertical)
        w.resizeDocks([d.plots], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)
        w.resizeDocks([d.plots, d.events], list(BOTTOM_WIDTHS), Qt.Orientation.Horizontal)

    def reset(self) -> None:
        """View > Reset Layout: the default arrangement, every dock and tool bar shown and docked."""
        for dock in (getattr(self.docks, name) for name in ("tree", "properties", "history", "problems", "plots",
                                                            "events", "compare")):
            dock.setFloating(False)
        self.arrange()

    def save(self) -> None:
        """Keep the geometry and the layout for the next session."""
        self.settings.setValue("main_window/geometry", self.window.saveGeometry())
        self.settings.setValue("main_window/state", self.window.saveState(LAYOUT_VERSION))


def default_size() -> tuple[int, int]:
    """:data:`DEFAULT_SIZE`, or the screen's available size where that is smaller."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return DEFAULT_SIZE
    available = screen.availableGeometry()
    return min(DEFAULT_SIZE[0], available.width()), min(DEFAULT_SIZE[1], available.height())
