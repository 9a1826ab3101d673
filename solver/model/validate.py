"""Validation of a model document: schema rules, references, and what a schema cannot say.

Every problem is a :class:`Problem` naming the exact path and the rule, e.g.
``links[rod].section.d: must be > 0`` -- never a traceback.  List items that carry an
``id`` are named by it (``links[rod]``; ``links["a[b]"]``, quoted as a JSON string where bare
text would not read back: the paths of :mod:`solver.model.paths`, which ``--vary`` takes), others
by their index (``initial_velocities[0]``).
"""
from __future__ import annotations

import json
import math
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from . import schema as S
from .body_rules import body_problems
from .contact_rules import clearance_problems, compliant_contact_problems, node_target_problems, unused_field_warnings
from .fields import Num, Obj, Variant, field_at
from .geometry_rules import geometry_problems
from .limits import is_number, magnitude_rule, resource_problems, usable
from .paths import item_label
from .record_rules import record_problems
from .start_rules import static_start_problems
from .translational_rules import translational_problems


@dataclass(frozen=True)
class Problem:
    """One problem with a model: where (a path) and what (the rule broken)."""

    path: str
    message: str
    severity: str = "error"  # "error" | "warning" | "info"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ModelError(Exception):
    """A model that cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@lru_cache(maxsize=1)
def model_json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of format version 1, derived from :mod:`.schema`."""
    s = S.MODEL.json_schema()
    s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    s["title"] = "Flexmech model, format version 1"
    return s


_SINGULAR = {"bodies": "body", "masses": "mass"}

# JSON has no NaN or Infinity, but Python's json module reads them: they are not numbers here,
# and neither is a number beyond what the solver can use (limits.MAX_MAGNITUDE)
_BASE_TYPES = Draft202012Validator.TYPE_CHECKER
_FINITE_NUMBERS = _BASE_TYPES.redefine_many({
    "number": lambda checker, x: _BASE_TYPES.is_type(x, "number") and usable(x),
    "integer": lambda checker, x: is_number(x) and usable(x) and _BASE_TYPES.is_type(x, "integer"),
})


#: the ids of each collection of the document being validated, which ``x-ref`` looks references up in
_IDS: ContextVar[dict[str, set[str]]] = ContextVar("flexmech_model_ids", default={})


def _x_ref(validator, collection, instance, schema):
    """``x-ref``: a reference names an id of its ``collection`` in the document (:data:`_IDS`)."""
    ids = _IDS.get()
    if isinstance(instance, str) and instance not in ids.get(collection, set()):
        what = _SINGULAR.get(collection, collection.removesuffix("s"))
        yield ValidationError(f"no {what} with id '{instance}'")


def _x_unique_ids(validator, enabled, instance, schema):
    """``x-unique-ids``: no two items of a collection have the same id."""
    if not enabled or not isinstance(instance, list):
        return
    seen: set[str] = set()
    for i, item in enumerate(instance):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            if item["id"] in seen:
                err = ValidationError(f"duplicate id '{item['id']}'")
                err.path.appendleft("id")
                err.path.appendleft(i)
                yield err
            seen.add(item["id"])


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    """The schema's validator, made once: the class jsonschema makes for the two keywords costs about
    1.3 ms, a quarter of validating an example; ``x-ref`` reads the document's ids from :data:`_IDS`."""
    cls = jsonschema.validators.extend(
        Draft202012Validator,
        {"x-ref": _x_ref, "x-unique-ids": _x_unique_ids},
        type_checker=_FINITE_NUMBERS,
    )
    return cls(model_json_schema())


@lru_cache(maxsize=256)
def _number_validator(spec: Num) -> Draft202012Validator:
    """The schema's validator of one numeric field described by ``spec``."""
    return _validator().evolve(schema=spec.json_schema())


def number_accepted(spec: Num, value: Any) -> bool:
    """Whether the schema accepts ``value`` at a numeric field described by ``spec``: a finite, usable
    number (an integer where ``spec`` says so) in its range.  This is all a whole document's validation
    checks at such a field, and it depends on no other field: the schema's only conditions are on the
    ``kind`` of objects (strings), never on numbers (:class:`~.fields.Variant`)."""
    return _number_validator(spec).is_valid(value)


def collect_ids(doc: Any) -> dict[str, set[str]]:
    """The ids defined in each collection of the document (what references may name)."""
    ids: dict[str, set[str]] = {}
    if not isinstance(doc, dict):
        return ids
    for coll in S.COLLECTIONS:
        items = doc.get(coll)
        if isinstance(items, list):
            ids[coll] = {it["id"] for it in items if isinstance(it, dict) and isinstance(it.get("id"), str)}
    return ids


