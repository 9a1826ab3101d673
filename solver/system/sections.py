"""Section properties per unit length from a model's section, along a tapered link too.

A section gives a shape and a material (or the properties directly); a tapered one
gives, beside any dimension ``x``, its value ``x_end`` at the link's second node, and
every dimension varies linearly along the link (:func:`section_at` at a fraction ``s``
of the length; the elements of a flexible link take the section at their mid-points).
A shear-flexible section (``shear``) adds the shear rigidity ``k G A``: ``G`` is the
material's ``shear_modulus`` or ``E / (2 (1 + nu))``, ``k`` the section's
``shear_coefficient`` or Cowper's (J. Appl. Mech. 33, 1966, table 1) for its shape.

>>> steel = {"steel": {"E": 2e11, "density": 7800.0, "poisson": 0.3}}
>>> sec = {"kind": "rectangle", "material": "steel", "b": 0.01, "h": 0.02, "h_end": 0.01}
>>> round(section_at(sec, steel, 0.5).EI / section_at(sec, steel, 0.0).EI, 6)  # h 15 mm: (15/20)^3
0.421875
"""
from __future__ import annotations

import math
from typing import NamedTuple


class SectionValues(NamedTuple):
    """Per-length properties: EA (N), EI (N m^2), rhoA (kg/m), rhoI (kg m), outer-fibre
    distance c (m, nan if unknown), shear rigidity kGA (N, inf without shear)."""

    EA: float
    EI: float
    rhoA: float
    rhoI: float
    c: float
    kGA: float


def dimensions_at(section: dict, s: float) -> dict:
    """The section with each number ``x`` that has an ``x_end`` interpolated at fraction ``s``
    (0: first node, 1: second node) and the ``_end`` fields removed."""
    out = {k: v for k, v in section.items() if not k.endswith("_end")}
    for key, value in section.items():
        if key.endswith("_end"):
            base = key[: -len("_end")]
            out[base] = section[base] + s * (value - section[base])
    return out


def is_tapered(section: dict) -> bool:
    """Whether any dimension of the section changes along the link."""
    return any(k.endswith("_end") for k in section)


def cowper_coefficient(section: dict, nu: float) -> float:
    """Cowper's shear coefficient of a rectangle, circle or tube for Poisson's ratio ``nu``."""
    if section["kind"] == "rectangle":
        return 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu)
    m = section["d_inner"] / section["d_outer"] if section["kind"] == "tube" else 0.0
    m2 = (1.0 + m * m) ** 2
    return 6.0 * (1.0 + nu) * m2 / ((7.0 + 6.0 * nu) * m2 + (20.0 + 12.0 * nu) * m * m)


def section_at(section: dict, materials: dict, s: float = 0.0) -> SectionValues:
    """:class:`SectionValues` of a section (defaults filled in) at fraction ``s`` of the link."""
    sec = dimensions_at(section, s)
    kind = sec["kind"]
    shear = sec.get("shear", False)
    if kind == "per_length":
        kGA = sec["kGA"] if shear else math.inf
        return SectionValues(sec["EA"], sec["EI"], sec["rhoA"], sec.get("rhoI", 0.0), sec.get("c", math.nan), kGA)
    mat = materials[sec["material"]]
    if kind == "circle":
        d = sec["d"]
        A, I, c = math.pi * d * d / 4, math.pi * d**4 / 64, d / 2
    elif kind == "rectangle":
        A, I, c = sec["b"] * sec["h"], sec["b"] * sec["h"] ** 3 / 12, sec["h"] / 2
    elif kind == "tube":
        do, di = sec["d_outer"], sec["d_inner"]
        A, I, c = math.pi * (do * do - di * di) / 4, math.pi * (do**4 - di**4) / 64, do / 2
    else:  # area
        A, I, c = sec["A"], sec["I"], sec.get("c", math.nan)
    kGA = math.inf
    if shear:
        nu = mat.get("poisson", 0.3)
        G = mat.get("shear_modulus", mat["E"] / (2.0 * (1.0 + nu)))
        k = sec["shear_coefficient"] if "shear_coefficient" in sec else cowper_coefficient(sec, nu)
        kGA = k * G * A
    return SectionValues(mat["E"] * A, mat["E"] * I, mat["density"] * A, mat["density"] * I, c, kGA)


def section_properties(section: dict, materials: dict) -> tuple[float, float, float, float, float]:
    """``(EA, EI, rhoA, rhoI, c)`` of a section at its first node (SI); ``c`` is nan when unknown."""
    return tuple(section_at(section, materials)[:5])
