"""A user at the canvas: clicks and drags at model points, tool shortcuts, typing in the property panel.

Everything goes through synthetic mouse and key events on the window's widgets;
model points become viewport pixels through the canvas' own mapping.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

LEFT = Qt.MouseButton.LeftButton


class CanvasUser:
    """Drives ``window`` with ``qtbot``."""

    def __init__(self, qtbot, window):
        self.qtbot = qtbot
        self.window = window
        self.view = window.sketch

    def show(self, x0: float, x1: float, grid: float) -> None:
        """Show x from ``x0`` to ``x1`` m round y = 0, zoomed in until the grid is ``grid`` m."""
        box = self.view.getViewBox()
        for _ in range(10):
            box.setRange(xRange=(x0, x1), yRange=(-0.01, 0.01), padding=0)
            if self.view.grid_step() <= grid:
                break
            x0, x1 = x0 + 0.05 * (x1 - x0), x1 - 0.05 * (x1 - x0)
        assert self.view.grid_step() == grid

    def pixel(self, x: float, y: float) -> QPoint:
        return self.view.to_pixel(x, y)

    def key(self, key: Qt.Key) -> None:
        """Press a key on the canvas (tool shortcuts, Esc, Space)."""
        self.view.setFocus()
        self.qtbot.keyClick(self.view, key)

    def tool(self, key: Qt.Key, *points: tuple[float, float]) -> None:
        """Choose a tool by its key and click at each of ``points`` (m) in turn."""
        self.key(key)
        for x, y in points:
            self.click(x, y)

    def click(self, x: float, y: float, shift: bool = False) -> None:
        modifier = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
        self.qtbot.mouseMove(self.view.viewport(), self.pixel(x, y))
        self.qtbot.mouseClick(self.view.viewport(), LEFT, modifier, self.pixel(x, y))

    def drag_pixels(self, start: QPoint, end: QPoint, shift: bool = False) -> None:
        """Press at ``start``, move in a few steps and release at ``end`` (px)."""
        modifier = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
        viewport = self.view.viewport()
        self.qtbot.mouseMove(viewport, start)
        self.qtbot.mousePress(viewport, LEFT, modifier, start)
        for f in (0.25, 0.5, 0.75, 1.0):
            self.qtbot.mouseMove(viewport, start + (end - start) * f)
        self.qtbot.mouseRelease(viewport, LEFT, modifier, end)

    def drag(self, a: tuple[float, float], b: tuple[float, float], shift: bool = False) -> None:
        self.drag_pixels(self.pixel(*a), self.pixel(*b), shift)

    def click_tree(self, ref) -> None:
        """Click an entity's row in the model tree."""
        tree = self.window.tree
        item = tree.item_for(ref)
        tree.scrollToItem(item)
        self.qtbot.mouseClick(tree.viewport(), LEFT, pos=tree.visualItemRect(item).center())

    def type_field(self, field: str, text: str) -> None:
        """Type ``text`` into the property panel's ``field`` and press Enter; wait for the edit."""
        view = self.window.properties
        table = view.table
        stack = self.window.document.undo_stack
        before = stack.index()
        table.setFocus()
        table.setCurrentCell(view.row_of(field), 1)
        self.qtbot.keyClick(table, Qt.Key.Key_F2)
        editor = table.focusWidget()
        if isinstance(editor, QComboBox):
            self.qtbot.keyClicks(editor, text)
            assert editor.currentText() == text
        else:
            assert isinstance(editor, QLineEdit)
            editor.selectAll()
            self.qtbot.keyClicks(editor, text)
        self.qtbot.keyClick(editor, Qt.Key.Key_Return)
        self.qtbot.waitUntil(lambda: stack.index() == before + 1)
