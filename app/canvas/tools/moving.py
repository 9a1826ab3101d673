"""Moving support, Moving mass and Moving force: a point that travels along a flexible link.

Click a flexible link where the support, mass or force starts: the click sets the link
and the start s(0) (the arc length from the link's first node, on the grid when grid
snapping is on); s(t) then runs at constant speed to the far end of the link by the
run's end time (:func:`~app.document.new_entities.new_moving`), to be edited in the
property panel.
"""
from __future__ import annotations

import math

from .. import geometry as geo
from .. import picking
from ...document.entities import EntityRef
from ...document.new_entities import new_moving
from .base import CanvasEvent, Pick, PickTool


def arc_length(doc: dict, link_id: str, where: geo.Point) -> tuple[float, float]:
    """``(s, L)``: the arc length (m) of the point of the link's sketched line nearest
    ``where``, from its first node, and the link's length L (m).

    >>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 4.0, "y": 0.0}],
    ...        "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"]}]}
    >>> arc_length(doc, "beam", (1.5, 0.2)), arc_length(doc, "beam", (-1.0, 0.0))
    ((1.5, 4.0), (0.0, 4.0))
    """
    (x1, y1), (x2, y2) = geo.link_ends(doc, link_id)
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0.0:
        return 0.0, 0.0
    s = ((where[0] - x1) * (x2 - x1) + (where[1] - y1) * (y2 - y1)) / length
    return min(max(s, 0.0), length), length


def _flexible_only(doc: dict) -> dict:
    """The document as the tool sees it: only flexible links can be clicked."""
    return {**doc, "links": [link for link in doc.get("links", []) if link.get("kind") == "flexible"]}


class _MovingTool(PickTool):
    """Picks a flexible link; subclasses name the kind of moving entity."""

    kind = ""
    family = "moving"
    picks = (("links",),)

    def __init__(self, context):
        super().__init__(context)
        self._grid: float | None = None

    def hit(self, event: CanvasEvent, collections: tuple[str, ...]) -> EntityRef | None:
        return picking.pick(_flexible_only(self.context.model), event.pos, event.tol, collections)

    def press(self, event: CanvasEvent) -> None:
        self._grid = event.grid
        super().press(event)

    def finish(self, picks: list[Pick]) -> None:
        link = picks[0].ref.id
        s0, length = arc_length(self.context.model, link, picks[0].point)
        if self._grid:
            s0 = min(max(round(round(s0 / self._grid) * self._grid, 12), 0.0), length)
        item = new_moving(self.context.model, self.kind, link, s0, length)
        self.add([("moving", item)])
        self.select(EntityRef("moving", item["id"]))


class MovingSupportTool(_MovingTool):
    name = "moving_support"
    kind = "support"
    text = "Moving support"
    shortcut = "Shift+G"
    tip = "Moving support: click a flexible link where the support starts (it slides to the link's far end)"


class MovingMassTool(_MovingTool):
    name = "moving_mass"
    kind = "mass"
    text = "Moving mass"
    shortcut = "Shift+A"
    tip = "Moving mass: click a flexible link where a 1 kg mass starts (it crosses to the link's far end)"


class MovingForceTool(_MovingTool):
    name = "moving_force"
    kind = "force"
    text = "Moving force"
    shortcut = "Shift+F"
    tip = "Moving force: click a flexible link where a 1 N force starts (it crosses to the link's far end)"
