"""Rules of compliant contact pairs and clearance joints that a schema cannot state.

Called by :func:`solver.model.validate.semantic_problems` on schema-valid documents with
a ``bad(keys, message)`` callback that records a problem at a path of keys.  The
rules: a compliant law needs what it reads (a stiffness, or the materials and radii of
eqs. 3-5 to compute it; the cylinder laws a pin in a bore, its length and materials),
c_e in (0, 1], Ambrósio's v0 < v1, a pin in a bore (a clearance joint, a round point inside
a circle target) leaves a radial clearance of at least :data:`MIN_CLEARANCE_REL` of the
bore's radius, nothing starts penetrated -- a journal inside its clearance circle, a
point outside a fixed target or a link's sketched line (beyond the contact tolerance for
the impulse, Lagrange and rolling models) -- and a node target has a reach (given, or from
a link at its node).
"""
from __future__ import annotations

import math
from typing import Callable

from . import schema as S
from .schema import CYLINDER_LAWS, GROUND_JOINTS, LINEAR_LAWS

Bad = Callable[[list, str], None]

#: per contact model: the fields of the pair it does not use, and what it does instead
UNUSED_BY_MODEL: dict[str, dict[str, str]] = {
    "lagrange": {
        "e": "the Lagrange-multiplier model's onset jump is perfectly plastic (e = 0, thesis §4.7) and the "
             "gap is then held until the force would pull",
        "law": "the Lagrange-multiplier model's onset jump is perfectly plastic (e = 0): no restitution law applies",
    },
    "rolling": {
        key: "the rolling model lands with a plastic, no-slip jump and then rolls without slip"
        for key in ("mu_s", "mu_d", "e", "law")
    },
    "compliant": {
        "mu_s": "the compliant model's friction coefficient c_f is mu_d",
        "law": "the compliant model's restitution is its force law's, with c_e = e",
    },
}


def unused_fields(pair: dict) -> dict[str, str]:
    """The fields of contact pair ``pair`` its model does not use, each with what the model does instead.

    >>> sorted(unused_fields({"model": {"kind": "lagrange"}}))
    ['e', 'law']
    >>> unused_fields({})
    {}
    """
    return UNUSED_BY_MODEL.get(pair.get("model", {}).get("kind", "impulse"), {})


#: compliant normal laws without a restitution c_e: elastic by definition (Flores et al. 2006 eqs. 2,
#: 10-11; the laws of ``solver.contact.normal_laws`` without the parameter ``c_e``, a test keeps them equal)
ELASTIC_LAWS = ("hooke", "hertz", "dubowsky_freudenstein", "goldsmith", "esdu78035")


def unused_field_warnings(doc: dict, warn: Bad) -> None:
    """``warn`` of every field a pair sets to other than its default that the pair's model does not use,
    and of a restitution ``e < 1`` on a compliant pair whose law is elastic (:data:`ELASTIC_LAWS`)."""
    fields = S.CONTACT.fields
    for i, pair in enumerate(doc.get("contacts", [])):
        for key, instead in unused_fields(pair).items():
            if key in pair and pair[key] != fields[key].default:
                warn(["contacts", i, key], f"is not used: {instead}")
        model = pair.get("model", {})
        law = model.get("law", S.COMPLIANT_LAW["law"].default)
        if model.get("kind") == "compliant" and law in ELASTIC_LAWS and pair.get("e", 1.0) < 1.0:
            warn(["contacts", i, "e"], f"is not used: the {law} law is elastic (Flores et al. 2006), it dissipates "
                                       f"nothing at impact; for a restitution e = {pair['e']:g} choose a dissipative "
                                       "law: lankarani_nikravesh, hunt_crossley, flores or kelvin_voigt")


#: the smallest radial clearance Rb - Rj of a pin in a bore, a fraction of the bore's radius Rb:
#: the effective radius Rb Rj / (Rb - Rj) of eq. (3) then stays below a million times the radii
#: (a radius equal to the bore's divided by zero; a clearance of 1e-30 m is lost in Rb - c)
MIN_CLEARANCE_REL = 1e-6


def clearance_rule(rj: float, rb: float) -> str | None:
    """What is wrong with a journal of radius ``rj`` in a bore of radius ``rb`` (m); None when it fits."""
    c = rb - rj
    if c >= MIN_CLEARANCE_REL * rb:
        return None
    return (f"leaves a radial clearance of {c:.6g} m in a bore of radius {rb:.6g} m: at least {MIN_CLEARANCE_REL:g} "
            f"of the bore's radius ({MIN_CLEARANCE_REL * rb:.3g} m) is needed (the contact's effective radius, "
            f"eq. 3, divides by it)")


