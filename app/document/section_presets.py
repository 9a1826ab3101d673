"""A section turned into another shape: the starting values when the user picks a new section kind.

Plain Python, no Qt, no mechanics of its own: shapes take the old section's outer
size (a 6 mm rod becomes a 6 mm square, a 6 mm tube with a 4.8 mm bore); "area"
and "per_length" take the old section's properties as the solver computes them
(:func:`solver.system.compile.section_properties`), so the link keeps its stiffness and mass.

>>> doc = {"materials": [{"id": "steel", "E": 2e11, "density": 7800.0}]}
>>> convert_section(doc, {"kind": "circle", "material": "steel", "d": 0.006}, "rectangle")
{'kind': 'rectangle', 'material': 'steel', 'b': 0.006, 'h': 0.006}
"""
from __future__ import annotations

import math

#: inner diameter of a tube made from a solid shape, as a fraction of the outer one
TUBE_BORE = 0.8
#: outer size when the old section gives none, m
DEFAULT_SIZE = 0.01


def _size(section: dict) -> float:
    """The old section's outer size (diameter or height), m."""
    for key in ("d", "h", "d_outer"):
        if key in section:
            return section[key]
    if "c" in section:
        return 2.0 * section["c"]
    if "A" in section:
        return math.sqrt(section["A"])
    return DEFAULT_SIZE


def _round(value: float) -> float:
    return float(f"{value:.12g}")


def convert_section(doc: dict, section: dict, kind: str) -> dict:
    """``section`` as a section of ``kind``, keeping its material, size or properties."""
    materials = {m["id"]: m for m in doc.get("materials", [])}
    material = section.get("material") or next(iter(materials), None)
    size = _size(section)
    out: dict = {"kind": kind}
    if kind != "per_length" and material is not None:
        out["material"] = material
    if kind == "circle":
        out["d"] = size
    elif kind == "rectangle":
        out.update(b=size, h=size)
    elif kind == "tube":
        out.update(d_outer=size, d_inner=_round(TUBE_BORE * size))
    else:
        known = section.get("kind") == "per_length" or section.get("material") in materials
        if not known:
            return out  # nothing to take the properties from: the user fills them in
        from solver.system.compile import section_properties  # deferred: the compiler loads the numeric kernels

        EA, EI, rhoA, rhoI, c = section_properties(section, materials)
        if kind == "area":
            if material is None:
                return out
            E = materials[material]["E"]
            out.update(A=_round(EA / E), I=_round(EI / E))
        else:
            out.update(EA=_round(EA), EI=_round(EI), rhoA=_round(rhoA), rhoI=_round(rhoI))
        if not math.isnan(c):
            out["c"] = _round(c)
    return out
