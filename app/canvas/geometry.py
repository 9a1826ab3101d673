"""Where things are in the sketch: positions, mesh points, bounds and outlines.

Plain Python, no Qt.  Everything is read from the model document in its initial
(sketched) configuration; lengths are in m, angles in rad.

>>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 1.0, "y": 0.0}],
...        "links": [{"id": "r", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": 4}}]}
>>> mesh_points(doc, doc["links"][0])
[(0.25, 0.0), (0.5, 0.0), (0.75, 0.0)]
>>> model_bounds(doc)
(0.0, 1.0, 0.0, 0.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from solver.model.fields import with_defaults
from solver.model.moving_fields import MOVING
from solver.model.translational_rules import corner_arms, guide_surfaces
from solver.model.timefn import TimeFunction

from ..document.entities import EntityRef, find_entity

Point = tuple[float, float]

#: default number of elements of a flexible link whose file gives no mesh (schema default)
DEFAULT_ELEMENTS = 4


@dataclass
class Outline:
    """The shape of an entity on the canvas: points and polylines in m."""

    points: list[Point] = field(default_factory=list)
    polylines: list[list[Point]] = field(default_factory=list)


def node_positions(doc: dict) -> dict[str, Point]:
    """Sketched position of every node, by id."""
    return {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}


def mesh_fractions(link: dict) -> list[float]:
    """Element nodes of a flexible link as fractions of its length, from 0 to 1."""
    mesh = link.get("mesh", {})
    if "stations" in mesh:
        return list(mesh["stations"])
    n = mesh.get("elements", DEFAULT_ELEMENTS)
    return [i / n for i in range(n + 1)]


def mesh_points(doc: dict, link: dict) -> list[Point]:
    """Interior element nodes of a flexible link (its end nodes excluded)."""
    pos = node_positions(doc)
    (xa, ya), (xb, yb) = pos[link["nodes"][0]], pos[link["nodes"][1]]
    return [(xa + s * (xb - xa), ya + s * (yb - ya)) for s in mesh_fractions(link)[1:-1]]


def link_angle(doc: dict, link: dict) -> float:
    """Direction from a link's first node to its second, from +x."""
    pos = node_positions(doc)
    (xa, ya), (xb, yb) = pos[link["nodes"][0]], pos[link["nodes"][1]]
    return math.atan2(yb - ya, xb - xa)


def leaving_angle(doc: dict, node: str, links: list[str] | None = None) -> float | None:
    """Direction in which the first link at ``node`` (of ``links``, if given) leaves it."""
    angles = _link_directions(doc, node, links)
    return angles[0] if angles else None


def _link_directions(doc: dict, node: str, links: list[str] | None = None) -> list[float]:
    pos = node_positions(doc)
    x, y = pos[node]
    out = []
    for link in doc.get("links", []):
        if node in link["nodes"] and (links is None or link["id"] in links):
            out += [math.atan2(pos[n][1] - y, pos[n][0] - x) for n in link["nodes"] if n != node]
    return out


#: where a node's label may go, in order of preference (rad from +x)
LABEL_DIRECTIONS = tuple(math.radians(a) for a in (45, 135, -45, -135, 90, 0, 180, -90))


def occupied_directions(doc: dict, node: str) -> list[float]:
    """Directions in which something drawn leaves a node: links, ground symbols, guides, forces."""
    taken = _link_directions(doc, node)
    for joint in doc.get("joints", []):
        if joint["node"] != node:
            continue
        if joint["kind"] == "ground":
            taken.append(-math.pi / 2)
        elif joint["kind"] == "fixed":
            away = leaving_angle(doc, node, joint.get("links"))
            taken.append(-math.pi / 2 if away is None else away + math.pi)
        elif joint["kind"] == "slider":
            taken += [joint.get("angle", 0.0), joint.get("angle", 0.0) + math.pi]
    for load in doc.get("loads", []):
        if load["node"] == node and (load.get("fx", 0.0) or load.get("fy", 0.0)):
            taken.append(math.atan2(load.get("fy", 0.0), load.get("fx", 0.0)))
    return taken


def label_direction(doc: dict, node: str) -> float:
    """The direction of :data:`LABEL_DIRECTIONS` farthest from everything drawn at ``node``."""
    taken = occupied_directions(doc, node)

    def clearance(d: float) -> float:
        return min((abs((d - t + math.pi) % (2 * math.pi) - math.pi) for t in taken), default=math.pi)

    return max(LABEL_DIRECTIONS, key=clearance)


