"""Contact pairs (:mod:`.registry`): a point (a node or a body, of radius r in m) against a
target -- a ground line, a link's segments or deformed elements, a circle, a node --
with its friction, restitution and resolution model (:class:`~.contact_pairs.ContactPair`)."""
from __future__ import annotations

import math

import numpy as np

from ..model.contact_rules import node_target_reach, point_radius
from .builder import Compilation
from .contact_pairs import ContactPair
from .registry import Phase, compiler


#: the contact models whose pairs touch a flexible or modal link on its deformed elements, whose tangent is
#: continuous across the nodes, not on the straight segments between its nodes: the deformed link kinks at
#: every node, where the segments' lines differ by about ``r theta^2 / 2`` for a point of radius ``r``
#: (segments meeting at ``theta``).  A rolling pair's rows handed over there mid-step jumped by that gap (a
#: disc slipped and gained energy at each node of a modal bridge); a compliant point sliding over a
#: concave kink struck the next segment (a disc on a sagging 8-element bridge: 141 N against the curve's
#: 15 N; 43 N with 16 elements) (docs/solver.md)
ON_DEFORMED_ELEMENTS = ("rolling", "compliant")


@compiler(Phase.CONTACTS, 0)
def contact_pairs(c: Compilation) -> None:
    c.contacts += [_contact_pair(pair, c) for pair in c.doc["contacts"]]


def _contact_pair(pair: dict, c: Compilation) -> ContactPair:
    """A contact pair's dofs and parameters; a rolling or compliant pair on a flexible or modal link
    touches its deformed elements (``link_curve``)."""
    b, doc = c.b, c.doc
    point = pair["point"].get("node", pair["point"].get("body"))
    radius = point_radius(doc, pair["point"])
    tgt = pair["target"]
    model = pair.get("model", {"kind": "impulse"})
    kind, beam = tgt["kind"], None
    if model["kind"] in ON_DEFORMED_ELEMENTS and kind == "link":
        beam = _deformed_elements(c, tgt["link"])
        kind = "link_curve" if beam is not None else kind
    segments = _link_segments(c, tgt["link"]) if tgt["kind"] == "link" else np.zeros((0, 4), dtype=int)
    target = None
    if tgt["kind"] == "node":
        target, tgt = b.node_dof[tgt["node"]], dict(tgt, reach=node_target_reach(doc, tgt))
    turning = b.first_rotation(point, missing=-1) if radius > 0 else -1
    return ContactPair(pair["id"], b.node_dof[point], radius, kind, tgt, segments, target,
                       pair["mu_s"], pair["mu_d"], pair["e"], pair["law"], b.ndof, point_rotation=turning, model=model,
                       beam=beam)


def _deformed_elements(c: Compilation, link: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The elements a pair of :data:`ON_DEFORMED_ELEMENTS` touches (``link_curve``): a flexible link's
    beam elements, or a modal link's mesh between its nodes, each node's position and section rotation
    (the modes' own Hermite cubics, :mod:`solver.fem.beam_point`), as (dofs (E, 6), sketched chord angles
    (E,) rad); None for a rigid link."""
    b = c.b
    elements = [e for e, (l, _k, _a, _z) in enumerate(b.elem_nodes) if l == link]
    if elements:
        return c.elem_dofs[elements], c.beams.beta0[elements]
    names = b.modal_names.get(link, [])
    if not names:
        return None
    chain = list(zip(names, names[1:]))
    dofs = np.array([[*b.node_dof[a], b.slot_dof[(a, link)], *b.node_dof[z], b.slot_dof[(z, link)]] for a, z in chain],
                    dtype=np.int64)
    beta0 = np.array([math.atan2(b.xy[z][1] - b.xy[a][1], b.xy[z][0] - b.xy[a][0]) for a, z in chain])
    return dofs, beta0


def _link_segments(c: Compilation, link: str) -> np.ndarray:
    """The (x1, y1, x2, y2) dofs of a target link's segments: its elements, a modal link's
    mesh (every node tied to it), or a rigid link's first two nodes."""
    b = c.b
    chain = [(a, z) for (l, _k, a, z) in b.elem_nodes if l == link]
    names = b.modal_names.get(link, [])
    chain += list(zip(names, names[1:]))
    if not chain:
        nodes = c.link(link)["nodes"]
        chain = [(nodes[0], nodes[1])]
    return np.array([[*b.node_dof[a], *b.node_dof[z]] for a, z in chain], dtype=int)
