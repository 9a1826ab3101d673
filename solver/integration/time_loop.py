"""The time loop: steps, step cutting, output sampling, progress, cancel, partial results.

:func:`run` is a generator (the GUI runs it in a worker, the CLI drives a progress
bar with it): it yields a :class:`~solver.results.frames.Frame` at every output time and
finally the :class:`~solver.results.frames.Results`.  When Newton fails the step is halved
(at most ``max_step_cuts`` times) and grown back after successes; when it still
fails the run stops with a message naming the time and the cause, and the frames
computed so far are kept.  Steps land exactly on the breakpoints of load and
driver functions (the end of a ramp, the edges of a window), where the state is
restarted consistently (:func:`solver.system.initial.restart`): the trapezoidal rule
would otherwise carry an undamped velocity error from a kink in a prescribed motion.
"""
from __future__ import annotations

import hashlib
import time as wallclock
from typing import Callable, Iterator

import numpy as np

from ..system.assembly import Assembly
from ..system.compile import compile_model
from ..system.initial import initial_state, restart
from ..model.io import dumps_model
from ..contact.tracker import ContactTracker
from ..system.state import State
from .newmark import NewmarkIntegrator, NewtonFailure
from ..results.outputs import OutputBuilder
from ..results.frames import Frame, Results, StepRecord

#: contact-time estimates (eq. 3.4) tried before a step that passes a contact is accepted
MAX_CONTACT_RETRIES = 12


def _advance(integ: NewmarkIntegrator, s: State, h: float, land: float | None, max_cuts: int,
             guard: OutputBuilder | None = None, contacts: ContactTracker | None = None):
    """One step from ``s`` (with the contact rows and forces of ``contacts``), halving it
    when Newton fails (or, with a ``guard``, when the energy jumps: a spurious root);
    ``(state, iterations, step, cuts)``."""
    cuts = 0
    while True:
        try:
            step = h if land is None else land - s.t
            rows = None
            if contacts is not None:
                contacts.begin_step(s, step)
                rows = contacts.rows(s)
            new, iters = integ.step(s, step, breakpoint=land, rows=rows)
            if guard is not None and guard.spurious_growth(s, new):
                raise NewtonFailure("the energy jumped in one step (a spurious root of the Newmark equations)")
            return new, iters, new.t - s.t, cuts
        except NewtonFailure as exc:
            cuts += 1
            if cuts > max_cuts:
                raise NewtonFailure(f"{exc}; step cut {cuts - 1} times down to {h:.3g} s") from None
            h *= 0.5
            land = None


def run(model: dict, cancel: Callable[[], bool] | None = None) -> Iterator[Frame | Results]:
    """Simulate ``model``; see :func:`solver.api.iter_simulation`."""
    started = wallclock.perf_counter()
    system = compile_model(model)
    settings = system.settings
    asm = Assembly(system)
    out = OutputBuilder(asm)
    res = Results(model=model, layout=out.layout)
    res.meta.update(
        model_sha256=hashlib.sha256(dumps_model(model).encode()).hexdigest(),
        solver=settings,
        dofs=system.n,
        constraints=system.constraints.count,
        elements=system.beams.count,
    )
    contacts = ContactTracker(asm, settings)
    integ = NewmarkIntegrator(asm, settings, contacts.forces)
    res.layout.contacts = [p.id for p in contacts.pairs]
    res.events = contacts.events
    h0, t_end = settings["step"], settings["end_time"]
    dt_out = settings["output_interval"]
    state = initial_state(asm)
    if contacts.active:
        out.contact_power = contacts.contact_power
        out.contact_energy = contacts.elastic_energy
        state = contacts.after_step(None, state, out)
    breakpoints = sorted({b for b in system.breakpoints() if 0.0 < b < t_end})
    guard = out if contacts.jumps else None  # velocity jumps (impulses): watch for spurious roots
    tracker = contacts if contacts.active else None

    def frame_of(st: State) -> Frame:
        frame = out.frame(st)
        if contacts.active:
            frame.contact = contacts.frame_data(st)
        res.frames.append(frame)
        return frame

    yield frame_of(state)
    # cost of contact: steps taken while a pair is closed (impact steps, eq. 3.5), the other steps, impulse solves
    impact = {"impact_steps": 0, "impact_steps_wall_s": 0.0, "impulses": 0, "impulses_wall_s": 0.0,
              "free_steps": 0, "free_steps_wall_s": 0.0}
    next_out = dt_out
    h = h0
    status, message = "completed", ""
    eps_t = 1e-9 * h0
    rejected = 0  # step attempts taken again: Newton cuts, contact events stepped over, contact errors
    max_cuts = settings["max_step_cuts"]
    while state.t < t_end - eps_t:
        if cancel is not None and cancel():
            status, message = "cancelled", f"cancelled at t = {state.t:.6g} s"
            break
        in_contact = contacts.active and contacts.closed()
        step_started = wallclock.perf_counter()
        h_try = min(contacts.step_size(h), t_end - state.t)
        while breakpoints and breakpoints[0] <= state.t + eps_t:
            breakpoints.pop(0)
        land = breakpoints[0] if breakpoints and breakpoints[0] <= state.t + h_try + eps_t else None
        try:
            new, iters, h_try, cuts = _advance(integ, state, h_try, land, max_cuts, guard, tracker)
            rejected += cuts
            for _ in range(MAX_CONTACT_RETRIES if tracker else 0):  # contact predictor (eq. 3.4), switches, errors
                t_ct = contacts.event_time(state, new)
                if t_ct is None:
                    break
                rejected += 1
                land = None
                new, iters, h_try, cuts = _advance(integ, state, t_ct - state.t, None, max_cuts, guard, tracker)
                rejected += cuts
        except NewtonFailure as exc:
            status, message = "failed", f"stopped at t = {state.t:.6g} s: {exc}"
            break
        res.steps.append(StepRecord(new.t, h_try, iters))
        previous = state
        if land is None:
            state = new
            out.advance_ledger(state, h_try)
        else:
            out.advance_ledger(new, h_try, t_loads=np.nextafter(land, -np.inf))
            state = restart(asm, new, contacts.rows(new) if tracker else None)
            out.restart_ledger(new, state)
        if contacts.active:
            impulse_started = wallclock.perf_counter()
            count = len(contacts.events)
            state = contacts.after_step(previous, state, out)
            solved = sum(1 for e in contacts.events[count:] if e["kind"] == "impulse")
            if solved:
                impact["impulses"] += solved
                impact["impulses_wall_s"] += wallclock.perf_counter() - impulse_started
            kind = "impact_steps" if in_contact else "free_steps"
            impact[kind] += 1
            impact[kind + "_wall_s"] += wallclock.perf_counter() - step_started
        h = min(h0, 2 * h_try)  # grow back gradually after cuts, contacts and breakpoints
        if dt_out <= 0 or state.t >= next_out - eps_t or state.t >= t_end - eps_t:
            yield frame_of(state)
            while dt_out > 0 and next_out <= state.t + eps_t:
                next_out += dt_out
    iters = [s.newton_iterations for s in res.steps]
    res.meta.update(
        status=status,
        message=message,
        wall_time_s=wallclock.perf_counter() - started,
        steps=len(res.steps),
        newton_iterations=int(sum(iters)),
        newton_iterations_per_step=(sum(iters) / len(iters)) if iters else 0.0,
        factorizations=integ.factorizations,
        residual_evaluations_per_step=integ.evaluations / max(len(res.steps), 1),
        rejected_steps=rejected,
        **impact,
    )
    if contacts.active:
        res.meta.update(contacts.summary())
    yield res
