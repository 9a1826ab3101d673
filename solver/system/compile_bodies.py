"""Free bodies: a point of their own where they are sketched; a rigid body's centre of mass
and rotation ``(x_c, y_c, phi)`` with its mass and inertia (kg, kg m^2), a point body's
mass on the point's ``x, y`` (:mod:`.registry`)."""
from __future__ import annotations

from ..model.body_rules import body_inertia
from .builder import Compilation
from .registry import Phase, compiler


@compiler(Phase.POINTS, 1)
def body_points(c: Compilation) -> None:
    for body in c.doc["bodies"]:
        c.b.add_node(body["id"], body["x"], body["y"])


@compiler(Phase.BODIES, 1)
def bodies(c: Compilation) -> None:
    b = c.b
    for body in c.doc["bodies"]:
        if body["kind"] == "rigid":
            b.add_rigid_body(body["id"], body["mass"], body_inertia(body), (body["x"], body["y"]), [body["id"]])
        else:
            b.mass[b.node_dof[body["id"]][0]] += body["mass"]
            b.mass[b.node_dof[body["id"]][1]] += body["mass"]
