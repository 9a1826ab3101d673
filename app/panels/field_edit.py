"""Editing one field of an entity: which editor, reading the typed text, checking the result.

Plain Python, no Qt.  Everything comes from the schema's field descriptions: the
editor (text, a choice of values or ids, a check box), the unit a number is read in,
the range and its message (the validator's words: ``must be > 0``).  A value that
passes is then tried on a copy of the whole document with
:func:`solver.model.validate.validate`; a problem the edit would add refuses it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from solver.model.io import model_with_defaults
from solver.model.fields import Arr, Bool, Num, Obj, Str, Variant, field_at, unit_at, with_defaults
from solver.model.schema import MODEL, SECTION
from solver.model.validate import collect_ids, validate

from ..document import edits
from ..document.entities import EntityRef, entity_path, entity_text, find_entity
from ..document.new_entities import compliant_contact, toggled_link, translational_clearance
from ..document.section_presets import convert_section
from ..document.units import UnitError, parse_quantity
from .properties import NONE

#: the choice that leaves an optional reference out (the field takes its default)
NO_CHOICE = ""


class EditError(ValueError):
    """An entry that is refused; the message is what the user sees."""


@dataclass(frozen=True)
class Editor:
    """How a field is edited: ``"text"``, ``"choice"`` (of ``options``), ``"check"`` or ``"none"``."""

    kind: str
    options: tuple[str, ...] = ()


def _item_spec(doc: dict, ref: EntityRef) -> tuple[list, Any]:
    """The entity's path in the document and the schema's description of it."""
    path = entity_path(doc, ref)
    if path is None:
        raise EditError(f"the model has no {ref}")
    return path, field_at(MODEL, path, doc) if path else MODEL


def field_spec(doc: dict, ref: EntityRef, keys: list) -> Any:
    """The schema's description of field ``keys`` of entity ``ref`` (a kind field gets its Variant)."""
    path, spec = _item_spec(doc, ref)
    if keys and edits.get_value(doc, [*path, *keys]) is edits.MISSING:
        # a field inside an omitted object (mesh.elements): find it in a copy that has the object
        doc = model_with_defaults(doc)
        edits.set_value(doc, [*path, *keys], None)
    if keys and keys[-1] == "kind":
        parent = field_at(MODEL, [*path, *keys[:-1]], doc) if len(keys) > 1 else spec
        if isinstance(parent, Variant):
            return parent
    return field_at(MODEL, [*path, *keys], doc)


def field_unit(doc: dict, ref: EntityRef, keys: list) -> str:
    """The SI unit field ``keys`` of ``ref`` is in, where it is ("rad/s" for a speed driver's value)."""
    path = _item_spec(doc, ref)[0]
    return unit_at(MODEL, [*path, *keys], doc)


def editor_for(doc: dict, ref: EntityRef, keys: list) -> Editor:
    """The editor of field ``keys`` of ``ref``."""
    spec = field_spec(doc, ref, keys)
    if spec is None:
        return Editor("none")
    if isinstance(spec, Variant):
        return Editor("choice", tuple(spec.kinds))
    if isinstance(spec, (Bool, Obj)):  # an object here is an optional one: there or not
        return Editor("check")
    if isinstance(spec, Str) and spec.enum:
        return Editor("choice", tuple(spec.enum))
    if isinstance(spec, Str) and spec.ref:
        ids = tuple(sorted(collect_ids(doc).get(spec.ref, ())))
        required = edits.get_value(doc, [*_item_spec(doc, ref)[0], *keys]) is not edits.MISSING
        return Editor("choice", ids if required else (NO_CHOICE,) + ids)
    return Editor("text")


def _range_message(spec: Num, value: float) -> str | None:
    """The validator's message when ``value`` breaks the field's range."""
    if spec.gt is not None and not value > spec.gt:
        return f"must be > {spec.gt:g}"
    if spec.ge is not None and not value >= spec.ge:
        return f"must be >= {spec.ge:g}"
    if spec.lt is not None and not value < spec.lt:
        return f"must be < {spec.lt:g}"
    if spec.le is not None and not value <= spec.le:
        return f"must be <= {spec.le:g}"
    return None


