"""User-like models drawn by hypothesis: small linkages with free bodies and contacts.

What a new user sketches in the first hour (issue 26 item 2): a chain of one to three links
pinned to ground at the origin (each rigid, or flexible with a few corotational elements;
a chain of three may be pinned at its far end too, a four-bar), under gravity or not,
turning at a drawn speed, with one or two contact pairs of the three models
(``impulse``, ``lagrange``, ``compliant``): the chain's free end against a ground line or
segment below it, a free block or disc (explicit inertia) thrown at a link or at the
ground.  Every model validates, has 10--40 degrees of freedom, a first contact within a
few milliseconds and an end time of a few tens of them: a run takes a fraction of a
second.

Left out on purpose (defects other branches of issue 26 fix): ``node`` targets (one acts as
an infinite line), rigid bodies without inertia, moving masses.

>>> from hypothesis import find
>>> doc = find(user_models(), lambda d: True)
>>> doc["format"], 10 <= dofs(doc) <= 40
('flexmech', True)
"""
from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

#: contact models drawn, and the compliant laws (with an explicit stiffness: no materials needed)
CONTACT_MODELS = ("impulse", "lagrange", "compliant")
COMPLIANT_LAWS = ("hooke", "kelvin_voigt", "hertz", "lankarani_nikravesh", "hunt_crossley")
#: degrees of freedom of the drawn models
DOFS = (10, 40)
#: gap (m) between a striking point and its target at the start: a contact within milliseconds
GAP = (0.001, 0.004)


def _section(draw) -> dict[str, Any]:
    """A slender steel-like beam per length: bending waves slow enough for a step of 1 ms's tenth."""
    return {"kind": "per_length", "EA": draw(st.sampled_from([2e5, 1e6, 5e6])),
            "EI": draw(st.sampled_from([20.0, 50.0, 200.0])), "rhoA": draw(st.sampled_from([0.5, 1.0, 2.0])),
            "c": 0.01}


def _contact_model(draw, kind: str) -> dict[str, Any]:
    """The ``model`` object of a pair of ``kind``; a compliant pair's law with its own stiffness."""
    model: dict[str, Any] = {"kind": kind}
    if kind == "compliant":
        law = draw(st.sampled_from(COMPLIANT_LAWS))
        linear = law in ("hooke", "kelvin_voigt")
        model.update(law=law, stiffness=draw(st.sampled_from([1e5, 1e6] if linear else [1e6, 1e7])),
                     exponent=1.0 if linear else 1.5)
        if law == "kelvin_voigt":
            model["damping"] = draw(st.sampled_from([1.0, 10.0]))
    return model


def _contact(draw, cid: str, point: dict, target: dict) -> dict[str, Any]:
    kind = draw(st.sampled_from(CONTACT_MODELS))
    mu = draw(st.sampled_from([0.0, 0.0, 0.2, 0.5]))
    pair = {"id": cid, "point": point, "target": target, "mu_s": mu, "mu_d": mu, "model": _contact_model(draw, kind)}
    if kind == "impulse":
        pair.update(e=draw(st.sampled_from([0.0, 0.5, 0.8, 1.0])),
                    law=draw(st.sampled_from(["newton", "poisson", "energetic"])))
    elif kind == "compliant":
        pair["e"] = draw(st.sampled_from([0.5, 0.8, 0.95]))
    return pair


def _chain(draw, doc: dict) -> list[tuple[float, float]]:
    """One to three links from a ground pin at the origin; the positions of the chain's nodes."""
    count = draw(st.integers(1, 3))
    points = [(0.0, 0.0)]
    angle = draw(st.floats(-0.6, 0.6))
    for i in range(count):
        length = draw(st.sampled_from([0.2, 0.3, 0.4]))
        x0, y0 = points[-1]
        points.append((round(x0 + length * math.cos(angle), 6), round(y0 + length * math.sin(angle), 6)))
        angle += draw(st.floats(-1.0, 1.0))
    doc["nodes"] = [{"id": f"n{i}", "x": x, "y": y} for i, (x, y) in enumerate(points)]
    for i in range(count):
        link: dict[str, Any] = {"id": f"link{i}", "nodes": [f"n{i}", f"n{i + 1}"]}
        if draw(st.booleans()):
            link.update(kind="flexible", section=_section(draw), mesh={"elements": draw(st.integers(2, 4))})
        else:
            link.update(kind="rigid", mass=draw(st.sampled_from([0.2, 0.5, 1.0])))
        doc["links"].append(link)
    doc["joints"].append({"id": "pivot", "kind": "ground", "node": "n0"})
    if count == 3 and draw(st.booleans()):
        doc["joints"].append({"id": "far-pivot", "kind": "ground", "node": f"n{count}"})
    else:
        doc["initial_velocities"].append({"link": "link0", "omega": draw(st.sampled_from([-3.0, -1.0, 1.0, 3.0]))})
    return points


