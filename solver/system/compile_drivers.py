"""Drivers (:mod:`.registry`): a prescribed angle (rad) or speed (rad/s) of a link about its
pivot, or a displacement (m) of a node along x or y, as a dof motion ``q - q0 - f(t) = 0``."""
from __future__ import annotations

from dataclasses import dataclass

from .builder import Compilation
from .registry import Phase, compiler
from ..model.paths import item_label
from ..model.timefn import TimeFunction


@dataclass
class Driver:
    id: str
    kind: str  # angle | speed | displacement
    row: int  # its row in the constraint set
    dof: int


@compiler(Phase.CONSTRAINTS, 1)
def drivers(c: Compilation) -> None:
    b = c.b
    for d in c.doc["drivers"]:
        fn = TimeFunction(d["function"])
        if d["kind"] == "displacement":
            dof = b.node_dof[d["node"]][0 if d["direction"] == "x" else 1]
            base = b.q0[dof]
        else:
            dof = b.slot_dof[(d["pivot"], d["link"])]
            base = 0.0
        row = c.dm.add(dof, base, fn, integrate=d["kind"] == "speed", owner=f"drivers{item_label(d['id'])}")
        c.drivers.append(Driver(d["id"], d["kind"], row, dof))
