"""Generate ``docs/model-format.md`` from the field descriptions of :mod:`.schema`.

Run ``python -m solver.model.docs`` after changing the schema (``--check`` only
compares, exit status 1 when the committed page is out of date).  Every field is
listed with its type, unit, allowed range, default and help text, one section per
kind of entity; a nested object whose fields depend on its ``kind`` (a section, a
time function, a contact target...) gets a section of its own.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .fields import Arr, Num, Obj, Str, Variant, iter_fields
from ..safe_write import atomic_write_text
from .io import dumps_model
from .contact_rules import MIN_CLEARANCE_REL
from .geometry_rules import ABSOLUTE_TOLERANCE
from .limits import (BYTES_PER_ELEMENT, FRAME_BYTES, FRAME_BYTES_PER_POINT, FRAME_BYTES_PER_STATION, MAX_ELEMENTS,
                     MAX_MAGNITUDE, MEMORY_BUDGET, MIN_MAGNITUDE, MIN_STEP_FRACTION, MODAL_DENSE_MATRICES, RESULTS_BUDGET,
                     STEP_BYTES, modal_most)
from .schema import FORMAT, MODEL, VERSION
from .validate import validate

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "model-format.md"


@dataclass
class Entity:
    """One documented object type: a collection's items, a top-level object or a nested variant."""

    name: str
    spec: Obj | Variant
    used_at: list[str] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return self.used_at[0].replace("[]", "").replace(".", "-")


@dataclass
class Row:
    """One field of an entity (fields of several kinds are merged when they are equal)."""

    path: str
    spec: Any
    required: bool
    kinds: list[str]


# ----------------------------------------------------------------------------- walking

def entities() -> list[Entity]:
    """Every documented entity, in the order the model file lists them."""
    found: list[Entity] = []
    for path, spec, _kind in iter_fields(MODEL):
        item = spec.item if isinstance(spec, Arr) else spec
        top_level = "." not in path and "[" not in path
        if top_level and isinstance(item, (Obj, Variant)):
            found.append(Entity(path, item, [f"{path}[]" if isinstance(spec, Arr) else path]))
        elif not top_level and isinstance(spec, Variant):
            known = next((e for e in found if _same_type(e.spec, spec)), None)
            if known is None:
                found.append(Entity(path.rsplit(".", 1)[-1], spec, [path]))
            elif path not in known.used_at:
                known.used_at.append(path)
    for entity in found:  # a shared object is named by its shortest field name (a time function: "function")
        if "." in entity.used_at[0]:
            first = min(entity.used_at, key=lambda p: (len(p.rsplit(".", 1)[-1]), entity.used_at.index(p)))
            entity.used_at.remove(first)
            entity.used_at.insert(0, first)
            entity.name = first.rsplit(".", 1)[-1]
    return found


def entity_rows(spec: Obj | Variant) -> list[Row]:
    """The rows of an entity's table; nested variants are one row each (they have their own table)."""
    rows: list[Row] = []
    parents: dict[str, Any] = {}
    nested: set[str] = set()
    for raw, f, kind in iter_fields(spec):
        path = raw.lstrip(".")
        if not path or path.endswith("[]") or any(path.startswith(n + ".") for n in nested):
            continue
        parent_path, _, name = path.rpartition(".")
        parent = parents.get(parent_path, spec)
        required = _is_required(parent, name, kind if parent is spec else None)
        parents[path] = f
        if isinstance(f, Variant):
            nested.add(path)
        same = next((r for r in rows if r.path == path and r.spec == f and r.required == required), None)
        if same is None:
            rows.append(Row(path, f, required, [kind] if kind else []))
        elif kind:
            same.kinds.append(kind)
    return rows


def _same_type(a: Any, b: Any) -> bool:
    """Whether two field descriptions document the same object type (defaults may differ)."""
    if a is b:
        return True
    kinds = (Obj, Variant)
    return isinstance(a, kinds) and type(a) is type(b) and replace(a, default=None) == replace(b, default=None)


def _is_required(parent: Any, name: str, kind: str | None) -> bool:
    if isinstance(parent, Variant):
        own = parent.kinds[kind].required if kind else parent.common_required
        return name in own
    return isinstance(parent, Obj) and name in parent.required


# ----------------------------------------------------------------------------- rendering

def render() -> str:
    """The complete text of ``docs/model-format.md``."""
    found = entities()
    parts = [_intro(), _top_level_table(found)]
    for entity in found:
        parts.append(_entity_section(entity, found))
    parts.append(_example())
    return "\n".join(parts)