#: the fields that give a clearance joint's materials, as its messages name them
CLEARANCE_MATERIALS = "material (or journal_material and bearing_material)"


def point_radius(doc: dict, point: dict) -> float:
    """Radius of a contact pair's striking surface (m): ``point.radius``, else the body's, else 0."""
    if "radius" in point:
        return point["radius"]
    return next((b.get("radius", 0.0) for b in doc.get("bodies", []) if b["id"] == point.get("body")), 0.0)


def node_target_reach(doc: dict, target: dict) -> float | None:
    """How far a node target's face reaches from its node (m): ``target.reach``, else half the
    sketched distance from the node to the nearest node it shares a link with (for a link's end,
    half the link); None when it is given no reach and is on no link.

    >>> doc = {"nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 0.5, "y": 0.0}],
    ...        "links": [{"id": "arm", "nodes": ["O", "tip"]}]}
    >>> node_target_reach(doc, {"kind": "node", "node": "tip"}), node_target_reach(doc, {"node": "tip", "reach": 0.01})
    (0.25, 0.01)
    """
    if "reach" in target:
        return target["reach"]
    xy = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    node = target["node"]
    others = [other for link in doc.get("links", []) if node in link["nodes"]
              for other in link["nodes"] if other != node and other in xy and node in xy]
    if not others:
        return None
    x, y = xy[node]
    return 0.5 * min(math.hypot(xy[o][0] - x, xy[o][1] - y) for o in others)


def node_target_problems(doc: dict, bad: Bad) -> None:
    """A node target needs a reach: given, or a link at its node to take it from."""
    for i, c in enumerate(doc.get("contacts", [])):
        target = c.get("target", {})
        if target.get("kind") != "node":
            continue
        reach = node_target_reach(doc, target)
        if reach is None:
            bad(["contacts", i, "target", "reach"],
                f"is required: node '{target['node']}' is on no link to take the reach of its face from")
        elif reach <= 0.0:
            bad(["contacts", i, "target", "reach"],
                f"must be > 0: node '{target['node']}' coincides with the nearest node of its link")


def target_surface_radius(target: dict) -> float:
    """Signed radius of a contact target's surface (m), eqs. 3-5: +R outside a circle, -R
    inside it (concave), ``inf`` for a line, a segment, a link or a node."""
    if target["kind"] != "circle":
        return math.inf
    return -target["radius"] if target.get("inside") else target["radius"]


def clearance_radii(joint: dict) -> tuple[float, float]:
    """``(journal radius, bearing radius)`` of a clearance joint (m), whichever pair was given."""
    rb = joint["bearing_radius"]
    return (joint["journal_radius"] if "journal_radius" in joint else rb - joint["clearance"]), rb


def clearance_materials(joint: dict) -> tuple[str | None, str | None]:
    """Material ids of the journal and the bearing (None where the joint gives none)."""
    return joint.get("journal_material", joint.get("material")), joint.get("bearing_material", joint.get("material"))


def _law_problems(law: dict, where: list, bad: Bad, *, has_materials: bool, radius: float | None,
                  material_fields: str) -> None:
    """What a law's fields lack: ``radius`` is the effective radius of eqs. 3-5 (m; None when
    the geometry gives none), ``has_materials`` whether both surfaces have a material,
    named by ``material_fields`` in the messages."""
    name = law.get("law", "lankarani_nikravesh")
    if name in CYLINDER_LAWS:
        if not has_materials:
            bad(where + ["material"], f"the {name} law needs {material_fields}")
        return
    if "stiffness" not in law:
        if name in LINEAR_LAWS:
            bad(where + ["stiffness"], f"is required by the {name} law (N/m)")
        elif not has_materials:
            bad(where + ["stiffness"], f"is required, or give {material_fields} to compute it (eqs. 3-5)")
        elif radius is None or not 0.0 < radius < math.inf:
            bad(where + ["stiffness"], "is required: the surfaces' radii give no Hertz stiffness "
                                       "(a point without a radius: give point.radius; or two concave surfaces)")
    if law.get("friction_law", "ambrosio") == "ambrosio" and \
            law.get("friction_velocity_1", 1e-3) <= law.get("friction_velocity", 1e-4):
        bad(where + ["friction_velocity_1"], "must be > friction_velocity (Ambrosio's v1 > v0)")


