"""Lumped mass, Load and Initial velocity: what the mechanism carries and how it starts.

A load is a 1 N force along the direction dragged (or clicked) from its node; an
initial velocity is an arrow dragged from a node or free body (clicked first or not), at
:data:`SPEED_PER_PX` per screen pixel rounded to :data:`SPEED_STEP`.
"""
from __future__ import annotations

from ...document.entities import EntityRef
from ...document.new_entities import direction, new_load, new_mass, new_velocity
from .base import FREE, POINT, CanvasEvent, Pick, PickTool

#: speed of an initial-velocity arrow per screen pixel dragged (m/s per px)
SPEED_PER_PX = 0.1
#: initial velocities drawn by dragging are rounded to this (m/s)
SPEED_STEP = 0.5


class MassTool(PickTool):
    name = "mass"
    text = "Lumped mass"
    shortcut = "A"
    tip = "Lumped mass: click a node to put a 1 kg mass there"
    picks = (("nodes",),)

    def finish(self, picks: list[Pick]) -> None:
        mass = new_mass(self.context.model, picks[0].ref.id)
        self.add([("masses", mass)])
        self.select(EntityRef("masses", mass["id"]))


class LoadTool(PickTool):
    name = "load"
    text = "Load"
    shortcut = "F"
    tip = "Load: press on a node and drag along the force (or click the node, then a point)"
    picks = (("nodes",), POINT)
    prompts = ("Load: press on the loaded node", "Load: drag or click along the force")

    def finish(self, picks: list[Pick]) -> None:
        load = new_load(self.context.model, picks[0].ref.id, direction(picks[0].point, picks[1].point))
        self.add([("loads", load)])
        self.select(EntityRef("loads", load["id"]))


def _rounded_speed(pixels: float) -> float:
    return round(pixels * SPEED_PER_PX / SPEED_STEP) * SPEED_STEP + 0.0


def drawn_velocity(start, tip, mpp: float) -> tuple[float, float]:
    """The velocity (m/s) of an arrow from ``start`` to ``tip`` (m) at ``mpp`` metres per pixel."""
    return _rounded_speed((tip[0] - start[0]) / mpp), _rounded_speed((tip[1] - start[1]) / mpp)


class VelocityTool(PickTool):
    name = "velocity"
    text = "Initial velocity"
    shortcut = "V"
    tip = f"Initial velocity: drag an arrow from a node or free body ({SPEED_PER_PX:g} m/s per pixel)"
    picks = (("bodies", "nodes"), FREE)
    prompts = ("Initial velocity: press on a node or free body", "Initial velocity: drag to the arrow's tip")

    def __init__(self, context):
        super().__init__(context)
        self._mpp = 1.0

    def move(self, event: CanvasEvent, dragging: bool) -> None:
        super().move(event, dragging)
        if self.done:
            vx, vy = drawn_velocity(self.done[0].point, event.pos, event.mpp)
            self.context.message(f"v = ({vx:g}, {vy:g}) m/s")

    def release(self, event: CanvasEvent) -> None:
        self._mpp = event.mpp
        super().release(event)

    def press(self, event: CanvasEvent) -> None:
        """A press on the node or body already clicked starts the drag that draws the arrow
        (as a zero arrow it would only be refused)."""
        self._mpp = event.mpp
        if self.done and not any(drawn_velocity(self.done[0].point, event.pos, event.mpp)):
            self._pressed = event
            return
        super().press(event)

    def finish(self, picks: list[Pick]) -> None:
        owner, tip = picks
        vx, vy = drawn_velocity(owner.point, tip.point, self._mpp)
        if not (vx or vy):
            self.context.message("Drag farther: the velocity rounds to zero")
            return
        key = "body" if owner.ref.collection == "bodies" else "node"
        self.add([("initial_velocities", new_velocity((key, owner.ref.id), vx, vy))],
                 text=f"Add initial velocity of {key} {owner.ref.id}")
        self.select(EntityRef("initial_velocities", owner.ref.id))  # its vx to type, if need be