def _intro() -> str:
    return f"""<!-- Generated by `python -m solver.model.docs` from solver/model/schema.py: edit the schema, not this page. -->

# The Flexmech model file, format version {VERSION}

A Flexmech model is one JSON document that describes a planar mechanism: its nodes,
links (rigid, or flexible beams meshed with corotational elements), materials and
cross-sections, joints, lumped masses and free bodies, drivers, loads, gravity,
damping, contact pairs, initial velocities and solver settings. The same document is
the file on disk, the GUI's document and the solver's input.

- **Identity.** Every file starts with `"format": "{FORMAT}"` and `"version": {VERSION}`.
  A later format version will come with a step-wise migration from this one.
- **Units.** All quantities are SI: m, kg, s, N, rad (angles counter-clockwise from +x).
- **Ids.** Entities carry readable, unique string ids (`crank`, `rod`, `tip-floor`);
  a field of type *id of X* must name an entity of collection `X`.
- **Kinds.** Objects whose fields depend on a `kind` (links, sections, joints, drivers,
  time functions, contact targets, contact models, meshes) list, per field, the kinds it
  belongs to. A field given for another kind is an error.
- **Defaults.** A field that is not required may be left out; the solver then uses the
  default shown. Defaults are never written into the file, so what you wrote is what
  is saved: load then save rewrites the file unchanged (2-space indent, keys in the
  order given).
- **Validation.** `flexmech validate FILE` lists every problem, one per line, as
  `path: rule`, e.g. `links[rod].section.d: must be > 0`; list items are named by
  their id (`links[rod]`), or by their index where they have none
  (`initial_velocities[0]`).
- **What the solver can use.** Every number is finite, at most {_sci(MAX_MAGNITUDE)} in
  magnitude and, unless it is 0, at least {_sci(MIN_MAGNITUDE)}. The nodes of a link, and the
  ends of its beam elements, are more than a millionth of the model's size (or of its
  distance from the origin), and more than {_sci(ABSOLUTE_TOLERANCE)} m, apart. The step
  is at most the end time; an impact step, force window or output interval, when
  given, is at least {_sci(MIN_STEP_FRACTION)} x the step. A model has at most {MAX_ELEMENTS} beam
  elements; a run's elements and step log fit in an estimated {MEMORY_BUDGET / 2**30:g} GiB of memory
  (about {BYTES_PER_ELEMENT / 1e3:g} kB per element, {STEP_BYTES} B per step) and its stored frames, which
  `flexmech run` and the window's runs write to a results folder as they go, in {RESULTS_BUDGET / 2**30:g} GiB ({FRAME_BYTES / 1e3:g} kB +
  {FRAME_BYTES_PER_POINT} B per node and {FRAME_BYTES_PER_STATION} B per element station for each frame, less with
  `solver.record`: no rates, fewer stations, single precision, fewer links); beyond that the problem gives the estimate.
  A modal link's modes come from a dense eigenproblem of 3 (elements + 1) dofs, about
  {MODAL_DENSE_MATRICES} matrices of that size squared in doubles: it must fit the same memory (at most
  {modal_most()} elements in a modal link).
- **Geometry the solver can run.** A pin in a bore (a clearance joint; a round point inside a
  circle target) leaves a radial clearance of at least {_sci(MIN_CLEARANCE_REL)} of the bore's radius
  (a journal as wide as its bore, or a clearance lost in the bore's radius, is refused at the
  field that sets it); no contact point starts inside its target -- a fixed line, segment or
  circle, or a link's sketched line on its contact side -- deeper than `solver.contact_tol`
  (a compliant pair: at all).  A run that completes with a compliant pair penetrated beyond its
  clearance (or its point's radius) warns that its contact law does not hold the bodies apart
  (`docs/solver.md`, *Every run ends*).

In the tables, a path such as `com.s` is the field `s` inside the object `com`;
*required* fields have no default, a blank default means the value is derived
(the help text says how) or the field is simply absent, and a default in italics says
what leaving the field out means (*all*: every entity of its kind).
"""


def _sci(x: float) -> str:
    """``1e15``, ``1e-6``: a power of ten as the docs write it."""
    return f"{x:.0e}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def _top_level_table(found: list[Entity]) -> str:
    lines = ["## The document", "", "The top-level object.", "", _header(with_kinds=False)]
    for name, f in MODEL.fields.items():
        row = Row(name, f, name in MODEL.required, [])
        entity = next((e for e in found if e.name == name), None)
        lines.append(_row_line(row, found, with_kinds=False, entity=entity))
    return "\n".join(lines) + "\n"


