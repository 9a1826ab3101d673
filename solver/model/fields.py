"""Field descriptions: the single source for validation, defaults, docs and the property panel.

A model-file field is described once here -- its type, SI unit, allowed range,
default and a one-line help text.  From that one description we derive

* the JSON Schema (draft 2020-12) that :mod:`jsonschema` validates against,
* the defaults the solver fills in (the file itself keeps only what the user wrote,
  so load -> save round-trips exactly),
* the rows of ``docs/model-format.md``,
* the editors of the GUI's property panel.

Objects whose fields depend on a ``kind`` are :class:`Variant` s; they become
``if``/``then`` branches so that an error is reported against the field at fault,
not against a ``oneOf`` of every alternative.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterator


@dataclass(frozen=True)
class Num:
    """A real number in SI units."""

    help: str
    unit: str = "-"
    default: float | None = None
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    integer: bool = False

    def json_schema(self) -> dict:
        s: dict[str, Any] = {"type": "integer" if self.integer else "number"}
        if self.gt is not None:
            s["exclusiveMinimum"] = self.gt
        if self.ge is not None:
            s["minimum"] = self.ge
        if self.lt is not None:
            s["exclusiveMaximum"] = self.lt
        if self.le is not None:
            s["maximum"] = self.le
        return _annotate(s, self)

    def type_name(self) -> str:
        return "integer" if self.integer else "number"

    def range_text(self) -> str:
        parts = []
        if self.gt is not None:
            parts.append(f"> {self.gt:g}")
        if self.ge is not None:
            parts.append(f">= {self.ge:g}")
        if self.lt is not None:
            parts.append(f"< {self.lt:g}")
        if self.le is not None:
            parts.append(f"<= {self.le:g}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Str:
    """A string: free text, one of a set, or the id of another entity."""

    help: str
    default: str | None = None
    enum: tuple[str, ...] | None = None
    ref: str | None = None  # the collection whose ids this string must name
    is_id: bool = False

    def json_schema(self) -> dict:
        s: dict[str, Any] = {"type": "string"}
        if self.enum:
            s["enum"] = list(self.enum)
        if self.is_id:
            s["minLength"] = 1
        if self.ref:
            s["x-ref"] = self.ref
        return _annotate(s, self)

    def type_name(self) -> str:
        if self.ref:
            return f"id of {self.ref}"
        return "string"

    def range_text(self) -> str:
        return " | ".join(self.enum) if self.enum else ""

    unit = "-"


@dataclass(frozen=True)
class Bool:
    help: str
    default: bool | None = None
    unit = "-"

    def json_schema(self) -> dict:
        return _annotate({"type": "boolean"}, self)

    def type_name(self) -> str:
        return "boolean"

    def range_text(self) -> str:
        return ""


@dataclass(frozen=True)
class Arr:
    """A list of values or objects; ``unique_ids`` makes the items' ``id`` unique."""

    item: Any
    help: str
    min_items: int = 0
    unique_ids: bool = False
    default: list | None = None
    #: what leaving the field out means, when that is no list (``"all"``: every entity of its kind);
    #: the docs and the property panel show it in the field's place, and the panel reads it back as
    #: "leave the field out"
    absent: str | None = None
    unit = "-"

    def json_schema(self) -> dict:
        s: dict[str, Any] = {"type": "array", "items": self.item.json_schema()}
        if self.min_items:
            s["minItems"] = self.min_items
        if self.unique_ids:
            s["x-unique-ids"] = True
        return _annotate(s, self)

    def type_name(self) -> str:
        inner = self.item.type_name() if hasattr(self.item, "type_name") else "object"
        return f"list of {inner}"

    def range_text(self) -> str:
        return f"at least {self.min_items} items" if self.min_items else ""


