"""The scalars a sweep records of each run, from the in-memory
:class:`~solver.results.frames.Results` and its :func:`~solver.results.summary.summarize`.

Standard columns (units in the names; ``<c>`` a contact pair, ``<l>`` a flexible link,
``<d>`` a driver):

* ``status`` (``completed`` / ``failed``), ``message``, ``steps``;
* ``contact.<c>.peak_F_n_N``, ``contact.<c>.peak_F_t_N`` — largest |force| over the frames; for
  an impulse-model pair ``contact.<c>.peak_averaged_F_n_N``, ``…peak_averaged_F_t_N`` — of its
  impulses averaged over ``contact.<c>.force_window_s`` (it computes impulses, not forces);
* ``contact.<c>.impulses`` and ``contact.<c>.impulses_<type>`` for each Routh type;
  ``contact.<c>.first_type``, ``contact.<c>.first_I_n_N_s``, ``contact.<c>.first_I_t_N_s``
  of the first impulse and ``contact.<c>.total_I_n_N_s`` of all;
* ``dissipated_friction_J``, ``dissipated_restitution_J``, ``dissipated_damping_J`` at the end;
* ``link.<l>.peak_axial_strain``, ``link.<l>.peak_bending_strain``,
  ``link.<l>.peak_midspan_deflection_rel`` (largest magnitudes);
* ``driver.<d>.peak_reaction`` (N m or N).

``--collect`` adds any other quantity, named either

* ``REDUCTION(SERIES)`` with REDUCTION one of :data:`REDUCTIONS` and SERIES a key of
  :func:`solver.results.series.catalogue` (``max(contact/tip/F_n)``,
  ``final(node/A/vx)``, ``absmax(strain/rod/3/0.5/outer)``), or
* a path into the run's ``summary.json`` (``energy.total.max_abs_drift_rel``,
  ``contacts.tip.periods[0].duration_s``, ``run.newton_iterations_total``).
"""
from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from ..contact.routh import KINDS
from ..results.frames import Layout, Results
from ..results.series import UNIT_SUFFIX, catalogue, series_values
from ..results.summary import summarize
from ..results.tables import contact_keys, contact_values, jsonable

REDUCTIONS: dict[str, Callable[[np.ndarray], float]] = {
    "max": lambda y: float(np.nanmax(y)),
    "min": lambda y: float(np.nanmin(y)),
    "absmax": lambda y: float(np.nanmax(np.abs(y))),
    "mean": lambda y: float(np.nanmean(y)),
    "rms": lambda y: float(np.sqrt(np.nanmean(y * y))),
    "initial": lambda y: float(y[0]),
    "final": lambda y: float(y[-1]),
}

#: top-level sections of summary.json a collected path may start with
SUMMARY_SECTIONS = ("run", "links", "drivers", "contacts", "energy")

