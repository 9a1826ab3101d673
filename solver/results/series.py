"""What can be read from a run's frames as a time series: named :class:`Series`.

A :class:`Series` reads one number from each :class:`~solver.results.frames.Frame` (so a
plot of a growing run extends its arrays frame by frame); :func:`catalogue` lists every
series a run offers, :func:`x_axes` the quantities that can serve as an abscissa (time,
each driver's value).  The plots of the GUI, the ``--collect`` quantities of a sweep
and reference curves name series by these keys.

Keys are stable, readable strings: ``contact/<id>/F_n``, ``strain/<link>/<element>/<station>/axial``
(elastic; ``axial_free``: a heated or creeping link's free strain), ``node/<id>/vx``,
``rotation/<link>/<node>/omega``, ``driver/<id>/reaction``, ``energy/kinetic``,
``midspan/<link>``, ``mode/<link>/<k>/q`` (a modal link's coordinate, its rates and energies),
``slider/<joint>/configuration`` (a translational clearance joint's corners touching, 0 to 4),
``moving/<id>/F_n`` (a moving support's, mass's or force's force on the link; ``F_t``, ``s``, ``speed``), ``time``;
a series' CSV column (:attr:`Series.column`) is its key with dots and its unit:
``contact.striker-end.F_n_N``; an impulse-model pair's force, its impulses averaged over the
pair's window (:attr:`~solver.results.frames.Layout.force_windows`), says so in its label and
column (``contact.striker-end.F_n_avg_5ms_N``), and its impulses are marked to be drawn as
stems (:attr:`Series.impulsive`).

>>> from solver.api import load_model, simulate                      # doctest: +SKIP
>>> res = simulate(load_model("resources/examples/bar_mass_impact.json"))  # doctest: +SKIP
>>> x, y = series_xy(res.frames, x_axes(res)["time"], catalogue(res)["contact/striker-end/F_n"])  # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .frames import ENERGY_BALANCE_SIGNS, ENERGY_KEYS, RATE_FIELDS, Frame, Results, frames_reading
from ..model.io import model_with_defaults
from ..model.translational_rules import corner_pair_ids, translational_joints
from ..system.free_strains import LinkStrains, links_free_strains
from .slider_configurations import CONFIGURATIONS, configuration
from .tables import DRIVER_UNITS


#: node quantities: key suffix -> (Frame field, component, unit, relative to the first frame)
NODE_QUANTITIES = {
    "ux": ("node_xy", 0, "m", True),
    "uy": ("node_xy", 1, "m", True),
    "vx": ("node_v", 0, "m/s", False),
    "vy": ("node_v", 1, "m/s", False),
    "ax": ("node_a", 0, "m/s^2", False),
    "ay": ("node_a", 1, "m/s^2", False),
}

#: rotation series: key suffix -> (frame field, label, unit); a slot is a node and the link (or
#: rigidly joined group) that turns there, as in the ``rotations`` table
ROTATION_QUANTITIES = {
    "theta": ("rot", "rotation", "rad"),
    "omega": ("rot_v", "angular velocity", "rad/s"),
    "alpha": ("rot_a", "angular acceleration", "rad/s^2"),
}

#: strain kinds at a station: elastic axial, elastic outer-fibre bending, and the combined
#: outer-fibre strain of larger magnitude (axial +- bending, see :func:`outer_fibre_strain`)
STRAIN_KINDS = ("axial", "bending", "outer")
#: the free (thermal and creep) strains of a link that has some, beside its elastic ones:
#: axial ``alpha dT + eps_c`` and outer-fibre bending ``-c alpha dT'``, from the model
FREE_STRAIN_KINDS = ("axial_free", "bending_free")

#: CSV suffix of each unit (the results files' convention: ``vx_m_s``, ``ax_m_s2``)
#: the unit of strain series: a strain (m/m), which plots and readouts give in µε, as the
#: playback's colour bar does; the CSV columns keep plain strain, unsuffixed
STRAIN_UNIT = "ε"
UNIT_SUFFIX = {"-": "", STRAIN_UNIT: "", "s": "s", "m": "m", "m/s": "m_s", "m/s^2": "m_s2", "N": "N", "N m": "N_m",
               "J": "J", "rad": "rad", "deg": "deg", "rad/s": "rad_s"}


@dataclass(frozen=True)
class Series:
    """One plottable quantity: ``value(frame)`` in ``unit``, minus its first-frame value
    when ``relative`` (displacements)."""

    key: str
    label: str
    unit: str
    group: str
    value: Callable[[Frame], float]
    relative: bool = False
    #: the Frame arrays ``value`` reads beside time, energy and contact (None: any), so that
    #: frames read on demand read only those (:meth:`~solver.results.lazy.LazyFrames.light`)
    reads: tuple[str, ...] | None = None
    #: impulses at instants (N s per frame, the impulses since the previous frame): drawn as
    #: stems, not joined into a curve, at the instants of the event log where the pair logs them
    #: (:mod:`.impulse_instants`), else at the frames' times
    impulsive: bool = False
    #: the trailing window an averaged series is averaged over, s (an impulse-model pair's
    #: force: its impulses over the window divided by it); None for a value at an instant
    window: float | None = None

    @property
    def column(self) -> str:
        """CSV column name, unit last: ``contact.striker-end.F_n_N``; an averaged series names its
        window before the unit: ``contact.striker-end.F_n_avg_5ms_N``."""
        if self.window is None:
            return self.reference_column
        suffix = UNIT_SUFFIX.get(self.unit, self.unit.replace("/", "_").replace(" ", "_"))
        tag = "avg_" + duration_text(self.window).replace(" ", "").replace("µ", "u")
        return self.key.replace("/", ".") + "_" + tag + ("_" + suffix if suffix else "")

    @property
    def reference_column(self) -> str:
        """The column reference curves and the results files name the quantity by (its key with
        dots and its unit, no window): ``contact.striker-end.F_n_N``."""
        suffix = UNIT_SUFFIX.get(self.unit, self.unit.replace("/", "_").replace(" ", "_"))
        return self.key.replace("/", ".") + ("_" + suffix if suffix else "")

    @property
    def title(self) -> str:
        """Label with its unit, for axes and legends."""
        return self.label if self.unit == "-" else f"{self.label} ({self.unit})"


def series_xy(frames: list[Frame], x: Series, y: Series, first: Frame | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` arrays of ``y`` against ``x`` over ``frames``.

    ``first`` is the frame relative series are measured from (default: ``frames[0]``);
    pass the run's first frame when ``frames`` are a later slice of it.
    """
    return series_values(frames, x, first), series_values(frames, y, first)


