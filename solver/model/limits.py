"""What the solver can use: number magnitudes, and the memory a run's elements, frames and steps take.

Every number of a model file is finite, at most :data:`MAX_MAGNITUDE` in size and, unless
it is 0, at least :data:`MIN_MAGNITUDE` (SI units: 1e15 is beyond any length, stiffness or
speed of a mechanism, 1e-30 below any of them, and their products and quotients stay far
from the float range: a ramp of 5e-324 s overflowed).  A run keeps its set-up and its step
log in memory and writes its frames to the results folder as it goes (``flexmech run``:
:mod:`solver.results.streaming`, a row group of frames in memory at a time): the estimate of
:func:`run_size` -- measured on the flexible slider-crank, about 4 kB of set-up per beam
element and 200 B per step in memory; 2.5 kB + 72 B per node and 32 B per element and
station for each stored frame (232 B per node and element with the default record: 5
stations, rates, double precision; 24 B per node without rates, half of it all in single
precision; stations only of the links ``solver.record.links`` names), an upper bound of its bytes on disk -- must keep the memory within
:data:`MEMORY_BUDGET` and the frames within :data:`RESULTS_BUDGET`, and a model has at most
:data:`MAX_ELEMENTS` beam elements.  :func:`resource_problems` reports what exceeds them with
the estimate, at the field to change; so does :func:`modal_problems` for a modal link whose
dense eigenproblem (about :data:`MODAL_DENSE_MATRICES` matrices of ``(3 (elements + 1))^2``
doubles) would not fit :data:`MEMORY_BUDGET`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from .fields import with_defaults

#: largest magnitude of any number in a model file
MAX_MAGNITUDE = 1e15
#: smallest magnitude of a number other than 0 (its powers and quotients stay within the float range)
MIN_MAGNITUDE = 1e-30
#: times of the solver settings (impact step, force window, output interval) shorter than this
#: fraction of the step are shorter than any step a run takes
MIN_STEP_FRACTION = 1e-6
#: memory a run may take for its set-up and step log (bytes)
MEMORY_BUDGET = 4 * 2**30
#: bytes of the frames a run stores (written to disk as it goes; Parquet compresses them to about 3/4)
RESULTS_BUDGET = 64 * 2**30
#: beam elements of all flexible and modal links together
MAX_ELEMENTS = 20_000
BYTES_PER_ELEMENT = 4_000
FRAME_BYTES = 2_500
#: a node's positions, velocities and accelerations and its rotation's (9 doubles), B
FRAME_BYTES_PER_POINT = 72
#: without rates: positions and rotation (3 doubles), B
FRAME_BYTES_PER_POINT_NO_RATES = 24
#: an element's force, strains and moment at one station (4 doubles), B
FRAME_BYTES_PER_STATION = 32
STEP_BYTES = 200
#: dense n x n matrices of doubles held at once while a modal link's modes are computed (n = 3 x its
#: mesh nodes: the mesh's K, M and two coupling matrices, the basis, its projections and eigh's copies
#: and eigenvectors): measured (tracemalloc) 11 at 400 elements, 16 at 200
MODAL_DENSE_MATRICES = 12

Bad = Callable[[list, str], None]


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def usable(x: Any) -> bool:
    """Whether a number is finite, 0 or between :data:`MIN_MAGNITUDE` and :data:`MAX_MAGNITUDE`
    in size (integers compared exactly: a 401-digit integer is no float)."""
    if isinstance(x, int):
        return -MAX_MAGNITUDE <= x <= MAX_MAGNITUDE
    return x == 0.0 or MIN_MAGNITUDE <= abs(x) <= MAX_MAGNITUDE


def magnitude_rule(x: Any) -> str:
    """What is wrong with a number that is not :func:`usable`."""
    if isinstance(x, int):
        return f"a {len(str(abs(x)))}-digit integer is too large: the magnitude must be at most {MAX_MAGNITUDE:g}"
    if math.isnan(x):
        return "must be a number (NaN is not one)"
    if math.isinf(x):
        return "must be finite (a number beyond the float range, about 1.8e308, reads as infinite)"
    if abs(x) < MIN_MAGNITUDE:
        return f"{x:.6g} is too small: a number is 0 or at least {MIN_MAGNITUDE:g} in magnitude"
    return f"{x:.6g} is too large: the magnitude must be at most {MAX_MAGNITUDE:g}"


def _gb(n: float) -> str:
    return f"{n / 1e9:.3g} GB"


@dataclass(frozen=True)
class RunSize:
    """The counts a run of a model keeps in memory (estimates, from the file alone)."""

    elements: int
    points: int  # nodes, free bodies and mesh nodes
    frames: float
    steps: float
    point_bytes: float = FRAME_BYTES_PER_POINT  # per point and frame
    element_bytes: float = 5 * FRAME_BYTES_PER_STATION  # per element and frame

    @property
    def frame_bytes(self) -> float:
        return FRAME_BYTES + self.point_bytes * self.points + self.element_bytes * self.elements

    @property
    def memory(self) -> float:
        """Bytes of the set-up and the step log (the frames go to disk)."""
        return self.elements * BYTES_PER_ELEMENT + self.steps * STEP_BYTES

    @property
    def results(self) -> float:
        """Bytes of the stored frames."""
        return self.frames * self.frame_bytes


def link_elements(link: dict) -> int:
    """Beam elements of a link's mesh (0 for a rigid link)."""
    if link.get("kind") not in ("flexible", "modal"):
        return 0
    mesh = link.get("mesh", {})
    if "stations" in mesh:
        return len(mesh["stations"]) - 1
    return mesh.get("elements", 4 if link["kind"] == "flexible" else 10)


