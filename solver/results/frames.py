"""The in-memory results of a run: what the solver produces and what a results folder holds.

A run appends one :class:`Frame` per output time; :class:`Results` stacks them into
arrays.  ``solver.results.files`` writes a :class:`Results` to a folder (``summary.json``
plus Parquet and CSV files with units in every column name) and reads it back into an equal object.

Shapes: F frames, N nodes (model nodes and the mesh nodes of flexible links),
R rotation slots (one per node and link that rotates there), E beam elements,
S stations per element (``solver.record.element_stations``), D drivers, L flexible links (corotational and modal), C contact
pairs, K modal coordinates (of all modal links), M moving supports, masses and forces.  The arrays of nodes, rotations, elements
and modes are float64, or float32 when the run records in single precision
(``solver.record.precision``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

import numpy as np

#: stations along each element where strains are reported by default (fractions of its
#: length; a model's ``solver.record.element_stations`` chooses others)
STATIONS = (0.0, 0.25, 0.5, 0.75, 1.0)

ENERGY_KEYS = (
    "kinetic",
    "strain",
    "potential",
    "contact_elastic",
    "work_loads",
    "work_drivers",
    "work_free_strains",
    "dissipated_damping",
    "dissipated_friction",
    "dissipated_restitution",
    "dissipated_contact",
)

#: sign of each energy term in the balance ``total = T + U + V + V_c - W_loads - W_drivers - W_moving - W_free + D``
#: (V_c: energy stored in compliant contacts, ``contact_elastic``; W_moving: the work of the reactions of
#: the moving supports and masses, time-variant constraints, a further term of the runs that have them; W_free: the energy the free
#: -- thermal and creep -- strains put into the links, ``int dU/dt|_q dt``; D: the dissipated terms),
#: constant in time for an exact solution (its drift measures the integration error)
ENERGY_BALANCE_SIGNS = {
    "kinetic": 1.0,
    "strain": 1.0,
    "potential": 1.0,
    "contact_elastic": 1.0,
    "work_loads": -1.0,
    "work_drivers": -1.0,
    "work_free_strains": -1.0,
    "dissipated_damping": 1.0,
    "dissipated_friction": 1.0,
    "dissipated_restitution": 1.0,
    "dissipated_contact": 1.0,
    "work_moving": -1.0,
}

#: standard keys of ``Frame.contact`` (units in the names, as in ``contacts.csv``): gap
#: (m, negative = penetration), normal and tangential relative velocity (m/s, positive
#: normal = separating), normal and tangential force (N), state (integer code into
#: :data:`CONTACT_STATES`), normal and tangential impulse applied at this output time (N s)
CONTACT_KEYS = ("gap_m", "v_n_m_s", "v_t_m_s", "F_n_N", "F_t_N", "state", "I_n_N_s", "I_t_N_s")

#: contact states; ``Frame.contact["state"]`` holds their indices (0 = open)
CONTACT_STATES = ("open", "slide", "stick")

#: the Frame arrays of the rates of nodes and rotations (empty when a run records no rates)
RATE_FIELDS = ("node_v", "node_a", "rot_v", "rot_a")

#: the Frame arrays of the beam elements (E, S): forces, strains and moments at the stations
ELEMENT_FIELDS = ("axial_force", "axial_strain", "bending_strain", "bending_moment")

#: the Frame arrays of the modal coordinates (K,): coordinate, its rates, the mode's energies
MODAL_FIELDS = ("modal_q", "modal_qd", "modal_qdd", "modal_strain_energy", "modal_kinetic_energy")

#: frames of the arrays :meth:`FrameSequence.light` reads at a time
LIGHT_CHUNK = 256

#: keys of an event dict with a fixed meaning: ``time_s`` (s), ``kind`` (``"impulse"``,
#: ``"contact_start"``, ``"separation"``, ``"stick"``, ``"slip"``, ...) and ``contact``
#: (the pair's id); further keys carry their unit in the name (``I_n_N_s``, ``v_n_pre_m_s``)
EVENT_KEYS = ("time_s", "kind", "contact")


@dataclass
class Layout:
    """Names of what the arrays hold, fixed for a run."""

    nodes: list[str]
    rotations: list[tuple[str, str]]  # (node, link) per rotation slot
    elements: list[tuple[str, int, str, str]]  # (link, index in link, node 1, node 2)
    element_length: np.ndarray  # (E,) undeformed length, m
    outer_fibre: np.ndarray  # (E,) outer-fibre distance c, m (nan when unknown)
    flexible_links: list[str]
    drivers: list[str]
    contacts: list[str] = field(default_factory=list)
    stations: tuple[float, ...] = STATIONS
    modes: list[tuple[str, int]] = field(default_factory=list)  # (modal link, mode number from 1) per coordinate
    mode_frequency: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) Hz
    moving: list[str] = field(default_factory=list)  # ids of the moving supports, masses and forces
    #: whether frames hold the rates of nodes and rotations (else node_v, node_a are (0, 2), rot_v, rot_a (0,))
    rates: bool = True
    #: the flexible links whose elements, mid-span deflection and modes the run does not record
    #: (``solver.record.links``): per link its mesh nodes from the first to the last and their
    #: fractions of its undeformed length -- enough to draw it from ``node_xy``
    unrecorded_links: dict[str, tuple[list[str], list[float]]] = field(default_factory=dict)
    #: per impulse-model contact pair: the window its impulses are averaged over into the
    #: ``F_n_N``, ``F_t_N`` of its frames, s (an impulse is not a force, thesis ch. 3;
    #: :func:`solver.system.impact_times.impulse_force_window`); other pairs' forces are forces
    force_windows: dict[str, float] = field(default_factory=dict)

    def chains(self) -> dict[str, tuple[list[str], np.ndarray, np.ndarray]]:
        """Every flexible link, recorded or not: its mesh nodes from the first to the last, their
        fractions of its undeformed length, and the indices of its elements in ``elements``
        (in order along the link; empty when its elements are not recorded)."""
        out = {}
        for link in self.flexible_links:
            ids = sorted((i for i, e in enumerate(self.elements) if e[0] == link), key=lambda i: self.elements[i][1])
            lengths = self.element_length[ids]
            nodes = [self.elements[ids[0]][2]] + [self.elements[i][3] for i in ids]
            fractions = np.concatenate([[0.0], np.cumsum(lengths)]) / max(float(np.sum(lengths)), 1e-300)
            out[link] = (nodes, fractions, np.array(ids, dtype=int))
        for link, (nodes, fractions) in self.unrecorded_links.items():
            out[link] = (list(nodes), np.asarray(fractions, dtype=float), np.zeros(0, dtype=int))
        return out


@dataclass
class Frame:
    """The state at one output time (plain numpy data: safe to send across threads)."""

    time: float
    node_xy: np.ndarray  # (N, 2) m
    node_v: np.ndarray  # (N, 2) m/s ((0, 2) when the run records no rates: Layout.rates)
    node_a: np.ndarray  # (N, 2) m/s^2 (idem)
    rot: np.ndarray  # (R,) rad
    rot_v: np.ndarray  # (R,) rad/s ((0,) without rates)
    rot_a: np.ndarray  # (R,) rad/s^2 (idem)
    axial_force: np.ndarray  # (E, S) N
    axial_strain: np.ndarray  # (E, S) -
    bending_strain: np.ndarray  # (E, S) - outer fibre, positive = tension on the left side
    bending_moment: np.ndarray  # (E, S) N m
    midspan: np.ndarray  # (L,) signed mid-span deflection from the chord / link length
    driver_angle: np.ndarray  # (D,) rad (or m for a displacement driver)
    driver_speed: np.ndarray  # (D,)
    driver_reaction: np.ndarray  # (D,) N m (or N)
    energy: dict[str, float]  # ENERGY_KEYS, J
    contact: dict[str, np.ndarray] = field(default_factory=dict)  # CONTACT_KEYS (and more) -> (C,)
    modal_q: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) modal coordinates, m
    modal_qd: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) m/s
    modal_qdd: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) m/s^2
    modal_strain_energy: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) 1/2 k q^2, J
    modal_kinetic_energy: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (K,) 1/2 m q'^2, J
    moving_s: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (M,) arc length along the link, m
    moving_speed: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (M,) ds/dt, m/s
    #: (M, 2) force on the link, N: on the deformed link's normal and tangent at the point
    moving_force: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))


def frames_reading(frames, fields: tuple[str, ...], start: int = 0, stop: int | None = None):
    """Frames ``start`` to ``stop`` (default: the last), one at a time, each with at least its
    time, energy, contact data and the arrays ``fields`` (frames read on demand read only
    those, a chunk at a time: :meth:`~solver.results.lazy.LazyFrames.light`)."""
    light = getattr(frames, "light", None)
    return light(fields, start, stop) if light is not None else iter(frames[start:stop])


def frame_times(frames, start: int = 0, stop: int | None = None) -> np.ndarray:
    """The time of each of frames ``start`` to ``stop`` (default: all), s (frames read on demand
    or kept as columns keep them: no frame is read)."""
    times = getattr(frames, "times", None)
    if times is not None:
        return np.array(times[start:stop], dtype=float)
    return np.array([f.time for f in frames[start:stop]], dtype=float)


def frame_energies(frames) -> list[dict[str, float]]:
    """Each frame's ``energy`` (frames read on demand keep them: no frame is read)."""
    energies = getattr(frames, "energies", None)
    return energies if energies is not None else [f.energy for f in frames]