def series_values(frames: list[Frame], series: Series, first: Frame | None = None) -> np.ndarray:
    """The values of ``series`` over ``frames`` (F,), reading only the arrays it reads; a relative
    series from ``first`` (default: ``frames[0]``)."""
    first = first if first is not None else (frames[0] if len(frames) else None)
    read = frames if series.reads is None else frames_reading(frames, series.reads)  # only the arrays it reads
    values = np.array([series.value(f) for f in read], dtype=float)
    if series.relative and first is not None:
        values -= series.value(first)
    return values


def outer_fibre_strain(axial: np.ndarray, bending: np.ndarray) -> np.ndarray:
    """Combined strain at the more strained outer fibre: ``axial +- bending`` of larger
    magnitude, i.e. ``sign(axial) (|axial| + |bending|)`` (thesis ch. 2 strain output)."""
    return np.where(axial < 0.0, -1.0, 1.0) * (np.abs(axial) + np.abs(bending))


# ---------------------------------------------------------------- catalogue
def x_axes(results: Results) -> dict[str, Series]:
    """Abscissae: ``time`` and each driver's value (angle in rad, or displacement in m);
    an angle also in degrees (``driver/<id>/angle``), as the thesis plots against crank angle."""
    axes = {"time": Series("time", "time", "s", "time", lambda f: f.time, reads=())}
    for j, driver in enumerate(results.layout.drivers):
        unit = driver_units(results, driver)["value"]
        axes[f"driver/{driver}/value"] = Series(
            f"driver/{driver}/value", f"{driver} {'angle' if unit == 'rad' else 'displacement'}", unit, "drivers",
            lambda f, j=j: f.driver_angle[j], reads=("driver_angle",))
        if unit == "rad":
            axes[f"driver/{driver}/angle"] = Series(f"driver/{driver}/angle", f"{driver} angle", "deg", "drivers",
                                                  lambda f, j=j: np.degrees(f.driver_angle[j]), reads=("driver_angle",))
    return axes


def catalogue(results: Results) -> dict[str, Series]:
    """Every series ``results`` offers, by key, grouped (``series.group``) in display order."""
    out: dict[str, Series] = {}
    for s in (*_contact_series(results), *_slider_series(results), *_moving_series(results), *_energy_series(results), *_driver_series(results),
              *_midspan_series(results), *_mode_series(results), *_node_series(results), *_rotation_series(results),
              *_strain_series(results)):
        out[s.key] = s
    return out


