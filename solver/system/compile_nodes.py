"""The sketch's nodes: a position ``(x, y)`` each, in m (:mod:`.registry`)."""
from __future__ import annotations

from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.POINTS, 0)
def sketch_nodes(c: Compilation) -> None:
    for nd in c.doc["nodes"]:
        c.b.add_node(nd["id"], nd["x"], nd["y"])