def total_energy(frames) -> np.ndarray:
    """The energy balance of each of ``frames`` (F,), J: see :data:`ENERGY_BALANCE_SIGNS`
    (terms a frame lacks count as zero)."""
    return energy_total(frame_energies(frames))


def energy_total(energies: list[dict[str, float]]) -> np.ndarray:
    """The energy balance (F,), J, of frames' ``energies``: see :func:`total_energy`."""
    values = energy_matrix(energies, list(ENERGY_BALANCE_SIGNS), 0.0)
    total = np.zeros(len(values))
    for j, sign in enumerate(ENERGY_BALANCE_SIGNS.values()):  # the terms added in this order, as frame by frame
        total += sign * values[:, j]
    return total


class EnergyRows(Sequence[dict]):
    """Frames' energy terms held as one array: ``rows`` (F, len(keys)), J, the terms ``keys``
    of every frame (a folder's ``energy`` table read back); frame ``i``'s dict is made when
    asked for (:func:`energy_matrix` reads the columns: no dict is made)."""

    def __init__(self, keys: list[str], rows: np.ndarray):
        self.keys, self.rows = keys, rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [dict(zip(self.keys, row)) for row in self.rows[index].tolist()]
        return dict(zip(self.keys, self.rows[index].tolist()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None


def energy_matrix(energies: list[dict[str, float]], keys: Sequence[str], missing: float = np.nan) -> np.ndarray:
    """The terms ``keys`` of each of the frames' ``energies`` (F, len(keys)), J; ``missing`` where
    a frame lacks one (read in one call a frame when every frame has the first frame's terms;
    :class:`EnergyRows`' columns copied).

    >>> energy_matrix([{"kinetic": 1.0}, {"kinetic": 2.0}], ["kinetic", "strain"], 0.0).tolist()
    [[1.0, 0.0], [2.0, 0.0]]
    """
    if not keys or not energies:
        return np.full((len(energies), len(keys)), missing)
    if isinstance(energies, EnergyRows):
        held, values = energies.keys, energies.rows
    else:
        held, values = list(energies[0]), None
    try:  # every frame the first frame's terms (as many, all found): its values streamed into an array
        if values is None and set(map(len, energies)) != {len(held)}:
            raise KeyError
        if values is None:
            values = np.fromiter(chain.from_iterable(map(items_getter(held), energies)), dtype=float,
                                 count=len(energies) * len(held)).reshape(len(energies), len(held))
    except (KeyError, TypeError):  # a frame has other terms (or holds None)
        return np.array([[e.get(k, missing) for k in keys] for e in energies], dtype=float)
    out = np.full((len(energies), len(keys)), missing, dtype=float)
    for j, key in enumerate(keys):
        if key in held:
            out[:, j] = values[:, held.index(key)]
    return out


def items_getter(keys: Sequence[str]) -> Callable[[dict], tuple]:
    """A function giving a dict's values of ``keys`` as a tuple, in one call (a frame's energy
    terms or contact values: one look-up a frame instead of one a key)."""
    if len(keys) == 1:
        key = keys[0]
        return lambda values: (values[key],)
    return itemgetter(*keys)


class FrameSequence(Sequence[Frame]):
    """Frames kept as columns (:class:`~solver.results.frame_columns.FrameColumns`) or read on
    demand (:class:`~solver.results.lazy.LazyFrames`): a sequence of :class:`Frame` made on
    access (the last kept: playback asks for its frame more than once), and one quantity over
    the frames without making them.  A frame read is a snapshot: its arrays' values may be views
    of the store's, an attribute set on it is not kept.  A subclass gives ``times``, ``energies``,
    ``field`` (a field's arrays of frames ``start`` to ``stop``, as :meth:`_span` takes them),
    ``_frame(i)`` and ``_contact(i)``."""

    times: np.ndarray
    energies: list[dict[str, float]]
    _last: tuple[int, Frame] | None = None

    def field(self, name: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        raise NotImplementedError

    def _frame(self, i: int) -> Frame:
        raise NotImplementedError

    def _contact(self, i: int) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.times)

    def _span(self, start: int, stop: int | None) -> tuple[int, int]:
        """Frames ``start`` to ``stop`` as a list's slice takes them (negative from the end, clipped)."""
        first, last, _ = slice(start, stop).indices(len(self))
        return first, max(first, last)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = int(index)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"frame {index} of {len(self)}")
        if self._last is None or self._last[0] != i:
            self._last = (i, self._frame(i))
        return self._last[1]

    def __iter__(self) -> Iterator[Frame]:
        for i in range(len(self)):
            yield self[i]

    def light(self, fields: Sequence[str], start: int = 0, stop: int | None = None) -> Iterator[SimpleNamespace]:
        """Frames ``start`` to ``stop`` (default: the last) with their time, energy, contact data
        and only the arrays ``fields`` (what a series of one quantity reads:
        :class:`~solver.results.series.Series`), the arrays read :data:`LIGHT_CHUNK` frames at a time."""
        start, stop = self._span(start, stop)
        times = self.times
        for first in range(start, stop, LIGHT_CHUNK):
            last = min(first + LIGHT_CHUNK, stop)
            arrays = {name: self.field(name, first, last) for name in fields}
            for i in range(first, last):
                yield SimpleNamespace(time=float(times[i]), energy=self.energies[i], contact=self._contact(i),
                                      **{name: values[i - first] for name, values in arrays.items()})


@dataclass
class StepRecord:
    """One accepted time step."""

    time: float
    step: float
    newton_iterations: int


@dataclass
class Results:
    """A run's results: layout, frames stacked into arrays, step log, events, metadata."""

    model: dict
    layout: Layout
    frames: list[Frame] = field(default_factory=list)
    steps: list[StepRecord] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)  # see EVENT_KEYS
    # status ('completed', 'cancelled', 'failed'), message, wall_time_s, and optionally
    # model_sha256 (of the model file as read) and solver (the settings used)
    meta: dict[str, Any] = field(default_factory=dict)
    #: the results folder a run wrote its frames to as it went and reads them back from
    #: (:func:`~solver.results.streaming.streamed_results`): its files hold exactly these results; else None
    folder: os.PathLike | None = field(default=None, compare=False, repr=False)

    # ------------------------------------------------------------------ arrays
    @property
    def time(self) -> np.ndarray:
        return frame_times(self.frames)

    def stack(self, name: str) -> np.ndarray:
        """Frames' ``name`` arrays stacked along a new first axis (F, ...)."""
        if not self.frames:
            return np.empty((0,))
        if hasattr(self.frames, "field"):  # frames read on demand: only this field's columns
            return self.frames.field(name)
        return np.stack([getattr(f, name) for f in self.frames])

    def energy(self, key: str) -> np.ndarray:
        return np.array([e[key] for e in frame_energies(self.frames)])

    def energies(self, keys: Sequence[str], missing: float = np.nan) -> np.ndarray:
        """The energy terms ``keys`` of every frame (F, len(keys)), J; ``missing`` where a frame lacks one."""
        return energy_matrix(frame_energies(self.frames), keys, missing)  # frames read on demand keep them

    def total_energy(self) -> np.ndarray:
        """The energy balance per frame (F,), J: see :data:`ENERGY_BALANCE_SIGNS`.

        Terms a frame lacks count as zero.
        """
        return total_energy(self.frames)

    def node_index(self, node: str) -> int:
        return self.layout.nodes.index(node)

    @property
    def completed(self) -> bool:
        return self.meta.get("status") == "completed"