#: contact series: key suffix -> (label, unit, ``Frame.contact`` key); the impulses are
#: those applied since the previous frame (an impact's force is an impulse, thesis ch. 3)
CONTACT_QUANTITIES = {
    "F_n": ("normal force", "N", "F_n_N"),
    "F_t": ("tangential force", "N", "F_t_N"),
    "I_n": ("normal impulse", "N s", "I_n_N_s"),
    "I_t": ("tangential impulse", "N s", "I_t_N_s"),
}
#: the contact series that are impulses (drawn as stems)
CONTACT_IMPULSES = ("I_n", "I_t")
#: the contact series that an impulse-model pair averages over its force window
CONTACT_FORCES = ("F_n", "F_t")
#: further contact columns a run may have (compliant pairs, clearance joints): (key, name, text, unit)
CONTACT_EXTRAS = (("penetration_m", "penetration", "penetration", "m"),
                  ("eccentricity_m", "eccentricity", "eccentricity (journal from bearing centre)", "m"),
                  ("impacts", "impacts", "impacts so far", "-"))


def _contact_series(results: Results):
    for c, pair in enumerate(results.layout.contacts):
        window = results.layout.force_windows.get(pair)  # an impulse-model pair's force is averaged
        for name, (text, unit, key) in CONTACT_QUANTITIES.items():
            averaged = window if name in CONTACT_FORCES else None
            if averaged is not None:
                text = f"{text} averaged over Δt = {duration_text(averaged)}"
            yield Series(f"contact/{pair}/{name}", f"{pair} {text}", unit, "contact forces",
                         lambda f, c=c, k=key: _contact_value(f, k, c), reads=(),
                         impulsive=name in CONTACT_IMPULSES, window=averaged)
    have = results.frames[0].contact if results.frames else {}
    for key, name, text, unit in CONTACT_EXTRAS:
        if key not in have:
            continue
        for c, pair in enumerate(results.layout.contacts):
            if not np.isnan(_contact_value(results.frames[0], key, c)):
                yield Series(f"contact/{pair}/{name}", f"{pair} {text}", unit, "contact forces",
                             lambda f, c=c, k=key: _contact_value(f, k, c), reads=())


def _slider_series(results: Results):
    """The configuration of each translational clearance joint whose four corners are recorded
    (:mod:`.slider_configurations`: 0 free, 1 one corner, 2 two adjacent, 3 two opposite, 4 more)."""
    index = {pair: c for c, pair in enumerate(results.layout.contacts)}
    for joint in translational_joints(results.model or {}):
        corners = [index.get(pair) for pair in corner_pair_ids(joint)]
        if None not in corners:
            yield Series(f"slider/{joint['id']}/configuration", f"{joint['id']} configuration (0 to 4: "
                         + ", ".join(CONFIGURATIONS) + ")", "-", "contact forces",
                         lambda f, corners=corners: configuration(f.contact["gap_m"][corners]), reads=())