def _entity_section(entity: Entity, found: list[Entity]) -> str:
    spec = entity.spec
    used = ", ".join(f"`{p}`" for p in entity.used_at)
    lines = [f'<a id="{entity.anchor}"></a>', "", f"## `{entity.name}`", ""]
    if spec.help:
        lines += [_sentence(spec.help), ""]
    lines += [f"Used at {used}.", ""]
    with_kinds = isinstance(spec, Variant)
    if with_kinds:
        lines += _kind_list(spec)
    lines.append(_header(with_kinds))
    if with_kinds:
        default = f"`{json.dumps(spec.default_kind)}`" if spec.default_kind else "*required*"
        kinds = _cell(" | ".join(spec.kinds))
        lines.append(f"| `kind` | all | string | | {kinds} | {default} | one of the kinds listed above |")
    for row in entity_rows(spec):
        lines.append(_row_line(row, found, with_kinds))
    return "\n".join(lines) + "\n"


def _kind_list(spec: Variant) -> list[str]:
    lines = ["Kinds:", ""]
    for name, obj in spec.kinds.items():
        lines.append(f"- `{name}`" + (f": {obj.help}" if obj.help else ""))
    return lines + [""]


def _header(with_kinds: bool) -> str:
    cols = ["Field", "Kinds", "Type", "Unit", "Allowed", "Default", "Description"]
    if not with_kinds:
        cols.remove("Kinds")
    return "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols)


def _row_line(row: Row, found: list[Entity], with_kinds: bool, entity: Entity | None = None) -> str:
    f = row.spec
    item = f.item if isinstance(f, Arr) else f
    nested = entity or next((e for e in found if _same_type(e.spec, f)), None)
    if nested is not None:
        link = f"[`{nested.name}`](#{nested.anchor})"
        type_name = f"list of {link}" if isinstance(f, Arr) else f"object, see {link}"
    else:
        type_name = f.type_name()
    unit = item.unit if isinstance(item, Num) else ""
    allowed = "; ".join(t for t in (_range(item), _range(f) if f is not item else "") if t)
    if row.required:
        default = "*required*"
    elif f.default is not None:
        default = f"`{json.dumps(f.default)}`"
    elif getattr(f, "absent", None):
        default = f"*{f.absent}*"
    else:
        default = ""
    cells = [f"`{row.path}`"]
    if with_kinds:
        cells.append(", ".join(row.kinds) if row.kinds else "all")
    cells += [type_name, unit, allowed, default, f.help]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _range(f: Any) -> str:
    return f.range_text() if isinstance(f, (Num, Str, Arr)) else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# ----------------------------------------------------------------------------- example

#: a complete small model: a flexible steel pendulum, pinned to ground, released
#: from horizontal under gravity, whose tip strikes the floor
EXAMPLE = {
    "format": FORMAT,
    "version": VERSION,
    "name": "Falling pendulum",
    "description": "Flexible steel pendulum released from horizontal; its tip strikes the floor",
    "materials": [{"id": "steel", "E": 2.0e11, "density": 7850.0}],
    "nodes": [{"id": "pivot", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 0.5, "y": 0.0}],
    "links": [
        {
            "id": "beam",
            "kind": "flexible",
            "nodes": ["pivot", "tip"],
            "section": {"kind": "circle", "material": "steel", "d": 0.01},
            "mesh": {"elements": 6},
        }
    ],
    "joints": [{"id": "hinge", "kind": "ground", "node": "pivot"}],
    "masses": [{"id": "tip-mass", "node": "tip", "mass": 0.05}],
    "gravity": {"y": -9.81},
    "contacts": [
        {
            "id": "tip-floor",
            "point": {"node": "tip"},
            "target": {"kind": "ground_line", "y": -0.3},
            "mu_s": 0.3,
            "mu_d": 0.2,
            "e": 0.8,
            "law": "poisson",
            "model": {"kind": "impulse"},
        }
    ],
    "solver": {"end_time": 0.5, "step": 1e-4, "output_interval": 1e-3},
}


def _example() -> str:
    problems = validate(EXAMPLE)
    if problems:
        raise ValueError("the documentation example is invalid: " + "; ".join(map(str, problems)))
    return (
        "## A complete example\n\n"
        "A flexible steel pendulum, pinned to ground, released from horizontal under gravity; "
        "its tip strikes the floor 0.3 m below the pivot. Every field left out takes its default.\n\n"
        "```json\n" + dumps_model(EXAMPLE) + "```\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/model-format.md`` (or, with ``--check``, report whether it is up to date)."""
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in argv:
        current = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
        if current != text:
            print(f"{DOC_PATH} is out of date: run python -m solver.model.docs", file=sys.stderr)
            return 1
        return 0
    atomic_write_text(DOC_PATH, text)
    print(f"wrote {DOC_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
