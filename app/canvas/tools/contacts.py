"""Contact pairs: the striking point (a node or free body), then what it strikes.

Contact: then click a link, or a node: a node at a link's end that the point is beside (not
beyond the end) makes the link the target (a body striking the side of a link); otherwise the
node is the target, the link's end face struck from beyond the end, its normal from the node
toward the point.
Ground line: then press on the line and drag along it (its normal is the left side
of that direction).  Ground segment: then drag from its start to its end.  Circle:
then drag from its centre to its rim.
"""
from __future__ import annotations

import math

from .. import geometry as geo
from ...document.entities import EntityRef
from ...document.new_entities import direction, new_contact, struck_target
from .base import POINT, CanvasEvent, Pick, PickTool
from ..items import preview_line

#: what strikes
STRIKING = ("bodies", "nodes")


class _ContactTool(PickTool):
    """Picks the striking point first; subclasses make the target from the other picks."""

    def target(self, picks: list[Pick]) -> dict | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self, picks: list[Pick]) -> None:
        target = self.target(picks)
        if target is None:
            return
        ref = picks[0].ref
        point = ("body" if ref.collection == "bodies" else "node", ref.id)
        contact = new_contact(self.context.model, point, target)
        self.add([("contacts", contact)])
        self.select(EntityRef("contacts", contact["id"]))


class ContactTool(_ContactTool):
    name = "contact"
    text = "Contact pair"
    shortcut = "C"
    tip = ("Contact pair: click the striking node or free body, then the link or node it strikes. A body "
           "beside a link strikes the link (clicking its end node too); a node target is a link's end face, "
           "struck from beyond the end: it reaches half the link from the node (target.reach), not a line")
    picks = (STRIKING, ("nodes", "links"))
    prompts = ("Contact: click the striking node or free body", "Contact: click the node or link it strikes")

    def accepts(self, ref: EntityRef) -> bool:
        return not self.done or ref != self.done[0].ref

    def target(self, picks: list[Pick]) -> dict:
        point, hit = picks
        return struck_target(self.context.model, (hit.ref.collection, hit.ref.id), point.point)


class GroundLineTool(_ContactTool):
    name = "ground_line"
    text = "Ground line"
    shortcut = "R"
    tip = "Ground line: click the striking node or body, then drag along the line (its left side faces it)"
    picks = (STRIKING, POINT, POINT)
    prompts = ("Ground line: click the striking node or free body", "Ground line: press on the line",
               "Ground line: drag or click along the line")

    def target(self, picks: list[Pick]) -> dict:
        (x, y), along = picks[1].point, picks[2].point
        return {"kind": "ground_line", "x": x, "y": y, "angle": direction((x, y), along)}


class SegmentTool(_ContactTool):
    name = "ground_segment"
    text = "Ground segment"
    shortcut = "T"
    tip = "Ground segment: click the striking node or body, then drag from the segment's start to its end"
    picks = (STRIKING, POINT, POINT)
    prompts = ("Segment: click the striking node or free body", "Segment: press on its start",
               "Segment: drag or click to its end")

    def target(self, picks: list[Pick]) -> dict | None:
        (x1, y1), (x2, y2) = picks[1].point, picks[2].point
        if (x1, y1) == (x2, y2):
            self.context.message("A segment needs two different ends")
            return None
        return {"kind": "ground_segment", "x1": x1, "y1": y1, "x2": x2, "y2": y2}


class CircleTool(_ContactTool):
    name = "circle"
    text = "Circle"
    shortcut = "O"
    tip = "Circle: click the striking node or body, then drag from the circle's centre to its rim"
    picks = (STRIKING, POINT, POINT)
    prompts = ("Circle: click the striking node or free body", "Circle: press on its centre",
               "Circle: drag or click to its rim")

    def preview(self, event: CanvasEvent) -> list:
        if len(self.done) < 2:
            return super().preview(event)
        (x, y) = self.done[1].point
        r = math.hypot(event.snapped[0] - x, event.snapped[1] - y)
        return [preview_line(geo.circle_points(x, y, r))] if r > 0 else []

    def target(self, picks: list[Pick]) -> dict | None:
        (x, y), rim = picks[1].point, picks[2].point
        r = round(math.hypot(rim[0] - x, rim[1] - y), 12)
        if r == 0:
            self.context.message("A circle needs a radius")
            return None
        return {"kind": "circle", "x": x, "y": y, "radius": r}
