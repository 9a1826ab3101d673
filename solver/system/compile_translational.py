"""Translational joints with clearance (Flores et al., J. Comput. Nonlinear Dyn. 3, 2008;
geometry in :mod:`solver.model.translational_rules`), as the compiler sees them (:mod:`.registry`).

The joint's node is the slider's centre of mass: it carries the slider's mass m (kg) on its
``x, y`` and a rotation of its own, the slider's angle ``phi`` from its sketched tilt, with
the inertia J (kg m^2; default ``m (L^2 + h^2) / 12``).  Links pinned at the node keep their
own rotations.  Each corner is a node of its own, ``<joint>.<corner>``, attached to the slider
by a body-point constraint (``x_k = x + R(phi) r_k``), and meets the guide's surface on its
side -- a ``ground_line`` target whose normal points into the guide -- through a compliant
contact pair with the joint's law (normal force, e.g. Lankarani-Nikravesh, eq. 9 of the
2006 paper, and friction law), so that the four configurations of Flores et al. 2008 (free
flight, one corner, two corners of one side on one surface, two opposite corners on
opposite surfaces) follow from which pairs are closed.
"""
from __future__ import annotations

import numpy as np

from ..model.translational_rules import corner_arms, corner_pair_ids, corner_targets, translational_joints
from .builder import Compilation
from .clearance import LAW_FIELDS
from .contact_pairs import ContactPair
from .registry import Phase, compiler


@compiler(Phase.BODIES, 2)
def sliders_with_corners(c: Compilation) -> None:
    """The slider's mass, rotation and inertia, and its corners attached to it."""
    b = c.b
    for j in translational_joints(c.doc):
        node = j["node"]
        (dx, dy), phi = b.node_dof[node], b.rotation_slot(node, j["id"])
        L, h, m = j["length"], j["height"], j["mass"]
        b.mass[[dx, dy, phi]] += [m, m, j.get("inertia", m * (L * L + h * h) / 12.0)]
        x, y = b.xy[node]
        for corner, (rx, ry) in zip(corner_pair_ids(j), corner_arms(j)):
            b.add_node(corner, x + rx, y + ry)
            b.attachments.append((b.node_dof[corner], (dx, dy, phi), (rx, ry), None))


@compiler(Phase.CONTACTS, 3)
def corner_pairs(c: Compilation) -> None:
    """Each corner against the guide's surface on its side: a compliant pair, no radius."""
    for j in translational_joints(c.doc):
        model = {"kind": "compliant", **{k: j[k] for k in LAW_FIELDS if k in j}}
        for pair, target in corner_targets(j, c.b.xy[j["node"]]).items():
            params = {k: target[k] for k in ("x", "y", "angle")}
            c.contacts.append(ContactPair(pair, c.b.node_dof[pair], 0.0, "ground_line", params,
                                          np.zeros((0, 4), dtype=int), None, j["friction"], j["friction"],
                                          j["restitution"], "energetic", c.b.ndof, model=model))
