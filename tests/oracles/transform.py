"""A whole model moved, turned or mirrored, and the comparison of the results it gives.

A :class:`Transform` is a rigid map of the plane ``p -> A p + d`` with ``A`` a rotation by
``turn`` followed, when ``det = -1``, by a reflection: ``A = R(turn) diag(1, det)``.  Its
:meth:`~Transform.apply` returns a model file (the JSON format of ``docs/model-format.md``)
moved with it, field by field as :data:`RULES` says, from the schema
(:data:`solver.model.schema.MODEL`):

* points (nodes, free bodies, ground lines, segments, circles) map as points, vectors
  (gravity, initial velocities, constant forces, a journal's offset) as vectors;
* angles of directions (a slider's guide, a node target's normal, a body's orientation)
  map as ``turn + det phi``; a ground line keeps its normal on its left, so a mirror also
  reverses it (``+ pi``), and a segment swaps its ends;
* senses of rotation (angular velocities, torques, angle and speed drivers, offsets and
  gradients "to the left", a link target's side) change sign under a mirror;
* a follower load keeps its components in the link's frame (its ``fy``, to the left,
  changes sign under a mirror); a displacement driver along x or y stays one only under a
  map that sends the axes to axes, else :class:`Untransformable`;
* everything else (materials, sections, meshes, contact laws, solver settings, time
  functions of loads and free strains, arc lengths along links) is the same.

A field without a rule -- a field added to the schema after this module -- raises
:class:`UnknownField` instead of being carried along unmoved: the schema is walked, not a
list of keys (``test_transform`` checks that every field of the schema has a rule).

The image names some generated parts otherwise (:func:`image_names`: a mirror swaps a
translational clearance slider's rear and front corners); the comparison matches by those names.

Lengths, masses and times are not scaled (units scaling is not done here).

>>> m = {"format": "flexmech", "version": 1, "nodes": [{"id": "a", "x": 1.0, "y": 0.0}],
...      "gravity": {"y": -9.81}}
>>> r = rotated(m, math.pi / 2)
>>> [round(v, 12) + 0.0 for v in (r["nodes"][0]["x"], r["nodes"][0]["y"], r["gravity"]["x"], r["gravity"]["y"])]
[0.0, 1.0, 9.81, 0.0]
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.model.fields import Arr, Obj, Variant
from solver.model.schema import MODEL
from solver.model.translational_rules import CORNERS, translational_joints
from solver.model.time_fields import F, TIME_FUNCTION


class UnknownField(KeyError):
    """A field of the model that the transform has no rule for."""


class Untransformable(ValueError):
    """A model the map cannot carry (a displacement driver along x under a turn of 37°)."""


# --------------------------------------------------------------------------- the map
@dataclass(frozen=True)
class Transform:
    """``p -> A p + d`` with ``A = R(turn) diag(1, det)`` (``det`` = +1 a rotation, -1 a mirror)."""

    turn: float = 0.0
    det: int = 1
    d: tuple[float, float] = (0.0, 0.0)

    @property
    def A(self) -> np.ndarray:
        c, s = math.cos(self.turn), math.sin(self.turn)
        return np.array([[c, -s * self.det], [s, c * self.det]])

    def then(self, other: "Transform") -> "Transform":
        """This map followed by ``other``."""
        d = other.A @ np.asarray(self.d) + np.asarray(other.d)
        return Transform(other.turn + other.det * self.turn, other.det * self.det, (float(d[0]), float(d[1])))

    def point(self, x: float, y: float) -> tuple[float, float]:
        A = self.A
        return (float(A[0, 0] * x + A[0, 1] * y + self.d[0]), float(A[1, 0] * x + A[1, 1] * y + self.d[1]))

    def vector(self, x: float, y: float) -> tuple[float, float]:
        A = self.A
        return float(A[0, 0] * x + A[0, 1] * y), float(A[1, 0] * x + A[1, 1] * y)

    def direction(self, phi: float) -> float:
        """The angle from +x (rad) of the image of the direction at ``phi``."""
        return self.turn + self.det * phi

    def apply(self, model: dict) -> dict:
        """A copy of ``model`` moved by this map (:data:`RULES`)."""
        return _walk(MODEL, model, "", self)


def image_names(model: dict, t: Transform) -> dict[str, str]:
    """The ids the image of ``model`` under ``t`` gives to what ``model`` names, where they differ:
    a mirror swaps a translational clearance slider's rear and front corners (their nodes and
    contact pairs, ``<joint>.<rear|front>_<lower|upper>``), as it swaps left and right (the guide's
    ``angle`` maps as a :data:`LEFT_LINE`, its lower surface kept lower)."""
    if t.det > 0:
        return {}
    swap = {"rear": "front", "front": "rear"}
    names = {}
    for joint in translational_joints(model):
        for corner, _signs, _side in CORNERS:
            along, side = corner.split("_")
            names[f"{joint['id']}.{corner}"] = f"{joint['id']}.{swap[along]}_{side}"
    return names


def rotation(angle: float, about: tuple[float, float] = (0.0, 0.0)) -> Transform:
    """Turn by ``angle`` (rad, counter-clockwise) about the point ``about`` (m)."""
    t = Transform(angle, 1)
    x, y = t.point(*about)
    return Transform(angle, 1, (about[0] - x, about[1] - y))


def translation(dx: float, dy: float) -> Transform:
    """Move by ``(dx, dy)`` (m)."""
    return Transform(0.0, 1, (float(dx), float(dy)))


def reflection(through: tuple[float, float] = (0.0, 0.0), angle: float = math.pi / 2) -> Transform:
    """Mirror about the line through ``through`` (m) at ``angle`` from +x (rad; default: the vertical)."""
    t = Transform(2.0 * angle, -1)
    x, y = t.point(*through)
    return Transform(2.0 * angle, -1, (through[0] - x, through[1] - y))


def rotated(model: dict, angle_rad: float, about: tuple[float, float] = (0.0, 0.0)) -> dict:
    """``model`` turned by ``angle_rad`` about ``about``."""
    return rotation(angle_rad, about).apply(model)


def translated(model: dict, dx: float, dy: float) -> dict:
    """``model`` moved by ``(dx, dy)``."""
    return translation(dx, dy).apply(model)


def mirrored(model: dict, through: tuple[float, float] = (0.0, 0.0), angle: float = math.pi / 2) -> dict:
    """``model`` mirrored about the line through ``through`` at ``angle`` (default: the y axis);
    drivers, angular velocities and torques change their sense of rotation."""
    return reflection(through, angle).apply(model)


# --------------------------------------------------------------------------- the rules
SAME = "same"              # unchanged (a whole subtree when the rule names an object)
POINT_X, POINT_Y = "point.x", "point.y"
START_X, START_Y, END_X, END_Y = "start.x", "start.y", "end.x", "end.y"
VECTOR_X, VECTOR_Y = "vector.x", "vector.y"
LOAD_X, LOAD_Y = "load.x", "load.y"  # a vector, or in the link's frame when the load follows it
DIRECTION = "direction"    # angle of a direction from +x
LEFT_LINE = "left_line"    # angle of a line whose normal is its left side
SENSE = "sense"            # a sense of rotation, or an offset to the left: times det
SIDE = "side"              # "left" | "right": swapped by a mirror
AXIS = "axis"              # "x" | "y" of a displacement driver
DRIVER_FUNCTION = "driver_function"  # f(t) of a driver: an angle, speed (sense) or displacement (axis)
PROFILE = "profile"        # values by angle around a bore from +x (a worn bore's depths): no rule yet

#: the rule of every field of the schema, by its path: list items ``[]``, the fields of a kind
#: ``<kind>`` (``<*>``: of every kind); a rule on an object covers its subtree
RULES: dict[str, str] = {
    **dict.fromkeys(("format", "version", "name", "description", "source", "materials", "damping", "solver",
                     "masses"), SAME),
    "nodes[].id": SAME, "nodes[].x": POINT_X, "nodes[].y": POINT_Y,
    **dict.fromkeys(("links[].kind", "links[].id", "links[].nodes", "links[].<*>.section", "links[].<*>.mesh",
                     "links[].<rigid>.mass", "links[].<rigid>.inertia", "links[].<rigid>.com.s",
                     "links[].<flexible>.free_strains.temperature_change",
                     "links[].<flexible>.free_strains.temperature_function",
                     "links[].<flexible>.free_strains.creep_strain", "links[].<flexible>.free_strains.creep_function",
                     "links[].<modal>.modes", "links[].<modal>.reference", "links[].<modal>.static_modes",
                     "links[].<modal>.stiffening", "links[].<modal>.damping_ratios"), SAME),
    "links[].<rigid>.com.n": SENSE,
    "links[].<flexible>.free_strains.temperature_gradient": SENSE,
    **dict.fromkeys(("joints[].kind", "joints[].id", "joints[].node", "joints[].<*>.links"), SAME),
    "joints[].<slider>.angle": DIRECTION,
    **{f"joints[].<clearance>.{k}": SAME
       for k in ("bearing_radius", "journal_radius", "clearance", "length", "material", "journal_material",
                 "bearing_material", "law", "stiffness", "exponent", "damping", "friction_law", "friction_velocity",
                 "friction_velocity_1", "restitution", "friction", "lubricant.viscosity", "lubricant.length",
                 "lubricant.film_limit", "wear.coefficient", "wear.hardness", "wear.bins")},
    "joints[].<clearance>.wear.worn_depth": PROFILE,
    "joints[].<clearance>.offset.x": VECTOR_X, "joints[].<clearance>.offset.y": VECTOR_Y,
    # the guide's lower surface is on its right: a mirror keeps it there (LEFT_LINE), the offset along
    # the left normal unchanged, and turns the tilt the other way (a mirror swaps the names of the
    # slider's rear and front corners, as it swaps left and right: image_names)
    "joints[].<translational_clearance>.angle": LEFT_LINE,
    "joints[].<translational_clearance>.tilt": SENSE,
    **{f"joints[].<translational_clearance>.{k}": SAME
       for k in ("length", "height", "clearance", "mass", "inertia", "offset", "law", "stiffness", "exponent",
                 "damping", "friction_law", "friction_velocity", "friction_velocity_1", "restitution", "friction")},
    **dict.fromkeys(("bodies[].id", "bodies[].kind", "bodies[].mass", "bodies[].inertia", "bodies[].radius"), SAME),
    "bodies[].x": POINT_X, "bodies[].y": POINT_Y, "bodies[].angle": DIRECTION,
    **dict.fromkeys(("drivers[].kind", "drivers[].id", "drivers[].<*>.link", "drivers[].<*>.pivot",
                     "drivers[].<displacement>.node"), SAME),
    "drivers[].function": DRIVER_FUNCTION, "drivers[].<displacement>.direction": AXIS,
    **dict.fromkeys(("loads[].id", "loads[].node", "loads[].link", "loads[].follower", "loads[].function"), SAME),
    "loads[].fx": LOAD_X, "loads[].fy": LOAD_Y, "loads[].torque": SENSE,
    **dict.fromkeys(("moving[].kind", "moving[].id", "moving[].link", "moving[].position", "moving[].<mass>.mass"),
                    SAME),
    "moving[].<*>.fx": VECTOR_X, "moving[].<*>.fy": VECTOR_Y,
    "gravity.x": VECTOR_X, "gravity.y": VECTOR_Y,
    **dict.fromkeys(("contacts[].id", "contacts[].point", "contacts[].mu_s", "contacts[].mu_d", "contacts[].e",
                     "contacts[].law", "contacts[].model", "contacts[].target.kind",
                     "contacts[].target.<link>.link", "contacts[].target.<node>.node", "contacts[].target.<node>.reach",
                     "contacts[].target.<circle>.radius", "contacts[].target.<circle>.inside"), SAME),
    "contacts[].target.<*>.x": POINT_X, "contacts[].target.<*>.y": POINT_Y,
    "contacts[].target.<ground_line>.angle": LEFT_LINE,
    "contacts[].target.<ground_segment>.x1": START_X, "contacts[].target.<ground_segment>.y1": START_Y,
    "contacts[].target.<ground_segment>.x2": END_X, "contacts[].target.<ground_segment>.y2": END_Y,
    "contacts[].target.<link>.side": SIDE,
    "contacts[].target.<node>.angle": DIRECTION,
    **dict.fromkeys(("initial_velocities[].node", "initial_velocities[].link", "initial_velocities[].body"), SAME),
    "initial_velocities[].vx": VECTOR_X, "initial_velocities[].vy": VECTOR_Y, "initial_velocities[].omega": SENSE,
}


def rule(path: str) -> str | None:
    """The rule of the field at ``path`` (its own, or of the object it lies in), or None."""
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        head = ".".join(parts[:n])
        generic = ".".join("<*>" if p.startswith("<") else p for p in parts[:n])
        for key in (head, generic, head.removesuffix("[]")):  # a rule on a list covers its items
            if key in RULES:
                return RULES[key]
    return None


def schema_paths(spec: Any = MODEL, path: str = "") -> list[str]:
    """The path of every field of ``spec`` (of every kind of its variants), as :data:`RULES` names them."""
    if isinstance(spec, Arr):
        return schema_paths(spec.item, path + "[]") if isinstance(spec.item, (Obj, Variant)) else [path]
    if isinstance(spec, Obj):
        return [p for k, f in spec.fields.items() for p in schema_paths(f, f"{path}.{k}" if path else k)]
    if isinstance(spec, Variant):
        return ([f"{path}.kind"] + [p for k, f in spec.common.items() for p in schema_paths(f, f"{path}.{k}")]
                + [p for kind, obj in spec.kinds.items() for k, f in obj.fields.items()
                   for p in schema_paths(f, f"{path}.<{kind}>.{k}")])
    return [path]


# --------------------------------------------------------------------------- the walk
def _fields(spec: Obj | Variant, value: dict, path: str) -> dict[str, tuple[Any, str]]:
    """The fields an object of ``spec`` may have: name -> (field spec, path)."""
    if isinstance(spec, Obj):
        return {k: (f, f"{path}.{k}" if path else k) for k, f in spec.fields.items()}
    kind = spec.kind_of(value)
    if kind not in spec.kinds:
        raise UnknownField(f"{path}.kind: no kind {kind!r}")
    out = {"kind": (None, f"{path}.kind")}
    out.update({k: (f, f"{path}.{k}") for k, f in spec.common.items()})
    out.update({k: (f, f"{path}.<{kind}>.{k}") for k, f in spec.kinds[kind].fields.items()})
    return out


def _walk(spec: Any, value: Any, path: str, t: Transform) -> Any:
    here = rule(path) if path else None
    if here == SAME:
        return copy.deepcopy(value)
    if isinstance(spec, Arr) and isinstance(spec.item, (Obj, Variant)):
        return [_walk(spec.item, item, path + "[]", t) for item in value]
    if not isinstance(spec, (Obj, Variant)):
        raise UnknownField(f"{path}: no rule for this field")
    fields = _fields(spec, value, path)
    out, roles = {}, {}
    for key, item in value.items():
        if key not in fields:
            raise UnknownField(f"{path}.{key}: not a field of the schema")
    for key, (f, p) in fields.items():
        role = rule(p)
        if role is None and isinstance(f, (Obj, Variant, Arr)):
            if key in value:  # an object without a rule of its own: its fields have theirs
                out[key] = _walk(f, value[key], p, t)
            continue
        if role is None:
            raise UnknownField(f"{p}: no rule for this field")
        roles[key] = role
        if key in value:
            out[key] = copy.deepcopy(value[key]) if role == SAME or role == DRIVER_FUNCTION else value[key]
    return _move(out, roles, fields, t)


def _default(fields: dict, key: str, out: dict) -> Any:
    if key in out:
        return out[key]
    f = fields[key][0]
    return getattr(f, "default", None)


def _move(out: dict, roles: dict[str, str], fields: dict, t: Transform) -> dict:
    """Apply the rules of an object's fields to it (absent fields at their defaults, written
    only when the map changes them)."""
    by_role = {role: key for key, role in roles.items()}
    val = {key: _default(fields, key, out) for key in roles}

    def put(key: str, value: Any) -> None:
        if key in out or value != val[key]:
            out[key] = value

    for (rx, ry), mapping in (((POINT_X, POINT_Y), t.point), ((START_X, START_Y), t.point),
                              ((END_X, END_Y), t.point), ((VECTOR_X, VECTOR_Y), t.vector)):
        if rx in by_role:
            kx, ky = by_role[rx], by_role[ry]
            if val[kx] is not None and val[ky] is not None:
                x, y = mapping(val[kx], val[ky])
                put(kx, x)
                put(ky, y)
    if t.det < 0 and START_X in by_role:  # the normal stays on the left of start -> end
        for a, b in ((START_X, END_X), (START_Y, END_Y)):
            out[by_role[a]], out[by_role[b]] = out[by_role[b]], out[by_role[a]]
    if LOAD_X in by_role:
        fx, fy = val[by_role[LOAD_X]], val[by_role[LOAD_Y]]
        fx, fy = (fx, t.det * fy) if out.get("follower") else t.vector(fx, fy)
        put(by_role[LOAD_X], fx)
        put(by_role[LOAD_Y], fy)
    for key, role in roles.items():
        if role == DIRECTION and val[key] is not None:
            put(key, t.direction(val[key]))
        elif role == LEFT_LINE:
            put(key, t.direction(val[key]) + (math.pi if t.det < 0 else 0.0))
        elif role == SENSE and val[key] is not None:
            put(key, t.det * val[key])
        elif role == SIDE and t.det < 0:
            put(key, {"left": "right", "right": "left"}[val[key]])
        elif role == PROFILE and val[key]:
            raise Untransformable(f"{key}: a profile by angle from the bearing's +x axis is not turned yet")
    if DRIVER_FUNCTION in by_role:
        _move_driver(out, by_role, t)
    return out


def _move_driver(out: dict, by_role: dict[str, str], t: Transform) -> None:
    """An angle or speed driver changes its sense under a mirror; a displacement driver along an
    axis moves to the axis the map sends it to, with its sign."""
    key = by_role[DRIVER_FUNCTION]
    if AXIS not in by_role:
        if t.det < 0:
            out[key] = _scaled_function(out[key], -1.0)
        return
    axis = out[by_role[AXIS]]
    image = t.vector(*((1.0, 0.0) if axis == "x" else (0.0, 1.0)))
    for name, component in (("x", image[0]), ("y", image[1])):
        if abs(abs(component) - 1.0) <= 1e-15:
            out[by_role[AXIS]] = name
            out[key] = _scaled_function(out[key], math.copysign(1.0, component))
            return
    raise Untransformable(f"a displacement driver along {axis} is along no axis after a turn of "
                          f"{math.degrees(t.turn):g} deg")


def _scaled_function(f: dict, factor: float) -> dict:
    """The time function ``factor f(t)``: every value of the unit [f] scaled (schema-driven)."""
    if factor == 1.0:
        return f
    kind = TIME_FUNCTION.kind_of(f)
    out = dict(f)
    for name, spec in TIME_FUNCTION.kinds[kind].fields.items():
        unit = spec.item.unit if isinstance(spec, Arr) else spec.unit
        if not unit.startswith(F):
            continue
        value = f.get(name, spec.default)
        out[name] = [factor * v for v in value] if isinstance(value, list) else factor * value
    return out
