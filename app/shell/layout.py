"""The window's layout: where the docks go by default, kept between sessions, and
View > Reset Layout.

The default is made to be read at 1280 × 800: a left column the window's full height
with the model tree, the property panel (History in a tab behind it) and the problems
list, the help beside it at the window's left edge (hidden until asked for); below the
canvas the plots beside the impact events (Compare runs in a tab behind them).  The window takes the layout saved at the end of the last session when
it is made; without one, it is arranged when first shown (not before: tab groups made
before leave a stray tab bar in Qt 6.11).  Geometry and dock state
are saved in QSettings (``main_window/geometry``, ``main_window/state``) when the window
closes; a state saved by a version of the app with another arrangement
(:data:`LAYOUT_VERSION`) is ignored.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar, QWidget

#: the window's size when no geometry was saved, px (shrunk to fit the screen, :func:`fit_to_screen`)
DEFAULT_SIZE = (1280, 800)
#: room for the window manager's frame (borders, title bar) while Qt does not know it, px
FRAME_ALLOWANCE = (10, 40)
#: width of the left column, px
LEFT_WIDTH = 310
#: heights of the model tree, the property panel and the problems list, px (in proportion)
LEFT_HEIGHTS = (190, 320, 110)
#: height of the plots and events below the canvas, px
BOTTOM_HEIGHT = 300
#: widths of the plots and the events beside them, px (in proportion)
BOTTOM_WIDTHS = (400, 440)
#: the arrangement's version: a saved state of another one is not restored (3: the help dock)
LAYOUT_VERSION = 3


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
    #: the help pages, left of the model tree, shown only when asked for
    help: QDockWidget
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
        docks.help.visibilityChanged.connect(self._on_help_shown)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self.window and event.type() == QEvent.Type.Show and not self._shown:
            self._shown = True
            if not self._restored:
                self.arrange()
            # laying out restored docks may widen the window: keep the size it had; its frame
            # is known once it is shown
            size = self.window.size()
            QTimer.singleShot(0, lambda: self._settle(size))
        return False

    def _settle(self, size: QSize) -> None:
        self.window.resize(size)
        if fit_to_screen(self.window) and not self._restored:
            self._size_docks()

    def _on_help_shown(self, visible: bool) -> None:
        if visible:
            QTimer.singleShot(0, self._keep_left_column)  # once the dock has taken its place

    def _keep_left_column(self) -> None:
        """The help, opened beside the left column, takes its width from the canvas, not from
        the column (whose property rows would no longer be read)."""
        d = self.docks
        if d.help.isVisible() and not d.help.isFloating() and d.tree.width() < LEFT_WIDTH:
            self.window.resizeDocks([d.help, d.tree], [d.help.sizeHint().width(), LEFT_WIDTH],
                                    Qt.Orientation.Horizontal)

    def arrange(self) -> None:
        """Put every dock in its default place, size and tab order."""
        w, d = self.window, self.docks
        left, bottom = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        for area, toolbar in d.toolbars:
            w.addToolBar(area, toolbar)
            toolbar.show()
        w.addDockWidget(left, d.help)
        w.splitDockWidget(d.help, d.tree, Qt.Orientation.Horizontal)
        w.splitDockWidget(d.tree, d.properties, Qt.Orientation.Vertical)
        w.splitDockWidget(d.properties, d.problems, Qt.Orientation.Vertical)
        w.tabifyDockWidget(d.properties, d.history)
        w.addDockWidget(bottom, d.plots)
        w.addDockWidget(bottom, d.events, Qt.Orientation.Horizontal)
        w.tabifyDockWidget(d.events, d.compare)
        for dock in (d.tree, d.properties, d.history, d.problems, d.plots, d.events, d.compare):
            dock.show()
        d.properties.raise_()
        d.events.raise_()
        self._size_docks()

    def _size_docks(self) -> None:
        w, d = self.window, self.docks
        w.resizeDocks([d.tree], [LEFT_WIDTH], Qt.Orientation.Horizontal)
        w.resizeDocks([d.tree, d.properties, d.problems], list(LEFT_HEIGHTS), Qt.Orientation.Vertical)
        w.resizeDocks([d.plots], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)
        w.resizeDocks([d.plots, d.events], list(BOTTOM_WIDTHS), Qt.Orientation.Horizontal)

    def reset(self) -> None:
        """View > Reset Layout: the default arrangement, every dock and tool bar shown and docked."""
        for dock in (getattr(self.docks, name) for name in ("tree", "properties", "history", "problems", "plots",
                                                            "events", "compare", "help")):
            dock.setFloating(False)
        self.arrange()

    def save(self) -> None:
        """Keep the geometry and the layout for the next session."""
        self.settings.setValue("main_window/geometry", self.window.saveGeometry())
        self.settings.setValue("main_window/state", self.window.saveState(LAYOUT_VERSION))


def default_size() -> tuple[int, int]:
    """:data:`DEFAULT_SIZE`, or the primary screen's available size where that is smaller."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return DEFAULT_SIZE
    available = screen.availableGeometry()
    return min(DEFAULT_SIZE[0], available.width()), min(DEFAULT_SIZE[1], available.height())


def available_geometry(window: QWidget) -> QRect:
    """The available geometry (the screen less its task bars and docks, px) of the screen the
    window is on."""
    screen = QGuiApplication.screenAt(window.frameGeometry().center()) or window.screen()
    return screen.availableGeometry()


def fit_to_screen(window: QWidget) -> bool:
    """Shrink and move the window so that it fits, frame and title bar included, on the
    available geometry of its screen (a window made for 1280 x 800 on a laptop screen of that
    size keeps its status bar in view); whether it had to."""
    if window.isMaximized() or window.isFullScreen():
        return False
    geometry = fitted(window.geometry(), window.frameGeometry(), available_geometry(window))
    if geometry == window.geometry():
        return False
    window.setGeometry(geometry)
    return True


def fitted(client: QRect, frame: QRect, available: QRect) -> QRect:
    """The window's geometry without its frame (``client``), moved and shrunk so that its
    ``frame`` fits in ``available`` (px); while the frame is not known (the same as the
    client), :data:`FRAME_ALLOWANCE` stands for it.

    >>> r = fitted(QRect(0, 0, 1280, 800), QRect(0, 0, 1280, 800), QRect(0, 0, 1280, 800))
    >>> r.x(), r.y(), r.width(), r.height()
    (5, 35, 1270, 760)
    """
    left, top = client.left() - frame.left(), client.top() - frame.top()
    extra_w, extra_h = frame.width() - client.width(), frame.height() - client.height()
    if extra_w <= 0 and extra_h <= 0:
        extra_w, extra_h = FRAME_ALLOWANCE
        left, top = extra_w // 2, extra_h - extra_w // 2
    width = min(client.width(), available.width() - extra_w)
    height = min(client.height(), available.height() - extra_h)
    x = max(available.left(), min(frame.left(), available.left() + available.width() - width - extra_w))
    y = max(available.top(), min(frame.top(), available.top() + available.height() - height - extra_h))
    return QRect(x + left, y + top, width, height)
