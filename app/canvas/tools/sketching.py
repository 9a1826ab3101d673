"""Node, Link and Free body: the tools that put geometry on the canvas.

Points snap to nodes within the snap radius, else to the grid.  A link is drawn
click-to-click or by a drag, from node to node; where an end is not on a node a new
node is made there, in the same undo entry as the link.
"""
from __future__ import annotations

from ...document.entities import EntityRef
from ...document.new_entities import new_body, new_link, new_node
from .base import POINT, Pick, PickTool


class NodeTool(PickTool):
    name = "node"
    text = "Node"
    shortcut = "N"
    tip = "Node: click to place a node"
    picks = (POINT,)

    def finish(self, picks: list[Pick]) -> None:
        if picks[0].ref is not None:
            self.context.message(f"A node is already there: {picks[0].ref.id}")
            return
        node = new_node(self.context.model, *picks[0].point)
        self.add([("nodes", node)])
        self.select(EntityRef("nodes", node["id"]))


class LinkTool(PickTool):
    name = "link"
    text = "Link"
    shortcut = "L"
    tip = "Link: click (or drag from) its first end, then its second end; new links are rigid"
    picks = (POINT, POINT)
    prompts = ("Link: click or drag from the first end (a node or a new point)", "Link: click the second end")

    def finish(self, picks: list[Pick]) -> None:
        if picks[0].point == picks[1].point:
            self.context.message("A link needs two different ends")
            return
        nodes = list(self.context.model.get("nodes", []))  # with the new ones, so that ids do not repeat
        added: list[tuple[str, dict]] = []
        ends = []
        for pick in picks:
            if pick.ref is not None:
                ends.append(pick.ref.id)
                continue
            node = new_node({"nodes": nodes}, *pick.point)
            nodes.append(node)
            added.append(("nodes", node))
            ends.append(node["id"])
        link = new_link(self.context.model, *ends)
        self.add(added + [("links", link)], text=f"Add link {link['id']}")
        self.select(EntityRef("links", link["id"]))


class BodyTool(PickTool):
    name = "body"
    text = "Free body"
    shortcut = "B"
    tip = "Free body: click to place a point mass that belongs to no link (make it rigid in the panel)"
    picks = (POINT,)

    def finish(self, picks: list[Pick]) -> None:
        body = new_body(self.context.model, *picks[0].point)
        self.add([("bodies", body)])
        self.select(EntityRef("bodies", body["id"]))