def circle_points(x: float, y: float, r: float, segments: int = 72) -> list[Point]:
    """A closed polyline approximating a circle."""
    return [(x + r * math.cos(a), y + r * math.sin(a))
            for a in (2 * math.pi * i / segments for i in range(segments + 1))]


def model_bounds(doc: dict) -> tuple[float, float, float, float]:
    """``(xmin, xmax, ymin, ymax)`` of nodes, bodies and fixed contact targets."""
    pts = list(node_positions(doc).values())
    for body in doc.get("bodies", []):
        r = body.get("radius", 0.0)
        pts += [(body["x"] - r, body["y"] - r), (body["x"] + r, body["y"] + r)]
    for contact in doc.get("contacts", []):
        t = contact["target"]
        if t["kind"] == "ground_segment":
            pts += [(t["x1"], t["y1"]), (t["x2"], t["y2"])]
        elif t["kind"] == "circle":
            x, y, r = t.get("x", 0.0), t.get("y", 0.0), t["radius"]
            pts += [(x - r, y - r), (x + r, y + r)]
        elif t["kind"] == "ground_line":
            pts.append((t.get("x", 0.0), t.get("y", 0.0)))
    if not pts:
        return (0.0, 0.0, 0.0, 0.0)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), max(xs), min(ys), max(ys))


def model_size(doc: dict) -> float:
    """The larger side of the model's bounds; 1 m for a model of one point."""
    xmin, xmax, ymin, ymax = model_bounds(doc)
    return max(xmax - xmin, ymax - ymin) or 1.0


def view_bounds(doc: dict) -> tuple[float, float, float, float]:
    """The model's bounds grown to take in the drawn slider guides (what zoom-to-fit shows)."""
    xmin, xmax, ymin, ymax = model_bounds(doc)
    for joint in doc.get("joints", []):
        if joint["kind"] == "slider":
            for x, y in slider_guide(doc, joint):
                xmin, xmax, ymin, ymax = min(xmin, x), max(xmax, x), min(ymin, y), max(ymax, y)
    return xmin, xmax, ymin, ymax


def ground_line_segment(doc: dict, target: dict) -> list[Point]:
    """A finite piece of an infinite ground line, one model size long each way."""
    x, y, a = target.get("x", 0.0), target.get("y", 0.0), target.get("angle", 0.0)
    h = model_size(doc)
    return [(x - h * math.cos(a), y - h * math.sin(a)), (x + h * math.cos(a), y + h * math.sin(a))]


def slider_guide(doc: dict, joint: dict) -> list[Point]:
    """The drawn piece of a slider's guide line through its node."""
    x, y = node_positions(doc)[joint["node"]]
    a, h = joint.get("angle", 0.0), 0.25 * model_size(doc)
    return [(x - h * math.cos(a), y - h * math.sin(a)), (x + h * math.cos(a), y + h * math.sin(a))]


def slider_in_guide(doc: dict, joint: dict) -> list[list[Point]]:
    """A translational clearance joint as sketched: the slider (a closed outline through its
    corners) and the guide's two surfaces, each as long as the slider guide of a slider joint
    and at least twice the slider (:mod:`solver.model.translational_rules`)."""
    x, y = node_positions(doc)[joint["node"]]
    corners = [(x + rx, y + ry) for rx, ry in corner_arms(joint)]
    h = max(0.25 * model_size(doc), joint["length"])
    surfaces = [[(sx - h * math.cos(a), sy - h * math.sin(a)), (sx + h * math.cos(a), sy + h * math.sin(a))]
                for sx, sy, a in guide_surfaces(joint, (x, y)).values()]
    return [corners + corners[:1], *surfaces]


def link_polyline(doc: dict, link: dict) -> list[Point]:
    """A link's outline through its nodes (closed for a rigid link of three or more nodes;
    a modal link's further nodes lie on the segment between its two end nodes)."""
    pos = node_positions(doc)
    pts = [pos[n] for n in link["nodes"]]
    if link.get("kind") == "modal":
        return pts[:2]
    return pts + pts[:1] if len(pts) > 2 else pts


def _target_outline(doc: dict, target: dict) -> Outline:
    kind = target["kind"]
    if kind == "ground_line":
        return Outline(polylines=[ground_line_segment(doc, target)])
    if kind == "ground_segment":
        return Outline(polylines=[[(target["x1"], target["y1"]), (target["x2"], target["y2"])]])
    if kind == "circle":
        return Outline(polylines=[circle_points(target.get("x", 0.0), target.get("y", 0.0), target["radius"])])
    if kind == "link":
        found = find_entity(doc, EntityRef("links", target["link"]))
        return Outline(polylines=[link_polyline(doc, found[1])] if found else [])
    return Outline(points=[node_positions(doc)[target["node"]]])


