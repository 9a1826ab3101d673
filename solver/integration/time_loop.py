"""The time loop: steps, step cutting, output sampling, progress, cancel, partial results.

:func:`run` is a generator (the GUI runs it in a worker, the CLI drives a progress
bar with it): it yields a :class:`~solver.results.frames.Frame` at every output time and
finally the :class:`~solver.results.frames.Results`.  When Newton fails the step is halved
(at most ``max_step_cuts`` times) and grown back after successes; when it still
fails the run stops with a message naming the time, the step and the cause, and the frames
computed so far are kept.  Steps land exactly on the breakpoints of load and
driver functions (the end of a ramp, the edges of a window), where the state is
restarted consistently (:func:`solver.system.initial.restart`): the trapezoidal rule
would otherwise carry an undamped velocity error from a kink in a prescribed motion.

Every run ends at a bounded cost (:class:`~.step_limits.StepLimits`): no step is shorter than
:data:`MIN_STEP_RATIO` of the reference step, and a run whose last :data:`MAX_SMALL_STEPS`
steps advanced less than :data:`SMALL_STEP_RATIO` of it each, on average, stops as stalled.
A run whose state diverges (a node flown beyond a million model sizes, or energy the
integration created itself: :mod:`.divergence`) stops after that step.  Output times are
``k dt_out`` from the output index ``k``, never accumulated.
"""
from __future__ import annotations

import hashlib
import time as wallclock
from contextlib import ExitStack
from typing import Any, Callable, Iterator

import numpy as np

from ..errors import SolverError
from ..system.assembly import Assembly
from ..system.compile import compile_model
from ..system.redundant_joints import joint_reactions
from ..system.initial import initial_state, restart
from ..system.impact_times import impact_time_step
from ..system.integrator import IMPACT_TAU, damping_unset
from ..model.io import dumps_model
from ..contact.chatter_hint import chatter_hint
from ..contact.closed_hint import closed_hint
from ..contact.coulomb_hint import band_hint, coulomb_hint
from ..contact.tracker import ContactTracker
from ..system.state import State
from .divergence import DivergenceWatch, mesh_hint, strain_hint
from .lock_hint import lock_hint
from .newmark import NewmarkIntegrator, NewtonFailure
from .open_steps import OpenGaps
from .open_circles import OpenCircles
from .closed_steps import ClosedRows
from .closed_circles import ClosedCircles
from .step_ends import ROUND_OFF, output_target, step_to_output, step_towards
from .step_limits import ADVICE, StepFailure, StepLimits
from .attempts import advance
from .compiled_runs import compiled_run
from ..results.outputs import OutputBuilder
from ..results.frame_block import FrameBlock, store_block
from ..results.frame_columns import FrameColumns
from ..results.gathered_frames import GatheredFrames
from ..results.frames import Frame, Results, StepRecord

#: contact-time estimates (eq. 3.4) tried before a step that passes a contact is accepted
MAX_CONTACT_RETRIES = 12

#: above this many dofs (a flexible link of some 3300 elements) OpenBLAS spreads a dot product of
#: two state vectors over its threads: on two shared cores their hand-over made a step with a frame
#: of a 4000-element link cost 33 ms of CPU instead of 7.5 ms, so such runs keep BLAS to one thread
SINGLE_BLAS_THREAD_DOFS = 10_000

#: steps longer than this many axial wave transits of the shortest element (eq. 3.6) run a model with a
#: compliant pair damped from the start (tau = IMPACT_TAU, when the model sets no tau): at 103 the Getting
#: Started rod held its balance for 54 ms and then grew it 300-fold within 6 ms, too fast for the switch on
#: the balance; at 2 a ball bouncing off a strip keeps its balance to 0.1 % undamped
UNRESOLVED_TRANSITS = 10.0

def _landing(breakpoints: list[float], t: float, h: float) -> tuple[float, float | None]:
    """The step from ``t`` of about ``h`` towards the first breakpoint (:func:`.step_ends.step_towards`)
    and the breakpoint it lands on (None: it ends before)."""
    if not breakpoints:
        return h, None
    step = step_towards(t, h, breakpoints[0])
    return step, (breakpoints[0] if step == breakpoints[0] - t else None)


