"""Geometric impossibilities of a sketch: coincident nodes of a link, zero-length elements
and segments.

Two points closer than :func:`coincidence_tolerance` -- a millionth of the model's size
or of its distance from the origin, whichever is larger, and at least a nanometre -- are
one point for the solver: a link or beam element between them has no direction and no length (its
stiffness and inertia divide by it).  Called by
:func:`solver.model.validate.semantic_problems` on schema-valid documents with a
``bad(keys, message)`` callback.
"""
from __future__ import annotations

import math
from typing import Callable

from .limits import link_elements

Bad = Callable[[list, str], None]

#: points closer than this fraction of the model's size, or of their distance from the origin, coincide
RELATIVE_TOLERANCE = 1e-6
#: ... and so do points closer than this (m): below it lengths, their powers and their
#: quotients leave what a solver can use (a link of 1e-300 m divided by zero)
ABSOLUTE_TOLERANCE = 1e-9


def coincidence_tolerance(doc: dict) -> float:
    """Distance (m) within which two points of the sketch (nodes, free bodies) coincide."""
    xs = [p["x"] for p in doc["nodes"] + doc.get("bodies", [])]
    ys = [p["y"] for p in doc["nodes"] + doc.get("bodies", [])]
    size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    far = max(max(map(abs, xs)), max(map(abs, ys)))
    return max(RELATIVE_TOLERANCE * max(size, far), ABSOLUTE_TOLERANCE)


def _tolerance_text(tol: float) -> str:
    return f"at least {tol:.3g} m, a millionth of the model's size or distance from the origin, or 1 nm"


def geometry_problems(doc: dict, bad: Bad) -> set[int]:
    """Coincident nodes of every link, beam elements shorter than the tolerance, and
    contact segments without length; the indices of the links whose nodes coincide."""
    points = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    tol = coincidence_tolerance(doc)
    degenerate = set()
    for i, link in enumerate(doc.get("links", [])):
        nodes = link["nodes"]
        for k, b in enumerate(nodes):
            for a in nodes[:k]:
                gap = math.dist(points[a], points[b])
                if a != b and gap <= tol:
                    bad(["links", i, "nodes", k], f"node '{b}' coincides with node '{a}' of this link "
                                                  f"({gap:.3g} m apart; {_tolerance_text(tol)})")
                    degenerate.add(i)
        if i in degenerate or link_elements(link) == 0:
            continue
        length = math.dist(points[nodes[0]], points[nodes[1]])
        mesh = link.get("mesh", {})
        if "stations" in mesh:
            st = mesh["stations"]
            shortest, field = length * min(b - a for a, b in zip(st, st[1:])), "stations"
            if shortest <= 0:
                continue  # not increasing: reported on its own
        else:
            shortest, field = length / link_elements(link), "elements"
        if shortest <= tol:
            bad(["links", i, "mesh", field], f"an element of {shortest:.3g} m has no length for the solver "
                                              f"({_tolerance_text(tol)})")
    for i, c in enumerate(doc.get("contacts", [])):
        t = c["target"]
        if t["kind"] == "ground_segment" and math.dist((t["x1"], t["y1"]), (t["x2"], t["y2"])) <= tol:
            bad(["contacts", i, "target"], f"the segment's two ends coincide ({_tolerance_text(tol)})")
    return degenerate
