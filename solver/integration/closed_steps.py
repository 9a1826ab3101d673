"""Runs of compiled steps while Lagrange-multiplier contact pairs stay closed in their modes.

A model whose only contact pairs are Lagrange-multiplier pairs (thesis ch. 4) on a node or a
ground line steps, while its closed pairs keep their modes, with the same contact rows step
after step: a straight target's normal and tangent do not turn, so the rows of
:meth:`~solver.contact.lagrange.LagrangeModel.fill_rows` (the normal gap held, 4.15, its force
along ``eta``, 4.17, while sliding; the tangential velocity held too while sticking, 4.29) keep
their coefficients and only their right-hand side ``J_n . q - g + g_held`` follows the step's
start ``q``.  :func:`closed_steps` takes such steps in one compiled call: per step the rows'
right-hand side (:func:`write_rhs`), the Newmark step with the rows bordering its Newton matrix
(:func:`~.free_steps.free_step`: the bordered solve of App. B, its ``W = A^-1 C`` and Schur matrix
kept while the factors hold, and the projection of :func:`~.newmark.project_step`: the arithmetic
of :meth:`~.newmark.NewmarkIntegrator.step` with rows), then at the step's end the look the contact
rules would take (:func:`modes_hold`): a normal force tensile beyond the pair's resolution (4.1,
release), a slip velocity through zero or fallen to ``eps`` of its value a step before (4.8,
4.9), a stick needing more than ``mu_s F_n`` (4.6), a node target's point out of its reach, an
open pair's gap closing (:func:`~.open_steps.gaps_closing`).  A step at whose end any of them
acts, or might (a slip velocity within :data:`DOUBT` of its terms of a sign change), ends the
run: its start is the run's last state and the step itself is handed to the time loop as the
first attempt of its next step, which applies the contact rules to it as to a step it had taken
itself (:mod:`.open_steps` does the same).  A step that fails is given back as a failure.

The steps of a run need not be of one size nor of one ``nu, tau``: after an onset the steps of
:data:`~solver.contact.lagrange.ONSET_STEPS`, the first damped (:mod:`.onset_steps`), and the steps
growing back from them to the impact step (eq. 3.5; each twice the last, :func:`~.free_steps.plan_steps`)
are one run, each new size with its Newmark coefficients and, unless the factors are of a step within the
integrator's ``step_reuse`` of it and of its ``nu, tau``, a new factorisation of the Newton matrix
(:func:`step_sizing`, the rule of :meth:`~.newmark.NewmarkIntegrator.step` and ``step_damping``).

The numbers are those of the steps the loop takes one by one, to the bit: the right-hand side
sums ``J_n . q`` with the contact model's own kernel (:func:`~solver.system.bordered.row_dot`),
and the forces of the frames (:meth:`~solver.contact.lagrange.LagrangeModel.step_ended`) and the friction power of the
ledger are the contact model's own, from the multipliers of the run's steps.  A run begins only
after a step at whose end nothing but onsets happened (no switch), and it ends, as a run of
open steps does, before a step whose energy jumped (a spurious root of the Newmark equations,
screened in the run, :mod:`.energy_screen`, else looked for step by step,
:meth:`~.open_steps.OpenGaps.checked`), which the loop cuts, and after a step at which the
created-energy watch of an undamped run flags the energy balance (in the run too).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..contact.lagrange import OPEN, SLIDE, STICK
from ..contact.tracker import ContactTracker
from ..errors import SolverError
from ..jit import borrowed, njit
from ..system.bordered import NOT_FINITE, row_dot
from ..system.state import State
from .free_steps import FAILED, RUN_ARGS, free_step, step_work
from .newmark import NewmarkIntegrator
from .energy_screen import GOING, screen_start, screened
from .onset_steps import book_damped, only_onsets, step_parameters
from .release_landing import (RETAKE_ITERATIONS, RETAKE_KINETIC, RETAKE_POTENTIAL, RETAKE_STEP, RETAKEN, SHORTEST,
                              lands, release_time, retake, retake_energies)
from .open_steps import HANDED, NODE, RAN, OpenGaps, gaps_closing, pair_gap

#: the columns of :func:`modes_hold`'s ``props``: the gap held (m), the effective mass along the
#: normal (kg), the slip direction, mu_s, eq. (4.9)'s eps, frictional (1/0), a node target's reach (m)
HOLD, MASS, SIGMA, MU_S, EPS, FRICTIONAL, REACH = range(7)

#: a slip velocity within this fraction of the sum of its terms' magnitudes of a sign change (or of
#: eq. 4.9's limit) may be judged otherwise by numpy's product, summed in another order: the step is
#: handed to the loop
DOUBT = 1e-12

#: dofs of a pair's tangential velocity: the point's x, y and rotation, a node target's x, y
TANGENT_DOFS = 6

#: the place of ``states`` (each step's end state) among the arguments of :func:`~.free_steps.free_steps`
STATES = 20


@njit(cache=True)
def write_rhs(kinds, dofs, frames, modes, first, props, cr_dofs, cr_row, cr_rhs, q):
    """The right-hand side ``J_n . q - g + g_held`` (m) of each closed pair's normal row, first row
    ``first[j]`` (:meth:`~solver.contact.lagrange.LagrangeModel._write`), at the step's start ``q``;
    ``J_n . q`` summed as the contact model sums it (:func:`~solver.system.bordered.row_dot`)."""
    for j in range(kinds.shape[0]):
        if modes[j] == OPEN:
            continue
        r = first[j]
        cr_rhs[r] = row_dot(cr_row[r], cr_dofs[r], q) - pair_gap(kinds, dofs, frames, j, q) + props[j, HOLD]


@njit(cache=True)
def tangential(t_dofs, t_coef, j, v):
    """The tangential relative velocity of pair ``j`` (m/s) and the sum of its terms' magnitudes."""
    v_t, size = 0.0, 0.0
    for i in range(t_dofs.shape[1]):
        term = t_coef[j, i] * v[t_dofs[j, i]]
        v_t += term
        size += abs(term)
    return v_t, size


