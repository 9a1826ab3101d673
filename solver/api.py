"""The solver's public API, used alike by the command line, the GUI and scripts.

>>> from solver.api import load_model, simulate          # doctest: +SKIP
>>> res = simulate(load_model("resources/examples/slider_crank_flexible.json"))  # doctest: +SKIP
>>> res.meta["status"]                                   # doctest: +SKIP
'completed'
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .errors import SolverError, UnsupportedFeature
from .analysis.modal import Modes, natural_modes, rayleigh_coefficients
from .model.io import load_model, save_model
from .model.validate import ModelError, Problem, validate
from .results.files import ResultsFormatError, load_results, write_results
from .results.frame_block import FrameBlock
from .results.frames import Frame, Layout, Results
from .analysis.static import Equilibrium, static_equilibrium

__all__ = [
    "load_model",
    "save_model",
    "simulate",
    "iter_simulation",
    "output_layout",
    "static_equilibrium",
    "natural_modes",
    "rayleigh_coefficients",
    "Equilibrium",
    "Modes",
    "ModelError",
    "joint_problems",
    "SolverError",
    "UnsupportedFeature",
    "Results",
    "Frame",
    "Layout",
    "write_results",
    "load_results",
    "ResultsFormatError",
]


def iter_simulation(model: dict, cancel: Callable[[], bool] | None = None,
                    frames: Callable[[Results], Any] | None = None, blocks: bool = False) -> Iterator[Frame | Results]:
    """Run ``model`` as a generator: yields each output :class:`Frame` as it is produced,
    and finally the complete :class:`Results` (also when cancelled or failed: its
    ``meta['status']`` is ``completed``, ``cancelled`` or ``failed`` with ``meta['message']``).

    ``cancel`` is polled between steps.  ``frames(results)`` gives the store the run appends
    its frames to (default: columns in memory, :class:`~solver.results.frame_columns.FrameColumns`;
    ``ResultsStream.frames`` writes them to a
    results folder as they come: :mod:`solver.results.streaming`).  With ``blocks``, the frames
    a run gathers a block at a time (a frame at every step:
    :mod:`solver.results.frame_block`, :mod:`solver.results.gathered_frames`) come as one
    :class:`~solver.results.frame_block.FrameBlock` each (its ``time`` the last frame's), not
    frame by frame.  Raises :class:`ModelError` before the first step for a model that
    :func:`~solver.model.validate.validate` refuses, naming every field at fault as ``flexmech
    validate`` and ``flexmech run`` do (:func:`refuse_invalid`), and :class:`UnsupportedFeature`
    when the model needs physics this version does not run.
    """
    from .integration.time_loop import run

    refuse_invalid(model)
    yield from run(model, cancel=cancel, frames=frames, blocks=blocks)


def refuse_invalid(model: dict) -> None:
    """Raise :class:`ModelError` listing every problem :func:`~solver.model.validate.validate` finds in
    ``model``: what ``validate`` accepts, a run runs; what it refuses, a run refuses alike (a pair
    switched to ``{"kind": "compliant"}`` without a stiffness is named
    ``contacts[...].model.stiffness``, not a TypeError deep in the solver).  One validation a run,
    10-30 ms on the shipped examples; a sweep validates each variant once and runs it without the API."""
    problems = validate(model)
    if problems:
        raise ModelError(problems)


def joint_problems(model: dict) -> list[Problem]:
    """What the joints of a valid ``model`` hold twice, found as a run finds it (its compilation,
    :mod:`solver.system.redundant_joints`): a warning at each joint whose rows are dropped (its
    reactions one admissible split), or the error of rows that contradict each other (a joint holding
    what a driver moves), naming them.  ``flexmech validate`` and the problems panel list them."""
    from .system.compile import compile_model

    try:
        rows = compile_model(model).constraints.redundant
    except SolverError as exc:
        return [Problem("joints", str(exc))]
    return [Problem(row.owner, str(row), "warning") for row in rows]


def output_layout(model: dict) -> Layout:
    """The :class:`Layout` a run of ``model`` will have (node, element and contact
    names of its frames), known before the first step: a viewer can draw frames as
    they arrive.  Raises like :func:`iter_simulation` on a model that cannot run."""
    from .results.outputs import model_layout

    refuse_invalid(model)
    return model_layout(model)


def simulate(
    model: dict,
    *,
    progress: Callable[[float, float], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    on_frame: Callable[[Frame], None] | None = None,
    frames: Callable[[Results], Any] | None = None,
) -> Results:
    """Run ``model`` to its end time and return the :class:`Results`.

    ``progress(t, t_end)`` is called after every output frame, ``on_frame(frame)``
    with every frame, ``cancel()`` is polled between steps; ``frames``: see
    :func:`iter_simulation`.
    """
    t_end = float(model.get("solver", {}).get("end_time", 1.0))
    for item in iter_simulation(model, cancel=cancel, frames=frames, blocks=True):
        if isinstance(item, Results):
            return item
        if on_frame is not None:
            for frame in item.frames() if isinstance(item, FrameBlock) else (item,):
                on_frame(frame)
        if progress is not None:
            progress(item.time, t_end)
    raise SolverError("the simulation ended without results")  # pragma: no cover
