"""Revolute joints with clearance (Flores et al. 2006 §5, eq. 18), as the compiler sees them.

A clearance joint at node N frees the pin it replaces: the journal's link gets a node
of its own, ``<joint id>.journal``, at N plus the joint's initial ``offset``, and
everything else at N (the bearing's link, a lumped mass, a slider or a ground pin)
keeps N, the bearing's centre.  The two meet through a compliant contact pair of kind
``circle``: the journal (a point of radius Rj that turns with its link) inside a circle
of radius Rb whose centre is N, so that the gap is c - |e| (eq. 18).
"""
from __future__ import annotations

import copy

from ..model.contact_rules import clearance_materials

#: the fields of a clearance joint that describe its compliant law, as in a contact's model
LAW_FIELDS = ("law", "stiffness", "exponent", "damping", "friction_law", "friction_velocity", "friction_velocity_1")


def journal_node(joint: dict) -> str:
    """Id of the node the journal's link ends at instead of the joint's node."""
    return f"{joint['id']}.journal"


def clearance_joints(doc: dict) -> list[dict]:
    return [j for j in doc["joints"] if j["kind"] == "clearance"]


def with_journal_nodes(doc: dict) -> dict:
    """A copy of a document (defaults filled in) in which every clearance joint's journal link
    ends at a node of its own, placed at the joint's node plus the initial offset."""
    joints = clearance_joints(doc)
    if not joints:
        return doc
    doc = copy.deepcopy(doc)
    xy = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    for j in joints:
        x, y = xy[j["node"]]
        doc["nodes"].append({"id": journal_node(j), "x": x + j["offset"]["x"], "y": y + j["offset"]["y"]})
        link = next(link for link in doc["links"] if link["id"] == j["links"][0])
        link["nodes"] = [journal_node(j) if n == j["node"] else n for n in link["nodes"]]
    return doc


def contact_model(joint: dict) -> dict:
    """The joint's law as the ``model`` of a compliant contact pair (journal = point, bearing =
    target)."""
    point_material, target_material = clearance_materials(joint)
    model = {"kind": "compliant", "length": joint["length"]}
    model.update({k: joint[k] for k in LAW_FIELDS + ("lubricant", "wear") if k in joint})
    for key, value in (("point_material", point_material), ("target_material", target_material)):
        if value is not None:
            model[key] = value
    return model



def clearance_target(joint: dict) -> dict:
    """The bearing of a clearance joint as a contact target: a circle about the joint's node,
    the journal inside it (for drawing the pair as the contact pairs are drawn)."""
    return {"kind": "circle", "node": joint["node"], "radius": joint["bearing_radius"], "inside": True}
