"""What the main window's two halves — :mod:`.simulation_ui` and :mod:`.results_ui` —
need of the window, as a protocol the window satisfies, and the two helpers all three
build their menus and docks with.  The halves import this module, never
:mod:`.main_window`: the window owns them, they only know its parts.
"""
from __future__ import annotations

from typing import Callable, Protocol

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QMenu, QScrollArea, QWidget

from ..canvas.actions import with_key
from ..canvas.sketch_view import SketchView
from ..canvas.tools.toolbar import ToolBar
from ..document.model_document import ModelDocument
from ..document.selection import Selection


class WindowParts(Protocol):
    """The parts of the main window its simulation and results halves use."""

    settings: QSettings
    document: ModelDocument
    selection: Selection
    sketch: SketchView
    tool_bar: ToolBar
    problems_dock: QDockWidget
    recent_menu: QMenu
    quit_action: QAction

    def maybe_save(self) -> bool:
        """Offer to save unsaved changes; False when the user cancels."""

    def check_model(self, select_first: bool = False) -> None:
        """Bring the problems panel forward, its first problem selected when ``select_first``."""

    def finish_editing(self) -> bool:
        """Commit a property entry still in its editor; False when it is refused."""


def make_action(parent: QWidget, text: str, slot: Callable[[], object], shortcut=None, tip: str = "") -> QAction:
    """An action calling ``slot()``, with an optional shortcut, its tip in the status bar
    and, with its key, as tooltip."""
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.setStatusTip(tip)
    action.setToolTip(with_key(tip or text.replace("&", "").rstrip(".…"), action))
    action.triggered.connect(lambda _checked=False: slot())
    return action



def add_dock(window: QMainWindow, title: str, name: str, widget: QWidget,
             area: Qt.DockWidgetArea = Qt.DockWidgetArea.LeftDockWidgetArea) -> QDockWidget:
    """A dock around ``widget`` in ``area``; ``name`` is the object name saveState/restoreState find it by."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
    return dock


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a scroll area: a narrow dock scrolls rather than widening the window
    (tabbed docks count towards the window's minimum width even while hidden)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area
