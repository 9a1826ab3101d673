"""Plot presets: the thesis-style sets of plots that apply to a run.

No Qt here.  The series themselves — :class:`Series`, :func:`catalogue`,
:func:`x_axes`, :func:`series_xy` — are the solver's (:mod:`solver.results.series`,
also read by sweeps and reference curves) and are re-exported from here for the views.
"""
from __future__ import annotations

from typing import NamedTuple

from solver.results.frames import Results
from solver.results.series import (NODE_QUANTITIES, STRAIN_KINDS, UNIT_SUFFIX, Series, catalogue, driver_units,
                                   outer_fibre_strain, series_xy, x_axes)

__all__ = ["NODE_QUANTITIES", "STRAIN_KINDS", "UNIT_SUFFIX", "Series", "catalogue", "outer_fibre_strain",
           "series_xy", "x_axes", "Panel", "presets", "default_preset"]


class Panel(NamedTuple):
    """One plot of a preset: its abscissa key and the series keys drawn."""

    x: str
    series: tuple[str, ...]


# ------------------------------------------------------------------ presets
def presets(results: Results) -> dict[str, list[Panel]]:
    """Thesis-style plot sets that apply to ``results``, by name; the first is the
    default (:func:`default_preset`).

    * contact normal and tangential force against time, one plot per pair (bar-mass
      and rod impacts, ch. 3-4); an impulse-model pair's force is its impulses averaged
      over its force window, and says so in its name,
    * the impulses of each pair against time, as stems at their instants (an impact's force
      is an impulse); before the forces when a pair is of the impulse model (momentum
      balance, ch. 3), so that its impulses are what a run shows first,
    * mid-span deflection / length of each flexible link against the first driver's
      angle in degrees (the flexible slider-crank and four-bar of thesis ch. 2), first
      when the model has no contact pair (a run with one shows its contacts first),
    * eccentricity and penetration of each clearance joint (and each pair of a round point
      in a circle) against time (Flores et al. 2006 eq. 18),
    * the energy ledger and its balance against time,
    * driver torque against its angle (degrees),
    * outer-fibre strain at the middle station of each flexible link's middle element
      against time,
    * the coordinates and the strain energy of each modal link's modes against time.
    """
    layout = results.layout
    out: dict[str, list[Panel]] = {}
    if layout.contacts:
        forces = [Panel("time", (f"contact/{c}/F_n", f"contact/{c}/F_t")) for c in layout.contacts]
        impulses = [Panel("time", (f"contact/{c}/I_n", f"contact/{c}/I_t")) for c in layout.contacts]
        if layout.force_windows:  # an impulse-model pair: its impulses are what it computes
            out["contact impulses vs time"], out["contact forces vs time"] = impulses, forces
        else:
            out["contact forces vs time"], out["contact impulses vs time"] = forces, impulses
    if layout.flexible_links and layout.drivers:
        x = _angle_axis(results, layout.drivers[0])
        out["mid-span deflection vs driver angle"] = [
            Panel(x, (f"midspan/{link}",)) for link in layout.flexible_links]
    journals = [c for c in layout.contacts if f"contact/{c}/eccentricity" in catalogue(results)]
    if journals:
        out["clearance joints"] = [Panel("time", (f"contact/{c}/eccentricity", f"contact/{c}/penetration"))
                                   for c in journals]
    if layout.flexible_links and not layout.drivers:
        out["mid-span deflection vs time"] = [Panel("time", tuple(f"midspan/{k}" for k in layout.flexible_links))]
    # every term the run books (the standard ones, then its further terms: work_moving), and the total
    out["energy ledger"] = [Panel("time", tuple(k for k in catalogue(results) if k.startswith("energy/")))]
    if layout.drivers:
        out["driver torque"] = [Panel(_angle_axis(results, d), (f"driver/{d}/reaction",)) for d in layout.drivers]
    middles = _middle_elements(results)
    if middles and layout.stations:  # a run may record no element stations
        xi = layout.stations[len(layout.stations) // 2]
        out["outer-fibre strain at mid-link"] = [
            Panel("time", tuple(f"strain/{link}/{k}/{xi:g}/outer" for link, k in middles))]
    links = list(dict.fromkeys(link for link, _k in layout.modes))
    if links:
        out["modal coordinates and energy per mode"] = [
            Panel("time", tuple(f"mode/{link}/{k}/{name}" for lk, k in layout.modes if lk == link))
            for link in links for name in ("q", "strain_energy")]
    return out


def _angle_axis(results: Results, driver: str) -> str:
    """The abscissa key of ``driver``'s value: in degrees for an angle."""
    return f"driver/{driver}/angle" if driver_units(results, driver)["value"] == "rad" else f"driver/{driver}/value"


def default_preset(results: Results) -> str:
    """The name of the preset a fresh plots dock shows for ``results``."""
    return next(iter(presets(results)))


def _middle_elements(results: Results) -> list[tuple[str, int]]:
    """(link, element index) of the middle element of each flexible link."""
    counts: dict[str, int] = {}
    for link, k, _, _ in results.layout.elements:
        counts[link] = max(counts.get(link, 0), k + 1)
    return [(link, n // 2) for link, n in counts.items()]
