"""The time loop: steps, step cutting, output sampling, progress, cancel, partial results.

:func:`run` is a generator (the GUI runs it in a worker, the CLI drives a progress
bar with it): it yields a :class:`~solver.results.Frame` at every output time and
finally the :class:`~solver.results.Results`.  When Newton fails the step is halved
(at most ``max_step_cuts`` times) and grown back after successes; when it still
fails the run stops with a message naming the time and the cause, and the frames
computed so far are kept.  Steps land exactly on the breakpoints of load and
driver functions (the end of a ramp, the edges of a window), where the state is
restarted consistently (:func:`solver.initial.restart`): the trapezoidal rule
would otherwise carry an undamped velocity error from a kink in a prescribed motion.
"""
from __future__ import annotations

import hashlib
import time as wallclock
from typing import Callable, Iterator

import numpy as np

from .assembly import Assembly
from .compile import compile_model
from .initial import initial_state, restart
from .model.io import dumps_model
from .newmark import NewmarkIntegrator, NewtonFailure
from .outputs import OutputBuilder
from .results import Frame, Results, StepRecord


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
    integ = NewmarkIntegrator(asm, settings)
    h0, t_end = settings["step"], settings["end_time"]
    dt_out = settings["output_interval"]
    state = initial_state(asm)
    breakpoints = sorted({b for b in system.breakpoints() if 0.0 < b < t_end})
    first = out.frame(state)
    res.frames.append(first)
    yield first
    next_out = dt_out
    h = h0
    status, message = "completed", ""
    eps_t = 1e-9 * h0
    while state.t < t_end - eps_t:
        if cancel is not None and cancel():
            status, message = "cancelled", f"cancelled at t = {state.t:.6g} s"
            break
        h_try = min(h, t_end - state.t)
        ahead = [b for b in breakpoints if b > state.t + eps_t]
        land = ahead[0] if ahead and ahead[0] <= state.t + h_try + eps_t else None
        cuts = 0
        while True:
            try:
                if land is not None:
                    h_try = land - state.t
                new, iters = integ.step(state, h_try, breakpoint=land)
                break
            except NewtonFailure as exc:
                cuts += 1
                if cuts > settings["max_step_cuts"]:
                    status = "failed"
                    message = f"stopped at t = {state.t:.6g} s: {exc}; step cut {cuts - 1} times down to {h_try:.3g} s"
                    break
                h_try *= 0.5
                land = None
        if status == "failed":
            break
        res.steps.append(StepRecord(new.t, h_try, iters))
        if land is None:
            state = new
            out.advance_ledger(state, h_try)
        else:
            out.advance_ledger(new, h_try, t_loads=np.nextafter(land, -np.inf))
            state = restart(asm, new)
            out.restart_ledger(new, state)
        h = min(h0, 2 * h_try) if cuts else h0
        if dt_out <= 0 or state.t >= next_out - eps_t or state.t >= t_end - eps_t:
            frame = out.frame(state)
            res.frames.append(frame)
            yield frame
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
    )
    yield res