def format_path(doc: Any, keys: Iterable) -> str:
    """``['links', 2, 'section', 'd']`` -> ``links[rod].section.d`` (ids where items have one, quoted
    where bare text would not read back, :func:`~solver.model.paths.item_label`: the path of
    :mod:`solver.model.paths`, which ``--vary`` takes)."""
    out = ""
    node = doc
    for key in keys:
        if isinstance(key, int):
            label = f"[{key}]"
            if isinstance(node, list) and key < len(node) and isinstance(node[key], dict):
                item_id = node[key].get("id")
                if isinstance(item_id, str) and item_id:
                    label = item_label(item_id)
            out += label
            node = node[key] if isinstance(node, list) and key < len(node) else None
        else:
            out += f".{key}" if out else str(key)
            node = node.get(key) if isinstance(node, dict) else None
    return out


_TYPE_NAMES = {"number": "a number", "integer": "an integer", "string": "a string",
               "boolean": "true or false", "array": "a list", "object": "an object"}


def _allowed_fields(doc: Any, keys: list) -> set[str]:
    """Fields an object at ``keys`` may have, given its kind (from the field descriptions)."""
    spec = field_at(S.MODEL, keys, doc)
    if isinstance(spec, Obj):
        return set(spec.fields)
    if isinstance(spec, Variant):
        inst = doc
        for k in keys:
            inst = inst[k]
        kind = spec.kind_of(inst)
        # a missing or unknown kind is reported on its own: accept the fields of every kind
        kinds = [spec.kinds[kind]] if kind in spec.kinds else list(spec.kinds.values())
        return {"kind", *spec.common, *(name for obj in kinds for name in obj.fields)}
    return set()


def _rule(doc: Any, err: ValidationError) -> tuple[list, str] | None:
    """Translate one jsonschema error into (path keys, rule text); None if it is a repeat."""
    keys = list(err.absolute_path)
    v = err.validator
    if v == "required":
        missing = err.message.split("'")[1]
        return keys + [missing], "is required"
    if v in ("additionalProperties", "unevaluatedProperties"):
        # a failing kind branch leaves its fields "unevaluated": report only true strangers
        extra = sorted(set(err.instance) - _allowed_fields(doc, keys)) if isinstance(err.instance, dict) else []
        if not extra:
            return None
        return keys, "unknown field " + ", ".join(repr(x) for x in extra)
    if v == "type":
        want = err.validator_value
        want = want if isinstance(want, str) else want[0]
        if want in ("number", "integer") and is_number(err.instance) and not usable(err.instance):
            return keys, magnitude_rule(err.instance)
        return keys, f"must be {_TYPE_NAMES.get(want, want)}"
    if v == "exclusiveMinimum":
        return keys, f"must be > {err.validator_value:g}"
    if v == "minimum":
        return keys, f"must be >= {err.validator_value:g}"
    if v == "exclusiveMaximum":
        return keys, f"must be < {err.validator_value:g}"
    if v == "maximum" and keys == ["version"]:
        return keys, (f"must be <= {err.validator_value:g}: the file is from a newer Flexmech (format version "
                      f"{err.instance}); update Flexmech to open it")
    if v == "maximum":
        return keys, f"must be <= {err.validator_value:g}"
    if v == "enum":
        return keys, "must be one of " + " | ".join(str(x) for x in err.validator_value)
    if v == "const":
        return keys, f"must be {err.validator_value!r}"
    if v == "minItems":
        return keys, f"needs at least {err.validator_value} item{'' if err.validator_value == 1 else 's'}"
    if v == "minLength":
        return keys, "must not be empty"
    return keys, err.message