def parse_number(spec: Num, text: str, unit: str | None = None) -> float | int:
    """A number typed for ``spec`` (in ``unit``, default the field's): units converted to
    SI, integers checked, range checked."""
    try:
        value = parse_quantity(text, spec.unit if unit is None else unit)
    except UnitError as exc:
        raise EditError(str(exc)) from None
    if spec.integer:
        if value != int(value):
            raise EditError("must be an integer")
        value = int(value)
    message = _range_message(spec, value)
    if message:
        raise EditError(message)
    return value


def parse_text(spec: Any, text: str, unit: str | None = None) -> Any:
    """The value ``text`` stands for in a field described by ``spec`` (numbers in ``unit``,
    default the field's own)."""
    if isinstance(spec, Num):
        return parse_number(spec, text, unit)
    if isinstance(spec, Arr):
        if spec.absent is not None and text.strip().lower() in (spec.absent, NONE):
            # left out (its meaning when absent: "all"), or the empty list
            return edits.MISSING if text.strip().lower() == spec.absent else []
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return [parse_text(spec.item, p, unit) for p in parts]
    if isinstance(spec, (Bool, Obj)):
        low = text.strip().lower()
        if low not in ("true", "false"):
            raise EditError("must be true or false")
        return low == "true"
    text = text.strip()
    if isinstance(spec, Str) and text == NO_CHOICE and spec.ref:
        return edits.MISSING
    return text


def planned_change(doc: dict, ref: EntityRef, keys: list, value: Any) -> tuple[list, Any]:
    """``(keys, value)`` to set for the edit: a new kind replaces the object with the fields it keeps;
    an optional object checked is added with every field at its default (its required fields at
    their starter values: a lubricant's viscosity), unchecked removed."""
    spec = field_spec(doc, ref, keys)
    if isinstance(spec, Obj):
        starters = {name: starter_value(doc, spec.fields[name]) for name in spec.required}
        return keys, (with_defaults(spec, starters) if value else edits.MISSING)
    if not isinstance(spec, Variant):
        return keys, value
    path = _item_spec(doc, ref)[0]
    if ref.collection == "links" and keys == ["kind"]:
        link = edits.get_value(doc, path)
        return [], (toggled_link(doc, link, value)[0] if value != link.get("kind") else copy.deepcopy(link))
    if _made_compliant(doc, ref, keys, value):
        return [], compliant_contact(doc, edits.get_value(doc, path))[0]
    if ref.collection == "joints" and keys == ["kind"] and value == "translational_clearance":
        return [], translational_clearance(edits.get_value(doc, path))
    obj = edits.get_value(doc, [*path, *keys[:-1]])
    if spec is SECTION:
        return keys[:-1], convert_section(doc, obj, value)
    kept = set(spec.common) | set(spec.kinds[value].fields)
    new = {"kind": value}
    new.update({k: copy.deepcopy(v) for k, v in obj.items() if k in kept})
    for name in spec.kinds[value].required:
        if name not in new:
            new[name] = starter_value(doc, spec.kinds[value].fields[name])
    if "kind" not in obj and value == spec.default_kind:
        del new["kind"]
    return keys[:-1], new


def _made_compliant(doc: dict, ref: EntityRef, keys: list, value: Any) -> bool:
    """Whether the edit turns a contact pair's model compliant."""
    return ref.collection == "contacts" and keys == ["model", "kind"] and value == "compliant" \
        and find_entity(doc, ref)[1].get("model", {}).get("kind") != "compliant"


