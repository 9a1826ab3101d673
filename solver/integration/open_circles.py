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

from ..contact.circle_pairs import circle_pair_state
from ..contact.hermite_gap import closing_reach, hermite_floor
from ..contact.tracker import ContactTracker
from ..jit import borrowed, njit
from ..system.state import State
from .free_steps import FAILED
from .open_steps import OpenGaps, open_step

#: a pair's reach (m) above its gap by this fraction still makes it live here: a kernel's product
#: rounded otherwise than numpy's can only end a run early, never take a step the loop would not
REACH_MARGIN = 1e-9

#: :func:`~solver.contact.hermite_gap.closing_reach` and :func:`~solver.contact.hermite_gap.hermite_floor` compiled
compiled_reach = njit(cache=True)(closing_reach)
compiled_floor = njit(cache=True)(hermite_floor)


@njit(cache=True)
def pair_state(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, j):
    """Gap (m), normal velocity (m/s), Jacobian rows (2, k) and dofs (k,) of pair ``j`` of a batch
    (:func:`~solver.contact.circle_pairs.pack_circle_batch`) at ``(q, v)``, an open pair's
    (:func:`~solver.contact.circle_pairs.circle_pair_state`; the law is not read)."""
    pair = dofs[j, : widths[j]]
    gap, _nx, _ny, J, v_n, _v_t, _depth, _normal, _F_t, _dF_t = circle_pair_state(
        q, v, pair, ends[j], slots[j], geometry[j], law[j], p[j], kelvin[j], damping[j], friction[j], fp[j], 1.0, False)
    return gap, v_n, J, pair


@njit(cache=True)
def any_live(q, v, a, h, tol, starts, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp):
    """Whether a pair is live in a step of ``h`` (s) from ``(q, v, a)`` (its gap below
    :func:`~solver.contact.hermite_gap.closing_reach` with the contact tolerance ``tol``, m, and
    :data:`REACH_MARGIN`; the normal acceleration ``J a`` by the BLAS product of
    :meth:`~solver.system.contact_pairs.ContactGeometry.velocity`); each pair's gap and normal
    velocity into ``starts`` (pairs, 2)."""
    for j in range(dofs.shape[0]):
        gap, v_n, J, pair = pair_state(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction,
                                       fp, j)
        w = np.empty(pair.shape[0])
        for i in range(pair.shape[0]):
            w[i] = a[pair[i]]
        starts[j, 0], starts[j, 1] = gap, v_n
        if not gap >= (1.0 + REACH_MARGIN) * compiled_reach(v_n, np.dot(J, w)[0], h, tol):
            return True
    return False


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
    """:func:`_open_circle_steps` with the arrays of ``args`` borrowed (:mod:`solver.borrowing`)."""
    return _open_circle_steps(tol, margin, starts, batch, before, aps, *borrowed(args))


@njit(cache=True, nogil=True)
def _open_circle_steps(tol, margin, starts, batch, before, aps, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio,
                       lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows, drv_dofs, iterations, powers, states,
                       factor, scale, *system):
    """The steps of :func:`~.free_steps.free_steps` (same arguments from ``targets`` on) while no
    pair of ``batch`` (:func:`~solver.contact.circle_pairs.pack_circle_batch`'s arrays up to the
    friction parameters) is live at a step's start (:func:`any_live`, contact tolerance ``tol``, m),
    each followed by :func:`may_touch` within ``margin`` (m); ``before`` and ``aps`` as in
    :func:`.open_steps.open_steps`.  Returns ``(steps, closing)``: ``steps`` as
    :func:`~.free_steps.free_steps` returns it (a run that met a live pair ends before that step),
    ``closing`` whether the last step taken may touch."""
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

    def screening(self, guard) -> bool:
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

    def ended(self, new: State, failure, taken: int) -> tuple:
        """The run's last state after ``taken`` steps and the step handed over, as they are; the
        compliant model told that its state moved on."""
        if taken:
            self.model.moved()
        return new, failure