def _effective_radius(r1: float, r2: float) -> float:
    """R1 R2 / (R1 + R2) of signed radii (m), eq. (3); a plane is ``inf``."""
    if math.isinf(r2):
        return r1
    return r1 * r2 / (r1 + r2) if r1 + r2 != 0.0 else math.inf


def clearance_problems(doc: dict, bad: Bad) -> None:
    """Rules of every clearance joint."""
    link_nodes = {link["id"]: link["nodes"] for link in doc.get("links", [])}
    contact_ids = {c["id"] for c in doc.get("contacts", [])}
    journals: set[tuple[str, str]] = set()
    for i, j in enumerate(doc.get("joints", [])):
        if j.get("kind") != "clearance":
            continue
        where, node = ["joints", i], j["node"]
        if j["id"] in contact_ids:
            bad(where + ["id"], "is also a contact pair's id (their results would share the name)")
        has_journal, has_c = "journal_radius" in j, "clearance" in j
        if has_journal == has_c:
            bad(where + ["clearance"], "give the clearance or journal_radius (one of them)")
            continue
        rj, rb = clearance_radii(j)
        if has_c and j["clearance"] >= rb:
            bad(where + ["clearance"], "must be < bearing_radius")
            continue
        if has_journal and rb <= rj:
            bad(where + ["bearing_radius"], "must be > journal_radius")
            continue
        if clearance_rule(rj, rb):
            bad(where + ["clearance" if has_c else "journal_radius"], clearance_rule(rj, rb))
            continue
        worn = j.get("wear", {}).get("worn_depth", [])
        if worn and max(worn) >= rb - rj:
            bad(where + ["wear", "worn_depth"], f"a depth of {max(worn):.6g} m is not less than the clearance "
                                                f"{rb - rj:.6g} m (a bearing worn through its play)")
        offset = j.get("offset", {})
        e0 = math.hypot(offset.get("x", 0.0), offset.get("y", 0.0))
        if e0 > rb - rj:
            bad(where + ["offset"], f"the journal starts outside the bearing: eccentricity {e0:.6g} m > "
                                    f"clearance {rb - rj:.6g} m")
        links = j["links"]
        if len(links) > 2 or len(set(links)) != len(links):
            bad(where + ["links"], "name the journal's link and at most one other link, the bearing's")
        for link in links[:2]:
            if node not in link_nodes.get(link, [node]):
                bad(where + ["links"], f"link '{link}' has no node '{node}'")
        if (node, links[0]) in journals:
            bad(where + ["links"], f"link '{links[0]}' already has a clearance joint at node '{node}'")
        journals.add((node, links[0]))
        if len(links) == 1 and not _bearing_carrier(doc, node, links[0]):
            bad(where + ["links"], f"nothing else at node '{node}' carries the bearing "
                                   "(a link, a lumped mass, a slider or a ground pin)")
        mj, mb = clearance_materials(j)
        _law_problems(j, where, bad, has_materials=mj is not None and mb is not None,
                      radius=_effective_radius(rj, -rb), material_fields=CLEARANCE_MATERIALS)


def _bearing_carrier(doc: dict, node: str, journal_link: str) -> bool:
    """Whether something at ``node`` besides the journal's link can carry a bearing."""
    if any(node in link["nodes"] and link["id"] != journal_link for link in doc.get("links", [])):
        return True
    if any(m["node"] == node for m in doc.get("masses", [])):
        return True
    return any(j["node"] == node and j.get("kind") in GROUND_JOINTS for j in doc.get("joints", []))


