"""Revolute joints with clearance (Flores et al. 2006 §5, eq. 18; :mod:`.clearance`,
:mod:`.registry`): the journal's link ends at a node of its own, and the journal (radius Rj,
m) meets the bearing (radius Rb, m, about the joint's node) through a compliant contact pair
of kind ``circle``; the two centres start with one velocity (``initial_ties``)."""
from __future__ import annotations

import numpy as np

from ..model.contact_rules import clearance_radii
from .builder import Compilation, DofBuilder
from .clearance import clearance_joints, contact_model, journal_node, with_journal_nodes
from .contact_pairs import ContactPair
from .registry import Phase, compiler


@compiler(Phase.DOCUMENT)
def journal_nodes(c: Compilation) -> None:
    c.doc = with_journal_nodes(c.doc)


@compiler(Phase.CONTACTS, 2)
def clearance_pairs(c: Compilation) -> None:
    joints = clearance_joints(c.doc)
    c.contacts += [_clearance_pair(j, c.b) for j in joints]
    c.initial_ties += [(c.b.node_dof[journal_node(j)], c.b.node_dof[j["node"]]) for j in joints]


def _clearance_pair(joint: dict, b: DofBuilder) -> ContactPair:
    """The journal of a clearance joint inside its bearing: a point of radius Rj turning with
    the journal's link, in a circle of radius Rb about the joint's node."""
    r_journal, r_bearing = clearance_radii(joint)
    journal, node = journal_node(joint), joint["node"]
    bearing = b.slot_dof.get((node, joint["links"][1])) if len(joint["links"]) > 1 else b.first_rotation(node, -1)
    params = {"radius": r_bearing, "inside": True}
    if joint.get("wear", {}).get("worn_depth"):  # the worn bore (:mod:`solver.contact.wear`)
        params["worn"] = np.array(joint["wear"]["worn_depth"], dtype=float)
        params["turned_from"] = float(b.q0[bearing]) if bearing is not None and bearing >= 0 else 0.0
    return ContactPair(joint["id"], b.node_dof[journal], r_journal, "circle",
                       params, np.zeros((0, 4), dtype=int), b.node_dof[node],
                       joint["friction"], joint["friction"], joint["restitution"], "energetic", b.ndof,
                       point_rotation=b.slot_dof[(journal, joint["links"][0])],
                       target_rotation=-1 if bearing is None else bearing, model=contact_model(joint))
