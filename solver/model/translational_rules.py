"""Translational joints with clearance (Flores et al., J. Comput. Nonlinear Dyn. 3, 2008):
their geometry, read by the compiler and the sketch alike, and the rules a schema cannot state.

A slider of length L and height h (m), centred on the joint's node, moves in a straight
guide fixed to the ground whose surfaces lie ``h/2 + c`` either side of the guide's centre
line (direction ``angle`` from +x, through the node's sketched position less ``offset`` along
the normal ``n = (-sin a, cos a)``).  The slider's corners, in its own frame (tilted by
``tilt`` from the guide) at ``(+-L/2, +-h/2)``, are named by the side they lie on: the two
``*_lower`` corners can only ever touch the lower surface and the two ``*_upper`` the upper one,
as long as the slider cannot turn over in its guide (its diagonal longer than the guide's
width, a rule here): the lowest point of a rectangle turned by less than 90 deg is a corner of
its lower side.  Each corner against its surface is one compliant contact pair, id
``<joint>.<corner>``.
"""
from __future__ import annotations

import math
from typing import Callable

from .contact_rules import MIN_CLEARANCE_REL
from .schema import CYLINDER_LAWS, GROUND_JOINTS

Bad = Callable[[list, str], None]

#: the slider's corners: name, (+-1 along L, +-1 across h) in the slider's frame, and the
#: guide surface it meets
CORNERS = (("rear_lower", (-1, -1), "lower"), ("front_lower", (1, -1), "lower"),
           ("front_upper", (1, 1), "upper"), ("rear_upper", (-1, 1), "upper"))


def translational_joints(doc: dict) -> list[dict]:
    return [j for j in doc.get("joints", []) if j.get("kind") == "translational_clearance"]


def corner_pair_ids(joint: dict) -> list[str]:
    """Ids of the joint's four contact pairs (and of its corner nodes), in :data:`CORNERS` order."""
    return [f"{joint['id']}.{name}" for name, _s, _side in CORNERS]


def corner_arms(joint: dict) -> list[tuple[float, float]]:
    """Each corner from the slider's centre as sketched (m): ``(s_L L/2) u' + (s_h h/2) n'``
    with the slider's axes ``u', n'`` turned by ``angle + tilt``."""
    a = joint.get("angle", 0.0) + joint.get("tilt", 0.0)
    ux, uy = math.cos(a), math.sin(a)
    half_l, half_h = 0.5 * joint["length"], 0.5 * joint["height"]
    return [(sl * half_l * ux - sh * half_h * uy, sl * half_l * uy + sh * half_h * ux) for _n, (sl, sh), _s in CORNERS]


def guide_surfaces(joint: dict, centre: tuple[float, float]) -> dict[str, tuple[float, float, float]]:
    """The guide's surfaces for a slider sketched at ``centre``: ``{"lower"|"upper": (x, y, angle)}``,
    a point of each (m) and its direction (rad), chosen so that its normal ``(-sin, cos)``
    points into the guide (the convention of a ``ground_line`` contact target)."""
    a = joint.get("angle", 0.0)
    nx, ny = -math.sin(a), math.cos(a)
    cx, cy = centre[0] - joint.get("offset", 0.0) * nx, centre[1] - joint.get("offset", 0.0) * ny
    half = 0.5 * joint["height"] + joint["clearance"]
    return {"lower": (cx - half * nx, cy - half * ny, a), "upper": (cx + half * nx, cy + half * ny, a + math.pi)}


def corner_targets(joint: dict, centre: tuple[float, float]) -> dict[str, dict]:
    """Each corner's contact pair (id, also its corner node's): the guide surface it meets as a
    ``ground_line`` target (``x, y`` in m, ``angle`` in rad)."""
    surfaces = guide_surfaces(joint, centre)
    return {pair: dict(zip(("kind", "x", "y", "angle"), ("ground_line", *surfaces[side])))
            for pair, (_name, _s, side) in zip(corner_pair_ids(joint), CORNERS)}


def corner_gaps(joint: dict, centre: tuple[float, float]) -> list[float]:
    """The sketched gap of each corner to its surface (m, < 0: outside the guide)."""
    surfaces = guide_surfaces(joint, centre)
    gaps = []
    for (_name, _s, side), (rx, ry) in zip(CORNERS, corner_arms(joint)):
        x, y, a = surfaces[side]
        gaps.append(-math.sin(a) * (centre[0] + rx - x) + math.cos(a) * (centre[1] + ry - y))
    return gaps


def translational_problems(doc: dict, bad: Bad) -> None:
    """Rules of every translational clearance joint: a law without radii, a slider that cannot
    turn over in its guide, starts inside it and is guided by nothing else."""
    xy = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    taken = {c["id"] for c in doc.get("contacts", [])} | {j["id"] for j in doc.get("joints", [])}
    guided: set[str] = set()
    held = {j["node"] for j in doc.get("joints", []) if j.get("kind") in GROUND_JOINTS}
    for i, j in ((i, j) for i, j in enumerate(doc.get("joints", [])) if j.get("kind") == "translational_clearance"):
        where = ["joints", i]
        if j.get("law", "lankarani_nikravesh") in CYLINDER_LAWS:
            bad(where + ["law"], f"the {j['law']} law is a pin's in a bore; a corner on a flat guide takes "
                                 "hooke, kelvin_voigt, hertz, lankarani_nikravesh, hunt_crossley or flores")
        if j.get("friction_law", "ambrosio") == "ambrosio" and \
                j.get("friction_velocity_1", 1e-3) <= j.get("friction_velocity", 1e-4):
            bad(where + ["friction_velocity_1"], "must be > friction_velocity (Ambrosio's v1 > v0)")
        if j["node"] in held:
            bad(where + ["node"], f"node '{j['node']}' is held by a ground pin, clamp or slider: the joint's "
                                  "guide holds it")
        if taken & set(corner_pair_ids(j)):
            bad(where + ["id"], f"names its corners' pairs {corner_pair_ids(j)}: an id is taken")
        if j["node"] in guided:
            bad(where + ["node"], f"node '{j['node']}' already has a translational clearance joint")
        guided.add(j["node"])
        width = j["height"] + 2.0 * j["clearance"]
        if j["clearance"] < MIN_CLEARANCE_REL * j["height"]:
            bad(where + ["clearance"], f"must be at least {MIN_CLEARANCE_REL:g} of the height (lost in h/2 + c)")
            continue
        if abs(j.get("tilt", 0.0)) >= math.atan2(j["length"], j["height"]):
            bad(where + ["tilt"], f"must be below atan(L/h) = {math.atan2(j['length'], j['height']):.6g} rad in "
                                  "magnitude: the slider would stand across its guide")
            continue
        if math.hypot(j["length"], j["height"]) <= width:
            bad(where + ["clearance"], f"a guide {width:.6g} m wide lets the slider (diagonal "
                                       f"{math.hypot(j['length'], j['height']):.6g} m) turn over: make it narrower")
            continue
        gaps = corner_gaps(j, xy.get(j["node"], (0.0, 0.0)))
        outside = [(name, -g) for (name, _s, _side), g in zip(CORNERS, gaps) if g < 0.0]
        if outside:
            name, depth = max(outside, key=lambda o: o[1])
            bad(where + ["tilt" if j.get("tilt") else "offset"],
                f"the slider starts outside its guide: corner {name} {depth:.6g} m beyond the guide's surface")