def duration_text(seconds: float) -> str:
    """A duration with the SI prefix that leaves 1 to 999 before it, 4 significant digits:
    ``5 ms``, ``40 µs``, ``1.25 s``.

    >>> duration_text(0.005), duration_text(4e-05), duration_text(1.25)
    ('5 ms', '40 µs', '1.25 s')
    """
    for scale, prefix in ((1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")):
        if abs(seconds) >= scale * (1 - 5e-5):
            break
    return f"{seconds / scale:.4g} {prefix}s"


def _contact_value(frame: Frame, key: str, c: int) -> float:
    values = frame.contact.get(key)
    return float(values[c]) if values is not None else np.nan


def _energy_series(results: Results):
    keys = list(ENERGY_KEYS) + [k for k in (results.frames[0].energy if results.frames else ()) if k not in ENERGY_KEYS]
    for key in keys:
        yield Series(f"energy/{key}", key.replace("_", " "), "J", "energy",
                     lambda f, key=key: f.energy.get(key, np.nan), reads=())
    yield Series("energy/total", "total (balance)", "J", "energy",
                 lambda f: sum(s * f.energy.get(k, 0.0) for k, s in ENERGY_BALANCE_SIGNS.items()), reads=())


def driver_units(results: Results, driver: str) -> dict[str, str]:
    """Units of a driver's value and reaction (:data:`solver.results.tables.DRIVER_UNITS`)."""
    kinds = {d.get("id"): d.get("kind") for d in results.model.get("drivers", [])}
    return DRIVER_UNITS.get(kinds.get(driver), DRIVER_UNITS["angle"])


def _driver_series(results: Results):
    for j, driver in enumerate(results.layout.drivers):
        unit = driver_units(results, driver)["reaction"]
        yield Series(f"driver/{driver}/reaction", f"{driver} {'torque' if unit == 'N m' else 'force'}", unit,
                     "drivers", lambda f, j=j: f.driver_reaction[j], reads=("driver_reaction",))


#: series of a moving support, mass or force: key suffix -> (label, unit, value of a frame at its index)
MOVING_QUANTITIES = {
    "F_n": ("normal force on the link", "N", lambda f, j: f.moving_force[j, 0]),
    "F_t": ("tangential force on the link", "N", lambda f, j: f.moving_force[j, 1]),
    "s": ("arc length", "m", lambda f, j: f.moving_s[j]),
    "speed": ("speed along the link", "m/s", lambda f, j: f.moving_speed[j]),
}


def _moving_series(results: Results):
    for j, mover in enumerate(results.layout.moving):
        for name, (text, unit, value) in MOVING_QUANTITIES.items():
            yield Series(f"moving/{mover}/{name}", f"{mover} {text}", unit, "moving",
                         lambda f, j=j, value=value: value(f, j), reads=("moving_s", "moving_speed", "moving_force"))


def _midspan_series(results: Results):
    for j, link in enumerate(results.layout.flexible_links):
        yield Series(f"midspan/{link}", f"{link} mid-span deflection / length", "-", "mid-span deflection",
                     lambda f, j=j: f.midspan[j], reads=("midspan",))


#: modal coordinate quantities: key suffix -> (label, unit, Frame field)
MODE_QUANTITIES = {
    "q": ("coordinate", "m", "modal_q"),
    "qdot": ("rate", "m/s", "modal_qd"),
    "strain_energy": ("strain energy", "J", "modal_strain_energy"),
    "kinetic_energy": ("kinetic energy", "J", "modal_kinetic_energy"),
}


def _mode_series(results: Results):
    for j, (link, k) in enumerate(results.layout.modes):
        for name, (text, unit, field) in MODE_QUANTITIES.items():
            yield Series(f"mode/{link}/{k}/{name}", f"{link} mode {k} {text}", unit, f"modes {link}",
                         lambda f, j=j, field=field: getattr(f, field)[j], reads=(field,))


def _node_series(results: Results):
    recorded = {k: q for k, q in NODE_QUANTITIES.items() if results.layout.rates or q[0] not in RATE_FIELDS}
    for i, node in enumerate(results.layout.nodes):
        for name, (field, k, unit, relative) in recorded.items():
            yield Series(f"node/{node}/{name}", f"{node} {name}", unit, f"node {name[0]}",
                         lambda f, i=i, k=k, field=field: getattr(f, field)[i, k], relative, (field,))


def _rotation_series(results: Results):
    recorded = {k: q for k, q in ROTATION_QUANTITIES.items() if results.layout.rates or q[0] not in RATE_FIELDS}
    for r, (node, link) in enumerate(results.layout.rotations):
        for name, (field, text, unit) in recorded.items():
            yield Series(f"rotation/{link}/{node}/{name}", f"{link} at {node}: {text}", unit, f"rotation {link}",
                         lambda f, r=r, field=field: getattr(f, field)[r], reads=(field,))


def _strain_series(results: Results):
    layout = results.layout
    free = links_free_strains(model_with_defaults(results.model)) if results.model else {}
    for e, (link, k, _, _) in enumerate(layout.elements):
        for s, xi in enumerate(layout.stations):
            for kind in STRAIN_KINDS:
                yield Series(f"strain/{link}/{k}/{xi:g}/{kind}", f"{link} el. {k} at {xi:g}: {kind} strain",
                             STRAIN_UNIT, f"strain {link}", lambda f, e=e, s=s, kind=kind: _strain(f, e, s, kind),
                             reads=("axial_strain", "bending_strain"))
            if link in free:
                c = float(layout.outer_fibre[e])
                for kind in FREE_STRAIN_KINDS:
                    yield Series(f"strain/{link}/{k}/{xi:g}/{kind}", f"{link} el. {k} at {xi:g}: {kind} strain",
                                 STRAIN_UNIT, f"strain {link}",
                                 lambda f, lk=free[link], k=k, c=c, kind=kind: _free_strain(lk, k, c, kind, f.time),
                                 reads=())


def _free_strain(strains: LinkStrains, k: int, c: float, kind: str, t: float) -> float:
    """Element ``k``'s free axial strain, or free outer-fibre bending strain (fibre at ``c``), at ``t``."""
    eps0, kappa0 = strains.at(t)
    return float(eps0[k]) if kind == "axial_free" else float(-c * kappa0[k])


def _strain(frame: Frame, e: int, s: int, kind: str) -> float:
    axial, bending = frame.axial_strain[e, s], frame.bending_strain[e, s]
    if kind == "axial":
        return axial
    if kind == "bending":
        return bending
    return float(outer_fibre_strain(np.asarray(axial), np.asarray(bending)))