def compliant_contact_problems(doc: dict, bad: Bad) -> None:
    """Rules of every contact pair with the compliant model (and of every pair: no point starts
    inside its target)."""
    materials = {m["id"] for m in doc.get("materials", [])}
    tol = doc.get("solver", {}).get("contact_tol", 1e-6)
    for i, c in enumerate(doc.get("contacts", [])):
        model = c.get("model", {})
        if model.get("kind") != "compliant":
            depth = _initial_penetration(doc, c, point_radius(doc, c["point"]))
            if depth > tol:
                bad(["contacts", i, "point"], f"starts inside the target (penetration {depth:.6g} m, beyond the "
                                              f"contact tolerance {tol:g} m)")
            continue
        where = ["contacts", i, "model"]
        if c.get("e", 1.0) <= 0.0:
            bad(["contacts", i, "e"], "must be > 0 for a compliant contact (c_e in (0, 1])")
        target = c["target"]
        r_point = point_radius(doc, c["point"])
        r_target = target_surface_radius(target)
        has_materials = all(model.get(k) in materials for k in ("point_material", "target_material"))
        law = model.get("law", "lankarani_nikravesh")
        if target["kind"] == "circle" and target.get("inside") and r_point > 0.0 and \
                clearance_rule(r_point, target["radius"]):
            bad(["contacts", i, "point"], f"a radius of {r_point:.6g} m " + clearance_rule(r_point, target["radius"]))
            continue
        if law in CYLINDER_LAWS:
            if not (target["kind"] == "circle" and target.get("inside") and 0.0 < r_point < target["radius"]):
                bad(where + ["law"], f"the {law} law is for a pin in a bore: a point with a radius inside a "
                                     "larger circle target")
            if "length" not in model:
                bad(where + ["length"], f"is required by the {law} law")
            if not has_materials:
                bad(where + ["point_material"], f"the {law} law needs point_material and target_material")
            continue
        _law_problems(model, where, bad, has_materials=has_materials,
                      radius=_effective_radius(r_point, r_target) if r_point > 0.0 else None,
                      material_fields="point_material and target_material")
        depth = _initial_penetration(doc, c, r_point)
        if depth > 0.0:
            bad(["contacts", i, "point"], f"starts inside the target (penetration {depth:.6g} m)")


def _initial_penetration(doc: dict, contact: dict, radius: float) -> float:
    """Penetration (m, > 0 inside) of a pair's point into a fixed target in the sketch; 0 when
    the target moves (a link or node) and the point cannot be placed from the document."""
    point, target = contact["point"], contact["target"]
    where = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    where.update({b["id"]: (b["x"], b["y"]) for b in doc.get("bodies", [])})
    p = where.get(point.get("node", point.get("body")))
    kind = target["kind"]
    if p is not None and kind == "link":
        return _link_penetration(doc, target, p, radius, point.get("node"))
    if p is None or kind not in ("ground_line", "ground_segment", "circle"):
        return 0.0
    x, y = p
    if kind == "circle":
        dist = math.hypot(x - target.get("x", 0.0), y - target.get("y", 0.0))
        gap = target["radius"] - dist if target.get("inside") else dist - target["radius"]
    else:
        if kind == "ground_line":
            x1, y1, a = target.get("x", 0.0), target.get("y", 0.0), target.get("angle", 0.0)
            ux, uy, span = math.cos(a), math.sin(a), math.inf
        else:
            x1, y1 = target["x1"], target["y1"]
            dx, dy = target["x2"] - x1, target["y2"] - y1
            span = math.hypot(dx, dy)
            if span == 0.0:
                return 0.0
            ux, uy = dx / span, dy / span
        along = (x - x1) * ux + (y - y1) * uy
        if not 0.0 <= along <= span:
            return 0.0
        gap = (y - y1) * ux - (x - x1) * uy
    return max(0.0, radius - gap)


def _link_penetration(doc: dict, target: dict, p: tuple[float, float], radius: float, node: str | None) -> float:
    """Penetration (m, > 0 inside) of a point at ``p`` into a link target's sketched line (the
    segment between its first two nodes, straight at the start; the contact surface its
    ``side``), as the solver measures it (:meth:`solver.system.contact_pairs.ContactPair.geometry`);
    0 beside the link's ends or for a node of the link itself."""
    link = next((k for k in doc.get("links", []) if k["id"] == target["link"]), None)
    where = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    if link is None or node in link["nodes"] or any(n not in where for n in link["nodes"][:2]):
        return 0.0
    (x1, y1), (x2, y2) = where[link["nodes"][0]], where[link["nodes"][1]]
    span = math.hypot(x2 - x1, y2 - y1)
    if span == 0.0:
        return 0.0
    ux, uy = (x2 - x1) / span, (y2 - y1) / span
    if not 0.0 <= (p[0] - x1) * ux + (p[1] - y1) * uy <= span:
        return 0.0
    gap = -uy * (p[0] - x1) + ux * (p[1] - y1)
    return max(0.0, radius - (-gap if target.get("side", "left") == "right" else gap))
