"""Moving supports, masses and forces along flexible links (:mod:`.moving`, :mod:`.registry`):
a moving mass is a point of its own, sketched where it starts (its mass in kg on the point);
each item travels along its link's path by its position function (m)."""
from __future__ import annotations

import math

import numpy as np

from .builder import Compilation
from .moving import Mover, link_path
from .registry import Phase, compiler
from ..model.timefn import TimeFunction


@compiler(Phase.POINTS, 2)
def moving_mass_points(c: Compilation) -> None:
    b = c.b
    for item in c.doc["moving"]:
        if item["kind"] == "mass":
            (x1, y1), (x2, y2) = (b.xy[nd] for nd in c.link(item["link"])["nodes"])
            s0 = TimeFunction(item["position"]).value(0.0) / math.hypot(x2 - x1, y2 - y1)
            b.add_node(item["id"], x1 + s0 * (x2 - x1), y1 + s0 * (y2 - y1))
            b.mass[list(b.node_dof[item["id"]])] += item["mass"]


@compiler(Phase.CONTACTS, 1)
def movers(c: Compilation) -> None:
    paths = {f.id: link_path(c.link(f.id), c.b.xy, f.elements, c.elem_dofs, c.beams.L, c.beams.beta0) for f in c.flex}
    c.movers = [Mover(m["id"], m["kind"], paths[m["link"]], TimeFunction(m["position"]),
                      np.array([m.get("fx", 0.0), m.get("fy", 0.0)]),
                      c.b.node_dof.get(m["id"]) if m["kind"] == "mass" else None)
                for m in c.doc["moving"]]
