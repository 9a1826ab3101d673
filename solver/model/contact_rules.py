"""Rules of compliant contact pairs and clearance joints that a schema cannot state.

Called by :func:`solver.model.validate.semantic_problems` on schema-valid documents with
a ``bad(keys, message)`` callback that records a problem at a path of keys.  The
rules: a compliant law needs what it reads (a stiffness, or the materials and radii of
eqs. 3-5 to compute it; the cylinder laws a pin in a bore, its length and materials),
c_e in (0, 1], Ambrósio's v0 < v1, and nothing starts penetrated -- a journal inside
its clearance circle, a point outside a fixed target.
"""
from __future__ import annotations

import math
from typing import Callable

from .schema import CYLINDER_LAWS, LINEAR_LAWS

Bad = Callable[[list, str], None]

#: the fields that give a clearance joint's materials, as its messages name them
CLEARANCE_MATERIALS = "material (or journal_material and bearing_material)"


def point_radius(doc: dict, point: dict) -> float:
    """Radius of a contact pair's striking surface (m): ``point.radius``, else the body's, else 0."""
    if "radius" in point:
        return point["radius"]
    return next((b.get("radius", 0.0) for b in doc.get("bodies", []) if b["id"] == point.get("body")), 0.0)


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
    return any(j["node"] == node and j.get("kind") in ("ground", "fixed", "slider") for j in doc.get("joints", []))


def compliant_contact_problems(doc: dict, bad: Bad) -> None:
    """Rules of every contact pair with the compliant model."""
    materials = {m["id"] for m in doc.get("materials", [])}
    for i, c in enumerate(doc.get("contacts", [])):
        model = c.get("model", {})
        if model.get("kind") != "compliant":
            continue
        where = ["contacts", i, "model"]
        if c.get("e", 1.0) <= 0.0:
            bad(["contacts", i, "e"], "must be > 0 for a compliant contact (c_e in (0, 1])")
        target = c["target"]
        r_point = point_radius(doc, c["point"])
        r_target = target_surface_radius(target)
        has_materials = all(model.get(k) in materials for k in ("point_material", "target_material"))
        law = model.get("law", "lankarani_nikravesh")
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
