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

import copy
import math

from solver.model.contact_rules import point_radius
from solver.model.io import model_with_defaults
from solver.model.schema import CONTACT_MODEL, LINK, MESH
from solver.results.trust import STRUCK_ELEMENTS

from .edits import unique_id

#: starter mass of new links, lumped masses and free bodies (kg)
STARTER_MASS = 1.0
#: the weight of a new moving mass is its mass times this, m/s^2
STANDARD_GRAVITY = 9.81
#: digits of vector components set by dragging
DRAG_DIGITS = 6
#: a drawn direction this close to a multiple of 45 degrees is that multiple, rad
SNAP_ANGLE = 1e-9
#: diameter of the round section a link gets when it is made flexible, m
STARTER_DIAMETER = 0.01


def _round(value: float) -> float:
    return round(value, DRAG_DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


def new_node(doc: dict, x: float, y: float) -> dict:
    """A node ``N1``, ``N2``, ... at ``(x, y)`` m."""
    return {"id": unique_id(doc, "nodes", "N"), "x": float(x), "y": float(y)}


def new_link(doc: dict, first: str, second: str) -> dict:
    """A rigid link between two nodes, 1 kg (toggle it flexible in the property panel)."""
    return {"id": unique_id(doc, "links", "link"), "kind": "rigid", "nodes": [first, second], "mass": STARTER_MASS}


def toggled_link(doc: dict, link: dict, kind: str | None = None) -> tuple[dict, dict | None]:
    """The link turned into ``kind`` (rigid, flexible: corotational beam elements, or modal:
    floating frame with vibration modes; default: rigid -> flexible, otherwise -> rigid),
    and a material to add with it.

    A link made flexible or modal is written out whole, nothing left to defaults: its
    section (the one it had, else a 10 mm round bar of the model's first material) and a
    uniform mesh (8 elements for a corotational link, the coarsest a struck link may have
    without the run warning that its results depend on the mesh (``trust.STRUCK_ELEMENTS``),
    10 for a modal one, whose modes are computed on it); a modal link also gets its modes and
    reference conditions (the schema's defaults).  A model without a material gets steel
    (:func:`new_material`), returned as the second item to be added with the link.  A link
    made rigid keeps id, nodes, section, mass, inertia and centre of mass; a flexible link
    made modal (or back) keeps its section and mesh.

    >>> toggled_link({"materials": []}, {"id": "rod", "kind": "rigid", "nodes": ["A", "B"], "mass": 1.0})
    ({'id': 'rod', 'kind': 'flexible', 'nodes': ['A', 'B'], 'section': {'kind': 'circle', 'material': 'steel', 'd': 0.01}, 'mesh': {'kind': 'uniform', 'elements': 8}}, {'id': 'steel', 'E': 210000000000.0, 'density': 7850.0, 'expansion': 1.2e-05})
    >>> toggled_link({"materials": [{"id": "steel"}]}, {"id": "rod", "kind": "rigid", "nodes": ["A", "B"]}, "modal")[0]
    {'id': 'rod', 'kind': 'modal', 'nodes': ['A', 'B'], 'section': {'kind': 'circle', 'material': 'steel', 'd': 0.01}, 'mesh': {'kind': 'uniform', 'elements': 10}, 'modes': 4, 'reference': 'clamped'}
    """
    if kind is None:
        kind = "flexible" if link.get("kind") == "rigid" else "rigid"
    out = {"id": link["id"], "kind": kind, "nodes": list(link["nodes"])}
    section = copy.deepcopy(link.get("section"))
    material = None
    if kind in ("flexible", "modal"):
        if section is None:
            material_id, material = starter_material(doc)
            section = {"kind": "circle", "material": material_id, "d": STARTER_DIAMETER}
        out["section"] = section
        if kind == "flexible" and len(out["nodes"]) > 2:
            out["nodes"] = out["nodes"][:2]  # a corotational link runs between its two end nodes
        mesh = LINK.kinds[kind].fields["mesh"]
        starter = mesh.default or {"kind": MESH.default_kind, "elements": MESH.kinds[MESH.default_kind].fields["elements"].default}
        if kind == "flexible":
            starter = {**starter, "elements": max(starter["elements"], STRUCK_ELEMENTS)}
        out["mesh"] = copy.deepcopy(link.get("mesh")) if link.get("kind") in ("flexible", "modal") else copy.deepcopy(starter)
        if kind == "modal":
            fields = LINK.kinds["modal"].fields
            for key in ("modes", "reference"):
                out[key] = copy.deepcopy(link.get(key, fields[key].default))
    else:
        for key in ("mass", "inertia", "com"):
            if key in link:
                out[key] = copy.deepcopy(link[key])
        if section is not None:
            out["section"] = section
    return out, material


def new_joint(doc: dict, kind: str, node: str, **fields) -> dict:
    """A joint of ``kind`` at ``node``; a weld names ``links``, a slider its guide ``angle`` (rad)."""
    return {"id": unique_id(doc, "joints", kind), "kind": kind, "node": node, **fields}


def new_clearance(doc: dict, node: str, journal_link: str, material: str) -> dict:
    """A revolute joint with clearance at ``node``: the end of ``journal_link`` is the journal;
    the seed's joint (Flores et al. 2006 Table 2): bearing radius 10 mm, journal 9.5 mm,
    15 mm long, of ``material``, Lankarani-Nikravesh with c_e = 0.9 (the schema's defaults)."""
    return {"id": unique_id(doc, "joints", "clearance"), "kind": "clearance", "node": node, "links": [journal_link],
            "bearing_radius": 0.01, "journal_radius": 0.0095, "length": 0.015, "material": material}


def translational_clearance(joint: dict) -> dict:
    """``joint`` (a slider, a ground pin...) made a translational joint with clearance at its node,
    its id and a slider's guide angle kept: the shipped example's slider (Flores et al. 2008 on
    the 2006 slider-crank), 50 x 20 mm, 0.14 kg, 0.5 mm clearance each side, K = 1e10 N/m^1.5."""
    return {"id": joint["id"], "kind": "translational_clearance", "node": joint["node"],
            "angle": joint.get("angle", 0.0), "length": 0.05, "height": 0.02, "clearance": 0.0005, "mass": 0.14,
            "stiffness": 1e10}


def starter_material(doc: dict) -> tuple[str, dict | None]:
    """The material a new field names: the model's first, else steel (:func:`new_material`),
    returned as the second item to be added with the edit."""
    materials = doc.get("materials", [])
    if materials:
        return materials[0]["id"], None
    material = new_material(doc)
    return material["id"], material


def compliant_contact(doc: dict, contact: dict) -> tuple[dict, dict | None]:
    """The contact pair made compliant, with all it needs to run, and a material to add with it.

    Its model keeps the fields a compliant model has; the surfaces take the model's first
    material (steel, added, when it has none), so that the stiffness follows from eqs. 3-5
    (Flores et al. 2006); a striking point without a radius gets one of
    :data:`STARTER_DIAMETER`/2 (a sphere touches at a radius, a point at none).

    >>> pair = {"id": "c", "point": {"body": "b"}, "target": {"kind": "link", "link": "rod"},
    ...         "model": {"kind": "impulse"}}
    >>> compliant_contact({"bodies": [{"id": "b"}]}, pair)
    ({'id': 'c', 'point': {'body': 'b', 'radius': 0.005}, 'target': {'kind': 'link', 'link': 'rod'}, 'model': {'kind': 'compliant', 'point_material': 'steel', 'target_material': 'steel'}}, {'id': 'steel', 'E': 210000000000.0, 'density': 7850.0, 'expansion': 1.2e-05})
    """
    out = copy.deepcopy(contact)
    model = out.get("model", {})
    kept = {k: v for k, v in model.items() if k in CONTACT_MODEL.kinds["compliant"].fields}
    material_id, material = starter_material(doc)
    out["model"] = {"kind": "compliant", "point_material": material_id, "target_material": material_id, **kept}
    if point_radius(doc, out["point"]) == 0.0:
        out["point"]["radius"] = STARTER_DIAMETER / 2
    return out, material


def new_material(doc: dict) -> dict:
    """Steel: E = 210 GPa, density 7850 kg/m^3, thermal expansion 12e-6 1/K, named ``steel``
    (``steel1``, ... when taken)."""
    taken = {m.get("id") for m in doc.get("materials", [])}
    return {"id": "steel" if "steel" not in taken else unique_id(doc, "materials", "steel"),
            "E": 2.1e11, "density": 7850.0, "expansion": 1.2e-5}


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


def new_moving(doc: dict, kind: str, link: str, s0: float, length: float) -> dict:
    """A moving support, mass (1 kg carrying its weight, 9.81 N downward: the model's gravity
    does not act on it) or force (1 N downward) on the flexible ``link``
    (``length`` m long), starting at arc length ``s0`` m and crossing at constant speed to
    the link's second node by the run's end time (to its first node when it starts at the
    second): s(t) is a ramp from ``s0`` at t = 0 to the far end at the end time.

    >>> doc = {"solver": {"end_time": 0.5}}
    >>> new_moving(doc, "mass", "beam", 2.0, 10.0)
    {'id': 'moving_mass1', 'kind': 'mass', 'link': 'beam', 'position': {'kind': 'ramp', 't0': 0.0, 't1': 0.5, 'v0': 2.0, 'v1': 10.0}, 'mass': 1.0, 'fy': -9.81}
    """
    end = 0.0 if s0 >= length * (1.0 - 1e-9) else length
    t_end = model_with_defaults(doc)["solver"]["end_time"]
    item = {"id": unique_id(doc, "moving", f"moving_{kind}"), "kind": kind, "link": link,
            "position": {"kind": "ramp", "t0": 0.0, "t1": t_end, "v0": _round(s0), "v1": _round(end)}}
    if kind == "mass":
        item["mass"] = STARTER_MASS
        item["fy"] = -STANDARD_GRAVITY * STARTER_MASS
    elif kind == "force":
        item["fy"] = -1.0
    return item


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


def struck_target(doc: dict, hit: tuple[str, str], striker: tuple[float, float]) -> dict:
    """The target of a point at ``striker`` (m) when the user picks ``hit`` (``("links", id)`` or
    ``("nodes", id)``): a link, on its side facing the point; a node at a link's end while the
    point is beside that link (it faces the link: not beyond the node along the link's axis),
    that link too: a body striking the side of a link; else the node (the link's end face,
    struck from beyond the end), its normal toward the point.

    >>> doc = {"nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 0.5, "y": 0.0}],
    ...        "links": [{"id": "arm", "nodes": ["O", "tip"]}]}
    >>> struck_target(doc, ("nodes", "tip"), (0.5, 0.02)), struck_target(doc, ("nodes", "tip"), (0.6, 0.1))
    ({'kind': 'link', 'link': 'arm', 'side': 'left'}, {'kind': 'node', 'node': 'tip', 'angle': 0.7853981633974483})
    """
    xy = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    collection, name = hit
    if collection == "links":
        return {"kind": "link", "link": name, "side": _side(xy, _link_nodes(doc, name), striker)}
    x, y = xy[name]
    dx, dy = striker[0] - x, striker[1] - y
    for link in doc.get("links", []):
        a, b = link["nodes"][:2]
        if name not in (a, b):
            continue
        other = xy[b if name == a else a]
        ax, ay = x - other[0], y - other[1]  # the link's axis, out of its end
        if ax * dx + ay * dy <= 0.0:
            return {"kind": "link", "link": link["id"], "side": _side(xy, (a, b), striker)}
    return {"kind": "node", "node": name, "angle": direction((x, y), striker)}


def _link_nodes(doc: dict, link_id: str) -> tuple[str, str]:
    return tuple(next(link["nodes"][:2] for link in doc.get("links", []) if link["id"] == link_id))


def _side(xy: dict, ends: tuple[str, str], point: tuple[float, float]) -> str:
    """``left`` when ``point`` is on the left of the link from its first node to its second."""
    (x1, y1), (x2, y2) = xy[ends[0]], xy[ends[1]]
    return "left" if (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1) >= 0.0 else "right"


def direction(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The angle (rad) of the direction from ``a`` to ``b``; 0 when they coincide.

    Not rounded: within :data:`SNAP_ANGLE` of a multiple of 45 degrees it is that multiple
    to the last bit (grid points 0.1 apart differ by 0.10000000000000003), else as computed.
    A normal drawn straight up then has no tangential component (rounded to 1.570796 rad it
    had 3e-7 of the normal speed: 1.6e-6 m/s at 5 m/s).

    >>> direction((0.0, 0.0), (0.0, 2.0)) == math.pi / 2, direction((0.3, 0.0), (0.4, 0.1)) == math.pi / 4
    (True, True)
    >>> direction((0.0, 0.0), (2.0, 1.0))
    0.4636476090008061
    """
    if a == b:
        return 0.0
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    eighth = round(angle / (math.pi / 4))
    if abs(angle - eighth * math.pi / 4) < SNAP_ANGLE:
        angle = eighth * math.pi / 4
    return angle + 0.0  # + 0.0 turns -0.0 into 0.0