def _next_output(t: float, dt_out: float, eps_t: float) -> float:
    """The first output time ``k dt_out`` after ``t + eps_t`` (from the index ``k``, never by
    accumulation: an interval of 1e-300 s costs one division, not 1e297 additions).

    >>> _next_output(0.0301, 0.01, 1e-9), _next_output(1.0, 1e-300, 1e-9) > 1.0
    (0.04, True)
    """
    after = float(np.nextafter(t + eps_t, np.inf))
    t_k = (np.floor((t + eps_t) / dt_out) + 1.0) * dt_out
    return float(t_k) if np.isfinite(t_k) and t_k >= after else after


def run(model: dict, cancel: Callable[[], bool] | None = None,
        frames: Callable[[Results], Any] | None = None, blocks: bool = False) -> Iterator[Frame | FrameBlock | Results]:
    """Simulate ``model``; see :func:`solver.api.iter_simulation`.

    A model of more than :data:`SINGLE_BLAS_THREAD_DOFS` dofs runs with BLAS limited to one
    thread (for the whole process, until the run ends or is closed).
    """
    with ExitStack() as scope:
        yield from _run(model, cancel, scope, frames, blocks)


def _run(model: dict, cancel: Callable[[], bool] | None, scope: ExitStack,
         frames: Callable[[Results], Any] | None, blocks: bool) -> Iterator[Frame | FrameBlock | Results]:
    """The run of :func:`run`: the first frame, the steps' frames (or blocks), the results."""
    loop = _Loop(model, scope, frames)
    yield loop.frame_of(loop.state)
    yield from loop.steps(cancel, blocks)
    yield loop.finish()


