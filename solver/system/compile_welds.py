"""Welds: the links at a node share one rotation dof, flexible, rigid or modal (their
inertias add up), and the dofs left are numbered consecutively (:mod:`.registry`)."""
from __future__ import annotations

from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.WELDS, 0)
def welds(c: Compilation) -> None:
    for j in c.doc["joints"]:
        if j["kind"] == "weld":
            c.b.weld(j["node"], j["links"])
    c.b.merge_welds()
