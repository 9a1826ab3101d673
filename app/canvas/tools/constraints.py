"""Ground pin, Pin, Weld, Clearance, Slider and Driver: the tools that constrain nodes and links."""
from __future__ import annotations

from solver.model.validate import validate

from ...document.entities import EntityRef
from ...document.new_entities import direction, new_clearance, new_driver, new_joint, new_material
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


class _LinkEndTool(PickTool):
    """Click a link, then one of its nodes."""

    picks = (("links",), ("nodes",))

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


class ClearanceTool(_LinkEndTool):
    """A revolute joint with clearance: the clicked link's end is the journal, whatever else is
    at the node carries the bearing (10 mm bore, 0.5 mm clearance, 15 mm long, steel,
    Lankarani-Nikravesh: the seed's joint, to be edited in the property panel)."""

    name = "clearance"
    text = "Clearance joint"
    shortcut = "J"
    tip = "Clearance joint: click the link whose end is the journal, then that end's node"
    prompts = ("Clearance joint: click the journal's link", "Clearance joint: click the link's node that is the journal")

    def finish(self, picks: list[Pick]) -> None:
        model = self.context.model
        link, node = picks[0].ref.id, picks[1].ref.id
        added = [] if model.get("materials") else [("materials", new_material(model))]
        material = (added[0][1] if added else model["materials"][0])["id"]
        joint = new_clearance(model, node, link, material)
        problem = new_clearance_problem(model, added, joint)
        if problem:
            self.context.message(f"No clearance joint at {node}: {problem}")
            return
        self.add(added + [("joints", joint)])
        self.select(EntityRef("joints", joint["id"]))


def new_clearance_problem(model: dict, added: list[tuple[str, dict]], joint: dict) -> str | None:
    """What the validator says against the new clearance joint, if anything."""
    trial = {**model, "joints": [*model.get("joints", []), joint]}
    for collection, item in added:
        trial[collection] = [*trial.get(collection, []), item]
    before = {str(p) for p in validate(model)}
    fresh = [p for p in validate(trial) if str(p) not in before]
    return fresh[0].message if fresh else None


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


class DriverTool(_LinkEndTool):
    name = "driver"
    text = "Driver"
    shortcut = "M"
    tip = "Driver (motor): click a link, then the node it turns about"
    prompts = ("Driver: click the driven link", "Driver: click the link's pivot node")

    def finish(self, picks: list[Pick]) -> None:
        driver = new_driver(self.context.model, picks[0].ref.id, picks[1].ref.id)
        self.add([("drivers", driver)])
        self.select(EntityRef("drivers", driver["id"]))
