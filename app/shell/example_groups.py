"""The bundled examples grouped by the document they reproduce and by kind, for the
Examples menu and the start page.

Plain Python, no Qt.  Everything comes from each example file's own ``name``,
``source`` and ``description`` fields: the group from the source (the seeds of
``/work/shared/seeds``: thesis ch. 2 and ch. 5, LAJSS 2024, Flores et al. 2006,
Predebon, Amirouche & Xie; the rest are checks against beam theory), the figure,
table, section or equations it reproduces from the source's first clause.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from solver.model.io import list_examples

#: ``(group title, pattern)`` in menu order; an example goes to the first group whose
#: pattern its source and name match (searched in ``"source | name"``)
GROUPS = (
    ("Thesis ch. 2: flexible mechanisms", r"Elkaranshawy 1995, section 2"),
    ("Thesis ch. 5: impacts on flexible bodies", r"Elkaranshawy 1995, sections? 5"),
    ("LAJSS 2024: rigid rod striking the ground", r"Bajaba 2024"),
    ("Flores et al. 2006: contact force laws", r"Flores.*\| Internally colliding"),
    ("Flores et al. 2006: slider-crank with a clearance joint", r"Flores"),
    ("Predebon 2020: pendulum striking a surface", r"Predebon"),
    ("Amirouche & Xie: rolling, moving loads, gear tooth", r"Amirouche"),
    ("Beam theory checks", r""),
)
#: what a source names that an example reproduces
REFERENCE = re.compile(r"sections? [\d.]+(?: and \d+)?|Example \d+|Figs?\. \d+(?:\([a-z]\))?|"
                       r"Tables? \d+(?:[-\u2013]\d+| and \d+)?|eqs?\. \d+(?:[-\u2013]\d+)?")


@dataclass(frozen=True)
class Example:
    """One bundled example as the menu and the start page list it."""

    name: str          # file stem, the key of the window's ``example_actions``
    title: str         # the model's name
    reproduces: str    # "§5.4", "Fig. 11(c), Tables 1-2"
    description: str   # the model's description (the tooltip)
    group: str

    @property
    def label(self) -> str:
        """``"Slider-crank struck by a free block (§5.4)"``."""
        return f"{self.title} ({self.reproduces})" if self.reproduces else self.title


def reproduces(source: str) -> str:
    """The section, figures, tables or equations a source names, from its first clause.

    >>> reproduces("Flores, Ambrosio, Claro & Lankarani 2006, Proc. IMechE K 220, Fig. 11(c), Tables 1-2; not")
    'Fig. 11(c), Tables 1-2'
    >>> reproduces("Elkaranshawy 1995, section 2.7, Example 2 (Simo & Vu-Quoc 1986); geometry assumed")
    '§2.7, Example 2'
    >>> reproduces("Timoshenko 1925, J. Opt. Soc. Am. 11, bimetal thermostat")
    'Timoshenko 1925'
    """
    first = source.split(";")[0]
    found = list(dict.fromkeys(REFERENCE.findall(first)))
    if not found:
        return first.split(",")[0].strip()
    return ", ".join(re.sub(r"^sections? ", "§", ref) for ref in found)


def group_of(source: str, title: str) -> str:
    """The title of the group an example with ``source`` and ``title`` belongs to."""
    text = f"{source} | {title}"
    return next(name for name, pattern in GROUPS if re.search(pattern, text))


def examples() -> list[Example]:
    """Every bundled example, in group order, by file name within a group."""
    found = []
    for name, path, description in list_examples():
        doc = _read(path)
        source, title = doc.get("source", ""), doc.get("name", name)
        found.append(Example(name, title, reproduces(source), description, group_of(source, title)))
    order = [title for title, _pattern in GROUPS]
    return sorted(found, key=lambda e: (order.index(e.group), e.name))


def grouped() -> list[tuple[str, list[Example]]]:
    """``(group title, its examples)`` in menu order, the empty groups left out."""
    out: dict[str, list[Example]] = {}
    for example in examples():
        out.setdefault(example.group, []).append(example)
    return list(out.items())


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