@njit(cache=True)
def modes_hold(kinds, dofs, frames, modes, first, props, t_dofs, t_coef, q, v, v0, lam_c, h, tol_g, nu):
    """Whether every closed pair keeps its mode at the end of a step of ``h`` (s) from the velocities
    ``v0`` to ``(q, v)``, its multipliers ``lam_c`` (N), as
    :meth:`~solver.contact.lagrange.LagrangeModel.event_time` and ``switch`` judge it: the normal
    force not tensile beyond the resolution ``m tol_g / (nu h^2)`` (4.1), a node target's point
    within its reach, a slip ``sigma v_t`` not through zero nor fallen to ``eps`` of its value a
    step before (4.8, 4.9; within :data:`DOUBT`, in doubt), a stick's ``mu_s F_n - |F_t|`` not
    negative beyond the resolution (4.6)."""
    for j in range(kinds.shape[0]):
        if modes[j] == OPEN:
            continue
        r = first[j]
        F_tol = props[j, MASS] * tol_g / (nu * h * h)
        F_n = lam_c[r]
        if not (F_n + F_tol >= 0.0 and F_n >= -F_tol):
            return False
        if kinds[j] == NODE and not reachable(dofs, frames, j, q, pair_gap(kinds, dofs, frames, j, q), props[j, REACH]):
            return False
        if modes[j] == SLIDE and props[j, SIGMA] != 0.0 and props[j, FRICTIONAL] != 0.0:
            v_t, size = tangential(t_dofs, t_coef, j, v)
            v_t0, size0 = tangential(t_dofs, t_coef, j, v0)
            if not props[j, SIGMA] * v_t > DOUBT * size:
                return False
            if not abs(v_t) - DOUBT * size > props[j, EPS] * (abs(v_t0) + DOUBT * size0):
                return False
        elif modes[j] == STICK and not props[j, MU_S] * F_n + F_tol - abs(lam_c[r + 1]) >= 0.0:
            return False
    return True


@njit(cache=True)
def reachable(dofs, frames, j, q, gap, reach):
    """Whether the point of node pair ``j`` is within ``reach`` (m) of its node across the normal
    and less than ``reach`` behind its face, at its ``gap`` (m)
    (:meth:`~solver.system.contact_pairs.ContactPair.geometry`)."""
    dx, dy = q[dofs[j, 0]] - q[dofs[j, 2]], q[dofs[j, 1]] - q[dofs[j, 3]]
    return abs(frames[j, 1] * dx - frames[j, 0] * dy) <= reach and gap >= -reach


