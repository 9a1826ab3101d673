"""Ground pin, Pin, Weld, Slider and Driver: the tools that constrain nodes and links."""
from __future__ import annotations

from ...document.entities import EntityRef
from ...document.new_entities import direction, new_driver, new_joint
from .base import POINT, Pick, PickTool


class _JointTool(PickTool):
    """Click a node to put a joint of :attr:`kind` there."""

    kind = ""
    picks = (("nodes",),)

    def fields(self, node: str) -> dict | None:
        """The joint's fields beyond id, kind and node (None: this node cannot take the joint)."""
        return {}

    def finish(self, picks: list[Pick]) -> None:
        node = picks[0].ref.id
        fields = self.fields(node)
        if fields is None:
            return
        joint = new_joint(self.context.model, self.kind, node, **fields)
        self.add([("joints", joint)])
        self.select(EntityRef("joints", joint["id"]))


class GroundTool(_JointTool):
    name = "ground"
    kind = "ground"
    text = "Ground pin"
    shortcut = "G"
    tip = "Ground pin: click a node to pin it to the ground"


class PinTool(_JointTool):
    name = "pin"
    kind = "pin"
    text = "Pin joint"
    shortcut = "P"
    tip = "Pin joint: click a node where links turn freely about each other"


class WeldTool(_JointTool):
    name = "weld"
    kind = "weld"
    text = "Weld"
    shortcut = "W"
    tip = "Weld: click a node where two or more links meet to weld them together"

    def fields(self, node: str) -> dict | None:
        links = [link["id"] for link in self.context.model.get("links", []) if node in link["nodes"]]
        if len(links) < 2:
            self.context.message(f"A weld needs two links at {node}")
            return None
        return {"links": links}


class SliderTool(PickTool):
    name = "slider"
    text = "Slider"
    shortcut = "D"
    tip = "Slider: click a node, then a point along its guide line"
    picks = (("nodes",), POINT)
    prompts = ("Slider: click the node that slides", "Slider: click a point along the guide line")

    def finish(self, picks: list[Pick]) -> None:
        node, guide = picks
        joint = new_joint(self.context.model, "slider", node.ref.id, angle=direction(node.point, guide.point))
        self.add([("joints", joint)])
        self.select(EntityRef("joints", joint["id"]))


class DriverTool(PickTool):
    name = "driver"
    text = "Driver"
    shortcut = "M"
    tip = "Driver (motor): click a link, then the node it turns about"
    picks = (("links",), ("nodes",))
    prompts = ("Driver: click the driven link", "Driver: click the link's pivot node")

    def accepts(self, ref: EntityRef) -> bool:
        if ref.collection != "nodes":
            return True
        link = self.context.model["links"][self._link_index()]
        return ref.id in link["nodes"]

    def _link_index(self) -> int:
        link_id = self.done[0].ref.id
        return next(i for i, link in enumerate(self.context.model["links"]) if link["id"] == link_id)

    def preview(self, event) -> list:
        return []

    def hover(self, event) -> EntityRef | None:
        ref = super().hover(event)
        return ref if ref is None or self.accepts(ref) else None

    def finish(self, picks: list[Pick]) -> None:
        driver = new_driver(self.context.model, picks[0].ref.id, picks[1].ref.id)
        self.add([("drivers", driver)])
        self.select(EntityRef("drivers", driver["id"]))

