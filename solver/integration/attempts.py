"""One step of the time loop from a state, halved when Newton fails or the energy jumps
(a spurious root of the Newmark equations), within the run's bounds (:class:`~.step_limits.StepLimits`)."""
from __future__ import annotations

from ..contact.tracker import ContactTracker
from ..results.outputs import OutputBuilder
from ..system.state import State
from .newmark import NewmarkIntegrator, NewtonFailure
from .step_limits import ADVICE, StepFailure, StepLimits


def advance(integ: NewmarkIntegrator, s: State, h: float, land: float | None, limits: StepLimits,
             guard: OutputBuilder | None = None, contacts: ContactTracker | None = None,
             failure: NewtonFailure | None = None):
    """One step from ``s`` (with the contact rows and forces of ``contacts``), halving it
    when Newton fails (or, with a ``guard``, when the energy jumps: a spurious root);
    ``(state, iterations, step, cuts)``.  A ``failure`` is that of a first attempt already
    made (in a run of free steps), or that attempt itself, ``(state, iterations)``, handed over
    by a run of open steps (:mod:`.open_steps`).  Raises :class:`StepFailure` when the step may
    not be cut further (:meth:`StepLimits.may_cut`)."""
    cuts = 0
    while True:
        step = h if land is None else land - s.t
        try:
            if isinstance(failure, NewtonFailure):
                failed, failure = failure, None
                raise failed
            if contacts is not None:
                contacts.begin_step(s, step)
            if failure is not None:  # the attempt taken in a run of open steps, with the rows of its modes
                (new, iters), failure = failure, None
            else:  # with the tau a contact model asks of the step (a Lagrange onset's damped step)
                rows = contacts.rows(s) if contacts is not None else None
                integ.step_damping(contacts.step_tau() if contacts is not None else None)
                try:
                    new, iters = integ.step(s, step, breakpoint=land, rows=rows)
                finally:
                    integ.step_damping(None)
            if guard is not None and guard.spurious_growth(s, new):
                raise NewtonFailure("the energy jumped in one step: a spurious root of the Newmark equations")
            return new, iters, new.t - s.t, cuts
        except NewtonFailure as exc:
            if not limits.may_cut(step, cuts):
                limit = (f"after {cuts} cuts" if cuts >= limits.max_cuts
                         else "the shortest step the run allows")
                raise StepFailure(
                    f"stopped at t = {s.t:.6g} s: Newton did not converge with a step of {step:.3g} s, "
                    f"{limit} ({exc}); {ADVICE}"
                ) from None
            cuts += 1
            h = 0.5 * step
            land = None
