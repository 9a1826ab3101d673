"""Free (thermal and creep) strains of the flexible links' elements at a time.

A flexible link whose ``free_strains`` give a temperature change ``dT f_T(t)``, a through-depth gradient
``dT' f_T(t)`` and a creep strain ``eps_c f_c(t)`` (Amirouche & Xie eq. 11) has, in each
element, the free mean axial strain and curvature

    eps0(t) = alpha dT f_T(t) + eps_c f_c(t),        kappa0(t) = alpha dT' f_T(t),

``alpha`` its material's expansion coefficient (1/K).  Only the strain beyond the free
one is elastic (:func:`solver.fem.beam.local_forces`): a free link takes the free
strains without force or strain energy.  :meth:`FreeStrains.write` puts them into the
columns ``eps0, kappa0`` of the kernels' section array.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..model.timefn import TimeFunction

#: columns of the free mean axial strain and curvature in :meth:`solver.fem.beam.BeamSet.sections`
EPS0, KAPPA0 = 7, 8


@dataclass
class LinkStrains:
    """One link's free strains: amplitudes per element and their time functions."""

    elements: np.ndarray  # element indices
    thermal_strain: np.ndarray  # alpha dT per element, times f_T(t)
    thermal_curvature: np.ndarray  # alpha dT' per element, 1/m, times f_T(t)
    creep_strain: float  # eps_c, times f_c(t)
    temperature: TimeFunction
    creep: TimeFunction

    def at(self, t: float, rate: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``(eps0, kappa0)`` of the link's elements at ``t`` (their rates with ``rate``)."""
        fT, fc = (self.temperature.rate(t), self.creep.rate(t)) if rate else \
            (self.temperature.value(t), self.creep.value(t))
        return self.thermal_strain * fT + self.creep_strain * fc, self.thermal_curvature * fT


@dataclass
class FreeStrains:
    """The free strains of every flexible link that has some."""

    links: list[LinkStrains] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return bool(self.links)

    def functions(self) -> list[TimeFunction]:
        return [f for lk in self.links for f in (lk.temperature, lk.creep)]

    def at(self, t: float, count: int, rate: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``(eps0, kappa0)`` of all ``count`` elements at time ``t``: the thermal and creep
        axial strain and the thermal curvature (1/m); their rates with ``rate``."""
        eps0, kappa0 = np.zeros(count), np.zeros(count)
        for lk in self.links:
            eps0[lk.elements], kappa0[lk.elements] = lk.at(t, rate)
        return eps0, kappa0

    def write(self, secs: np.ndarray, t: float) -> None:
        """Set the free-strain columns of the section array ``secs`` (:meth:`~solver.fem.beam.BeamSet.sections`) for time ``t``."""
        secs[:, EPS0], secs[:, KAPPA0] = self.at(t, secs.shape[0])


def link_strains(link: dict, alpha: float, elements: np.ndarray) -> LinkStrains | None:
    """The free strains of a flexible link (defaults filled in), None if it has none."""
    if "free_strains" not in link:
        return None
    free = link["free_strains"]
    dT, grad, creep = free["temperature_change"], free["temperature_gradient"], free["creep_strain"]
    if alpha * dT == 0.0 and alpha * grad == 0.0 and creep == 0.0:
        return None
    n = len(elements)
    return LinkStrains(np.asarray(elements), np.full(n, alpha * dT), np.full(n, alpha * grad), creep,
                       TimeFunction(free["temperature_function"]), TimeFunction(free["creep_function"]))


def links_free_strains(doc: dict) -> dict[str, LinkStrains]:
    """The free strains of each flexible link of a model (defaults filled in) that has some,
    per link (its ``elements`` count from 0 in the link): for outputs that read the model."""
    materials = {m["id"]: m for m in doc["materials"]}
    out = {}
    for link in doc["links"]:
        if link["kind"] != "flexible":
            continue
        mesh = link["mesh"]
        count = len(mesh["stations"]) - 1 if mesh["kind"] == "stations" else mesh["elements"]
        material = link["section"].get("material")
        strains = link_strains(link, materials[material]["expansion"] if material else 0.0, np.arange(count))
        if strains is not None:
            out[link["id"]] = strains
    return out