@dataclass(frozen=True)
class Obj:
    """An object with named fields; ``required`` lists those without a default.

    ``units`` says what a placeholder unit of the fields nested in it stands for here
    (``{"[f]": "rad/s"}``: the time function of a speed driver is in rad/s); see
    :func:`unit_at`.
    """

    fields: dict[str, Any]
    help: str = ""
    required: tuple[str, ...] = ()
    default: dict | None = None
    units: dict[str, str] = field(default_factory=dict)
    unit = "-"

    def json_schema(self, *, closed: bool = True) -> dict:
        s: dict[str, Any] = {
            "type": "object",
            "properties": {k: f.json_schema() for k, f in self.fields.items()},
        }
        if self.required:
            s["required"] = list(self.required)
        if closed:
            s["additionalProperties"] = False
        return _annotate(s, self)

    def type_name(self) -> str:
        return "object"

    def range_text(self) -> str:
        return ""


@dataclass(frozen=True)
class Variant:
    """An object whose fields depend on its ``kind``.

    ``common`` fields belong to every kind; ``kinds`` maps each kind to its own
    :class:`Obj`.  ``default_kind`` is used when the file omits ``kind``.
    """

    kinds: dict[str, Obj]
    help: str = ""
    common: dict[str, Any] = field(default_factory=dict)
    common_required: tuple[str, ...] = ()
    default_kind: str | None = None
    default: dict | None = None
    unit = "-"

    def kind_of(self, instance: dict) -> str | None:
        """The instance's kind (None when it is missing or not a string, as in an invalid file)."""
        kind = instance.get("kind", self.default_kind)
        return kind if isinstance(kind, str) else None

    def json_schema(self) -> dict:
        kind_field = Str("which kind of entity this is", enum=tuple(self.kinds), default=self.default_kind)
        props = {"kind": kind_field.json_schema()}
        props.update({k: f.json_schema() for k, f in self.common.items()})
        required = list(self.common_required)
        if self.default_kind is None:
            required.insert(0, "kind")
        branches = []
        for name, obj in self.kinds.items():
            cond: dict[str, Any] = {"properties": {"kind": {"const": name}}}
            if name != self.default_kind:
                cond["required"] = ["kind"]
            branches.append({"if": cond, "then": obj.json_schema(closed=False)})
        s: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "allOf": branches,
            "unevaluatedProperties": False,
        }
        if required:
            s["required"] = required
        return _annotate(s, self)

    def type_name(self) -> str:
        return "object (by kind)"

    def range_text(self) -> str:
        return ""


def _annotate(schema: dict, f: Any) -> dict:
    if f.help:
        schema["description"] = f.help
    unit = getattr(f, "unit", "-")
    if unit and unit != "-":
        schema["x-unit"] = unit
    if getattr(f, "default", None) is not None:
        schema["default"] = f.default
    return schema


# --------------------------------------------------------------------------- defaults

def with_defaults(spec: Any, instance: Any) -> Any:
    """Return a deep copy of ``instance`` with every omitted field set to its default.

    >>> spec = Obj({"a": Num("a", default=1.0), "b": Num("b")})
    >>> with_defaults(spec, {"b": 2.0})
    {'b': 2.0, 'a': 1.0}
    """
    instance = copy.deepcopy(instance)
    _fill(spec, instance)
    return instance


def _fill(spec: Any, inst: Any) -> None:
    if isinstance(spec, Arr) and isinstance(inst, list):
        for item in inst:
            _fill(spec.item, item)
    elif isinstance(spec, Obj) and isinstance(inst, dict):
        _fill_fields(spec.fields, inst)
    elif isinstance(spec, Variant) and isinstance(inst, dict):
        kind = spec.kind_of(inst)
        if kind is not None:
            inst.setdefault("kind", kind)
        _fill_fields(spec.common, inst)
        if kind in spec.kinds:
            _fill_fields(spec.kinds[kind].fields, inst)


def _fill_fields(fields: dict, inst: dict) -> None:
    for name, f in fields.items():
        if name not in inst and getattr(f, "default", None) is not None:
            inst[name] = copy.deepcopy(f.default)
        if isinstance(f, Num) and f.integer and isinstance(inst.get(name), float):
            inst[name] = int(inst[name])  # JSON's 4.0 is the integer 4
        if name in inst:
            _fill(f, inst[name])


