"""Ground pins and clamps (:mod:`.registry`): a ground pin holds a node's ``x, y`` where it is
sketched; a clamp (``fixed``) holds its rotations too, of the given links or of every link
at the node (dof motions with ``f = 0``, :mod:`.constraints`)."""
from __future__ import annotations

from ..model.paths import item_label
from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.CONSTRAINTS, 0)
def supports(c: Compilation) -> None:
    b, dm = c.b, c.dm
    for j in c.doc["joints"]:
        if j["kind"] not in ("ground", "fixed"):
            continue
        node = j["node"]
        owner = f"joints{item_label(j['id'])}"
        for d in b.node_dof[node]:
            dm.add(d, b.q0[d], owner=owner)
        if j["kind"] == "fixed":
            links = j.get("links") or b.links_at(node)
            for d in sorted({b.slot_dof[(node, l)] for l in links}):
                dm.add(d, b.q0[d], owner=owner)
