"""The entities the canvas tools create: valid for the schema, with a unique id and starter values.

Plain Python, no Qt.  Each function returns a new item for one collection; the
tools then push it as an undo command.  Starter values (1 kg, 1 rad/s, a 1 N force)
are there to be edited in the property panel.

>>> doc = {"nodes": [{"id": "N1", "x": 0.0, "y": 0.0}, {"id": "N2", "x": 0.2, "y": 0.0}]}
>>> new_link(doc, "N1", "N2")
{'id': 'link1', 'kind': 'rigid', 'nodes': ['N1', 'N2'], 'mass': 1.0}
>>> new_joint(doc, "slider", "N2", angle=0.0)
{'id': 'slider1', 'kind': 'slider', 'node': 'N2', 'angle': 0.0}
"""
from __future__ import annotations

import math

from .edits import unique_id

#: starter mass of new links, lumped masses and free bodies (kg)
STARTER_MASS = 1.0
#: digits of angles and vector components set by dragging
DRAG_DIGITS = 6


def _round(value: float) -> float:
    return round(value, DRAG_DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


def new_node(doc: dict, x: float, y: float) -> dict:
    """A node ``N1``, ``N2``, ... at ``(x, y)`` m."""
    return {"id": unique_id(doc, "nodes", "N"), "x": float(x), "y": float(y)}


def new_link(doc: dict, first: str, second: str) -> dict:
    """A rigid link between two nodes, 1 kg (toggle it flexible in the property panel)."""
    return {"id": unique_id(doc, "links", "link"), "kind": "rigid", "nodes": [first, second], "mass": STARTER_MASS}


def new_joint(doc: dict, kind: str, node: str, **fields) -> dict:
    """A joint of ``kind`` at ``node``; a weld names ``links``, a slider its guide ``angle`` (rad)."""
    return {"id": unique_id(doc, "joints", kind), "kind": kind, "node": node, **fields}


def new_clearance(doc: dict, node: str, journal_link: str, material: str) -> dict:
    """A revolute joint with clearance at ``node``: the end of ``journal_link`` is the journal;
    the seed's joint (Flores et al. 2006 Table 2): bearing radius 10 mm, journal 9.5 mm,
    15 mm long, of ``material``, Lankarani-Nikravesh with c_e = 0.9 (the schema's defaults)."""
    return {"id": unique_id(doc, "joints", "clearance"), "kind": "clearance", "node": node, "links": [journal_link],
            "bearing_radius": 0.01, "journal_radius": 0.0095, "length": 0.015, "material": material}


def new_material(doc: dict) -> dict:
    """Steel: E = 210 GPa, density 7850 kg/m^3."""
    return {"id": unique_id(doc, "materials", "material"), "E": 2.1e11, "density": 7850.0}


def new_mass(doc: dict, node: str) -> dict:
    """A lumped mass of 1 kg at ``node``."""
    return {"id": unique_id(doc, "masses", "mass"), "node": node, "mass": STARTER_MASS}


def new_body(doc: dict, x: float, y: float) -> dict:
    """A free point mass of 1 kg at ``(x, y)`` m."""
    return {"id": unique_id(doc, "bodies", "body"), "kind": "point", "x": float(x), "y": float(y), "mass": STARTER_MASS}


def new_driver(doc: dict, link: str, pivot: str) -> dict:
    """A motor turning ``link`` about ``pivot`` at a constant 1 rad/s."""
    return {"id": unique_id(doc, "drivers", "motor"), "kind": "speed", "link": link, "pivot": pivot,
            "function": {"kind": "constant", "value": 1.0}}


def new_load(doc: dict, node: str, angle: float) -> dict:
    """A force of 1 N at ``node`` pointing along ``angle`` (rad); zero components are left out."""
    load = {"id": unique_id(doc, "loads", "load"), "node": node}
    for key, value in (("fx", _round(math.cos(angle))), ("fy", _round(math.sin(angle)))):
        if value:
            load[key] = value
    return load


def new_velocity(owner: tuple[str, str], vx: float, vy: float) -> dict:
    """An initial velocity of a node or free body: ``owner`` is ``("node", id)`` or ``("body", id)``."""
    item = {owner[0]: owner[1]}
    for key, value in (("vx", _round(vx)), ("vy", _round(vy))):
        if value:
            item[key] = value
    return item


def new_contact(doc: dict, point: tuple[str, str], target: dict) -> dict:
    """A contact pair of ``point`` (``("node", id)`` or ``("body", id)``) against ``target``.

    Friction, restitution, law and model are written out at their defaults, to be edited.
    """
    return {"id": unique_id(doc, "contacts", "contact"), "point": {point[0]: point[1]}, "target": target,
            "mu_s": 0.0, "mu_d": 0.0, "e": 1.0, "law": "energetic", "model": {"kind": "impulse"}}


def direction(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The angle (rad, rounded) of the direction from ``a`` to ``b``; 0 when they coincide.

    >>> direction((0.0, 0.0), (0.0, 2.0))
    1.570796
    """
    if a == b:
        return 0.0
    return _round(math.atan2(b[1] - a[1], b[0] - a[0]))
