"""The scalar results of a run (``summary.json``): run metadata, per-link peaks,
per-driver peak reactions, contact periods and impulses, the configurations of the sliders of
translational clearance joints, the energy balance, and the layout of the frames.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..model.io import dumps_model, model_with_defaults
from ..model.translational_rules import corner_pair_ids, translational_joints
from .frames import Layout, Results, energy_matrix, energy_total, frame_energies
from .slider_configurations import CONFIGURATIONS, configuration_periods, configurations
from .tables import (DRIVER_UNITS, FORMAT, VERSION, contact_keys, contact_values, element_offsets, energy_keys,
                     jsonable, sha256, stack_field)

#: values of a field read at a time to find its peaks
CHUNK_VALUES = 1 << 19


# ====================================================================== summary
def summarize(results: Results, strains: StrainPeaks | None = None) -> dict[str, Any]:
    """The scalar results of a run: the content of ``summary.json`` but its ``files``.

    Parameters
    ----------
    results : Results
        The run's results.
    strains : StrainPeaks, optional
        The links' strain peaks over all its frames, if already gathered (else read from the frames).

    Returns
    -------
    dict
        Run metadata, per-link peaks, per-driver peak reaction, per-contact periods and
        impulses, energy balance, event log, layout, frame keys, ``meta``: JSON-ready but the
        event log, which is the run's own list (:func:`~solver.results.streaming.summary_text`
        writes it as JSON: most events need no conversion, and a run may have thousands).
    """
    times = results.time.astype(float)
    summary = jsonable(
        {
            "format": FORMAT,
            "version": VERSION,
            "run": _run_summary(results, times),
            "links": link_summary(results, times, strains),
            "drivers": _driver_summary(results, times),
            "contacts": _contact_summary(results, times),
            "sliders": _slider_summary(results, times),
            "energy": energy_summary(results),
            "events": [],
            "layout": layout_to_json(results.layout),
            "frame_keys": {"energy": energy_keys(results), "contact": contact_keys(results)},
            "meta": results.meta,
        }
    )
    summary["events"] = results.events
    return summary


def _run_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    meta = results.meta
    iterations = np.array([s.newton_iterations for s in results.steps], dtype=int)
    return {
        "status": meta.get("status"),
        "message": meta.get("message", ""),
        "wall_time_s": meta.get("wall_time_s"),
        "model_sha256": meta["model_sha256"] if "model_sha256" in meta else sha256(dumps_model(results.model)),
        "solver": meta["solver"] if "solver" in meta else model_with_defaults(results.model).get("solver", {}),
        "frame_count": len(times),
        "t_start_s": times[0] if len(times) else None,
        "t_end_s": times[-1] if len(times) else None,
        "step_count": len(iterations),
        "newton_iterations_total": int(iterations.sum()),
        "newton_iterations_mean": iterations.mean() if len(iterations) else None,
    }


def _peak(values: np.ndarray, times: np.ndarray) -> tuple[dict[str, float] | None, tuple[int, ...]]:
    """The largest |value| of ``values`` (F, ...), its signed value and time; and its index (the
    first of equal magnitudes in C order).  Without nan, from the largest and the smallest value:
    no array of magnitudes is made (a run's strains are read in chunks of 4 MB)."""
    if values.size == 0:
        return None, ()
    ends = [np.unravel_index(int(arg(values)), values.shape) for arg in (np.argmax, np.argmin)]  # the first nan if any
    high, low = (values[i] for i in ends)
    if np.isnan(high) or np.isnan(low):
        magnitude = np.abs(values)
        if np.isnan(magnitude).all():
            return None, ()
        i = np.unravel_index(int(np.nanargmax(magnitude)), values.shape)
    elif abs(high) != abs(low):
        i = ends[0] if abs(high) > abs(low) else ends[1]
    else:
        i = min(ends)  # tuples of indices: the first in C order
    return {"abs": abs(values[i]), "value": values[i], "time_s": times[i[0]]}, i


class StrainPeaks:
    """The largest |axial strain| and |bending strain| of each flexible link of ``layout`` over
    frames added a chunk at a time (:meth:`add`; the first of equal peaks, whatever the chunks):
    what :func:`link_summary` reads, which a streamed run gathers as it writes its elements
    (:mod:`.streaming`: no file read back)."""

    def __init__(self, layout):
        self.shape = (len(layout.elements), len(layout.stations))
        self.elements = {link: _indices([e for e, (lk, *_) in enumerate(layout.elements) if lk == link])
                         for link in layout.flexible_links}
        #: (link, field) -> (peak, its index in its chunk)
        self.peaks: dict[tuple[str, str], tuple[dict, tuple[int, ...]]] = {}

    def add(self, frames, start: int, stop: int, times: np.ndarray) -> None:
        """Frames ``start`` to ``stop`` of ``frames``, at ``times`` (s)."""
        for name in ("axial_strain", "bending_strain"):
            chunk = stack_field(frames, name, self.shape, start, stop)
            for link, chosen in self.elements.items():
                peak, index = _peak(chunk[:, chosen, :], times)
                best = self.peaks.get((link, name))
                if peak is not None and (best is None or peak["abs"] > best[0]["abs"]):  # the first of equal peaks
                    self.peaks[(link, name)] = peak, index


def link_summary(results: Results, times: np.ndarray, strains: StrainPeaks | None = None) -> dict[str, Any]:
    """Per flexible link: peak |mid-span deflection / length|, |axial strain|, |bending strain|.

    The strains are read :data:`CHUNK_VALUES` values at a time (a run's frames may not fit in
    memory), unless ``strains`` holds their peaks already."""
    layout, frames = results.layout, results.frames
    if not layout.flexible_links:  # a rigid mechanism: no field to read
        return {}
    midspan = stack_field(frames, "midspan", (len(layout.flexible_links),))
    if strains is None:
        strains = StrainPeaks(layout)
        size = max(1, CHUNK_VALUES // max(strains.shape[0] * strains.shape[1], 1))
        for start in range(0, len(times), size):
            strains.add(frames, start, start + size, times[start:start + size])
    s0 = element_offsets(layout)
    out = {}
    for j, link in enumerate(layout.flexible_links):
        entry = {"peak_midspan_deflection_rel": _peak(midspan[:, j], times)[0]}
        for name in ("axial_strain", "bending_strain"):
            peak, index = strains.peaks.get((link, name)) or (None, ())
            if peak is not None:
                peak = dict(peak)
                e, xi = _element_at(strains.elements[link], index[1]), layout.stations[index[2]]
                peak.update(element=layout.elements[e][1], station=xi, s_m=s0[e] + xi * layout.element_length[e])
            entry["peak_" + name] = peak
        out[link] = entry
    return out


def _element_at(chosen: slice | list[int], k: int) -> int:
    """The ``k``-th of a link's elements ``chosen`` (:func:`_indices`)."""
    return chosen.start + k if isinstance(chosen, slice) else chosen[k]


def _indices(chosen: list[int]) -> slice | list[int]:
    """``chosen`` as a slice when consecutive (a link's elements mostly are: a view, not a copy)."""
    if chosen and chosen == list(range(chosen[0], chosen[-1] + 1)):
        return slice(chosen[0], chosen[-1] + 1)
    return chosen


def _driver_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per driver: its kind, the units of its columns and its peak |reaction|."""
    if not results.layout.drivers:
        return {}
    kinds = {d.get("id"): d.get("kind") for d in results.model.get("drivers", [])}
    reaction = stack_field(results.frames, "driver_reaction", (len(results.layout.drivers),))
    return {
        d: {
            "kind": kinds.get(d),
            "units": DRIVER_UNITS.get(kinds.get(d)),
            "peak_reaction": _peak(reaction[:, j], times)[0],
        }
        for j, d in enumerate(results.layout.drivers)
    }


def _contact_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per contact pair: its contact periods, the number of its impulses (events of kind
    ``impulse``, which ``events`` holds) and their sums, N s."""
    keys = [k for k in ("state", "F_n_N", "gap_m") if k in contact_keys(results)]  # what the periods need
    stacked = contact_values(results.frames, keys)
    out = {}
    for j, contact in enumerate(results.layout.contacts):
        if "state" in stacked:
            closed = stacked["state"][:, j] != 0
        elif "F_n_N" in stacked:
            closed = stacked["F_n_N"][:, j] > 0
        elif "gap_m" in stacked:
            closed = stacked["gap_m"][:, j] <= 0
        else:
            closed = np.zeros(len(times), dtype=bool)
        force = stacked["F_n_N"][:, j].astype(float) if "F_n_N" in stacked else None
        impulses = [e for e in results.events if e.get("contact") == contact and e.get("kind") == "impulse"]
        out[contact] = {
            "periods": _periods(times, closed, force, results.layout.force_windows.get(contact)),
            "impulses": len(impulses),
            "normal_impulse_N_s": sum(e.get("I_n_N_s") or 0.0 for e in impulses),  # inf or nan if one is
            "tangential_impulse_N_s": sum(e.get("I_t_N_s") or 0.0 for e in impulses),
        }
    return out


def _slider_summary(results: Results, times: np.ndarray) -> dict[str, Any]:
    """Per translational clearance joint whose four corners are recorded: its configurations in
    turn (:mod:`.slider_configurations`) and the time spent in each, s (frame to frame)."""
    index = {pair: c for c, pair in enumerate(results.layout.contacts)}
    gaps = contact_values(results.frames, ["gap_m"])["gap_m"] if "gap_m" in contact_keys(results) else None
    out = {}
    for joint in translational_joints(results.model or {}):
        corners = [index.get(pair) for pair in corner_pair_ids(joint)]
        if gaps is None or None in corners or not len(times):
            continue
        codes = configurations(gaps[:, corners])
        spent = np.bincount(codes[:-1], weights=np.diff(times), minlength=len(CONFIGURATIONS))
        out[joint["id"]] = {"periods": configuration_periods(times, codes),
                            "time_s": dict(zip(CONFIGURATIONS, spent.tolist()))}
    return out


def _periods(times: np.ndarray, closed: np.ndarray, force: np.ndarray | None,
             window: float | None = None) -> list[dict[str, Any]]:
    """Runs of consecutive frames in contact: start, end, duration (s), peak normal force (N).

    An impulse-model pair (``window``, s, its force window) has no force: its peak is that of its
    impulses averaged over the window, ``peak_averaged_normal_force_N``, beside ``force_window_s``."""
    edges = np.diff(np.concatenate([[0], closed.astype(int), [0]]))
    name = "peak_normal_force_N" if window is None else "peak_averaged_normal_force_N"
    periods = []
    for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
        peak = _peak(force[a:b], times[a:b])[0] if force is not None else None
        period = {
            "start_s": times[a],
            "end_s": times[b - 1],
            "duration_s": times[b - 1] - times[a],
            "frames": int(b - a),
            name: peak["value"] if peak else None,
            "peak_time_s": peak["time_s"] if peak else None,
            "ongoing_at_end": bool(b == len(times)),
        }
        if window is not None:
            period["force_window_s"] = window
        periods.append(period)
    return periods


def energy_summary(results: Results) -> dict[str, Any]:
    """Initial and final value of each energy term; the total's drift."""
    if not results.frames:
        return {"terms": {}, "total": None}
    energies = frame_energies(results.frames)
    first, last = energies[0], energies[-1]
    total = energy_total(energies)
    drift = np.abs(total - total[0])
    scale = energy_in_play(energies)
    return {
        "terms": {k: {"initial_J": first[k], "final_J": last[k]} for k in first},
        "total": {
            "initial_J": total[0],
            "final_J": total[-1],
            "drift_J": total[-1] - total[0],
            "max_abs_drift_J": drift.max(),
            "scale_J": scale,
            "max_abs_drift_rel": drift.max() / scale if scale > 0 else None,
        },
    }


def energy_in_play(energies: list[dict[str, float]]) -> float:
    """The largest kinetic and strain energy of frames' ``energies``, J (the balance's scale)."""
    kinetic_strain = energy_matrix(energies, ("kinetic", "strain"), 0.0)
    return float(np.max(kinetic_strain[:, 0] + kinetic_strain[:, 1]))


def layout_to_json(layout: Layout) -> dict[str, Any]:
    out = {
        "nodes": layout.nodes,
        "rotations": layout.rotations,
        "elements": layout.elements,
        "element_length_m": layout.element_length,
        "outer_fibre_m": layout.outer_fibre,
        "stations": layout.stations,
        "flexible_links": layout.flexible_links,
        "drivers": layout.drivers,
        "contacts": layout.contacts,
        "modes": layout.modes,
        "mode_frequency_Hz": layout.mode_frequency,
        "moving": layout.moving,
        "rates": layout.rates,
    }
    if layout.unrecorded_links:  # a run that records every link (most) writes no such key
        out["unrecorded_links"] = {link: {"nodes": nodes, "fractions": fractions}
                                   for link, (nodes, fractions) in layout.unrecorded_links.items()}
    if layout.force_windows:  # impulse-model pairs only
        out["force_window_s"] = layout.force_windows
    return out


def layout_from_json(doc: dict[str, Any]) -> Layout:
    return Layout(
        nodes=list(doc["nodes"]),
        rotations=[(n, link) for n, link in doc["rotations"]],
        elements=[(link, int(k), n1, n2) for link, k, n1, n2 in doc["elements"]],
        element_length=np.array(doc["element_length_m"], dtype=float).reshape(-1),
        outer_fibre=np.array(doc["outer_fibre_m"], dtype=float).reshape(-1),
        flexible_links=list(doc["flexible_links"]),
        drivers=list(doc["drivers"]),
        contacts=list(doc["contacts"]),
        stations=tuple(float(s) for s in doc["stations"]),
        modes=[(link, int(k)) for link, k in doc.get("modes", [])],
        mode_frequency=np.array(doc.get("mode_frequency_Hz", []), dtype=float).reshape(-1),
        moving=list(doc.get("moving", [])),
        rates=bool(doc.get("rates", True)),
        unrecorded_links={link: (list(chain["nodes"]), [float(x) for x in chain["fractions"]])
                          for link, chain in doc.get("unrecorded_links", {}).items()},
        force_windows={pair: float(w) for pair, w in doc.get("force_window_s", {}).items()},
    )