def material_added(doc: dict, ref: EntityRef, keys: list, value: Any) -> dict | None:
    """The material (steel) a kind change adds when the model has none: a link made flexible
    or modal names it in its section, a contact pair made compliant for its surfaces."""
    if ref.collection == "links" and keys == ["kind"] and value != find_entity(doc, ref)[1].get("kind"):
        return toggled_link(doc, find_entity(doc, ref)[1], value)[1]
    if _made_compliant(doc, ref, keys, value):
        return compliant_contact(doc, find_entity(doc, ref)[1])[1]
    return None


def starter_value(doc: dict, spec: Any) -> Any:
    """A value for a required field the user has not given yet (a new kind's), to be edited next.

    Numbers start at 1 (or the bound of their range), lists of numbers at ``[0, 1]``,
    references at the first id(s) of their collection.

    >>> starter_value({}, Num("t1", "s", gt=0)), starter_value({}, Num("n", ge=2))
    (1.0, 2.0)
    """
    if isinstance(spec, Num):
        value = 1.0
        if spec.ge is not None and value < spec.ge:
            value = float(spec.ge)
        if spec.le is not None and value > spec.le:
            value = float(spec.le)
        return int(value) if spec.integer else value
    if isinstance(spec, Arr):
        if isinstance(spec.item, Num):
            return [0.0, 1.0]
        if isinstance(spec.item, Str) and spec.item.ref:
            return sorted(collect_ids(doc).get(spec.item.ref, ()))[:spec.min_items]
        return []
    if isinstance(spec, Str):
        if spec.ref:
            ids = sorted(collect_ids(doc).get(spec.ref, ()))
            return ids[0] if ids else ""
        return spec.enum[0] if spec.enum else ""
    if isinstance(spec, Bool):
        return False
    return {}


def check_edit(doc: dict, ref: EntityRef, keys: list, value: Any) -> None:
    """Raise :class:`EditError` if setting ``keys`` of ``ref`` to ``value`` adds a problem to the model."""
    path = _item_spec(doc, ref)[0]
    trial = copy.deepcopy(doc)
    if keys == ["id"]:  # a new id renames the references too
        if value != ref.id and find_entity(doc, EntityRef(ref.collection, value)) is not None:
            raise EditError(f"duplicate id '{value}'")
        for path, new in edits.rename_changes(doc, ref.collection, ref.id, value):
            edits.set_value(trial, path, new)
    else:
        edits.set_value(trial, [*path, *keys], value)
    before = set(validate(doc))
    new = [p for p in validate(trial) if p not in before]
    if new:
        where = entity_text(doc, ref)
        own = [p for p in new if p.path.startswith(where)]
        first = (own or new)[0]
        field = first.path[len(where):].lstrip(".")
        edited = ".".join(str(k) for k in keys)
        raise EditError(str(first) if not own else first.message if field in ("", edited) else f"{field}: {first.message}")


def plan(doc: dict, ref: EntityRef, keys: list, text_or_value: Any) -> tuple[list, Any]:
    """Parse (when given text), convert kind changes and check an edit: ``(keys, value)`` to set.

    >>> doc = {"format": "flexmech", "version": 1, "nodes": [{"id": "A", "x": 0.0, "y": 0.0}]}
    >>> plan(doc, EntityRef("nodes", "A"), ["x"], "6 mm")
    (['x'], 0.006)
    """
    spec = field_spec(doc, ref, keys)
    unit = field_unit(doc, ref, keys)
    value = parse_text(spec, text_or_value, unit) if isinstance(text_or_value, str) and not isinstance(spec, Variant) \
        else text_or_value
    if isinstance(spec, Variant) and value not in spec.kinds:
        raise EditError("must be one of " + " | ".join(spec.kinds))
    material = material_added(doc, ref, keys, value)
    if material is not None:  # the command adds it with the edit: check them together
        doc = copy.deepcopy(doc)
        doc.setdefault("materials", []).append(material)
    keys, value = planned_change(doc, ref, keys, value)
    check_edit(doc, ref, keys, value)
    return keys, value
