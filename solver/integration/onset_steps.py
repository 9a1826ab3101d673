"""The damped step after a Lagrange onset taken in a compiled run of closed steps (:mod:`.closed_steps`).

After an onset jump on flexible elements the first step of :data:`~solver.contact.lagrange.ONSET_STEPS`
is damped (``tau = 0.9`` with eq. (5.1)'s ``nu``) and taken from an acceleration of zero.  The time loop took it one by one (about 300 us of
Python on the bar struck by a mass: the rows, the energy guard, the predictor, the ledger, the contact
rules after the step); a run of closed steps now begins with it, each of its steps with its own Newmark
parameters (:func:`step_parameters`), and books after it what the loop books (:func:`book_damped`):
the energy the step lost, the onset's restitution (docs/solver.md, departure 7).  A run may begin at
an instant where nothing but onsets happened (:func:`only_onsets`).
"""
from __future__ import annotations

import numpy as np

from ..contact.lagrange import ONSET_STEPS
from ..system.integrator import damped
from ..system.state import State

#: the events an onset logs at its instant (:meth:`~solver.contact.lagrange.LagrangeModel.jumps`)
ONSET_EVENTS = ("contact_start", "impulse")


def only_onsets(events: list[dict], t: float) -> bool:
    """Whether every event logged at ``t`` (s) or later is an onset's (none at all: True)."""
    for event in reversed(events):
        if event["time_s"] < t:
            return True
        if event["kind"] not in ONSET_EVENTS:
            return False
    return True


def step_parameters(sizes: np.ndarray, left: int, nu: float, tau: float) -> np.ndarray:
    """``(h s, nu, tau, from_rest)`` of each step of a run of ``sizes`` (s): the first with the ``tau`` of the
    ``left`` steps of :data:`~solver.contact.lagrange.ONSET_STEPS` that remain (the last ``left``; their ``nu``
    by eq. 5.1, :func:`~solver.system.integrator.damped`, and ``from_rest`` 1: from an acceleration of zero;
    None: the run's), the others with the run's ``nu`` and ``tau`` (``from_rest`` 0)."""
    params = np.zeros((len(sizes), 4))
    params[:, 0], params[:, 1], params[:, 2] = sizes, nu, tau
    taus = [step_tau for _fraction, step_tau in ONSET_STEPS[len(ONSET_STEPS) - left:]] if left else []
    for k, step_tau in enumerate(taus[:len(sizes)]):
        if step_tau is not None:
            params[k, 1:] = (*damped(step_tau), 1.0)
    return params


def book_damped(out, watch, start: State, first: State, hs: np.ndarray, powers: np.ndarray, end: State,
                p_fric: np.ndarray) -> list[float]:
    """:meth:`~solver.results.outputs.OutputBuilder.advance_ledger_drivers` of ``out`` over a run's steps ``hs``
    (s; ``powers`` and friction powers ``p_fric``, W, at their ends) from ``start`` to ``end`` whose first, to
    ``first``, is a damped onset step: its loss (the energy balance of ``watch``, a
    :class:`~.divergence.DivergenceWatch`, fallen over it) booked after it as the onset's restitution, as
    the time loop books it (:meth:`~.time_loop._Loop._accept`); the drivers' work after each step, J."""
    balance = watch.balance(start)
    works = out.advance_ledger_drivers(hs[:1].tolist(), powers[:1], first, p_fric[:1])
    out.ledger["dissipated_restitution"] += max(balance - watch.balance(first), 0.0)
    if len(hs) > 1:
        works += out.advance_ledger_drivers(hs[1:].tolist(), powers[1:], end, p_fric[1:])
    return works
