"""The rows of the property view: every field of an entity with its value, unit and help.

Plain Python, no Qt.  Units, help texts and defaults come from the schema's field
descriptions (:mod:`solver.model.schema`), never from a list kept here, so the
property view, the validator and the format docs cannot disagree.  Fields the file
leaves out are shown at their default and marked as such.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from solver.analysis.modal import LinkModes, modal_link_modes
from solver.contact.compliant_laws import pair_stiffness
from solver.model.body_rules import body_inertia
from solver.model.contact_rules import node_target_reach, unused_fields
from solver.model.fields import Num, Obj, Variant, field_at, unit_at, with_defaults
from solver.model.schema import MODEL
from solver.model.validate import validate

from ..document.edits import MISSING, get_value
from ..document.entities import MODEL_FIELDS, MODEL_SETTINGS, EntityRef, entity_path

#: the empty list, shown and typed in a list whose absence means something else (``Arr.absent``: "all")
NONE = "none"


@dataclass(frozen=True)
class PropertyRow:
    """One field of an entity, e.g. ``section.d = 0.006 m``."""

    field: str
    value: str
    unit: str
    help: str
    is_default: bool
    keys: tuple[str, ...] = ()
    #: why the solver does not use this field (a contact pair's ``e`` with the Lagrange model); empty when it does
    unused: str = ""


def format_value(value: Any) -> str:
    """A field value as text: numbers to 10 significant digits, lists comma-separated.

    >>> format_value(0.0333778511), format_value(71e9), format_value(["A", "B"]), format_value(True)
    ('0.0333778511', '7.1e+10', 'A, B', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"{value:.10g}"
    if isinstance(value, list):
        return ", ".join(format_value(v) for v in value)
    return str(value)


def _ordered(obj: dict) -> list[str]:
    """Keys with ``id`` and ``kind`` first, the rest in document order."""
    first = [k for k in ("id", "kind") if k in obj]
    return first + [k for k in obj if k not in first]


def _help(item_spec: Any, spec: Any, parent: Any, key: str) -> str:
    if key == "kind" and isinstance(parent, Variant):
        kinds = " | ".join(parent.kinds)
        return f"{parent.help} -- one of {kinds}" if parent is not item_spec else f"one of {kinds}"
    if spec is None:
        return ""
    rng = spec.range_text()
    return f"{spec.help} ({rng})" if rng else spec.help


def _rows(item_spec: Any, filled: dict, given: dict | None, prefix: list) -> list[PropertyRow]:
    rows = []
    parent = field_at(item_spec, prefix, filled) if prefix else item_spec
    node = filled
    for key in prefix:
        node = node[key]
    for key in _ordered(node):
        keys = prefix + [key]
        value = node[key]
        own = given.get(key) if isinstance(given, dict) else None
        if isinstance(value, dict):
            if is_optional_object(parent, node, key):
                help_text = field_at(item_spec, keys, filled).help
                rows.append(PropertyRow(".".join(keys), "true", "", f"{help_text} -- uncheck to remove", False,
                                        tuple(keys)))
            rows += _rows(item_spec, filled, own, keys)
            continue
        spec = field_at(item_spec, keys, filled)
        rows.append(PropertyRow(
            field=".".join(keys),
            value=NONE if value == [] and getattr(spec, "absent", None) else format_value(value),
            unit=unit_at(item_spec, keys, filled),
            help=_help(item_spec, spec, parent, key),
            is_default=not (isinstance(given, dict) and key in given),
            keys=tuple(keys),
        ))
    for key, spec in _fields(parent, node).items():
        if key not in node and getattr(spec, "absent", None):  # a list left out: what that means
            rows.append(PropertyRow(".".join(prefix + [key]), spec.absent, "",
                                    f"{_help(item_spec, spec, parent, key)} -- now {spec.absent}: type ids, "
                                    f"comma-separated, to choose some, or '{NONE}'", True, tuple(prefix + [key])))
        elif key not in node and isinstance(spec, Num):  # optional, no default: shown empty, to be set
            rows.append(PropertyRow(".".join(prefix + [key]), "", unit_at(item_spec, prefix + [key], filled),
                                    f"{_help(item_spec, spec, parent, key)} -- not set", True, tuple(prefix + [key])))
        elif key not in node and is_optional_object(parent, node, key):  # a box to check to add it
            rows.append(PropertyRow(".".join(prefix + [key]), "false", "", f"{spec.help} -- not set: check to add",
                                    True, tuple(prefix + [key])))
    return rows


def is_optional_object(parent: Any, obj: dict, key: str) -> bool:
    """Whether field ``key`` of ``obj`` (described by ``parent``) is an object it may have or
    not (a flexible link's ``free_strains``, a rigid link's ``com``): no default and not
    required.  The property view shows it as a check box that adds it (at its defaults) or
    removes it.

    >>> from solver.model.schema import LINK
    >>> is_optional_object(LINK, {"kind": "flexible"}, "free_strains"), is_optional_object(LINK, {"kind": "flexible"}, "mesh")
    (True, False)
    """
    spec = _fields(parent, obj).get(key)
    if not isinstance(spec, Obj) or spec.default is not None:
        return False
    if isinstance(parent, Variant):
        kind = parent.kind_of(obj)
        required = parent.common_required + (parent.kinds[kind].required if kind in parent.kinds else ())
    else:
        required = getattr(parent, "required", ())
    return key not in required


def _fields(spec: Any, obj: dict) -> dict:
    """The schema's fields of an object (a variant's common fields and its kind's)."""
    if isinstance(spec, Variant):
        kind = spec.kind_of(obj)
        return dict(spec.common, **(spec.kinds[kind].fields if kind in spec.kinds else {}))
    return getattr(spec, "fields", {})


def _with_omitted_variants(item_spec: Any, item: dict) -> dict:
    """``item`` with each omitted object that has a default kind (a flexible link's mesh) added empty.

    Its fields then show at their defaults, ready to edit.
    """
    out = dict(item)
    for name, spec in _fields(item_spec, item).items():
        if name not in out and isinstance(spec, Variant) and spec.default_kind is not None:
            out[name] = {}
    return out


def _entity(doc: dict, ref: EntityRef) -> tuple[Any, dict] | None:
    """The schema's description of the entity and the entity (settings the file omits: empty)."""
    path = entity_path(doc, ref)
    if path is None:
        return None
    item = get_value(doc, path)
    return field_at(MODEL, path, doc) if path else MODEL, ({} if item is MISSING else item)


def entity_rows(doc: dict, ref: EntityRef) -> list[PropertyRow]:
    """Every field of the entity ``ref`` names, defaults included (empty if it has none); a
    modal link adds the frequencies and damping ratios of its modes (read-only rows); the
    fields a contact pair's model does not use say why (:attr:`PropertyRow.unused`)."""
    found = _entity(doc, ref)
    if found is None:
        return []
    item_spec, item = found
    rows = _rows(item_spec, with_defaults(item_spec, _with_omitted_variants(item_spec, item)), item, [])
    derived = derived_values(doc, ref, item)
    rows = [_with_derived(row, derived[row.keys]) if row.keys in derived and row.value == "" else row for row in rows]
    if ref == MODEL_SETTINGS:
        rows = [row for row in rows if row.keys[0] in MODEL_FIELDS]
    if ref.collection == "links" and item.get("kind") == "modal":
        rows += modal_rows(doc, ref.id)
    if ref.collection == "contacts":
        unused = unused_fields(item)
        rows = [replace(row, unused=unused[row.field]) if row.field in unused else row for row in rows]
    if ref.collection == "contacts" and item.get("model", {}).get("kind") == "compliant":
        rows = [_computed_stiffness(doc, item, row) if row.field == "model.stiffness" else row for row in rows]
    return rows


def derived_values(doc: dict, ref: EntityRef, item: dict) -> dict[tuple[str, ...], tuple[float, str]]:
    """Fields the entity leaves out whose value the solver derives from others: ``{keys: (value,
    how)}`` -- a rigid body's inertia (a disc's m r²/2), a rigid link's (a uniform rod's m L²/12,
    ``solver.system.builder``), a node target's reach.

    >>> derived_values({}, EntityRef("bodies", "b"), {"kind": "rigid", "mass": 2.0, "radius": 0.5})
    {('inertia',): (0.25, "a disc's m r^2 / 2 of its radius")}
    >>> doc = {"nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "A", "x": 0.0, "y": -0.6}]}
    >>> derived_values(doc, EntityRef("links", "rod"), {"kind": "rigid", "mass": 1.0, "nodes": ["O", "A"]})
    {('inertia',): (0.03, "a uniform rod's m L^2 / 12 about its centre, L between its first two nodes")}
    """
    out = {}
    if ref.collection == "bodies" and item.get("kind") == "rigid" and "mass" in item:
        out[("inertia",)] = (body_inertia(item), "a disc's m r^2 / 2 of its radius")
    if ref.collection == "links" and item.get("kind") == "rigid" and "mass" in item:
        xy = {n.get("id"): (n.get("x"), n.get("y")) for n in doc.get("nodes", [])}
        ends = [xy.get(n) for n in item.get("nodes", [])[:2]]
        if len(ends) == 2 and all(e is not None and all(isinstance(v, (int, float)) for v in e) for e in ends):
            length = math.dist(*ends)
            out[("inertia",)] = (float(f"{item['mass'] * length ** 2 / 12.0:.12g}"),
                                 "a uniform rod's m L^2 / 12 about its centre, L between its first two nodes")
    target = item.get("target", {}) if ref.collection == "contacts" else {}
    if target.get("kind") == "node" and "node" in target:
        reach = node_target_reach(doc, target)
        if reach is not None:
            out[("target", "reach")] = (reach, "half the distance to the nearest node of its link")
    return out


def _with_derived(row: PropertyRow, derived: tuple[float, str]) -> PropertyRow:
    """A left-out field shown at the value the solver derives for it (a default: typing sets it)."""
    value, how = derived
    help_text = row.help.removesuffix(" -- not set")
    return replace(row, value=format_value(value), help=f"{help_text} -- derived: {how}")


def _computed_stiffness(doc: dict, contact: dict, row: PropertyRow) -> PropertyRow:
    """The stiffness row of a compliant pair that gives none: the K eqs. 3-5 compute from its
    materials and radii (Flores et al. 2006), shown as a default to be overtyped."""
    K = pair_stiffness(doc, contact) if row.value == "" else None
    if K is None:
        return row
    return replace(row, value=format_value(float(f"{K:.4g}")), is_default=True,
                   help=f"{row.help} -- computed from the materials and radii (eqs. 3-5): type a value to set it")


#: the read-only rows of a modal link's modes
MODE_FREQUENCIES, MODE_DAMPING = "mode frequencies", "mode damping ratios"


def modal_rows(doc: dict, link_id: str) -> list[PropertyRow]:
    """The frequencies (Hz) and damping ratios of a modal link's modes, computed from its
    mesh; while the model has a problem they are left empty and the help says why.

    >>> doc = {"format": "flexmech", "version": 1, "nodes": [{"id": "A", "x": 0.0, "y": 0.0},
    ...        {"id": "B", "x": 1.0, "y": 0.0}], "links": [{"id": "r", "kind": "modal", "nodes": ["A", "B"],
    ...        "modes": 2, "section": {"kind": "per_length", "EA": 1e7, "EI": 100.0, "rhoA": 1.0}}]}
    >>> [(row.field, row.value, row.unit) for row in modal_rows(doc, "r")]
    [('mode frequencies', '5.5959, 35.07', 'Hz'), ('mode damping ratios', '0, 0', '-')]
    """
    key = json.dumps(doc, sort_keys=True)
    modes = _link_modes(key, link_id)
    if isinstance(modes, str):
        why = f"not computed: {modes}"
        return [PropertyRow(MODE_FREQUENCIES, "", "Hz", why, True, (MODE_FREQUENCIES,)),
                PropertyRow(MODE_DAMPING, "", "-", why, True, (MODE_DAMPING,))]
    normal = f"the first {modes.normal} normal modes" + (", then static corrections" if modes.normal < len(modes.frequencies) else "")
    return [
        PropertyRow(MODE_FREQUENCIES, format_value([float(f"{f:.5g}") for f in modes.frequencies]), "Hz",
                    f"natural frequencies of the link's modes under its reference conditions ({normal})", False,
                    (MODE_FREQUENCIES,)),
        PropertyRow(MODE_DAMPING, format_value([float(f"{z:.4g}") for z in modes.damping]), "-",
                    "damping ratio of each mode: the model's Rayleigh damping alpha/2w + beta w/2 plus the "
                    "link's damping_ratios", False, (MODE_DAMPING,)),
    ]


@lru_cache(maxsize=32)
def _link_modes(doc_text: str, link_id: str) -> LinkModes | str:
    """The link's modes, or the first problem of the model that keeps them from being computed."""
    doc = json.loads(doc_text)
    problems = validate(doc)
    if problems:
        return str(problems[0])
    return modal_link_modes(doc, link_id)


def entity_help(doc: dict, ref: EntityRef) -> str:
    """The schema's one-line description of the kind of entity ``ref`` names."""
    found = _entity(doc, ref)
    if found is None:
        return ""
    spec, item = found
    if isinstance(spec, Variant):
        kind = spec.kind_of(item)
        kind_help = spec.kinds[kind].help if kind in spec.kinds else ""
        return kind_help or spec.help
    return spec.help