# --------------------------------------------------------------------------- walking

def iter_fields(spec: Any, path: str = "") -> Iterator[tuple[str, Any, str | None]]:
    """Yield ``(path, field, kind)`` for every leaf and container, depth first.

    Paths use ``[]`` for list items and ``<kind>`` notes for variant fields; the
    documentation generator and the property panel read them.
    """
    if isinstance(spec, Arr):
        yield path, spec, None
        yield from iter_fields(spec.item, path + "[]")
    elif isinstance(spec, Obj):
        if path:
            yield path, spec, None
        for name, f in spec.fields.items():
            yield from iter_fields(f, f"{path}.{name}" if path else name)
    elif isinstance(spec, Variant):
        yield path, spec, None
        for name, f in spec.common.items():
            yield from iter_fields(f, f"{path}.{name}")
        for kind, obj in spec.kinds.items():
            for name, f in obj.fields.items():
                for p, ff, _k in iter_fields(f, f"{path}.{name}"):
                    yield p, ff, kind
    else:
        yield path, spec, None


def field_at(spec: Any, keys: list, instance: Any | None = None) -> Any:
    """The field description at a path of keys inside ``instance`` (None if unknown)."""
    node, inst = spec, instance
    for key in keys:
        if isinstance(node, Arr):
            node = node.item
            inst = inst[key] if isinstance(inst, list) and isinstance(key, int) and key < len(inst) else None
            continue
        fields = {}
        if isinstance(node, Obj):
            fields = node.fields
        elif isinstance(node, Variant):
            fields = dict(node.common)
            kind = node.kind_of(inst) if isinstance(inst, dict) else None
            if kind in node.kinds:
                fields.update(node.kinds[kind].fields)
        if key not in fields:
            return None
        node = fields[key]
        inst = inst.get(key) if isinstance(inst, dict) else None
    return node


def per_second(unit: str) -> str:
    """The unit of a rate of change of a quantity in ``unit``.

    >>> per_second("-"), per_second("rad"), per_second("rad/s"), per_second("m")
    ('1/s', 'rad/s', 'rad/s^2', 'm/s')
    """
    if unit in ("-", ""):
        return "1/s"
    if unit.endswith("/s"):
        return unit + "^2"
    return unit + "/s"


def unit_at(spec: Any, keys: list, instance: Any | None = None) -> str:
    """The unit of the number (or list of numbers) at ``keys``, placeholders resolved.

    A field whose unit depends on where it is used carries a placeholder (``[f]``, or
    ``[f]/s`` for its rate) that the nearest enclosing object's ``units`` resolves
    (:class:`Obj`, or the :class:`Variant` kind of the instance); "" when the field is
    no number.

    >>> fn = Obj({"value": Num("f(t)", "[f]"), "rate": Num("df/dt", "[f]/s")})
    >>> speed = Obj({"function": fn}, units={"[f]": "rad/s"})
    >>> unit_at(speed, ["function", "value"]), unit_at(speed, ["function", "rate"])
    ('rad/s', 'rad/s^2')
    """
    context: dict[str, str] = {}
    node, inst = spec, instance
    for key in [None, *keys]:
        if key is not None:
            node = field_at(node, [key], inst)
            inst = _child(inst, key)
        if isinstance(node, Obj):
            context.update(node.units)
        elif isinstance(node, Variant) and isinstance(inst, dict) and node.kind_of(inst) in node.kinds:
            context.update(node.kinds[node.kind_of(inst)].units)
    item = node.item if isinstance(node, Arr) else node
    if not isinstance(item, Num):
        return ""
    for placeholder, actual in context.items():
        if item.unit == placeholder:
            return actual
        if item.unit == placeholder + "/s":
            return per_second(actual)
    return item.unit


def _child(inst: Any, key: Any) -> Any:
    if isinstance(inst, dict):
        return inst.get(key)
    if isinstance(inst, list) and isinstance(key, int) and 0 <= key < len(inst):
        return inst[key]
    return None