def _tip_on_ground(draw, doc: dict, points: list) -> None:
    """The chain's free end against a ground line or segment just below it, the chain turning onto it."""
    end = len(points) - 1
    x, y = points[end]
    below = y - draw(st.floats(*GAP))
    if draw(st.booleans()):
        target = {"kind": "ground_line", "x": 0.0, "y": below}
    else:
        target = {"kind": "ground_segment", "x1": x - 0.2, "y1": below, "x2": x + 0.2, "y2": below}
    doc["contacts"].append(_contact(draw, "tip-ground", {"node": f"n{end}"}, target))
    # the first link turns clockwise about the pivot: the free end moves down when right of it
    speed = 3.0 if x > 0 else -3.0
    doc["initial_velocities"] = [v for v in doc["initial_velocities"] if v.get("link") != "link0"]
    doc["initial_velocities"].append({"link": "link0", "omega": round(-speed / math.hypot(*points[1]), 6)})


def _body_on_link(draw, doc: dict, points: list) -> None:
    """A block or disc thrown at the middle of a link, from its left or right side."""
    i = draw(st.integers(0, len(points) - 2))
    (x1, y1), (x2, y2) = points[i], points[i + 1]
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length  # the link's left normal
    side = draw(st.sampled_from(["left", "right"]))
    sign = 1.0 if side == "left" else -1.0
    radius = draw(st.sampled_from([0.0, 0.01, 0.02]))
    s = draw(st.floats(0.3, 0.7))
    distance = radius + draw(st.floats(*GAP))
    bx, by = x1 + s * (x2 - x1) + sign * distance * nx, y1 + s * (y2 - y1) + sign * distance * ny
    _body(draw, doc, bx, by, radius, (-sign * nx, -sign * ny))
    doc["contacts"].append(_contact(draw, "body-link", {"body": "body"}, {"kind": "link", "link": f"link{i}",
                                                                        "side": side}))


def _body_on_ground(draw, doc: dict, points: list) -> None:
    """A block or disc thrown down at a ground line below the chain."""
    lowest = min(y for _x, y in points)
    radius = draw(st.sampled_from([0.0, 0.01, 0.02]))
    bx, floor = 1.0, lowest - 0.1
    _body(draw, doc, bx, floor + radius + draw(st.floats(*GAP)), radius, (0.0, -1.0))
    doc["contacts"].append(_contact(draw, "body-ground", {"body": "body"}, {"kind": "ground_line", "y": floor}))


def _body(draw, doc: dict, x: float, y: float, radius: float, towards: tuple[float, float]) -> None:
    """A free rigid body at (x, y), its inertia given (m r^2 / 2, or a small block's), moving ``towards``
    at 0.5--3 m/s with a drawn sideways part."""
    mass = draw(st.sampled_from([0.05, 0.2, 0.5]))
    inertia = mass * max(radius, 0.01) ** 2 / 2
    doc["bodies"].append({"id": "body", "kind": "rigid", "x": round(x, 9), "y": round(y, 9), "mass": mass,
                          "inertia": inertia, "radius": radius})
    speed, slide = draw(st.floats(0.5, 3.0)), draw(st.floats(-0.5, 0.5))
    tx, ty = -towards[1], towards[0]
    doc["initial_velocities"].append({"body": "body", "vx": round(speed * (towards[0] + slide * tx), 6),
                                      "vy": round(speed * (towards[1] + slide * ty), 6),
                                      "omega": draw(st.sampled_from([0.0, 5.0]))})


def dofs(doc: dict) -> int:
    """Degrees of freedom of ``doc`` before constraints: two translations a node (mesh nodes
    included), a rotation per link end and mesh node, three a free body."""
    count = 0
    for link in doc["links"]:
        count += 3 * (link["mesh"]["elements"] - 1) + 2 if link["kind"] == "flexible" else 2
    return count + 2 * len(doc["nodes"]) + 3 * len(doc["bodies"])


@st.composite
def user_models(draw) -> dict[str, Any]:
    """A user-like model: a chain of links with one or two contact pairs (see the module)."""
    doc: dict[str, Any] = {"format": "flexmech", "version": 1, "nodes": [], "links": [], "joints": [], "bodies": [],
                           "contacts": [], "initial_velocities": []}
    points = _chain(draw, doc)
    free_end = not any(j["id"] == "far-pivot" for j in doc["joints"])
    pairs = draw(st.sets(st.sampled_from(["tip", "body-link", "body-ground"]), min_size=1, max_size=2)
                 .filter(lambda p: free_end or "tip" not in p).filter(lambda p: not {"body-link", "body-ground"} <= p))
    for pair in sorted(pairs):
        {"tip": _tip_on_ground, "body-link": _body_on_link, "body-ground": _body_on_ground}[pair](draw, doc, points)
    if draw(st.booleans()):
        doc["gravity"] = {"y": -9.81}
    doc["solver"] = {"end_time": draw(st.sampled_from([0.02, 0.04])), "step": 5e-4}
    if not DOFS[0] <= dofs(doc) <= DOFS[1]:
        from hypothesis import reject

        reject()
    return doc
