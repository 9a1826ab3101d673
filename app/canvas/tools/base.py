"""What every canvas tool shares: the event it receives, its context, and the click-collecting tool.

A tool receives :class:`CanvasEvent` objects (model coordinates, already snapped and
hit-tested) from the :class:`~app.canvas.tools.controller.ToolController`.  Most tools are
:class:`PickTool` subclasses: they declare what each click must pick (a node, a link,
any point...) and build their entity from the picks once all are there.  A drag
counts as two clicks: one where the button went down and one where it came up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from PySide6.QtGui import QUndoCommand

from .. import geometry as geo
from .. import picking
from ...document.commands import AddEntity, singular
from ...document.model_document import ModelDocument
from ...document.entities import EntityRef
from ...document.selection import Selection
from ..sketch_view import SketchView
from ..items import preview_line

#: a press and release farther apart than this (px) are a drag
DRAG_PX = 4.0
#: what a click must pick: a model point (anywhere, snapped), the cursor's point as it is,
#: or (a tuple of collection names) an entity of one of them
POINT = "point"
FREE = "free"


@dataclass(frozen=True)
class CanvasEvent:
    """A pointer event on the canvas.

    ``pos`` is where the cursor is (m); ``snapped`` where a new point would go (on a
    node within the snap radius, else on the grid) and ``node`` that node's id;
    ``tol`` is the pick radius in m, ``mpp`` the metres per screen pixel and ``grid``
    the spacing points snap to (None: grid snapping is off).
    """

    pos: geo.Point
    snapped: geo.Point
    node: str | None
    shift: bool
    tol: float
    mpp: float
    grid: float | None

    def pixels_to(self, other: CanvasEvent) -> float:
        """Screen distance (px) between two events."""
        return math.hypot(other.pos[0] - self.pos[0], other.pos[1] - self.pos[1]) / self.mpp


@dataclass
class ToolContext:
    """What tools work on: the document, the selection, the canvas and a status-bar message."""

    document: ModelDocument
    selection: Selection
    view: SketchView
    message: Callable[[str], None]

    @property
    def model(self) -> dict:
        return self.document.model


@dataclass(frozen=True)
class Pick:
    """One accepted click: the entity picked (or None for a free point) and where (m)."""

    ref: EntityRef | None
    point: geo.Point


class Tool:
    """A canvas mode; subclasses set the class attributes and override the handlers they need."""

    #: the tool's key in the controller, and its toolbar text, shortcut and tooltip
    name = ""
    text = ""
    shortcut = ""
    tip = ""
    #: tools of one family share a tool-bar button whose menu chooses among them ("" for a button of its own)
    family = ""

    def __init__(self, context: ToolContext):
        self.context = context

    def press(self, event: CanvasEvent) -> None:
        """The left button went down."""

    def move(self, event: CanvasEvent, dragging: bool) -> None:
        """The cursor moved (``dragging``: with the left button down)."""

    def release(self, event: CanvasEvent) -> None:
        """The left button came up."""

    def hover(self, event: CanvasEvent) -> EntityRef | None:
        """The entity to outline under the cursor."""
        return None

    def cancel(self) -> None:
        """Forget an action under way (Esc, or another tool chosen)."""
        self.context.view.show_preview([])

    def prompt(self) -> str:
        """What the status bar asks for now."""
        return self.tip

    # helpers for subclasses
    def push(self, command: QUndoCommand) -> None:
        self.context.document.push(command)

    def add(self, entities: list[tuple[str, dict]], text: str | None = None) -> None:
        """Add entities as one undo command (``text`` names it; default "Add <kind> <id>" of the last)."""
        stack = self.context.document.undo_stack
        if len(entities) == 1:
            self.push(AddEntity(self.context.document, *entities[0], text=text))
            return
        last_collection, last = entities[-1]
        stack.beginMacro(text or f"Add {singular(last_collection)} {last.get('id', '')}".rstrip())
        for collection, item in entities:
            self.push(AddEntity(self.context.document, collection, item))
        stack.endMacro()

    def select(self, ref: EntityRef) -> None:
        """Select a new entity, so that the property panel shows it for editing."""
        self.context.selection.replace((ref,))


class PickTool(Tool):
    """A tool that collects one click per entry of :attr:`picks`, then calls :meth:`finish`.

    Each entry is :data:`POINT` (any point, snapped), :data:`FREE` (the cursor's point,
    not snapped) or a tuple of collections the click must hit (``("nodes",)``,
    ``("links",)``); :attr:`prompts` says what each click is for.  A click that hits
    nothing suitable is refused with the prompt in the status bar.
    """

    picks: tuple = ()
    prompts: tuple[str, ...] = ()

    def __init__(self, context: ToolContext):
        super().__init__(context)
        self.done: list[Pick] = []
        self._pressed: CanvasEvent | None = None

    def hit(self, event: CanvasEvent, collections: tuple[str, ...]) -> EntityRef | None:
        return picking.pick(self.context.model, event.pos, event.tol, collections)

    def hover(self, event: CanvasEvent) -> EntityRef | None:
        wanted = self.picks[len(self.done)]
        if wanted == POINT:
            return EntityRef("nodes", event.node) if event.node else None
        return None if wanted == FREE else self.hit(event, wanted)

    def press(self, event: CanvasEvent) -> None:
        self._pressed = event
        self._take(event)

    def release(self, event: CanvasEvent) -> None:
        pressed, self._pressed = self._pressed, None
        if self.done and pressed is not None and pressed.pixels_to(event) > DRAG_PX:
            self._take(event)  # the end of a drag is the next click

    def move(self, event: CanvasEvent, dragging: bool) -> None:
        if self.done:
            self.context.view.show_preview(self.preview(event))

    def preview(self, event: CanvasEvent) -> list:
        """What to draw while the next click is awaited: a dashed line from the last pick."""
        return [preview_line([self.done[-1].point, event.pos if self.picks[len(self.done)] == FREE else event.snapped])]

    def prompt(self) -> str:
        return self.prompts[len(self.done)] if self.prompts else self.tip

    def cancel(self) -> None:
        self.done = []
        self._pressed = None
        super().cancel()

    def _take(self, event: CanvasEvent) -> None:
        wanted = self.picks[len(self.done)]
        if wanted == POINT:
            pick = Pick(EntityRef("nodes", event.node) if event.node else None, event.snapped)
        elif wanted == FREE:
            pick = Pick(None, event.pos)
        else:
            ref = self.hit(event, wanted)
            if ref is None or not self.accepts(ref):
                self.context.message(self.prompt())
                return
            pick = Pick(ref, _anchor(self.context.model, ref, event.pos))
        self.done.append(pick)
        if len(self.done) < len(self.picks):
            self.context.message(self.prompt())
            return
        picks, self.done = self.done, []
        self._pressed = None
        self.context.view.show_preview([])
        self.context.message(self.prompt())  # ready for the next one (not the last click's prompt)
        self.finish(picks)  # which may say why it made nothing

    def accepts(self, ref: EntityRef) -> bool:
        """Whether the entity picked may be this click's pick (default: yes)."""
        return True

    def finish(self, picks: list[Pick]) -> None:  # pragma: no cover - abstract
        """All clicks are in: push the command."""
        raise NotImplementedError


def _anchor(doc: dict, ref: EntityRef, where: geo.Point) -> geo.Point:
    """Where a picked entity sits: a node's or body's position, else the clicked point."""
    if ref.collection == "nodes":
        return geo.node_positions(doc)[ref.id]
    if ref.collection == "bodies":
        return geo.outline(doc, ref).points[0]
    return where
