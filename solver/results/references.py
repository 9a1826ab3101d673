"""Reference curves and values: what a run should reproduce, read from
``resources/references/`` (documented in its ``README.md``) or from any CSV file.

A reference (``<example>.<name>.json``) names the example it belongs to, the
published source, the model fields it holds for (``applies_when``: path -> value, the
paths of :mod:`solver.model.paths`), a table of curves (a CSV file whose first column
is the abscissa and whose other columns are named like the series' columns,
``contact.striker-end.F_n_N``), single points, and scalar values.  A reference applies
to a model only when every condition holds: a model changed away from the published
configuration shows no reference as if it still applied, and says why
(:func:`references_for`).
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model.paths import PathError, get_path

FORMAT = "flexmech-reference"
VERSION = 1
#: relative tolerance of a numeric condition
CONDITION_RTOL = 1e-9


class ReferenceError(ValueError):
    """A reference or curve file that cannot be read (the message names the file)."""


@dataclass(frozen=True)
class CurveTable:
    """Curves sharing an abscissa: ``columns`` by CSV name, ``x`` the abscissa's name
    (the first column); an empty cell is ``nan`` (a gap in the curve)."""

    x: str
    columns: dict[str, np.ndarray]

    @property
    def y_names(self) -> list[str]:
        return [name for name in self.columns if name != self.x]


@dataclass(frozen=True)
class ReferencePoint:
    """One published value drawn as a marker: at abscissa ``x`` the column ``column``
    takes ``value``."""

    x: float
    column: str
    value: float
    label: str = ""


@dataclass(frozen=True)
class Reference:
    """One reference of a bundled example (see the module docstring)."""

    name: str
    example: str
    title: str
    source: str
    applies_when: dict[str, Any]
    x: str
    table: CurveTable | None = None
    points: tuple[ReferencePoint, ...] = ()
    values: tuple[dict[str, Any], ...] = field(default_factory=tuple)


def references_dir() -> Path:
    """The folder of bundled references."""
    return Path(__file__).resolve().parents[2] / "resources" / "references"


# ------------------------------------------------------------------ CSV curves
def read_curve_csv(path: str | os.PathLike) -> CurveTable:
    """Curves from a CSV file with a header: the first column is the abscissa, every
    other column one curve; empty cells are gaps."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReferenceError(f"{path}: cannot read ({exc})") from None
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    if len(rows) < 2 or len(rows[0]) < 2:
        raise ReferenceError(f"{path}: needs a header and at least one row of two or more columns")
    header = [name.strip() for name in rows[0]]
    if len(set(header)) != len(header) or not all(header):
        raise ReferenceError(f"{path}: column names must be present and distinct")
    values = np.full((len(rows) - 1, len(header)), np.nan)
    for i, row in enumerate(rows[1:], start=2):
        for j, cell in enumerate(row[:len(header)]):
            if cell.strip():
                try:
                    values[i - 2, j] = float(cell)
                except ValueError:
                    raise ReferenceError(f"{path}: line {i}, column {header[j]}: '{cell}' is not a number") \
                        from None
    return CurveTable(header[0], {name: values[:, j] for j, name in enumerate(header)})


def curve_csv_text(table: CurveTable) -> str:
    """The CSV text of ``table`` (repr-exact numbers, empty cells for ``nan``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = list(table.columns)
    writer.writerow(names)
    for row in zip(*(table.columns[n] for n in names)):
        writer.writerow(["" if math.isnan(v) else f"{v:.17g}" for v in row])
    return out.getvalue()


# ------------------------------------------------------------------ references
def load_reference(path: str | os.PathLike) -> Reference:
    """A reference file (``<example>.<name>.json``) and its curve table."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("format") != FORMAT:
            raise ValueError(f"format is not '{FORMAT}'")
        table = read_curve_csv(path.parent / doc["curves"]) if doc.get("curves") else None
        points = tuple(ReferencePoint(float(p["x"]), p["column"], float(p["value"]), p.get("label", ""))
                       for p in doc.get("points", []))
        return Reference(name=path.name.removesuffix(".json"), example=doc["example"], title=doc["title"],
                         source=doc["source"], applies_when=dict(doc["applies_when"]), x=doc["x"], table=table,
                         points=points, values=tuple(doc.get("values", [])))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ReferenceError(f"{path}: not a reference ({exc})") from None


def bundled_references() -> list[Reference]:
    """Every reference in :func:`references_dir`, by file name."""
    return [load_reference(p) for p in sorted(references_dir().glob("*.json"))]


def reference_mismatches(reference: Reference, model: dict) -> list[str] | None:
    """The conditions of ``reference`` that ``model`` breaks (``path is X, the reference
    needs Y``); None when the model lacks a field the reference names (it is about
    another mechanism)."""
    out = []
    for path, wanted in reference.applies_when.items():
        try:
            value = get_path(model, path)
        except PathError:
            return None
        if value is None:
            return None
        if isinstance(wanted, (int, float)) and isinstance(value, (int, float)):
            same = math.isclose(value, wanted, rel_tol=CONDITION_RTOL, abs_tol=1e-15)
        else:
            same = value == wanted
        if not same:
            out.append(f"{path} is {value!r}, the reference needs {wanted!r}")
    return out


def references_for(model: dict, references: list[Reference] | None = None) -> tuple[list[Reference], list[str]]:
    """The references that apply to ``model``, and for each mechanism that has
    references but none applying, a note naming the nearest one and the first of its
    conditions broken (``LAJSS 2024 Table 1, energetic restitution: not shown,
    contacts[B-ground].e is 0.5, the reference needs 0.82``)."""
    applicable: list[Reference] = []
    nearest: dict[str, tuple[int, str]] = {}
    for ref in bundled_references() if references is None else references:
        broken = reference_mismatches(ref, model)
        if broken == []:
            applicable.append(ref)
        elif broken and len(broken) < nearest.get(ref.example, (math.inf, ""))[0]:
            nearest[ref.example] = (len(broken), f"{ref.title}: not shown, {broken[0]}")
    shown = {ref.example for ref in applicable}
    return applicable, [note for example, (_n, note) in nearest.items() if example not in shown]
