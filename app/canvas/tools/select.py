"""Select / move and Delete.

Select: click an entity to select it (Shift toggles it in the selection); click the
same spot again to go through what is attached there (a node's links, joints, masses,
loads...; only after a click there: a body selected by another tool, or its initial
velocity, is selected by a click on it, not gone past); drag on empty canvas for a rubber band (Shift adds what it encloses); drag
a node or free body to move it (with the other selected ones, if it is selected) --
links follow live, and the whole drag is one undo entry.  Delete: click an entity to
delete it with what refers to it.
"""
from __future__ import annotations

import itertools

from .. import geometry as geo
from .. import picking
from ...document.commands import MoveNodes, RemoveEntities
from ...document.entities import EntityRef
from ..items import preview_rect
from .base import DRAG_PX, CanvasEvent, Tool

#: what a click can select, in order of preference
SELECTABLE = ("nodes", "bodies", "moving", "links", "contacts")

_drags = itertools.count(1)


class SelectTool(Tool):
    name = "select"
    text = "Select"
    shortcut = "S"
    tip = "Select: click (again: what is attached there) or drag a rubber band (Shift adds); drag nodes and bodies to move them"

    def __init__(self, context):
        super().__init__(context)
        self._start: CanvasEvent | None = None
        self._moving: dict[str, geo.Point] = {}  # node -> where it was when the drag began
        self._grabbed: EntityRef | None = None
        self._drag_id = 0
        self._banding = False
        self._stack: list[EntityRef] = []  # what is at the spot pressed, for clicks that cycle
        self._selected_on_press = False
        #: the stack of this tool's last click and what it selected: a click cycles only after it
        self._last_click: tuple[list[EntityRef], EntityRef | None] = ([], None)

    def hover(self, event: CanvasEvent) -> EntityRef | None:
        return picking.pick(self.context.model, event.pos, event.tol, SELECTABLE)

    def press(self, event: CanvasEvent) -> None:
        selection = self.context.selection
        self._start = event
        ref = picking.pick(self.context.model, event.pos, event.tol, SELECTABLE)
        if ref is None:
            self._banding = True
            return
        if event.shift:
            refs = selection.refs
            selection.replace(tuple(r for r in refs if r != ref) if ref in refs else refs + (ref,))
            return
        self._stack = picking.stack_at(self.context.model, event.pos, event.tol, SELECTABLE)
        self._selected_on_press = selection.single not in self._stack and ref not in selection.refs
        if self._selected_on_press:
            selection.replace((ref,))
        if ref.collection in ("nodes", "bodies"):
            positions = _positions(self.context.model, ref.collection)
            together = [r.id for r in selection.refs if r.collection == ref.collection] if ref in selection.refs else []
            self._grabbed = ref
            self._moving = {n: positions[n] for n in together or [ref.id]}
            self._drag_id = next(_drags)

    def move(self, event: CanvasEvent, dragging: bool) -> None:
        if not dragging or self._start is None:
            return
        if self._banding:
            self.context.view.show_preview([preview_rect(self._start.pos, event.pos)])
        elif self._grabbed and self._start.pixels_to(event) > DRAG_PX:
            self._move_nodes(event)

    def _move_nodes(self, event: CanvasEvent) -> None:
        collection = self._grabbed.collection
        x0, y0 = self._moving[self._grabbed.id]
        x, y = picking.snap_to_grid(event.pos, event.grid) if event.grid else event.pos
        dx, dy = x - x0, y - y0
        target = {n: (px + dx, py + dy) for n, (px, py) in self._moving.items()}
        now = _positions(self.context.model, collection)
        if any(now[n] != p for n, p in target.items()):
            self.push(MoveNodes(self.context.document, target, drag=self._drag_id, collection=collection))

    def release(self, event: CanvasEvent) -> None:
        clicked = self._start is not None and self._start.pixels_to(event) <= DRAG_PX
        single = self.context.selection.single
        if clicked and not self._selected_on_press and single in self._stack:
            again = self._last_click == (self._stack, single)  # else the selection came from elsewhere
            following = self._stack[(self._stack.index(single) + 1) % len(self._stack)] if again else self._stack[0]
            self.context.selection.replace((following,))
        if clicked and self._stack:
            self._last_click = (self._stack, self.context.selection.single)
        if self._banding and self._start is not None:
            self.context.view.show_preview([])
            inside = tuple(picking.in_rect(self.context.model, self._start.pos, event.pos))
            if self._start.pixels_to(event) <= DRAG_PX:
                inside = ()  # a click on empty canvas
            refs = self.context.selection.refs + inside if event.shift else inside
            self.context.selection.replace(refs)
        self.cancel()

    def cancel(self) -> None:
        self._start, self._grabbed, self._moving, self._banding = None, None, {}, False
        self._stack, self._selected_on_press = [], False
        super().cancel()


def _positions(doc: dict, collection: str) -> dict[str, geo.Point]:
    """Where the nodes (or the free bodies) are, by id."""
    if collection == "nodes":
        return geo.node_positions(doc)
    return {body["id"]: (body["x"], body["y"]) for body in doc.get("bodies", [])}


class DeleteTool(Tool):
    name = "delete"
    text = "Delete"
    shortcut = "X"
    tip = "Delete: click an entity to delete it and what refers to it"

    def hover(self, event: CanvasEvent) -> EntityRef | None:
        return picking.pick(self.context.model, event.pos, event.tol, SELECTABLE)

    def press(self, event: CanvasEvent) -> None:
        ref = picking.pick(self.context.model, event.pos, event.tol, SELECTABLE)
        if ref is not None:
            self.push(RemoveEntities(self.context.document, [ref]))
