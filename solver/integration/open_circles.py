"""Runs of compiled steps while every compliant circle pair is open.

A model whose only contact pairs are dry compliant circle pairs (the revolute clearance joints
of Flores et al. 2006, §5; cylinders; :mod:`solver.contact.circle_pairs`) steps, while no pair
is *live* -- none whose gap a step could close, :meth:`~solver.contact.compliant.CompliantModel.begin_step`'s
rule :func:`~solver.contact.hermite_gap.closing_reach` -- exactly as a model without pairs: no
contact force joins the loads, no block the Newton matrix.  :func:`open_circle_steps` takes
such steps in one compiled call, one :func:`~.free_steps.free_steps` step at a time, after
looking at every pair before each step: a step from a state with a live pair is not taken (the
run ends before it and the loop takes it by the contact model's rules, the approach as before).
After each step it bounds the cubic Hermite gap of every pair over the step from below
(:func:`~solver.contact.hermite_gap.hermite_floor`): a step whose bound comes within the contact
tolerance of zero -- which every step does where ``event_time`` would find a contact start or
``switch`` a penetration -- ends the run and is handed to the loop as the first attempt of its
next step (:func:`~.attempts.advance`), as :mod:`.open_steps` hands over a closing Lagrange
gap.  The steps taken are the loop's to the bit (the same arithmetic).
"""
from __future__ import annotations

import numpy as np

from ..contact.hermite_gap import hermite_floor
from ..contact.state_terms import mechanical_args
from ..contact.tracker import ContactTracker
from ..jit import borrowed, njit
from ..results.frame_block import ContactBlock
from ..results.outputs import SPURIOUS_FLOOR
from ..system.state import State
from . import compliant_steps as cs
from .closed_circles import FRAME_KEYS
from .divergence import DAMPING_ONSET, DivergenceWatch
from .free_steps import FAILED, RUN_ARGS
from .live_pairs import any_live, pair_state
from .newmark import NewtonFailure
from .open_looks import FLAGGED, JUMPED, open_contact_rows, open_looks
from .open_steps import SPURIOUS, OpenGaps, _copied, open_step

#: the time loop's created-energy watch, which :meth:`OpenCircles.checked` looks with compiled (a
#: watch of another kind is called step by step)
CREATED_ENERGY = DivergenceWatch.created_energy

#: :func:`~solver.contact.hermite_gap.hermite_floor` compiled
compiled_floor = njit(cache=True)(hermite_floor)


@njit(cache=True)
def may_touch(q, v, h, tol, starts, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp):
    """Whether a pair's cubic Hermite gap over a step of ``h`` (s) from the gaps and normal
    velocities ``starts`` to ``(q, v)`` may come within ``tol`` (m) of zero
    (:func:`~solver.contact.hermite_gap.hermite_floor`)."""
    for j in range(dofs.shape[0]):
        gap, v_n, _J, _pair = pair_state(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction,
                                         fp, j)
        if not compiled_floor(starts[j, 0], h * starts[j, 1], gap, h * v_n) >= tol:
            return True
    return False


@njit(cache=True, nogil=True)
def open_circle_steps(tol, margin, starts, batch, before, aps, *args):
    """The steps of :func:`~.free_steps.free_steps` (``args``: its arguments, borrowed as it borrows them)
    while no pair of ``batch`` (:func:`~solver.contact.circle_pairs.pack_circle_batch`'s arrays up to the
    friction parameters) is live at a step's start (:func:`any_live`, contact tolerance ``tol``, m),
    each followed by :func:`may_touch` within ``margin`` (m); ``before`` and ``aps`` as in
    :func:`.open_steps.open_steps`.  Returns ``(steps, closing)``: ``steps`` as
    :func:`~.free_steps.free_steps` returns it (a run that met a live pair ends before that step),
    ``closing`` whether the last step taken may touch."""
    (targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows,
     drv_dofs, iterations, powers, states, factor, scale) = borrowed(args[:RUN_ARGS])
    system = borrowed(args[RUN_ARGS:])
    for k in range(targets.shape[0]):
        if any_live(q, v, a, h, tol, starts, *batch):
            return k, False
        if not open_step(k, before, aps, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v,
                         a, ap, lam, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, *system):
            return FAILED - k, False
        if may_touch(q, v, h, margin, starts, *batch):
            return k + 1, True
    return targets.shape[0], False


