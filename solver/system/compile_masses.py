"""Lumped masses (kg) on a node's ``x, y`` and their inertia (kg m^2) on the node's first
rotation, when a link turns it (:mod:`.registry`)."""
from __future__ import annotations

from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.MASSES)
def lumped_masses(c: Compilation) -> None:
    b = c.b
    for m in c.doc["masses"]:
        dx, dy = b.node_dof[m["node"]]
        b.mass[dx] += m["mass"]
        b.mass[dy] += m["mass"]
        rotation = b.first_rotation(m["node"], missing=-1)
        if m["inertia"] > 0 and rotation >= 0:  # a node no link turns has no rotation to carry it
            b.mass[rotation] += m["inertia"]
