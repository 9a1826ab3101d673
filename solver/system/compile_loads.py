"""Loads (:mod:`.registry`): a force ``(fx, fy)`` (N) and a torque (N m) at a node, scaled by
a time function, fixed in direction or following the node's rotation."""
from __future__ import annotations

from dataclasses import dataclass

from .builder import Compilation
from .registry import Phase, compiler
from ..model.timefn import TimeFunction


@dataclass
class Load:
    dofs: tuple[int, int, int]  # x, y, rotation (-1 if none)
    fx: float
    fy: float
    torque: float
    function: TimeFunction
    follower: bool


@compiler(Phase.LOADS)
def loads(c: Compilation) -> None:
    b = c.b
    for ld in c.doc["loads"]:
        nd = ld["node"]
        rot = b.slot_dof.get((nd, ld["link"])) if "link" in ld else b.first_rotation(nd, missing=-1)
        c.loads.append(Load((*b.node_dof[nd], rot if rot is not None else -1), ld["fx"], ld["fy"], ld["torque"],
                            TimeFunction(ld["function"]), ld["follower"]))
