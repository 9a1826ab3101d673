"""Runs of steps in one compiled call (free, open or closed steps: :mod:`.free_steps`,
:mod:`.open_steps`, :mod:`.closed_steps`), planned as the time loop would take them one by one."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from ..results.frame_block import BLOCK_FRAMES
from ..results.frames import StepRecord
from ..results.outputs import OutputBuilder
from ..system.state import State
from .free_steps import free_run, plan_steps
from .newmark import NewmarkIntegrator
from .closed_steps import ClosedRows
from .open_steps import OpenGaps
from .step_ends import output_target
from .step_limits import StepLimits

if TYPE_CHECKING:
    from .divergence import DivergenceWatch

#: steps x dofs of one compiled run of free steps (about 20 ms): the loop checks for a cancel between runs
FREE_RUN_WORK = 32_768
#: steps x (dofs + :data:`CLOSED_STEP_DOFS`) of one compiled run of closed Lagrange steps
#: (:mod:`.closed_steps`), about 20 ms: a closed step costs about 0.08 us a dof (with the created-energy
#: watch's beam energies of its state) and 20 us besides (the bar struck by a mass, 33 dofs, 21 us a step:
#: 883 steps a run; the two bars, 726 dofs, 80 us: 256 steps); FREE_RUN_WORK // n steps would be 45 of
#: the two bars, 3.6 ms, each run with its planning, rows, ledger and looks
CLOSED_RUN_WORK, CLOSED_STEP_DOFS = 250_000, 250


def compiled_run(integ: NewmarkIntegrator, out: OutputBuilder, state: State, h: float, h0: float, t_end: float,
              eps_t: float, next_out: float, dt_out: float, breakpoints: list[float], limits: StepLimits,
              steps: list[StepRecord] | None, gather: bool = False, gaps: OpenGaps | None = None,
              single: bool = False, watch: DivergenceWatch | None = None,
              contact_rows: Callable | None = None, guard: OutputBuilder | None = None) -> tuple:
    """Steps from ``state`` taken in one compiled run (:mod:`.free_steps`) up to the next output
    time ``next_out`` (every step's end with ``dt_out <= 0``; with ``gather``, the frames of every
    step gathered in one block instead), breakpoint or end, planned as the loop of :func:`run`
    would take them one by one (:func:`.free_steps.plan_steps`): ``(state, next step, steps
    taken, their Newton iterations, failure, block)``; ``failure``: the step after them failed
    (the loop cuts it); ``block``: with ``gather``, the frames of the steps taken
    (:class:`~solver.results.frame_block.FrameBlock`, None if none), else None; each step is
    logged in ``steps`` unless it is None.  With ``gaps``, a run of open steps (:mod:`.open_steps`),
    ``failure`` may be the step after them, taken, whose end a contact rule must look at (with
    :class:`~.closed_steps.ClosedRows`, a run of closed steps, :mod:`.closed_steps`: the same); with
    ``single``, one step at most; with ``watch``, the run ends at the first step whose end state
    it flags (:meth:`~.divergence.DivergenceWatch.created_energy`); with ``guard``, before the first step whose
    energy jumped, handed back as a failure (both looked at in the compiled run where it can, :mod:`.energy_screen`
    and :meth:`.open_steps.OpenGaps.screen_checked`, else at the recorded steps, the energies written in the run
    where it can, :meth:`.open_steps.OpenGaps.checked`); with ``contact_rows``, the block's
    contact columns of its times and states (:meth:`~solver.results.gathered_frames.GatheredFrames.contact_block`).
    Raises :class:`StepFailure` when the run stalls."""
    while breakpoints and breakpoints[0] <= state.t + eps_t:
        breakpoints.pop(0)
    budget = 1 if single else run_budget(integ.asm.n, gaps)
    if gather:  # through the output times, a block of frames at most
        next_out, dt_out, budget = np.inf, np.inf, min(budget, BLOCK_FRAMES)
    cap = gaps.cap if gaps is not None else np.inf  # the longest step (the impact step while in contact)
    first = gaps.step_size(h) if gaps is not None else h  # the loop's step: an onset step whatever h
    # the steps of the first one's size (the onset steps that remain), then growing back to the impact step
    uniform, grown = (float(gaps.uniform), gaps.grown) if gaps is not None else (np.inf, np.inf)
    times, sizes = plan_steps(state.t, first, min(h0, cap), t_end, eps_t, limits.shortest,
                              breakpoints[0] if breakpoints else np.inf, next_out, dt_out, budget, uniform, min(h0, grown),
                              output_target(next_out, dt_out, h0))
    if not len(times):
        return state, h, 0, 0, None, None
    targets, accs = integ.asm.sys.constraints.motion_at(times)
    # the guard's and the watch's looks in the compiled run where it can take them: no states recorded for them
    screened = gaps is not None and gaps.screening(guard, watch, out, len(times))
    looks = guard is not None or watch is not None
    record = gather or (looks and not screened) or (gaps is not None and gaps.records)
    if gaps is not None:
        gaps.begin(state, times, sizes)
    new, iterations, powers, failure, recorded = free_run(integ, state, float(sizes[0]), times, targets, accs,
                                                          out.driver_rows_dofs, record, gaps)
    if gaps is not None:
        new, failure = gaps.ended(new, failure, len(iterations))
    if screened:  # the run's last step: its energies remembered, the guard's look if the screen stopped at it
        new, iterations, powers, failure = gaps.screen_checked(state, times, (new, iterations, powers, failure), guard,
                                                               watch, out)
    elif looks:  # the run's energies written in it (a model without modal links) or looked at one by one
        new, iterations, powers, failure = gaps.checked(
            state, times, (new, iterations, powers, failure, recorded), guard, watch, out,
            not integ.asm.sys.modal.links and out.state_terms is None)
    ends = times[:len(iterations)]
    if recorded is not None:  # the steps kept
        recorded = tuple(x[:len(ends)] for x in recorded)
    hs = np.diff(ends, prepend=state.t)  # each step as the loop takes it: its end minus its start
    limits.accepted_run(ends, hs)
    if steps is not None:
        steps.extend(map(StepRecord, ends.tolist(), hs.tolist(), iterations.tolist()))
    works = (gaps.book(out, hs, powers, new, recorded) if gaps is not None
             else out.advance_ledger_drivers(hs.tolist(), powers, new))
    h_next = min(h0, 2 * float(hs[-1])) if len(hs) else h
    block = out.frame_block(ends, recorded, works) if gather and len(hs) else None
    if block is not None and contact_rows is not None:
        block.contact = contact_rows(ends, recorded)
    return new, h_next, len(hs), int(iterations.sum()), failure, block



def run_budget(n: int, gaps: OpenGaps | None) -> int:
    """The most steps of one compiled run of a model of ``n`` dofs, about 20 ms of CPU (the loop checks for a
    cancel between runs): :data:`FREE_RUN_WORK` // n, a run of closed Lagrange steps (``gaps`` a
    :class:`~.closed_steps.ClosedRows`) :data:`CLOSED_RUN_WORK` // (n + :data:`CLOSED_STEP_DOFS`)."""
    if isinstance(gaps, ClosedRows):
        return max(1, CLOSED_RUN_WORK // (n + CLOSED_STEP_DOFS))
    return max(1, FREE_RUN_WORK // n)
