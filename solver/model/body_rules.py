"""Free bodies: the moment of inertia a rigid body takes from its shape, and the rule a schema
cannot state.

A rigid free body without an ``inertia`` (or with 0, what switching a point body to rigid
leaves) takes that of a uniform disc of its contact radius, ``m r² / 2`` (kg m²): the only
shape a body has.  A rigid body with neither an inertia nor a radius has no rotary inertia
to give: the rotation dof would have no mass (the Newton matrix singular), so validation
refuses it at its ``inertia``.  Called by :func:`solver.model.validate.semantic_problems`
with a ``bad(keys, message)`` callback.
"""
from __future__ import annotations

from typing import Callable

Bad = Callable[[list, str], None]


def body_inertia(body: dict) -> float:
    """The moment of inertia of a free body about its centre of mass (kg m²): its ``inertia``
    when > 0, else a disc's ``m r² / 2`` of its radius (0 for a point).

    >>> body_inertia({"mass": 2.0, "radius": 0.5}), body_inertia({"mass": 2.0, "radius": 0.5, "inertia": 1e-3})
    (0.25, 0.001)
    """
    given = body.get("inertia", 0.0)
    return given if given > 0.0 else 0.5 * body["mass"] * body.get("radius", 0.0) ** 2


def body_problems(doc: dict, bad: Bad) -> None:
    """A rigid body needs a rotary inertia: given, or from a radius."""
    for i, body in enumerate(doc.get("bodies", [])):
        if body.get("kind") == "rigid" and body_inertia(body) <= 0.0:
            bad(["bodies", i, "inertia"], "a rigid body needs its moment of inertia (> 0), or a radius (> 0) "
                                          "to take a disc's m r^2 / 2 from")
