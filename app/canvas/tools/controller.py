"""The tool controller: routes the canvas' pointer events to the active tool.

It turns the canvas' model points into :class:`~app.canvas.tools.base.CanvasEvent` objects
(snapped to nodes within :data:`SNAP_PX` pixels, else to the grid; pick radius
:data:`PICK_PX`), outlines what the tool would pick under the cursor, and switches
tools (Esc goes back to Select and drops an action under way).
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from .. import geometry as geo
from .. import picking
from .base import CanvasEvent, Tool, ToolContext

#: snap radius round nodes (px)
SNAP_PX = 10.0
#: pick radius round entities (px)
PICK_PX = 8.0


class ToolController(QObject):
    """Owns the tools; ``tool_changed(name)`` says which one is active."""

    tool_changed = Signal(str)

    def __init__(self, context: ToolContext, tools: list[type[Tool]], parent: QObject | None = None):
        super().__init__(parent)
        self.context = context
        self.tools: dict[str, Tool] = {cls.name: cls(context) for cls in tools}
        self.tool = next(iter(self.tools.values()))
        #: snap new points to the grid (they always snap to nearby nodes)
        self.snap_to_grid = True
        self._dragging = False
        context.view.handler = self
        context.document.replaced.connect(self._on_replaced)

    def _on_replaced(self) -> None:
        """Another model was opened: what a tool had picked belongs to the old one."""
        self.tool.cancel()
        self._dragging = False

    def set_tool(self, name: str) -> None:
        """Make ``name`` the active tool (cancelling what the previous one was doing)."""
        self.tool.cancel()
        self.context.view.show_hover(None)
        self.tool = self.tools[name]
        self.context.message(self.tool.prompt())
        self.tool_changed.emit(name)

    def escape(self) -> None:
        """Esc: drop the action under way and go back to the first tool (Select)."""
        self.set_tool(next(iter(self.tools)))

    def event_at(self, point: geo.Point, shift: bool) -> CanvasEvent:
        """The :class:`CanvasEvent` of the cursor at ``point`` (m)."""
        view = self.context.view
        mpp = view.metres_per_pixel()
        step = view.grid_step() if self.snap_to_grid else None
        snapped, node = picking.snap(self.context.model, point, SNAP_PX * mpp, step)
        return CanvasEvent(point, snapped, node, shift, PICK_PX * mpp, mpp, step)

    # PointerHandler of the canvas
    def press(self, point: geo.Point, shift: bool) -> None:
        if not self.context.model:
            return  # no model open: nothing to edit
        self._dragging = True
        self.tool.press(self.event_at(point, shift))

    def move(self, point: geo.Point, shift: bool) -> None:
        if not self.context.model:
            return
        event = self.event_at(point, shift)
        if not self._dragging:
            self.context.view.show_hover(self.tool.hover(event))
        self.tool.move(event, self._dragging)

    def release(self, point: geo.Point, shift: bool) -> None:
        if not self._dragging:
            return
        self._dragging = False
        self.tool.release(self.event_at(point, shift))