_CALL = re.compile(r"^\s*(\w+)\s*\(\s*(.+?)\s*\)\s*$")
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def run_scalars(results: Results, collect: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    """The standard scalars of a run (module docstring) and the ``collect`` quantities."""
    summary = summarize(results)
    meta = results.meta
    row: dict[str, Any] = {"status": meta.get("status"), "message": meta.get("message", ""),
                           "steps": len(results.steps)}
    held = contact_values(results.frames, [k for k in ("F_n_N", "F_t_N") if k in contact_keys(results)])
    forces = {key: held.get(key, np.full((len(results.frames), len(results.layout.contacts)), np.nan))
              for key in ("F_n_N", "F_t_N")}
    for j, c in enumerate(results.layout.contacts):
        window = results.layout.force_windows.get(c)  # an impulse-model pair's force is an average
        for key, values in forces.items():
            name = f"peak_{key}" if window is None else f"peak_averaged_{key}"
            row[f"contact.{c}.{name}"] = _absmax(values[:, j]) if len(values) else None
        if window is not None:
            row[f"contact.{c}.force_window_s"] = window
        impulses = [e for e in results.events if e.get("contact") == c and e.get("kind") == "impulse"]
        row[f"contact.{c}.impulses"] = len(impulses)
        for kind in KINDS:
            row[f"contact.{c}.impulses_{kind}"] = sum(1 for e in impulses if e.get("type") == kind)
        first = jsonable(impulses[0]) if impulses else {}  # the event as the solver made it: numpy values, nan
        row[f"contact.{c}.first_type"] = first.get("type")
        row[f"contact.{c}.first_I_n_N_s"] = first.get("I_n_N_s")
        row[f"contact.{c}.first_I_t_N_s"] = first.get("I_t_N_s")
        row[f"contact.{c}.total_I_n_N_s"] = jsonable(float(sum(e["I_n_N_s"] for e in impulses)))
    terms = summary["energy"]["terms"]
    for term in ("friction", "restitution", "damping"):
        row[f"dissipated_{term}_J"] = terms.get(f"dissipated_{term}", {}).get("final_J")
    for link, peaks in summary["links"].items():
        for name in ("axial_strain", "bending_strain", "midspan_deflection_rel"):
            peak = peaks.get(f"peak_{name}")
            row[f"link.{link}.peak_{name}"] = peak["abs"] if peak else None
    for driver, entry in summary["drivers"].items():
        row[f"driver.{driver}.peak_reaction"] = entry["peak_reaction"]["abs"] if entry["peak_reaction"] else None
    for name in collect:
        row[name] = collected_value(results, summary, name)
    return row


def column_unit(name: str) -> str:
    """The unit a sweep column's name ends with (:data:`~solver.results.series.UNIT_SUFFIX`),
    ``-`` (a pure number) when it names none: a varied field's path, a count, a strain.

    >>> column_unit("contact.tip.peak_F_n_N"), column_unit("contact.tip.first_I_n_N_s"), column_unit("contacts.tip.e")
    ('N', 'N s', '-')
    """
    units = {suffix: unit for unit, suffix in {**UNIT_SUFFIX, "N s": "N_s"}.items() if suffix}
    ends = [suffix for suffix in units if name.endswith("_" + suffix)]
    return units[max(ends, key=len)] if ends else "-"


def _absmax(values: np.ndarray) -> float | None:
    return float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else None


def collected_value(results: Results, summary: dict, name: str) -> Any:
    """The value of a ``--collect`` quantity in a run (``None`` when the run lacks it)."""
    call = _CALL.match(name)
    if call:
        series = catalogue(results).get(call.group(2))
        if series is None or not results.frames:
            return None
        y = series_values(results.frames, series)
        return REDUCTIONS[call.group(1)](y) if np.isfinite(y).any() else None
    node: Any = summary
    for key, index in _STEP.findall(name):
        if index:
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
        else:
            node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, (int, float, str, bool)) or node is None else None


def collect_problems(names: tuple[str, ...] | list[str], model: dict, layout: Layout) -> list[str]:
    """What is wrong with the ``collect`` names for a model whose runs have ``layout``,
    checked before anything runs (each line names the quantity)."""
    series = catalogue(Results(model, layout))
    sections = {"links": layout.flexible_links, "drivers": layout.drivers, "contacts": layout.contacts}
    out = []
    for name in names:
        call = _CALL.match(name)
        if call:
            if call.group(1) not in REDUCTIONS:
                out.append(f"collect {name}: unknown reduction '{call.group(1)}' (one of {', '.join(REDUCTIONS)})")
            elif call.group(2) not in series:
                out.append(f"collect {name}: the runs have no series '{call.group(2)}'")
            continue
        steps = [key for key, _index in _STEP.findall(name)]
        if not steps or steps[0] not in SUMMARY_SECTIONS:
            out.append(f"collect {name}: write REDUCTION(SERIES) or a summary path starting with "
                       + " | ".join(SUMMARY_SECTIONS))
        elif steps[0] in sections and (len(steps) < 2 or steps[1] not in sections[steps[0]]):
            known = ", ".join(sections[steps[0]]) or "none"
            out.append(f"collect {name}: no {steps[0][:-1]} '{steps[1] if len(steps) > 1 else ''}' (the runs have: {known})")
        elif steps[0] == "contacts" and len(steps) > 3 and steps[2] == "impulses":
            out.append(f"collect {name}: contacts.{steps[1]}.impulses is the number of impulses (the events are "
                       f"not copied into a contact's summary); the first impulse is in the columns "
                       f"contact.{steps[1]}.first_type, first_I_n_N_s, first_I_t_N_s")
    return out