class _Loop:
    """One run's time loop: the compiled model, its state and the run's counts.  Each step is a
    run of compiled free steps where the model allows (:meth:`_free_steps`), else one step taken
    by the contact models' rules (:meth:`_contact_step`)."""

    def __init__(self, model: dict, scope: ExitStack, frames: Callable[[Results], Any] | None):
        self.started = wallclock.perf_counter()
        self.system = system = compile_model(model)
        if system.n > SINGLE_BLAS_THREAD_DOFS:
            from threadpoolctl import threadpool_limits

            scope.enter_context(threadpool_limits(limits=1, user_api="blas"))
        settings = system.settings
        self.asm = asm = Assembly(system)
        self.out = out = OutputBuilder(asm)
        self.res = res = Results(model=model, layout=out.layout)
        res.frames = frames(res) if frames is not None else FrameColumns()
        res.meta.update(model_sha256=hashlib.sha256(dumps_model(model).encode()).hexdigest(), solver=settings,
                        dofs=system.n, constraints=system.constraints.count, elements=system.beams.count)
        if system.constraints.redundant:  # joints' rows dropped as held twice (solver.system.redundant_joints)
            res.meta["redundant_joints"] = [str(row) for row in system.constraints.redundant]
        self.contacts = contacts = ContactTracker(asm, settings)
        self.integ = NewmarkIntegrator(asm, settings, contacts.forces)
        if contacts.jumps:  # impact steps cut to nearly the same length again and again, a mass matrix per impulse
            self.integ.reuse_near_steps()
            asm.factor_mass_by_cholesky()
        res.events = contacts.events
        self.h0, self.t_end, self.dt_out = settings["step"], settings["end_time"], settings["output_interval"]
        self.limits = StepLimits(settings, contacts.impact_step)
        self.state = initial_state(asm)
        if contacts.active:
            out.contact_power = contacts.contact_power
            out.contact_energy = contacts.elastic_energy
            out.state_terms = contacts.state_terms()
            self.state = contacts.after_step(None, self.state, out)
        self.breakpoints = sorted({b for b in system.breakpoints() if 0.0 < b < self.t_end})
        self.watch = DivergenceWatch(out, self.state)
        self.guard = out if contacts.active else None  # contacts (velocity jumps, forces): watch for spurious roots
        # an undamped run with contacts: numerical damping once the trapezoidal rule creates energy, or from the
        # start with a compliant pair and a step of over UNRESOLVED_TRANSITS axial transits of an element
        # (docs/solver.md)
        self.undamped = contacts.active and damping_unset(model.get("solver", {}))
        if self.undamped and contacts.forces is not None and self.h0 > UNRESOLVED_TRANSITS * impact_time_step(system, 1.0):
            self._damp(0.0)
        self.tracker = contacts if contacts.active else None
        # cost of contact: steps taken while a pair is closed (impact steps, eq. 3.5), the other steps, impulse solves
        self.impact = {"impact_steps": 0, "impact_steps_wall_s": 0.0, "impulses": 0, "impulses_wall_s": 0.0,
                       "free_steps": 0, "free_steps_wall_s": 0.0}
        self.next_out = _next_output(0.0, self.dt_out, 0.0) if self.dt_out > 0 else 0.0
        self.h = self.h0
        self.status, self.message = "completed", ""
        self.eps_t = ROUND_OFF * self.h0  # accumulated times are this close to their sums
        self.steps_taken, self.iterations = 0, 0  # accepted steps and their Newton iterations (logged if recorded)
        self.log_steps = settings["record"]["steps"]
        self.rejected = 0  # step attempts taken again: Newton cuts, contact events stepped over, contact errors
        # steps in compiled runs: without contact pairs, time-dependent loads and Rayleigh damping
        self.free = self.integ.runs_free_steps and not contacts.active and system.alpha == 0.0 and system.beta == 0.0
        # a frame at every step: gathered a run at a time
        self.gather = self.free and self.dt_out <= 0 and not system.modal.links
        # a frame at every contact step: its rows gathered, made a block at a time
        self.gathered = self._gathered() if contacts.active and self.dt_out <= 0 and not (
            system.modal.links or system.movers or system.free_strains.active) else None
        # steps in compiled runs while every Lagrange pair is open
        serves = self.integ.runs_free_steps and OpenGaps.serves(contacts) and system.alpha == 0.0 and system.beta == 0.0
        self.open_gaps = (OpenGaps(contacts.pairs, settings["contact_tol"]) if serves else OpenCircles(
            contacts, settings["contact_tol"]) if OpenCircles.serves(contacts) else None)  # or every circle pair is
        # and while the closed pairs keep their modes
        self.closed_rows = (ClosedRows(contacts, settings["contact_tol"], self.integ, self.watch, self.limits.shortest)
                            if serves else None)
        # and while every dry circle pair of a compliant run is closed
        self.circles = (ClosedCircles(contacts, self.integ, out, self.limits, self.watch, MAX_CONTACT_RETRIES)
                        if contacts.active and ClosedCircles.serves(contacts, self.integ, out) else None)

    def _gathered(self) -> GatheredFrames:
        """The rows of the frames of contact steps (:mod:`~solver.results.gathered_frames`)."""
        chosen, contacts = self.out.selection.contacts, self.contacts
        return GatheredFrames(self.out, contacts.frame_keys, contacts.frame_row if len(chosen) else None, chosen)

    def _record(self, blocks: bool) -> Iterator[Frame | FrameBlock]:
        """The frame of the state (the next output time after it), yielded, or gathered into
        the next block, yielded when full (:meth:`_flush`)."""
        if self.gathered is None:
            yield self._framed()
        elif self.gathered.add(self.state):
            yield from self._flush(blocks)

    def _flush(self, blocks: bool) -> Iterator[Frame | FrameBlock]:
        """The frames gathered so far, stored and yielded (as a block with ``blocks``)."""
        block = self.gathered.take() if self.gathered is not None else None
        if block is not None:
            store_block(self.res.frames, block)
            yield from (block,) if blocks else block.frames()

    def frame_of(self, st: State) -> Frame:
        """The frame of ``st``, stored with the run's frames."""
        frame = self.out.frame(st)
        chosen, contacts = self.out.selection, self.contacts
        if contacts.active:
            data = contacts.frame_data(st)
            if len(chosen.contacts):
                frame.contact = {key: value[chosen.contacts] for key, value in data.items()}
        if len(chosen.moving):
            arc, speed, force = contacts.moving_outputs(st)
            frame.moving_s, frame.moving_speed, frame.moving_force = arc[chosen.moving], speed[chosen.moving], force[chosen.moving]
        self.res.frames.append(frame)
        return frame

    def _due(self, t: float) -> bool:
        """Whether a frame is due at ``t``."""
        return self.dt_out <= 0 or t >= self.next_out - self.eps_t or t >= self.t_end - self.eps_t

    def _framed(self) -> Frame:
        """The frame of the state, and the next output time after it."""
        frame = self.frame_of(self.state)
        if self.dt_out > 0:
            self.next_out = _next_output(self.state.t, self.dt_out, self.eps_t)
        return frame

    def _damp(self, t: float) -> None:
        """Numerical damping (tau = IMPACT_TAU, thesis 5.1.2) from ``t`` on, said in the results."""
        self.undamped = False
        self.integ.damp(IMPACT_TAU)
        self.contacts.damp(IMPACT_TAU)
        self.res.meta["numerical_damping"] = {"tau": IMPACT_TAU, "from_s": float(t)}

    def _stop(self, cause: str, step: float) -> None:
        self.status = "failed"
        self.message = f"stopped at t = {self.state.t:.6g} s after a step of {step:.3g} s: {cause}; {ADVICE}"

    def steps(self, cancel: Callable[[], bool] | None, blocks: bool) -> Iterator[Frame | FrameBlock]:
        """The steps to the end time, cancelled or failed: their frames (blocks with ``blocks``), those gathered
        yielded before a :class:`~solver.errors.SolverError` a step raised goes on (the partial results a caller
        keeps then end at the last step taken, not at the last block filled)."""
        try:
            yield from self._steps(cancel, blocks)
        except SolverError:
            yield from self._flush(blocks)
            raise
        yield from self._flush(blocks)

    def _steps(self, cancel: Callable[[], bool] | None, blocks: bool) -> Iterator[Frame | FrameBlock]:
        while self.state.t < self.t_end - self.eps_t:
            if cancel is not None and cancel():
                self.status, self.message = "cancelled", f"cancelled at t = {self.state.t:.6g} s"
                return
            verdict, failure = "step", None
            if self.free or self._open() or self._closed():
                verdict, failure = yield from self._free_steps(blocks)
            elif self.circles is not None and self.circles.ready():
                verdict, failure = yield from self._circle_steps(blocks)
            if verdict == "stop":
                return
            if verdict == "next":
                continue
            if not (yield from self._contact_step(failure, blocks)):
                return

    def _open(self) -> bool:
        """Whether the next steps may be a run of open steps (:mod:`.open_steps`)."""
        return self.open_gaps is not None and not self.contacts.closed() and self.open_gaps.clear(self.state, self.h)

    def _closed(self) -> bool:
        """Whether the next steps may be a run of closed steps (:mod:`.closed_steps`)."""
        return self.closed_rows is not None and self.closed_rows.ready(self.state)

    def _open_watch(self) -> tuple:
        """The arguments ``gaps, single, watch`` of :func:`.compiled_runs.compiled_run` for the next run: a run of
        open or closed steps of an undamped model stops at the first step the created-energy watch
        flags (the drivers' work as booked to each step, :meth:`.open_steps.OpenGaps.checked`; closed steps,
        whose friction work the watch's balance holds after each step, and a damped onset step, whose loss
        it holds after it, :mod:`.onset_steps`, one step a run)."""
        if self.free:
            return None, False, None
        gaps = self.closed_rows if self.contacts.closed() else self.open_gaps
        if not self.undamped:
            return gaps, False, None
        if gaps.records or self.contacts.step_tau() is not None:
            return gaps, True, None
        return gaps, False, self.watch

    def _free_steps(self, blocks: bool):
        """Steps in one compiled run (:func:`.compiled_runs.compiled_run`), their frames yielded; ``(verdict,
        failure)``: "stop" (the run failed), "next" (steps taken), "step" (the step after them
        failed, or ended with a gap closing, ``failure``, or none was taken: it is taken by
        :meth:`_contact_step`)."""
        started, kind = wallclock.perf_counter(), "impact_steps" if self.contacts.closed() else "free_steps"
        # open steps saved at every step: their frames gathered in the compiled run too (a run
        # of closed steps is framed by the loop: its contact columns need each step's multipliers)
        gathers_open = self.gathered is not None and not self.free and kind == "free_steps"
        try:
            self.state, self.h, taken, its, failure, block = compiled_run(
                self.integ, self.out, self.state, self.h, self.h0, self.t_end, self.eps_t, self.next_out, self.dt_out,
                self.breakpoints, self.limits, self.res.steps if self.log_steps else None, self.gather or gathers_open,
                *self._open_watch(), self.open_gaps.contact_block(self.gathered) if gathers_open else None,
                None if self.free else self.guard)
        except StepFailure as exc:
            self.status, self.message = "failed", str(exc)
            return "stop", None
        return (yield from self._ran(started, kind, taken, its, failure, block, blocks))

    def _circle_steps(self, blocks: bool):
        """Closed compliant steps in one compiled run (:mod:`.closed_circles`), as :meth:`_free_steps`."""
        started = wallclock.perf_counter()
        while self.breakpoints and self.breakpoints[0] <= self.state.t + self.eps_t:
            self.breakpoints.pop(0)
        self.state, self.h, taken, its, block = self.circles.run(self, self.gathered)
        self.rejected += self.circles.rejected
        if self.log_steps:
            self.res.steps.extend(self.circles.steps)
        return (yield from self._ran(started, "impact_steps", taken, its, None, block, blocks, self.circles.free))

    def _ran(self, started: float, kind: str, taken: int, its: int, failure, block, blocks: bool, free: int = 0):
        """The loop's counts, watch, damping switch and frames after a compiled run of ``taken`` steps
        (``block``: their frames; ``free`` of them taken with every pair open); the verdict of :meth:`_free_steps`."""
        self.steps_taken, self.iterations = self.steps_taken + taken, self.iterations + its
        if not self.free:  # open (closed) steps: counted with the other steps out of (in) contact
            if taken and self.undamped and self.watch.created_energy(self.state):
                self._damp(self.state.t)
            self.impact[kind] += taken - free
            self.impact["free_steps"] += free
            self.impact[kind + "_wall_s"] += wallclock.perf_counter() - started
        cause = self.watch.check(self.state, taken) if taken else None
        if block is not None:  # the frames of every step taken
            yield from self._flush(blocks)  # after those gathered before
            store_block(self.res.frames, block)
            yield from (block,) if blocks else block.frames()
        if cause is not None:
            self._stop(cause, self.limits.last_step)
            if block is None:
                yield from self._record(blocks)
            return "stop", None
        if taken and failure is None:
            if block is None and self._due(self.state.t):
                yield from self._record(blocks)
            return "next", None
        return "step", failure

    def _contact_step(self, failure: NewtonFailure | None, blocks: bool):
        """One step as the contact models have it, its frame yielded if due; whether the run goes on."""
        in_contact = self.contacts.active and self.contacts.closed()
        step_started = wallclock.perf_counter()
        try:
            new, iters, h_try, land = self._attempt(failure)
        except StepFailure as exc:
            self.status, self.message = "failed", str(exc)
            return False
        self.steps_taken, self.iterations = self.steps_taken + 1, self.iterations + iters
        if self.log_steps:
            self.res.steps.append(StepRecord(new.t, h_try, iters))
        self._accept(new, h_try, land, in_contact, step_started)
        cause = self.watch.check(self.state)
        if self.undamped and self.watch.created_energy(self.state):
            self._damp(self.state.t)
        if cause is not None:
            self._stop(cause, h_try)
            yield from self._record(blocks)
            return False
        self.h = min(self.h0, 2 * h_try)  # grow back gradually after cuts, contacts and breakpoints
        if self._due(self.state.t):
            yield from self._record(blocks)
        return True

    def _try(self, step: float, land: float | None, failure: NewtonFailure | None = None):
        """:func:`.attempts.advance` from the state, its cuts counted as rejected attempts."""
        new, iters, h_try, cuts = advance(self.integ, self.state, step, land, self.limits, self.guard, self.tracker,
                                           failure)
        self.rejected += cuts
        return new, iters, h_try

    def _attempt(self, failure: NewtonFailure | None):
        """The step from the state towards the contact forecast, the next breakpoint or the end,
        taken again to a contact event stepped over (eq. 3.4): ``(state, iterations, step, landing)``."""
        contacts, limits, t = self.contacts, self.limits, self.state.t
        h_full = step_to_output(t, step_towards(t, max(contacts.step_size(self.h), limits.shortest), self.t_end),
                                output_target(self.next_out, self.dt_out, self.h0), self.eps_t, self.t_end)
        t_f = contacts.forecast(self.state, h_full) if self.tracker else None  # a cut expected before the step
        h_try = h_full if t_f is None else max(t_f - t, limits.shortest)
        while self.breakpoints and self.breakpoints[0] <= t + self.eps_t:
            self.breakpoints.pop(0)
        h_try, land = _landing(self.breakpoints, t, h_try)
        new, iters, h_try = self._try(h_try, land, failure)
        if t_f is not None and contacts.short_of_contact(new):  # cut short of the contact: the whole step
            self.rejected += 1
            h_try, land = _landing(self.breakpoints, t, h_full)
            new, iters, h_try = self._try(h_try, land)
        for _ in range(MAX_CONTACT_RETRIES if self.tracker else 0):  # contact predictor (eq. 3.4), switches, errors
            t_ct = contacts.event_time(self.state, new)
            if t_ct is None or h_try <= limits.shortest:
                break
            self.rejected += 1
            land, step = None, max(t_ct - t, limits.shortest)
            new, iters, h_try = self._try(step, None, self._retaken(step))
        limits.accepted(new.t, h_try)
        return new, iters, h_try, land

    def _retaken(self, step: float) -> tuple[State, int] | None:
        """The step of ``step`` (s) from the state as the closed run that handed the last step over took it
        again (to a release, :mod:`.release_landing`), else None."""
        return None if self.closed_rows is None else self.closed_rows.take_retake(self.state, step)

    def _accept(self, new: State, h_try: float, land: float | None, in_contact: bool, step_started: float) -> None:
        """``new`` the run's state: the ledger advanced, restarted at a breakpoint it landed on, the
        contact models' impulses and the step's cost counted."""
        previous, out, contacts = self.state, self.out, self.contacts
        damped = self.tracker is not None and contacts.step_tau() is not None  # its numerical loss booked
        balance = self.watch.balance(previous) if damped else 0.0
        if land is None:
            self.state = new
            out.advance_ledger(new, h_try)
        else:
            out.advance_ledger(new, h_try, t_loads=np.nextafter(land, -np.inf))
            self.state = restart(self.asm, new, contacts.rows(new) if self.tracker else None)
            out.restart_ledger(new, self.state)
        if damped:  # the damped step after a Lagrange onset: its loss is the onset's (restitution); a gain
            out.ledger["dissipated_restitution"] += max(balance - self.watch.balance(self.state), 0.0)  # is the step's error
        if contacts.active:
            impulse_started = wallclock.perf_counter()
            count = len(contacts.events)
            self.state = contacts.after_step(previous, self.state, out)
            solved = sum(1 for e in contacts.events[count:] if e["kind"] == "impulse")
            if solved:
                self.impact["impulses"] += solved
                self.impact["impulses_wall_s"] += wallclock.perf_counter() - impulse_started
            kind = "impact_steps" if in_contact else "free_steps"
            self.impact[kind] += 1
            self.impact[kind + "_wall_s"] += wallclock.perf_counter() - step_started

    def _coulomb_hint(self) -> str | None:
        """:func:`~solver.contact.coulomb_hint.coulomb_hint` at the last accepted state."""
        return coulomb_hint(self.contacts, self.state) if self.contacts.active else None

    def finish(self) -> Results:
        """The results, with the run's status, message and counts."""
        message = self.message
        if self.status == "failed":  # what went wrong before the failure (the last state whose energy held)
            beyond = strain_hint(self.out, self.watch.last_sound) or lock_hint(self.system, self.state, self.contacts) or (
                self._coulomb_hint()) or (chatter_hint(self.contacts) if self.contacts.active else None)
            if beyond:  # neither a smaller step nor a finer mesh helps
                message = f"{message.split(f'; {ADVICE}')[0]}; {beyond}"
            else:
                message = "; ".join(filter(None, (message, mesh_hint(self.out, self.watch.last_sound),
                                                  *((closed_hint(self.contacts), band_hint(self.contacts, self.state))
                                                    if self.contacts.active else ()))))
        steps, integ = self.steps_taken, self.integ
        self.res.meta.update(
            status=self.status,
            message=message,
            wall_time_s=wallclock.perf_counter() - self.started,
            steps=steps,
            newton_iterations=self.iterations,
            newton_iterations_per_step=self.iterations / steps if steps else 0.0,
            factorizations=integ.factorizations,
            residual_evaluations_per_step=integ.evaluations / max(steps, 1),
            rejected_steps=self.rejected,
            **self.impact,
        )
        if self.contacts.active:
            self.res.meta.update(self.contacts.summary())
        cons = self.system.constraints
        if cons.redundant:  # the joints' reactions at the last state, split by least norm
            st = self.state
            self.res.meta["joint_reactions"] = joint_reactions(cons, cons.held_twice, st.q, st.lam, self.system.n)
        return self.res
