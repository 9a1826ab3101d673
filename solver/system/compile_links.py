"""Flexible and rigid links (:mod:`.registry`): a flexible link's mesh -- inner nodes, corotational
beam elements (thesis ch. 2) with the section at each element's mid-point, one rotation per node
(thesis §2.4 f) and its thermal and creep strains; a rigid link is a rigid body through its
nodes, its mass ``rhoA L`` unless given (kg) and its inertia ``m L^2 / 12`` unless given (kg m^2)."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .builder import Compilation
from .free_strains import links_free_strains
from .registry import Phase, compiler
from .sections import section_at


@dataclass
class FlexLink:
    id: str
    elements: np.ndarray  # element indices, first node to last
    length: float


@compiler(Phase.MESH)
def flexible_links(c: Compilation) -> None:
    free_by_link = links_free_strains(c.doc)
    materials = c.materials
    for link in c.doc["links"]:
        if link["kind"] != "flexible":
            continue
        first = len(c.beam_rows)
        names = _mesh(c, link, materials)
        elements = np.arange(first, len(c.beam_rows))
        (x1, y1), (x2, y2) = c.b.xy[names[0]], c.b.xy[names[-1]]
        c.flex.append(FlexLink(link["id"], elements, math.hypot(x2 - x1, y2 - y1)))
        if link["id"] in free_by_link:
            c.free.links.append(replace(free_by_link[link["id"]], elements=elements))
        for name in names:
            c.b.rotation_slot(name, link["id"])


def _mesh(c: Compilation, link: dict, materials: dict) -> list[str]:
    """Add the inner nodes and the elements of a flexible link; its node names, first to last."""
    b = c.b
    n1, n2 = link["nodes"]
    p1, p2 = b.xy[n1], b.xy[n2]
    mesh = link["mesh"]
    st = mesh["stations"] if mesh["kind"] == "stations" else list(np.linspace(0, 1, mesh["elements"] + 1))
    names = [n1] + [f"{link['id']}.{k}" for k in range(1, len(st) - 1)] + [n2]
    for name, s in zip(names[1:-1], st[1:-1]):
        b.add_node(name, p1[0] + s * (p2[0] - p1[0]), p1[1] + s * (p2[1] - p1[1]))
    for k in range(len(names) - 1):
        a, z = names[k], names[k + 1]
        (xa, ya), (xz, yz) = b.xy[a], b.xy[z]
        L = math.hypot(xz - xa, yz - ya)
        sec = section_at(link["section"], materials, 0.5 * (st[k] + st[k + 1]))  # at the mid-point
        c.beam_rows.append((L, math.atan2(yz - ya, xz - xa), sec.EA, sec.EI, sec.rhoA, sec.rhoI))
        c.fibres.append(sec.c)
        c.shear_rigidity.append(sec.kGA)
        b.elem_nodes.append((link["id"], k, a, z))
    return names


@compiler(Phase.BODIES, 0)
def rigid_links(c: Compilation) -> None:
    materials = c.materials
    for link in c.doc["links"]:
        if link["kind"] == "rigid":
            c.b.add_rigid_link(link, materials)