class OpenCircles(OpenGaps):
    """The dry circle pairs of a run whose open steps :func:`open_circle_steps` may take."""

    stores_energy = True  # compliant pairs

    def __init__(self, contacts: ContactTracker, tol: float):
        self.model = contacts.forces
        self.batch = self.model.kernel_args()[:11]  # dofs ... friction parameters
        self.tol = tol  # m
        #: a step whose Hermite gap may come within this (m) of zero is handed over: the contact
        #: tolerance (any larger hands over more steps, with the same results)
        self.margin = tol
        self.starts = np.empty((len(contacts.pairs), 2))
        self.mechanical, self.frame_keys = mechanical_args(contacts.asm), contacts.frame_keys
        self.before = np.empty((5, 0))
        self.aps = np.empty((0, 0))

    @staticmethod
    def serves(contacts: ContactTracker) -> bool:
        """Whether every contact pair is a compliant circle pair without an oil film or wear, in a
        run without loads (gravity aside), moving supports, Rayleigh damping, modal links or free
        strains (the runs whose states' terms are compiled,
        :meth:`~solver.contact.tracker.ContactTracker.state_terms`)."""
        model = contacts.forces
        return model is not None and not model.films and not model.wear and contacts.state_terms() is not None

    def screening(self, guard, watch, out, steps: int) -> bool:
        """Never: the energy guard looks at a run's recorded steps
        (:meth:`.open_steps.OpenGaps.checked`; the screen, :mod:`.energy_screen`, has no compliant
        contact energy)."""
        self.jumped = False
        return False

    def clear(self, s: State, h: float) -> bool:
        """Whether no pair is live in a step of ``h`` (s) from the state ``s``."""
        return not any_live(s.q, s.v, s.a, h, self.tol, self.starts, *self.batch)

    def steps(self, args: tuple, n: int, m: int, recorded: int) -> tuple[int, bool]:
        """:func:`open_circle_steps` with the arguments ``args`` of :func:`~.free_steps.free_steps`
        (:meth:`.open_steps.OpenGaps.steps`)."""
        if self.before.shape[1] < max(n, m):
            self.before = np.empty((5, max(n, m)))
        self.aps = np.empty((recorded, n))
        return open_circle_steps(self.tol, self.margin, self.starts, self.batch, self.before, self.aps, *args)

    def _pairs(self) -> tuple:
        m = self.model
        return m._batch, m.state, m.delta_dot_0, m.trial_rate, m.unloading

    def checked(self, start: State, times: np.ndarray, run: tuple, guard, watch, out, stacked: bool) -> tuple:
        """:meth:`.open_steps.OpenGaps.checked`, the guard and the time loop's watch (a
        :class:`~.divergence.DivergenceWatch`) compiled (:func:`.open_looks.open_looks`, which books
        the drivers' work to each step: no modal damping works, :meth:`serves`); another watch, as there."""
        new, iterations, powers, failure, (q, v, a, lam) = run
        count = len(iterations)
        if not count:
            return run[:4]
        if watch is not None and getattr(type(watch), "created_energy", None) is not CREATED_ENERGY:
            return super().checked(start, times, run, guard, watch, out, stacked)
        scalars, works = np.zeros(cs.SCALARS), np.empty(0)
        scalars[[cs.LARGEST, cs.FLOOR]] = out._largest_start, SPURIOUS_FLOOR
        if watch is not None:
            scalars[[cs.IN_PLAY, cs.BALANCE0, cs.ONSET]] = watch._in_play, watch._balance0, DAMPING_ONSET
            works = np.array(out.drivers_work(np.diff(times[:count], prepend=start.t).tolist(), powers[:, 0]))
        ledger, slot = np.array(list(out.ledger.values())), list(out.ledger).index("work_drivers")
        # contiguous whether or not the run's rows are views of wider ones: open_looks compiles once
        rows = [np.ascontiguousarray(x[:count]) for x in (q, v, lam)]
        k, verdict = open_looks(start.t, times[:count], *rows, start.q, start.v, start.lam,
                                scalars, works, ledger, slot, guard is not None, watch is not None, self.mechanical,
                                self._pairs())
        out._largest_start = float(scalars[cs.LARGEST])
        if watch is not None:
            watch._in_play = float(scalars[cs.IN_PLAY])
        if verdict == JUMPED:
            before = start if k == 0 else _copied(State(float(times[k - 1]), q[k - 1], v[k - 1], a[k - 1], lam[k - 1],
                                                        self.aps[k - 1], self.multipliers(k)))
            return before, iterations[:k], powers[:k], NewtonFailure(SPURIOUS)
        if verdict == FLAGGED:
            st = State(float(times[k]), q[k], v[k], a[k], lam[k], self.aps[k], self.multipliers(k + 1))
            return _copied(st), iterations[:k + 1], powers[:k + 1], None
        return new, iterations, powers, failure

    def contact_block(self, gathered):
        """The contact columns of a run's frames (:meth:`.open_steps.OpenGaps.contact_block`), compiled
        (:func:`.open_looks.open_contact_rows`) where the frames hold the columns the compiled runs write."""
        if gathered.contact_row is None or self.frame_keys != FRAME_KEYS:
            return super().contact_block(gathered)

        def rows(times: np.ndarray, states: tuple[np.ndarray, ...]) -> ContactBlock:
            m = self.model
            table = np.empty((len(times), len(FRAME_KEYS), len(m.pairs)))
            open_contact_rows(states[0], states[1], self._pairs(), m._acc, m.impacts, table)
            chosen = gathered.chosen
            return ContactBlock(gathered.contact_keys, table if chosen is None else table[:, :, chosen])
        return rows

    def ended(self, new: State, failure, taken: int) -> tuple:
        """The run's last state after ``taken`` steps and the step handed over, as they are; the
        compliant model told that its state moved on."""
        if taken:
            self.model.moved()
        return new, failure
