"""What is under the cursor: hit tests, rubber-band selection and snapping, in model metres.

Plain Python, no Qt.  The canvas converts its pick radius from pixels to metres
(``tol``) before it asks; everything here reads the model document only.

>>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 1.0, "y": 0.0}],
...        "links": [{"id": "r", "kind": "rigid", "nodes": ["A", "B"], "mass": 1.0}]}
>>> pick(doc, (0.01, 0.0), 0.05), pick(doc, (0.5, 0.02), 0.05)
(EntityRef(collection='nodes', id='A'), EntityRef(collection='links', id='r'))
>>> snap(doc, (0.98, 0.01), 0.05, 0.1), snap(doc, (0.42, 0.26), 0.05, 0.1)
(((1.0, 0.0), 'B'), ((0.4, 0.3), None))
"""
from __future__ import annotations

import math

from . import geometry as geo
from ..document.edits import REFERRING, iter_references
from ..document.entities import EntityRef, entity_id

Point = geo.Point

#: digits a snapped coordinate is rounded to (0.15, not 0.15000000000000002)
SNAP_DIGITS = 12


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``-``b``.

    >>> segment_distance((0.5, 1.0), (0.0, 0.0), (1.0, 0.0)), segment_distance((2.0, 0.0), (0.0, 0.0), (1.0, 0.0))
    (1.0, 1.0)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    s = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - s * dx, p[1] - a[1] - s * dy)


def polyline_distance(p: Point, pts: list[Point]) -> float:
    """Distance from ``p`` to the nearest segment of a polyline."""
    return min((segment_distance(p, a, b) for a, b in zip(pts, pts[1:])), default=math.inf)


def nearest_node(doc: dict, p: Point, tol: float) -> str | None:
    """The node nearest ``p`` within ``tol`` (m), if any."""
    best, best_d = None, tol
    for node_id, q in geo.node_positions(doc).items():
        d = math.hypot(p[0] - q[0], p[1] - q[1])
        if d <= best_d:
            best, best_d = node_id, d
    return best


def _body_distance(body: dict, p: Point) -> float:
    d = math.hypot(p[0] - body["x"], p[1] - body["y"])
    return max(0.0, d - body.get("radius", 0.0))


def _target_distance(doc: dict, target: dict, p: Point) -> float:
    kind = target["kind"]
    if kind == "ground_line":
        return polyline_distance(p, geo.ground_line_segment(doc, target))
    if kind == "ground_segment":
        return segment_distance(p, (target["x1"], target["y1"]), (target["x2"], target["y2"]))
    if kind == "circle":
        d = math.hypot(p[0] - target.get("x", 0.0), p[1] - target.get("y", 0.0))
        return abs(d - target["radius"])
    return math.inf  # links and nodes are picked as themselves


def pick(doc: dict, p: Point, tol: float,
         collections: tuple[str, ...] = ("nodes", "bodies", "moving", "links", "contacts")) -> EntityRef | None:
    """The entity drawn at ``p`` (within ``tol`` m), nodes before bodies before moving supports,
    masses and forces (where they start) before links before contact targets.

    ``collections`` limits (and orders) what may be picked.
    """
    for collection in collections:
        if collection == "nodes":
            node = nearest_node(doc, p, tol)
            if node is not None:
                return EntityRef("nodes", node)
            continue
        if collection == "bodies":
            distance = _body_distance
        elif collection == "links":
            def distance(link: dict, q: Point) -> float:
                return polyline_distance(q, geo.link_polyline(doc, link))
        elif collection == "contacts":
            def distance(contact: dict, q: Point) -> float:
                return _target_distance(doc, contact["target"], q)
        elif collection == "moving":
            def distance(item: dict, q: Point) -> float:
                x, y = geo.moving_point(doc, item)
                return math.hypot(q[0] - x, q[1] - y)
        else:
            continue
        scored = [(distance(item, p), item["id"]) for item in doc.get(collection, [])]
        hits = [s for s in scored if s[0] <= tol]
        if hits:
            return EntityRef(collection, min(hits)[1])
    return None


def stack_at(doc: dict, p: Point, tol: float, collections: tuple[str, ...]) -> list[EntityRef]:
    """The entity :func:`pick` finds at ``p`` and then every entity that names it (a node's links,
    joints, masses, loads...): what repeated clicks on one spot cycle through.

    >>> doc = {"nodes": [{"id": "A", "x": 0.0, "y": 0.0}], "masses": [{"id": "m", "node": "A", "mass": 1.0}]}
    >>> [str(r) for r in stack_at(doc, (0.0, 0.0), 0.01, ("nodes",))]
    ['nodes[A]', 'masses[m]']
    """
    first = pick(doc, p, tol, collections)
    if first is None:
        return []
    stack = [first]
    for collection in REFERRING:
        for i, item in enumerate(doc.get(collection, [])):
            if (first.collection, first.id) in set(iter_references(doc, collection, i)):
                stack.append(EntityRef(collection, entity_id(collection, item)))
    return stack


def in_rect(doc: dict, corner1: Point, corner2: Point) -> list[EntityRef]:
    """Nodes and bodies inside the rectangle, and links whose nodes all are."""
    xmin, xmax = sorted((corner1[0], corner2[0]))
    ymin, ymax = sorted((corner1[1], corner2[1]))

    def inside(q: Point) -> bool:
        return xmin <= q[0] <= xmax and ymin <= q[1] <= ymax

    pos = geo.node_positions(doc)
    refs = [EntityRef("nodes", n) for n, q in pos.items() if inside(q)]
    refs += [EntityRef("links", link["id"]) for link in doc.get("links", [])
             if all(inside(pos[n]) for n in link["nodes"])]
    refs += [EntityRef("bodies", b["id"]) for b in doc.get("bodies", []) if inside((b["x"], b["y"]))]
    return refs


def snap_to_grid(p: Point, step: float) -> Point:
    """``p`` rounded to the nearest grid point of spacing ``step`` (m)."""
    return (round(round(p[0] / step) * step, SNAP_DIGITS), round(round(p[1] / step) * step, SNAP_DIGITS))


def snap(doc: dict, p: Point, tol: float, step: float | None) -> tuple[Point, str | None]:
    """Where a click at ``p`` lands: on a node within ``tol`` (and its id), else on the grid.

    ``step`` None leaves the point where it is (snapping to the grid turned off).
    """
    node = nearest_node(doc, p, tol)
    if node is not None:
        return geo.node_positions(doc)[node], node
    return (snap_to_grid(p, step) if step else p), None