@njit(cache=True, nogil=True)
def closed_steps(pairs, modes, first, props, tangents, times, sizes, newmark, resolution, lam_ends, gaps, before, aps,
                 screen, *args):
    """The steps of :func:`~.free_steps.free_steps` (``args``: its arguments, borrowed as it borrows them, the
    contact rows last), step k of size ``sizes[k, 0]`` (s) with the Newmark ``nu, tau = sizes[k, 1:3]``, from an
    acceleration of zero where ``sizes[k, 3]`` (a damped onset step, :mod:`.onset_steps`; ``h``, ``c_a``,
    ``c_v`` and ``lam_factor`` are the first step's; ``nu`` and ``newmark``'s ``tau`` the run's: a step with
    others, a damped onset step, :mod:`.onset_steps`, has its own factors and leaves none), each with the rows' right-hand side written at its start and followed by the looks
    of :func:`modes_hold` and of :func:`~.open_steps.gaps_closing` at the open pairs (``gaps`` =
    their kinds, dofs, frames and limit); ``pairs`` = every pair's (kinds, dofs, frames),
    ``modes``, ``first`` rows, ``props`` and ``tangents`` = (dofs, coefficients) as
    :func:`modes_hold` takes them, ``times`` the run's start and step ends, ``newmark`` = (d qddot / d a~,
    tau, the integrator's ``step_reuse``: :func:`step_sizing`), ``resolution`` = (tol_g m, the contact
    model's nu); ``before``, ``aps``, ``screen`` as :func:`~.open_steps.open_steps` has them,
    ``lam_ends[k]`` receives the contact multipliers at the end of step k.  Returns ``(steps, ending)``
    as :func:`~.open_steps.open_steps` does, ``ending`` :data:`~.open_steps.HANDED` also when a closed
    pair's rule acts at the last step's end."""
    (targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows,
     drv_dofs, iterations, powers, states, factor, scale) = borrowed(args[:RUN_ARGS])
    system = borrowed(args[RUN_ARGS:])
    cr_dofs, cr_row, cr_rhs, lam_c = system[-8], system[-6], system[-3], system[-2]
    kinds, dofs, frames = pairs
    n, m = q.shape[0], lam.shape[0]
    work = step_work(q, lam, cr_dofs.shape[0])
    U = screen_start(screen, q, v, F_ext, system)
    h, nu_k, tau_k = np.nan, nu, newmark[1]
    taken, ending = targets.shape[0], RAN
    lam_c0 = lam_c.copy()
    for k in range(targets.shape[0]):
        if sizes[k, 0] != h or sizes[k, 1] != nu_k or sizes[k, 2] != tau_k:
            if sizes[k, 1] != nu_k or sizes[k, 2] != tau_k:
                factor[0] = 0  # as the loop's integrator, whose step_damping drops its factors
            h, nu_k, tau_k = sizes[k, 0], sizes[k, 1], sizes[k, 2]
            c_a, c_v, lam_factor = step_sizing(h, nu_k, tau_k, newmark, factor, scale)
        if sizes[k, 3]:  # as the loop's integrator takes a damped onset step
            a[:] = 0.0
            ap[:] = 0.0
        write_rhs(kinds, dofs, frames, modes, first, props, cr_dofs, cr_row, cr_rhs, q)
        before[0, :n] = q
        before[1, :n] = v
        before[2, :n] = a
        before[3, :n] = ap
        before[4, :m] = lam
        if not free_step(k, targets, accs, h, nu_k, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap,
                         lam, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work, *system):
            return FAILED - k, RAN
        lam_ends[k] = lam_c
        if aps.shape[0] > k:
            aps[k] = ap
        if gaps_closing(gaps[0], gaps[1], gaps[2], q, gaps[3]) or not modes_hold(
                kinds, dofs, frames, modes, first, props, tangents[0], tangents[1], q, v, before[1, :n], lam_c,
                times[k + 1] - times[k], resolution[0], resolution[1]):
            taken, ending = k + 1, HANDED
            if lands(modes, screen, k, U, q, v, F_ext, system, times[k + 1] - times[k], resolution[SHORTEST]):
                lam_start = lam_c0 if k == 0 else lam_ends[k - 1]
                t_sw = release_time(modes, first, props, lam_start, lam_c, times[k], times[k + 1], resolution[0],
                                    resolution[1], MASS)
                if t_sw == t_sw:  # a release located: the step taken again to end there (:mod:`.release_landing`)
                    h_l = max(t_sw - times[k], resolution[SHORTEST])
                    c_a, c_v, lam_factor = step_sizing(h_l, nu_k, tau_k, newmark, factor, scale)
                    if retake(k, n, m, h_l, nu_k, c_a, c_v, lam_factor, lam_start, before, resolution, targets, accs,
                              af, pseudo_ratio, modified, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor,
                              scale, work, system):
                        retake_energies(screen, U, before, n, F_ext, system, resolution)
            break
        look = screened(screen, k, U, q, v, F_ext, system)
        if look != GOING:
            taken, ending = k + 1, look
            break
    if nu_k != nu or tau_k != newmark[1]:
        factor[0] = 0  # the factors of a damped step, which the loop's integrator drops after it
    return taken, ending