def schema_problems(doc: Any) -> list[Problem]:
    """Problems found by the declarative schema (types, ranges, references, unique ids)."""
    token = _IDS.set(collect_ids(doc))
    try:
        errors = sorted(_validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    finally:
        _IDS.reset(token)
    problems = []
    for err in errors:
        rule = _rule(doc, err)
        if rule is not None:
            problems.append(Problem(format_path(doc, rule[0]), rule[1]))
    # an error inside an if/then branch can be reported twice (branch and parent): keep one
    return list(dict.fromkeys(problems))


def semantic_problems(doc: dict) -> list[Problem]:
    """Rules across fields that a schema cannot state (run only on schema-valid documents)."""
    out: list[Problem] = []

    def bad(keys: list, msg: str) -> None:
        out.append(Problem(format_path(doc, keys), msg))

    if not (doc["nodes"] or doc.get("bodies")):
        return [Problem("nodes", "the model has nothing that moves: give it a node (a link's end) or a free body")]
    for i, link in enumerate(doc.get("links", [])):
        if link.get("kind") == "flexible" and len(link["nodes"]) != 2:
            bad(["links", i, "nodes"], "a flexible link has exactly two end nodes")
        if len(set(link["nodes"])) != len(link["nodes"]):
            bad(["links", i, "nodes"], "names the same node twice")
        sec = link.get("section")
        if sec and sec.get("kind") == "tube" and sec["d_inner"] >= sec["d_outer"]:
            bad(["links", i, "section", "d_inner"], "must be < d_outer")
        if sec:
            for keys, msg in section_problems(link):
                bad(["links", i, *keys], msg)
        if link.get("kind") == "rigid" and "mass" not in link and "section" not in link:
            bad(["links", i, "mass"], "is required (or give a section to derive it)")
        mesh = link.get("mesh", {})
        st = mesh.get("stations")
        if st is not None and (st[0] != 0 or st[-1] != 1 or any(b <= a for a, b in zip(st, st[1:]))):
            bad(["links", i, "mesh", "stations"], "must increase strictly from 0 to 1")
    degenerate = geometry_problems(doc, bad)
    xy = {n["id"]: (n["x"], n["y"]) for n in doc.get("nodes", [])}
    for i, link in enumerate(doc.get("links", [])):
        if link.get("kind") == "modal" and i not in degenerate:
            for keys, msg in modal_link_problems(link, xy):
                bad(["links", i, *keys], msg)
    link_nodes = {l["id"]: l["nodes"] for l in doc.get("links", [])}
    for i, d in enumerate(doc.get("drivers", [])):
        if "link" in d and d["pivot"] not in link_nodes.get(d["link"], []):
            bad(["drivers", i, "pivot"], f"node '{d['pivot']}' is not a node of link '{d['link']}'")
    for coll, key in (("drivers", "function"), ("loads", "function"), ("moving", "position")):
        for i, item in enumerate(doc.get(coll, [])):
            fn = item.get(key, {})
            if fn.get("kind") == "table":
                t, v = fn["t"], fn["v"]
                if len(t) != len(v):
                    bad([coll, i, key, "v"], "must have as many values as t has times")
                if any(b <= a for a, b in zip(t, t[1:])):
                    bad([coll, i, key, "t"], "must increase strictly")
            if fn.get("kind") in ("ramp", "window"):
                lo, hi = ("t0", "t1") if fn["kind"] == "ramp" else ("t_on", "t_off")
                if fn.get(hi, 0) <= fn.get(lo, 0):
                    bad([coll, i, key, hi], f"must be > {lo}")
    link_kinds = {l["id"]: l.get("kind") for l in doc.get("links", [])}
    for i, item in enumerate(doc.get("moving", [])):
        if link_kinds.get(item["link"]) != "flexible":
            bad(["moving", i, "link"], f"link '{item['link']}' is not a flexible link")
        if item.get("position", {}).get("kind") == "free" and item.get("kind") != "mass":
            bad(["moving", i, "position", "kind"], "free travel is for a moving mass only")
    for i, c in enumerate(doc.get("contacts", [])):
        given = [k for k in ("node", "body") if k in c["point"]]
        if len(given) != 1:
            bad(["contacts", i, "point"], "give exactly one of node, body")
        if c.get("mu_d", 0.0) > c.get("mu_s", 0.0):
            bad(["contacts", i, "mu_d"], "must be <= mu_s" + ("" if "mu_s" in c else " (0 when not given)"))
    pairs: dict[str, str] = {}
    for i, c in enumerate(doc.get("contacts", [])):
        key = json.dumps([c["point"], c["target"]], sort_keys=True)
        if key in pairs:  # two pairs would hold one contact twice (redundant multipliers, impulses counted twice)
            bad(["contacts", i, "target"], f"the same point and target as contact '{pairs[key]}': one pair per contact")
        pairs.setdefault(key, c.get("id", str(i)))
    bodies = {b["id"]: b for b in doc.get("bodies", [])}
    for i, c in enumerate(doc.get("contacts", [])):
        body = bodies.get(c["point"].get("body"), {})
        round_ = c["point"].get("radius", body.get("radius", 0.0)) > 0
        if c.get("model", {}).get("kind") == "rolling" and not (body.get("kind") == "rigid" and round_):
            bad(["contacts", i, "point"], "a rolling pair rolls a free rigid body with a radius > 0")
    for i, v in enumerate(doc.get("initial_velocities", [])):
        if len([k for k in ("node", "link", "body") if k in v]) != 1:
            bad(["initial_velocities", i], "give exactly one of node, link, body")
    clearance_problems(doc, bad)
    translational_problems(doc, bad)
    compliant_contact_problems(doc, bad)
    node_target_problems(doc, bad)
    body_problems(doc, bad)
    record_problems(doc, bad)
    static_start_problems(doc, bad)
    resource_problems(doc, bad)
    return out


def section_problems(link: dict) -> list[tuple[list, str]]:
    """What is wrong with a link's shear-flexible, tapered or heated section: shear and taper
    belong to flexible links, shear needs the shear rigidity (``kGA``) or coefficient where the
    shape does not give it, a tapered tube's bore stays inside it, and a temperature needs a
    material (its expansion coefficient)."""
    out: list[tuple[list, str]] = []
    sec, kind = link["section"], link["section"].get("kind")
    flexible = link.get("kind") == "flexible"
    for key in sec:
        if key.endswith("_end") and not flexible:
            out.append((["section", key], "a tapered section is for flexible links"))
    if sec.get("shear"):
        if not flexible:
            out.append((["section", "shear"], "shear-flexible (Timoshenko) elements are for flexible links"))
        elif kind == "per_length" and "kGA" not in sec:
            out.append((["section", "kGA"], "is required with shear"))
        elif kind == "area" and "shear_coefficient" not in sec:
            out.append((["section", "shear_coefficient"], "is required with shear for an area section"))
    if kind == "tube" and ("d_inner_end" in sec or "d_outer_end" in sec):
        if sec.get("d_inner_end", sec.get("d_inner", 0)) >= sec.get("d_outer_end", sec.get("d_outer", 0)):
            out.append((["section", "d_inner_end"], "must be < d_outer_end (the bore at the second node)"))
    if kind == "per_length":
        for key in ("temperature_change", "temperature_gradient"):
            if link.get("free_strains", {}).get(key, 0.0) != 0.0:
                out.append((["free_strains", key], "needs a section with a material (its expansion coefficient)"))
    return out


def modal_link_problems(link: dict, xy: dict[str, tuple[float, float]]) -> list[tuple[list, str]]:
    """What is wrong with a modal link: nodes off the segment between its two end nodes,
    and more modes than its mesh has (3 per mesh node, less the 3 its reference conditions
    or the rigid modes take)."""
    out: list[tuple[list, str]] = []
    nodes = link["nodes"]
    (x1, y1), (x2, y2) = xy[nodes[0]], xy[nodes[1]]
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length == 0:
        return [(["nodes"], "its two end nodes coincide")]
    fractions = []
    for k, name in enumerate(nodes[2:], start=2):
        px, py = xy[name][0] - x1, xy[name][1] - y1
        s, off = (px * dx + py * dy) / length**2, abs(px * dy - py * dx) / length
        if off > 1e-6 * length or not 0 < s < 1:
            out.append((["nodes", k], f"node '{name}' is not on the link between '{nodes[0]}' and '{nodes[1]}'"))
        fractions.append(s)
    mesh = link.get("mesh", {})
    stations = mesh.get("stations") or [k / mesh.get("elements", 10) for k in range(mesh.get("elements", 10) + 1)]
    points = len({round(s, 9) for s in [*stations, *fractions]})
    most = 3 * points - 3
    if link.get("modes", 4) > most:
        out.append((["modes"], f"must be at most {most}: the mesh has {points} nodes, 3 dofs each, less 3 for the "
                               "reference conditions (refine the mesh for more modes)"))
    return out


#: the text (``repr``) of the document last found valid: ``flexmech run`` validates the model
#: as it reads it (an invalid one said before the solver loads) and the run validates what it is
#: given (:func:`solver.api.refuse_invalid`), the same document: 3-7 ms each on the examples
_last_valid: str | None = None


def validate(doc: Any) -> list[Problem]:
    """All problems with a model document (empty when it is valid).  A document whose text
    (``repr``: every key, value and type, a tuple told from a list) is that of the document
    last found valid is valid without a second look."""
    global _last_valid
    if not isinstance(doc, dict):
        return [Problem("", "the model must be a JSON object")]
    try:
        text = repr(doc)
    except Exception:  # noqa: BLE001 -- too deep for repr, or a value whose repr fails: the rules say why
        text = None
    if text is not None and text == _last_valid:
        return []
    problems = schema_problems(doc) or semantic_problems(doc)
    if not problems:
        _last_valid = text
    return problems


def model_warnings(doc: dict) -> list[Problem]:
    """Warnings of a valid model: what it sets that the solver will not use (a contact pair's
    field its model ignores, :data:`solver.model.contact_rules.UNUSED_BY_MODEL`)."""
    out: list[Problem] = []

    def warn(keys: list, msg: str) -> None:
        out.append(Problem(format_path(doc, keys), msg, "warning"))

    unused_field_warnings(doc, warn)
    return out
