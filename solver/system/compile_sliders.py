"""Sliders (:mod:`.registry`): a node on a straight guide through its sketched position at
``angle`` (rad) from +x, the row ``n . (x_n - p) = 0`` with ``n = (-sin a, cos a)``
(:class:`~solver.system.constraints.SliderLine`)."""
from __future__ import annotations

import math

from ..model.paths import item_label
from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.CONSTRAINTS, 0)
def sliders(c: Compilation) -> None:
    for j in c.doc["joints"]:
        if j["kind"] == "slider":
            a = j["angle"]
            c.sl.add(c.b.node_dof[j["node"]], (-math.sin(a), math.cos(a)), c.b.xy[j["node"]],
                     f"joints{item_label(j['id'])}")