@njit(cache=True)
def step_sizing(h, nu, tau, newmark, factor, scale):
    """The Newmark coefficients of a step of ``h`` (s) with ``nu`` and ``tau`` as
    :meth:`~.newmark.NewmarkIntegrator.step` has them: ``(c_a = (d qddot / d a~) / (nu h^2), c_v = tau /
    (nu h), nu h^2)`` (``newmark`` = (d qddot / d a~, the run's tau, step_reuse)); the factors (made for
    steps of ``scale[2]``) dropped, ``factor[0] = 0``, unless they are within ``step_reuse`` of ``h``
    (eqs. 2.55-2.57: the Newton matrix's ``M / (nu h^2)``)."""
    ratio, reuse = newmark[0], newmark[2]
    if not abs(h - scale[2]) <= reuse * scale[2]:
        factor[0] = 0
    return ratio / (nu * h * h), tau / (nu * h), nu * h * h


class ClosedRows(OpenGaps):
    """The pairs of a run whose closed steps :func:`closed_steps` may take, and the contact rows
    of the run being taken."""

    resizes = True  # the onset steps and the steps growing back after them in one run

    def __init__(self, contacts: ContactTracker, tol: float, integ: NewmarkIntegrator, watch=None,
                 shortest: float = np.nan):
        super().__init__(contacts.pairs, tol)
        self.contacts = contacts
        self.integ = integ
        self.watch = watch  # the loop's DivergenceWatch: the balance a damped onset step is booked by
        # the loop's shortest step, s, where a run may take a release's retake (nan: no; not with moving drivers,
        # nor where anything but the contacts works or a modal link moves: the energy screen's test not the guard's)
        fixed = all(f is None for f in contacts.asm.sys.constraints.functions)
        plain = watch is not None and not watch.out.others_work() and not contacts.asm.sys.modal.links
        self.shortest = shortest if fixed and plain else np.nan
        self.landing = np.full(RETAKE_POTENTIAL + 1, np.nan)  # release_landing's columns of the last run
        self.retaken: tuple | None = None  # (run's last state, step s, state, corrections) of a release's retake
        self.model = contacts.models[0]
        pairs = contacts.pairs
        self.t_dofs = np.zeros((len(pairs), TANGENT_DOFS), dtype=np.int64)
        self.t_coef = np.zeros((len(pairs), TANGENT_DOFS))
        for j, pair in enumerate(pairs):  # a straight target's tangent: the same everywhere
            g = pair.geometry(contacts.asm.sys.q0)
            self.t_dofs[j, :len(g.local_dofs)] = g.local_dofs
            self.t_coef[j, :len(g.local_dofs)] = g.J_local[1]
        self._fixed = np.array([[p.mu_s, float(p.mu_s > 0.0 or p.mu_d > 0.0), p.params.get("reach", np.inf)]
                                for p in pairs]).reshape(len(pairs), 3)
        self.rows, self._rows_key = None, None  # the last run's rows and the modes and slip directions they are of
        self.modes = np.empty(0, dtype=np.int64)
        self.props = np.empty((len(pairs), 7))  # :func:`modes_hold`'s, the columns of the pairs set here
        self.props[:, MU_S], self.props[:, FRICTIONAL], self.props[:, REACH] = self._fixed.T
        self.times = np.empty(0)
        self.sizes = np.empty(0)
        self.lam_ends = np.empty((0, 0))
        self.lam_start = np.zeros(0)
        self.start, self.damped = None, False  # a run's start state; whether its first step is damped
        self.states = np.empty((4, 0, 0))  # the end states of the run's first steps (STATES)

    @property
    def cap(self) -> float:
        """The longest step while a pair is closed: the impact step (eq. 3.5), s."""
        return self.contacts.step_size(np.inf)

    @property
    def records(self) -> bool:
        """Whether the run's states are needed after it: the friction power of a frictional pair in contact."""
        return bool(np.any(self._fixed[:, 1].astype(bool) & (self.model.state != OPEN)))

    def ready(self, s: State) -> bool:
        """Whether the steps from ``s`` may be a run of closed steps: a pair is closed and nothing but
        onsets happened at ``s`` (:func:`~.onset_steps.only_onsets`: after a switch the step is the
        loop's; after an onset the run begins with the damped step of
        :data:`~solver.contact.lagrange.ONSET_STEPS`, :attr:`uniform`)."""
        return self.model.closed() and only_onsets(self.contacts.events, s.t)

    def step_size(self, h: float) -> float:
        """The first step of a run where the loop would take a step of ``h`` (s): the impact step's
        bound, an onset step whatever ``h`` (:meth:`~solver.contact.tracker.ContactTracker.step_size`)."""
        return self.contacts.step_size(h)

    @property
    def uniform(self) -> int:
        """The steps of a run of its first step's size: the onset steps that remain (of the onset step's
        size, :attr:`cap`); the steps after them grow back to :attr:`grown`."""
        return self.model.onset_left

    @property
    def grown(self) -> float:
        """The longest step once the onset steps are taken: the impact step (eq. 3.5), s."""
        return self.contacts.impact_step

    def begin(self, s: State, times: np.ndarray, steps: np.ndarray) -> None:
        """The rows of a run from ``s`` to the step ends ``times`` by ``steps`` (s; the loop's rows of a step from ``s``;
        those of the last run while the pairs' modes and slip directions are the same: the gaps held enter
        only their right-hand side, which the run writes at each step's start, :func:`write_rhs`)."""
        m = self.model
        key = (m.state.tobytes(), m.sigma.tobytes())  # what the rows' coefficients depend on (eqs. 4.15, 4.17, 4.29)
        if self.rows is None or s.lam_c.shape != self.rows.lam.shape or key != self._rows_key:
            self.rows, self._rows_key = self.contacts.rows(s), key
            self.modes = m.state.astype(np.int64)
            self.first = np.cumsum(self.modes) - self.modes  # a pair in mode k has k rows (lagrange.OPEN, SLIDE, STICK)
        else:
            self.rows.lam[:] = s.lam_c
        props = self.props
        props[:, HOLD], props[:, MASS], props[:, SIGMA], props[:, EPS] = m.hold, m.mass, m.sigma, m.eps
        self.times = np.concatenate([[s.t], times])
        self.sizes = step_parameters(steps, m.onset_left, self.integ.nu, self.integ.tau)
        self.start, self.damped = s, m.step_tau() is not None
        self.lam_start = s.lam_c
        self.lam_ends = np.empty((len(times), self.rows.count))

    def steps(self, args: tuple, n: int, m: int, recorded: int) -> tuple[int, bool]:
        """:func:`closed_steps` with the arguments ``args`` of :func:`~.free_steps.free_steps`
        (their contact rows: those of :meth:`begin`)."""
        if self.before.shape[0] < RETAKEN + 6 or self.before.shape[1] < max(n, m):  # each step's start, a retake's end
            self.before = np.empty((RETAKEN + 6, max(n, m)))
        self.aps = np.empty((recorded, n))
        model, shut, integ = self.model, self.modes == OPEN, self.integ
        self.landing = np.array([model.tol_g, model.nu, self.shortest, *[np.nan] * (RETAKE_POTENTIAL - 2)])
        args = (*args[:-8], *self.rows.kernel_args(), args[-1])
        if self.damped and not args[STATES].shape[1]:  # the end state of a damped first step, for its booking
            args = (*args[:STATES], np.empty((4, 1, args[STATES].shape[2])), *args[STATES + 1:])
        self.states = args[STATES]
        newmark = np.array([(1.0 - integ.alpha_m) / (1.0 - integ.alpha_f), integ.tau, integ.step_reuse])
        try:
            return self.ended_by(closed_steps(
                (self.kinds, self.dofs, self.frames), self.modes, self.first, self.props, (self.t_dofs, self.t_coef),
                self.times, self.sizes, newmark, self.landing, self.lam_ends,
                (self.kinds[shut], self.dofs[shut], self.frames[shut], self.limit), self.before, self.aps, self.screen,
                *args))
        except np.linalg.LinAlgError:  # the rows' Schur matrix is not finite, as bordered_solve says it
            raise SolverError(NOT_FINITE) from None

    def multipliers(self, k: int) -> np.ndarray:
        """The contact multipliers after the run's first ``k`` steps, N."""
        return self.lam_ends[k - 1].copy() if k else self.lam_start

    def ended(self, new: State, failure, taken: int) -> tuple:
        """The run's last state and a step handed over, with their contact multipliers."""
        new = dataclasses.replace(new, lam_c=self.multipliers(taken))
        if isinstance(failure, tuple):  # its energies found in the run where it looked at a release (release_landing.lands)
            failure = (dataclasses.replace(failure[0], lam_c=self.multipliers(taken + 1)), failure[1])
            self._remember(failure[0], self.screen[2][taken, :3] if len(self.screen[2]) > taken else ())
        h, before = self.landing[RETAKE_STEP], self.before
        self.retaken = None
        if isinstance(failure, tuple) and h == h:  # the handed step taken again to a release (:mod:`.release_landing`)
            n, m = len(new.q), len(new.lam)
            state = State(float(self.times[taken]) + float(h), *(before[RETAKEN + i, :n].copy() for i in range(3)),
                          before[RETAKEN + 4, :m].copy(), before[RETAKEN + 3, :n].copy(),
                          before[RETAKEN + 5, :self.rows.count].copy())
            self.retaken = (new, float(h), state, int(self.landing[RETAKE_ITERATIONS]))
            self._remember(state, self.landing[RETAKE_KINETIC:RETAKE_POTENTIAL + 1])
        return new, failure

    def _remember(self, st: State, terms: np.ndarray) -> None:
        """The kinetic, strain and potential energy ``terms`` (J) of ``st`` as the run found them (each nan where it
        did not) taken as its energies (:meth:`~solver.results.outputs.OutputBuilder.remember_energy`): the
        loop's energy guard and the watch read them instead of computing them again, the same numbers."""
        if self.watch is not None and len(terms) and np.isfinite(terms).all():
            self.watch.out.remember_energy(st, tuple(terms.tolist()))

    def take_retake(self, s: State, step: float) -> tuple[State, int] | None:
        """The step of ``step`` (s) from ``s`` as the last run took it again to a release (``(state, Newton
        corrections)``, :mod:`.release_landing`) if it did, else None; forgotten once asked for."""
        retaken, self.retaken = self.retaken, None
        if retaken is None or retaken[0] is not s or retaken[1] != step:
            return None
        return retaken[2], retaken[3]

    def book(self, out, hs: np.ndarray, powers: np.ndarray, end: State, recorded: tuple | None) -> list[float]:
        """The ledger over the run's steps ``hs`` that end at ``end`` (the drivers' and the modal
        damping's ``powers`` and the contact model's friction power at each step's end) and the
        forces over its last step (:meth:`~solver.contact.lagrange.LagrangeModel.step_ended`); the
        drivers' work after each step, J.  The friction power is computed from the ``recorded`` states
        only while a frictional pair is closed (:attr:`records`; a run recorded for the created-energy
        watch of an undamped model need not)."""
        p_fric = np.zeros(len(hs))  # 0.0 as the model has it while no frictional pair is closed
        if recorded is not None and self.records:  # the contacts' contact_power()[0]: a sum over its one model
            p_fric = self.model.run_friction_powers(self.start.q, recorded[1], self.lam_ends[:len(hs)]) + 0.0
        if len(hs):
            self.model.step_ended(self.multipliers(len(hs) - 1), self.multipliers(len(hs)), len(hs))
            self.model.last_step = float(hs[-1])
        if self.damped and len(hs):
            n, m = len(end.q), len(end.lam)
            first = State(float(self.times[1]), *(x[0, :n].copy() for x in self.states[:3]),
                          self.states[3, 0, :m].copy(), None, self.lam_ends[0])
            self._remember(first, self.screen[2][0, :3] if len(self.screen[2]) else ())  # for its balance
            return book_damped(out, self.watch, self.start, first, hs, powers, end, p_fric)
        return out.advance_ledger_drivers(hs.tolist(), powers, end, p_fric)