def contact_point(doc: dict, contact: dict) -> Point:
    """Where the striking point of a contact pair sits: its node or its free body."""
    point = contact["point"]
    if "node" in point:
        return node_positions(doc)[point["node"]]
    body = find_entity(doc, EntityRef("bodies", point["body"]))[1]
    return (body["x"], body["y"])


def link_ends(doc: dict, link_id: str) -> tuple[Point, Point] | None:
    """The sketched positions of a link's first two nodes (None while it is being edited into shape)."""
    link = find_entity(doc, EntityRef("links", link_id))
    pos = node_positions(doc)
    if link is None or len(link[1]["nodes"]) < 2 or any(n not in pos for n in link[1]["nodes"][:2]):
        return None
    return pos[link[1]["nodes"][0]], pos[link[1]["nodes"][1]]


def moving_fraction(doc: dict, item: dict, t: float = 0.0) -> float:
    """Where a moving support, mass or force is at time ``t`` (s): s(t) as a fraction of its
    link's sketched length (0 at the first node, 1 at the second; 0 while the link or the
    function is being edited into shape).

    >>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 4.0, "y": 0.0}],
    ...        "links": [{"id": "beam", "kind": "flexible", "nodes": ["A", "B"]}]}
    >>> moving_fraction(doc, {"kind": "force", "link": "beam", "position": {"kind": "linear", "rate": 2.0}}, 0.5)
    0.25
    """
    ends = link_ends(doc, item["link"])
    if ends is None:
        return 0.0
    (x1, y1), (x2, y2) = ends
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    try:
        return TimeFunction(with_defaults(MOVING, item)["position"]).value(t) / length
    except (KeyError, TypeError, ValueError):  # a function being edited into shape
        return 0.0


def moving_point(doc: dict, item: dict) -> Point:
    """Where a moving support, mass or force starts: the sketched point of its link at s(0)."""
    ends = link_ends(doc, item["link"])
    if ends is None:
        return (0.0, 0.0)
    (x1, y1), (x2, y2) = ends
    f = moving_fraction(doc, item)
    return (x1 + f * (x2 - x1), y1 + f * (y2 - y1))


def outline(doc: dict, ref: EntityRef) -> Outline:
    """The shape that stands for an entity when it is highlighted."""
    found = find_entity(doc, ref)
    if found is None:
        return Outline()
    item = found[1]
    pos = node_positions(doc)
    coll = ref.collection
    if coll == "materials":
        return Outline(polylines=[link_polyline(doc, link) for link in doc.get("links", [])
                                  if link.get("section", {}).get("material") == ref.id])
    if coll == "nodes":
        return Outline(points=[pos[ref.id]])
    if coll == "links":
        return Outline(polylines=[link_polyline(doc, item)])
    if coll in ("joints", "masses", "loads"):
        shape = Outline(points=[pos[item["node"]]])
        if item.get("kind") == "slider":
            shape.polylines.append(slider_guide(doc, item))
        if item.get("kind") == "translational_clearance":
            shape.polylines += slider_in_guide(doc, item)
        return shape
    if coll == "bodies":
        shape = Outline(points=[(item["x"], item["y"])])
        if item.get("radius", 0.0) > 0:
            shape.polylines.append(circle_points(item["x"], item["y"], item["radius"]))
        return shape
    if coll == "drivers":
        if "link" in item:
            link = find_entity(doc, EntityRef("links", item["link"]))[1]
            return Outline(points=[pos[item["pivot"]]], polylines=[link_polyline(doc, link)])
        return Outline(points=[pos[item["node"]]])
    if coll == "initial_velocities":
        owner = next(EntityRef(c, item[k]) for k, c in (("node", "nodes"), ("link", "links"), ("body", "bodies"))
                     if k in item)
        return outline(doc, owner)
    if coll == "moving":
        link = find_entity(doc, EntityRef("links", item["link"]))
        return Outline(points=[moving_point(doc, item)], polylines=[link_polyline(doc, link[1])] if link else [])
    if coll == "contacts":
        shape = _target_outline(doc, item["target"])
        shape.points.append(contact_point(doc, item))
        return shape
    return Outline()