def run_size(doc: dict, solver: dict) -> RunSize:
    """Estimated :class:`RunSize` of a schema-valid model, ``solver`` its settings with defaults."""
    elements = sum(link_elements(link) for link in doc.get("links", []))
    end, step, interval = solver["end_time"], solver["step"], solver["output_interval"]
    smallest = min(step, solver["impact_step"]) if solver["impact_step"] > 0 else step
    steps = end / step
    frames = 1 + (end / max(interval, smallest) if interval > 0 else steps)
    record = solver["record"]
    scale = 0.5 if record["precision"] == "single" else 1.0
    point = FRAME_BYTES_PER_POINT if record["rates"] else FRAME_BYTES_PER_POINT_NO_RATES
    chosen = record.get("links")  # only the recorded links' elements store stations
    stored = elements if chosen is None else sum(link_elements(link) for link in doc["links"] if link["id"] in chosen)
    share = stored / elements if elements else 1.0
    return RunSize(elements, len(doc["nodes"]) + len(doc.get("bodies", [])) + elements, frames, steps,
                   scale * point, share * scale * FRAME_BYTES_PER_STATION * len(record["element_stations"]))


def modal_bytes(elements: int) -> float:
    """Bytes of memory the dense eigenproblem of a modal link of ``elements`` beam elements takes
    (:func:`solver.fem.modal_basis.modal_basis`: :data:`MODAL_DENSE_MATRICES` matrices of
    (3 (elements + 1))^2 doubles)."""
    n = 3 * (elements + 1)
    return MODAL_DENSE_MATRICES * 8.0 * n * n


def modal_most() -> int:
    """The most elements of a modal link whose eigenproblem fits :data:`MEMORY_BUDGET`."""
    return int((MEMORY_BUDGET / (8.0 * MODAL_DENSE_MATRICES)) ** 0.5 // 3) - 1


def modal_problems(doc: dict, bad: Bad) -> None:
    """Modal links whose dense eigenproblem would not fit :data:`MEMORY_BUDGET`."""
    most = modal_most()
    for i, link in enumerate(doc.get("links", [])):
        elements = link_elements(link)
        if link.get("kind") == "modal" and modal_bytes(elements) > MEMORY_BUDGET:
            field = "stations" if "stations" in link.get("mesh", {}) else "elements"
            bad(["links", i, "mesh", field],
                f"the modes of a modal link of {elements} elements come from a dense eigenproblem of "
                f"{3 * (elements + 1)} dofs, about {_gb(modal_bytes(elements))} of memory; at most {most} elements "
                f"in a modal link (a few modes need few elements; a flexible link meshes finely)")


def resource_problems(doc: dict, bad: Bad) -> None:
    """A step longer than the run, times shorter than any step, element counts, frames and
    steps beyond memory, and modal links whose modes would not fit in it."""
    modal_problems(doc, bad)
    from .schema import SOLVER

    solver = with_defaults(SOLVER, doc.get("solver", {}))
    if solver["step"] > solver["end_time"]:
        bad(["solver", "step"], f"must be <= end_time ({solver['end_time']:g} s)")
        return
    shortest = MIN_STEP_FRACTION * solver["step"]
    times = ("impact_step", "impulse_force_window", "output_interval")
    too_short = [key for key in times if 0.0 < solver[key] < shortest]
    for key in too_short:
        hint = "0 stores a frame at every step" if key == "output_interval" else "0 chooses it for you"
        bad(["solver", key], f"{solver[key]:.3g} s is shorter than any step the run takes (at least "
                             f"{MIN_STEP_FRACTION:g} x step = {shortest:.3g} s); {hint}")
    if too_short:
        return
    size = run_size(doc, solver)
    interval, end = solver["output_interval"], solver["end_time"]
    if size.elements > MAX_ELEMENTS or (size.memory > MEMORY_BUDGET and size.elements * BYTES_PER_ELEMENT
                                        > size.steps * STEP_BYTES):
        most = int(min(MAX_ELEMENTS, max(0.0, MEMORY_BUDGET - size.steps * STEP_BYTES) // BYTES_PER_ELEMENT))
        links = doc["links"]
        i = max(range(len(links)), key=lambda k: link_elements(links[k]))
        field = "stations" if "stations" in links[i].get("mesh", {}) else "elements"
        bad(["links", i, "mesh", field],
            f"{size.elements} elements need about {_gb(size.memory)} of memory; at most {most} elements in a model")
    elif size.memory > MEMORY_BUDGET:
        most = MEMORY_BUDGET / STEP_BYTES
        bad(["solver", "step"], f"{size.steps:.3g} steps over end_time {end:g} s need about {_gb(size.memory)} of "
                                f"memory for their log; at most {most:.3g} steps: a step of at least {end / most:.3g} s, "
                                "a shorter end_time or no step log (solver.record.steps)")
    elif size.results > RESULTS_BUDGET:
        frames = max(1.0, RESULTS_BUDGET / size.frame_bytes)
        where, change = ((["solver", "step"], f"a step of at least {end / frames:.3g} s") if interval == 0 else
                         (["solver", "output_interval"], f"an interval of at least {end / frames:.3g} s"))
        bad(where, f"{size.frames:.3g} stored frames{' (one at each step)' if interval == 0 else ''} of "
                   f"{size.frame_bytes / 1e3:.3g} kB make about {_gb(size.results)} of results; at most {frames:.3g} "
                   f"frames: {change}, or record less (solver.record)")


def results_bytes(doc: dict) -> float:
    """The estimated bytes of the frames a run of the schema-valid ``doc`` stores (an upper
    bound of its results folder: the window checks its disk has room before a run)."""
    from .schema import SOLVER

    return run_size(doc, with_defaults(SOLVER, doc.get("solver", {}))).results
