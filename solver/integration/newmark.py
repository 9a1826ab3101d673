"""Newmark and generalized-alpha time steps with Newton-Raphson (thesis §2.5).

Newmark relations (eqs. 2.49-2.50), written with the parameters (nu, tau):

    qddot_{N+1} = (q_{N+1} - q_N - h qdot_N - h^2 (1/2 - nu) qddot_N) / (nu h^2)
    qdot_{N+1}  = qdot_N + h ((1 - tau) qddot_N + tau qddot_{N+1})

Numerical damping: tau > 0.5 with nu = 0.25 (tau + 0.5)^2 (eq. 5.1).  The
generalized-alpha option (Chung & Hulbert 1993, in the form of Arnold & Bruls
2007 for constrained systems) runs the same relations on a pseudo-acceleration
``a~`` with ``(1 - alpha_m) a~_{N+1} + alpha_m a~_N = (1 - alpha_f) qddot_{N+1} +
alpha_f qddot_N``, and keeps equilibrium and constraints at t_{N+1}; its
parameters follow from the spectral radius at infinite frequency rho_inf.  With
alpha_m = alpha_f = 0 it is Newmark.

Newton iterates on ``q_{N+1}`` and the constraint multipliers with the matrix of
eqs. (2.55)-(2.59) extended by the constraints (see :mod:`solver.system.assembly`); the
velocity and acceleration follow from eqs. (2.62)-(2.63).  A factorised matrix is
reused across iterations and steps while Newton contracts fast (modified Newton),
and refactorised as soon as it does not.
"""
from __future__ import annotations

import numpy as np

from ..contact.circle_pairs import circle_forces
from ..jit import njit

from ..system.state import State
from ..system.assembly import Assembly, newton_factorize, newton_terms
from ..system.integrator import damped, integrator_parameters
from ..system.banded import BandLU, band_solve
from ..system.bordered import ContactRows, border_correct, border_prepare
from .projection import project_accelerations, project_step


class NewtonFailure(Exception):
    """A step that cannot be taken; the message says why in words (the time loop adds the
    time and the step)."""


CONVERGED, REFACTOR, DIVERGED, FOLLOWER = 0, 1, 2, 3

#: why a step failed, in words
COLLAPSED = "an element collapsed to zero length during the iterations"
SINGULAR = "the Newton matrix is singular: a mechanism locked, or a body nothing holds"


def divergence(out_of_balance: float, iterations: int) -> str:
    """Why Newton stopped, in words: the out-of-balance force (N) it was left with.

    >>> divergence(float("nan"), 25)
    'the out-of-balance force became not-a-number: the model diverged'
    >>> divergence(3.2e4, 25)
    'the out-of-balance force was still 3.2e+04 N after 25 iterations'
    """
    if not np.isfinite(out_of_balance):
        word = "not-a-number" if np.isnan(out_of_balance) else "infinite"
        return f"the out-of-balance force became {word}: the model diverged"
    return f"the out-of-balance force was still {out_of_balance:.3g} N after {iterations} iterations"


@njit(cache=True)
def newmark_predict(q0, v0, a0, ap0, h, af, q, v, a):
    """Predictor ``a~_{N+1} = a~_N`` through (2.49)-(2.50): q, v, a of the first iterate."""
    for i in range(q0.shape[0]):
        q[i] = q0[i] + h * v0[i] + 0.5 * h * h * ap0[i]
        v[i] = v0[i] + h * ap0[i]
        a[i] = (ap0[i] - af * a0[i]) / (1.0 - af)


@njit(cache=True)
def newmark_pseudo_acceleration(q0, v0, ap0, q, h, nu, out):
    """``a~_{N+1}`` from the converged ``q_{N+1}`` (eq. 2.49 on the pseudo-acceleration)."""
    for i in range(q0.shape[0]):
        out[i] = ap0[i] + (q[i] - q0[i] - h * v0[i] - 0.5 * h * h * ap0[i]) / (nu * h * h)


@njit(cache=True)
def contact_terms(q, v, c_v, psi, ref, cr_dofs, cr_col, cr_row, cr_level, cr_diag, cr_rhs, lam_c, r_c):
    """Subtract the contact forces ``sum_k C_k lambda_k`` from ``psi`` (eqs. 4.16, 4.29) and
    fill the rows' residuals ``r_c`` (:mod:`solver.system.bordered`); returns the reference
    force, ``|psi|`` and ``max |r_c|``."""
    n = q.shape[0]
    force = np.zeros(n)
    r_max = 0.0
    for k in range(cr_dofs.shape[0]):
        acc = cr_diag[k] * lam_c[k] - cr_rhs[k]
        for j in range(cr_dofs.shape[1]):
            d = cr_dofs[k, j]
            force[d] += cr_col[k, j] * lam_c[k]
            acc += cr_row[k, j] * (q[d] if cr_level[k] == 0 else v[d] / c_v)
        r_c[k] = acc
        r_max = max(r_max, abs(acc))
    for i in range(n):
        psi[i] -= force[i]
    return max(ref, np.linalg.norm(force)), np.linalg.norm(psi), r_max


@njit(cache=True)
def newton_iterations(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks,
                      dm_dofs, target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                      AB, kl, ku, ipiv, perm, scale, c_a, c_v, tol_rel, tol_abs, tol_g, max_iter, contraction,
                      max_reuse, follower, counters, norms, W, Sinv, cr_dofs, cr_col, cr_row, cr_level, cr_diag,
                      cr_rhs, lam_c, fresh):
    """Newton iterations with one factorised matrix, in place on ``q, v, a, lam`` and the
    contact multipliers ``lam_c`` of the contact rows (``W, Sinv`` from
    :func:`~solver.system.bordered.border_prepare` with this factorisation).

    Returns CONVERGED; REFACTOR when the matrix should be rebuilt at the current state
    (it does not contract by ``contraction`` any more, or ``max_reuse`` corrections were
    made with it); FOLLOWER after a correction when loads follow the structure; or
    DIVERGED after ``max_iter`` iterations.  ``counters`` = (iterations, corrections) and
    ``norms`` = (last |psi|, last |dq|) carry over between calls within a step.  When
    ``fresh[0]`` is set, ``psi, g, vals`` and ``fresh[1:]`` hold the residual at ``(q, v, a)``
    (the factorisation just evaluated it) and the first iteration uses them.
    """
    n = q.shape[0]
    m = g.shape[0]
    rhs = np.empty(n + m)
    x = np.empty(n + m)
    c = cr_dofs.shape[0]
    r_c = np.empty(c)
    dlam = np.empty(c)
    used = 0
    prev = np.inf
    while counters[0] < max_iter:
        counters[0] += 1
        if fresh[0] != 0.0:
            ref, r_norm, g_norm = fresh[1], fresh[2], fresh[3]
            fresh[0] = 0.0
        else:  # np.bool_: a bool to numba, not a literal, so newton_terms compiles once for both values
            ref, r_norm, g_norm = newton_terms(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars,
                                               modal, np.bool_(False), 0.0, 0.0, 0.0, no_blocks, dm_dofs, target, bp_n, bp_b,
                                               bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals)
        if c > 0:
            ref, r_norm, c_norm = contact_terms(q, v, c_v, psi, ref, cr_dofs, cr_col, cr_row, cr_level, cr_diag,
                                                cr_rhs, lam_c, r_c)
            g_norm = max(g_norm, c_norm)
        norms[0] = r_norm
        # (2.64) on the out-of-balance force, or (when round-off in stiff systems keeps
        # the force above it) a correction that no longer moves the solution
        small = r_norm <= tol_rel * ref + tol_abs or norms[1] <= tol_g
        if counters[1] > 0 and small and g_norm <= tol_g:
            return CONVERGED
        if used >= max_reuse or (used > 0 and r_norm > contraction * prev):
            counters[0] -= 1  # this evaluation is repeated with the new matrix
            return REFACTOR
        if not np.isfinite(r_norm):
            return DIVERGED
        for i in range(n):
            rhs[i] = -psi[i]
        for i in range(m):
            rhs[n + i] = -scale * g[i]
        band_solve(AB, kl, ku, ipiv, perm, rhs, x)
        if c > 0:  # the bordered solution (thesis eqs. 4.23-4.24, 4.36-4.38)
            for k in range(c):
                r_c[k] = -r_c[k]
            border_correct(x, W, Sinv, cr_dofs, cr_row, r_c, dlam)
            for k in range(c):
                lam_c[k] += dlam[k]
        dq_sq = 0.0
        for i in range(n):
            dq = x[i]
            q[i] += dq
            v[i] += c_v * dq  # (2.62)
            a[i] += c_a * dq  # (2.63)
            dq_sq += dq * dq
        for i in range(m):
            lam[i] += scale * x[n + i]
        norms[1] = np.sqrt(dq_sq)  # |dq|, not max |dq_i|: the same however the model is turned
        counters[1] += 1
        used += 1
        prev = r_norm
        if follower:
            return FOLLOWER
    return DIVERGED


@njit(cache=True)
def converge_step(q0, v0, ap0, h, nu, ap, dm_acc, pseudo_ratio, lam_factor,
                  q, v, a, lam, F_ext, target, c_a, c_v, counters, norms,
                  mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks, dm_dofs,
                  bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                  AB, kl, ku, ipiv, perm, scale, tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse, follower,
                  cr_dofs, cr_col, cr_row, cr_level, cr_diag, cr_rhs, lam_c, fresh):
    """:func:`newton_iterations`, and once they converge the pseudo-acceleration ``ap`` of the step (eq. 2.49)
    and the projection of the accelerations onto ``G a = gamma`` (:func:`project_accelerations`), in one
    compiled call (:func:`converge_bordered`).  The arguments from ``mass_diag`` on stay the same from one
    factorisation to the next.

    Position constraints hold after Newton, but with the trapezoidal rule the
    acceleration error they leave is undamped and makes the multipliers (joint
    reactions, driver torques) oscillate from step to step.  One solve with the
    factorised Newton matrix ``S`` (no new factorisation) enforces the
    acceleration-level constraint in the metric of ``S`` (as in index-3 methods with
    projections, Bayo & Ledesma 1996); the multipliers take the matching correction
    ``dlambda = nu h^2 s mu`` (``lam_factor``) so that ``M a + G^T lambda`` is unchanged
    to O(h^2).  Velocities are not projected: that would cost the scheme its
    second-order energy behaviour.
    """
    W, Sinv = border_prepare(AB, kl, ku, ipiv, perm, q.shape[0] + g.shape[0], cr_dofs, cr_col, cr_row, cr_diag)
    return converge_bordered(q0, v0, ap0, h, nu, ap, dm_acc, pseudo_ratio, lam_factor, q, v, a, lam, F_ext, target, c_a,
                             c_v, counters, norms, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks,
                             dm_dofs, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals, AB, kl, ku, ipiv,
                             perm, scale, tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse, follower, cr_dofs,
                             cr_col, cr_row, cr_level, cr_diag, cr_rhs, lam_c, fresh, W, Sinv)


@njit(cache=True)
def converge_bordered(q0, v0, ap0, h, nu, ap, dm_acc, pseudo_ratio, lam_factor, q, v, a, lam, F_ext, target, c_a,
                      c_v, counters, norms, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks, dm_dofs,
                      bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals, AB, kl, ku, ipiv, perm, scale,
                      tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse, follower, cr_dofs, cr_col, cr_row,
                      cr_level, cr_diag, cr_rhs, lam_c, fresh, W, Sinv):
    """:func:`converge_step` given the bordered solve's ``W, Sinv`` of these factors (a run keeps them)."""
    status = newton_iterations(q, v, a, lam, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks,
                               dm_dofs, target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                               AB, kl, ku, ipiv, perm, scale, c_a, c_v, tol_rel, tol_abs, tol_g, max_iter,
                               contraction, max_reuse, follower, counters, norms, W, Sinv, cr_dofs, cr_col, cr_row,
                               cr_level, cr_diag, cr_rhs, lam_c, fresh)
    if status == CONVERGED:
        newmark_pseudo_acceleration(q0, v0, ap0, q, h, nu, ap)
        if g.shape[0] > 0 and cr_dofs.shape[0] == 0:  # with contact rows: project_step, after their refresh
            project_accelerations(q, v, a, ap, lam, dm_dofs, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p,
                                  rows, cols, AB, kl, ku, ipiv, perm, scale, pseudo_ratio, lam_factor,
                                  W, Sinv, cr_dofs, cr_row, lam_c, lam_c)
    return status


@njit(cache=True)
def converge_compliant_step(previous, F_base, contraction, contact, q0, v0, ap0, h, nu, ap, dm_acc, pseudo_ratio,
                            lam_factor, q, v, a, lam, F_ext, target, c_a, c_v, counters, norms, *rest):
    """:func:`converge_step` (arguments from ``q0`` on) with the contact forces of the circle pairs
    ``contact`` (:meth:`~solver.contact.compliant.CompliantModel.kernel_args`) re-evaluated after
    each correction, ``F_ext = F_base + F_contact(q, v)`` (N, in place), in compiled code.

    With compliant pairs live in a step their forces follow the iterates, like follower loads:
    :func:`converge_step` returns FOLLOWER after each correction, and :meth:`NewmarkIntegrator._step`
    evaluates the forces at the new iterate in Python and iterates on, the matrix kept while the
    residual contracts by ``contraction``.  This kernel does the same with the same arithmetic and
    decisions when every pair is a circle (clearance joints, :mod:`solver.contact.circle_pairs`)
    and no other load follows the iterates.  ``previous[0]``: ``|psi|`` at the last correction (in
    and out).  Returns FOLLOWER only when the residual did not contract (the caller refactorises),
    else the status of :func:`converge_step`.
    """
    F_contact = np.empty(F_ext.shape[0])
    blocks = np.empty(contact[-4][-1] + contact[0].shape[1] ** 2 + 1)  # scratch: the blocks are the caller's
    while True:
        status = converge_step(q0, v0, ap0, h, nu, ap, dm_acc, pseudo_ratio, lam_factor, q, v, a, lam, F_ext, target,
                               c_a, c_v, counters, norms, *rest)
        if status != FOLLOWER or norms[0] > contraction * previous[0]:
            return status
        previous[0] = norms[0]
        F_contact[:] = 0.0
        circle_forces(q, v, c_v, *contact, F_contact, blocks)
        for i in range(F_ext.shape[0]):
            F_ext[i] = F_base[i] + F_contact[i]


#: how far (as a fraction) a step may differ from the one the factors were made for and still be
#: iterated with them (:meth:`NewmarkIntegrator.reuse_near_steps`, which the time loop calls for
#: runs with impulses): the matrix's ``M / (nu h^2)`` is then off by at most 2 %, so modified Newton
#: contracts by about 0.02 per iteration.  The predictor cuts the impact steps of an e = 1 contact
#: that closes again within each step (the two bars of §5.1.2) to lengths that differ by less than
#: 1e-3 from one to the next: refactorised at every step they cost 566 factorisations of the
#: Newton matrix in 901 steps, reused within 1 % 51 (2.5 residual evaluations per step
#: instead of 2.0)
NEAR_STEP = 0.01


class NewmarkIntegrator:
    """Advances a :class:`State` by one Newmark (or generalized-alpha) step."""

    #: a reused Jacobian is kept while each iteration reduces the residual by this factor
    #: (0.1: a factorisation costs about five residual evaluations; with 0.25 the
    #: 256-element slider-crank spent 8.2 evaluations per step, with 0.1 it spends 6.6)
    CONTRACTION = 0.1

    #: re-linearisations of curved contact rows allowed in one step
    MAX_REFRESH = 8

    def __init__(self, asm: Assembly, settings: dict, contact=None):
        self.asm = asm
        #: compliant contacts (:class:`solver.contact.compliant.CompliantModel`): when pairs are
        #: live in a step, their forces join the loads and their blocks the Newton matrix
        self.contact = contact
        self._no_extra = np.zeros(asm.extra_size)
        self._extra = self._no_extra
        self.nu, self.tau, self.alpha_m, self.alpha_f = integrator_parameters(settings)
        self._run_parameters = (self.nu, self.tau)  # (nu, tau) outside a damped onset step
        self._from_rest = False  # whether the next step starts from an acceleration of zero (:meth:`step_damping`)
        self.tol_rel = settings["tol_rel"]
        self.tol_abs = settings["tol_abs"]
        self.max_iter = settings["max_iterations"]
        self.modified = settings["modified_newton"]
        # constraint tolerance: a length scale of the model
        self.tol_g = 1e-10 * asm.sys.size
        self._factor: BandLU | None = None
        self._AB: np.ndarray | None = None  # band storage the factors are written to
        self._ipiv: np.ndarray | None = None
        self._fixed_args: tuple = ()  # the arguments of converge_step set at a factorisation
        self._band_args: tuple = ()  # the factors' band storage and ordering
        self._factor_h = None
        #: factors made for a step within this fraction of the present one are its Newton matrix
        #: while they contract (0: only for the same step; :meth:`reuse_near_steps`)
        self.step_reuse = 0.0
        self._scale = 1.0
        self._scale_h: float | None = None
        self.factorizations = 0
        self.evaluations = 0  # residual evaluations (what Exudyn counts as Newton steps)
        self._follower = asm.follower_loads
        cons = asm.sys.constraints
        sys_ = asm.sys
        # the arguments of newton_iterations that do not change during a run
        self._system_args = (sys_.mass_diag, sys_.alpha, sys_.beta, asm.form, sys_.elem_dofs, asm.secs, asm.Mbar,
                             asm.modal, asm._no_blocks, cons.dm_dofs)
        self._constraint_args = (cons.bp_n, cons.bp_b, cons.bp_r, cons.sl_n, cons.sl_nrm, cons.sl_p, cons.rows, cons.cols)
        self._control = (self.tol_rel, self.tol_abs, self.tol_g, self.max_iter, self.CONTRACTION,
                         self.max_iter if self.modified else 1)
        self._factor_follower = self._follower  # whether the factorised step re-reads the loads
        self._psi, self._g, self._G_vals = np.empty(asm.n), np.empty(cons.count), np.empty(cons.rows.size)
        self._no_rows = ContactRows.empty()
        #: the residual the last factorisation evaluated, for the iteration that follows it
        #: (see :func:`newton_iterations`)
        self._fresh = np.zeros(4)

    def damp(self, tau: float) -> None:
        """Numerical damping from the next step on: ``tau`` and ``nu = (tau + 1/2)^2 / 4`` (eq. 5.1)."""
        self.nu, self.tau = self._run_parameters = damped(tau)
        self._factor = None

    def step_damping(self, tau: float | None) -> None:
        """The next step's ``tau`` with eq. (5.1)'s ``nu`` from an acceleration of zero (a Lagrange onset's damped
        step, :data:`solver.contact.lagrange.ONSET_STEPS`: its ``T + U`` cannot rise); None: the run's again."""
        self._from_rest = tau is not None
        nu, tau = self._run_parameters if tau is None else damped(tau)
        if (nu, tau) != (self.nu, self.tau):
            self.nu, self.tau = nu, tau
            self._factor = None

    def reuse_near_steps(self) -> None:
        """Iterate with the factors of a step within :data:`NEAR_STEP` of the present one."""
        self.step_reuse = NEAR_STEP

    def step(self, s: State, h: float, breakpoint: float | None = None,
             rows: ContactRows | None = None) -> tuple[State, int]:
        """One step of size ``h``; returns the new state and the Newton iteration count.

        A step that lands on a ``breakpoint`` ends exactly there and sees the loads'
        values just before it (their left limit).  ``rows`` are the contact rows of the
        contact models for this step (:mod:`solver.system.bordered`); their converged
        multipliers are the new state's ``lam_c``.
        """
        rows = self._no_rows if rows is None else rows
        if self._from_rest:
            s = State(s.t, s.q, s.v, np.zeros_like(s.a), s.lam, np.zeros_like(s.a), s.lam_c)
        try:
            return self._step(s, h, breakpoint, rows)
        except ZeroDivisionError:
            self._factor = None
            raise NewtonFailure(COLLAPSED) from None
        except np.linalg.LinAlgError:  # the bordered solve met a not-a-number or singular block
            self._factor = None
            raise NewtonFailure("the iterations met a singular or not-a-number matrix: a massless part "
                                "driven, a mechanism locked, or the model diverged") from None

    def _step(self, s: State, h: float, breakpoint: float | None, rows: ContactRows) -> tuple[State, int]:
        asm, nu, tau = self.asm, self.nu, self.tau
        am, af = self.alpha_m, self.alpha_f
        n = asm.n
        t1 = s.t + h if breakpoint is None else breakpoint
        t_loads = None if breakpoint is None else np.nextafter(t1, -np.inf)
        ratio = (1.0 - am) / (1.0 - af)  # d qddot / d a~
        c_a = ratio / (nu * h * h)
        c_v = tau / (nu * h)
        q, v, a = np.empty(n), np.empty(n), np.empty(n)
        newmark_predict(s.q, s.v, s.a, s.a_pseudo, h, af, q, v, a)
        lam = s.lam.copy()
        if rows.count and rows.refresh is not None:
            rows.refresh(q, v)  # curved rows linearised about the predictor
        if self._factor_h is None or abs(h - self._factor_h) > self.step_reuse * self._factor_h:
            self._factor = None
        t_f = t1 if t_loads is None else t_loads
        asm.set_time(t_f)  # the free strains of the step's end
        cons = asm.sys.constraints
        target = cons.target(t1)
        dm_acc = cons.prescribed(t1, 2)
        pseudo_ratio = (1.0 - af) / (1.0 - am)
        a_pseudo = np.empty(n)
        counters = np.zeros(2, dtype=np.int64)  # iterations done, corrections applied
        refreshed = 0
        norms = np.array([np.inf, np.inf])  # last |psi|, last |dq|
        done = 0
        live = self.contact is not None and self.contact.any_live
        follower = self._follower or live  # contact forces follow the iterates like follower loads
        if follower != self._factor_follower:
            self._factor = None
        if not live:
            self._extra = self._no_extra
        # contact forces re-evaluated in the compiled iterations (:func:`converge_compliant_step`)
        compiled = (self.contact.kernel_args() if live and self.modified and not self._follower
                    and not asm.sys.movers and not rows.count else None)
        previous = np.inf  # |psi| at the last follower return, for the contraction test
        while True:
            F_ext = asm.external(q, t_f)
            F_base = F_ext
            if live:
                F_contact, self._extra = self.contact.evaluate(q, v, c_v)
                F_ext = F_ext + F_contact
            if self._factor is None or not self.modified:
                self._refactor(q, v, a, lam, F_ext, c_a, c_v, target, h, follower)
                previous = np.inf
            if self._factor.singular:
                self._factor = None
                raise NewtonFailure(SINGULAR)
            args = (s.q, s.v, s.a_pseudo, h, nu, a_pseudo, dm_acc, pseudo_ratio, nu * h * h, q, v, a, lam, F_ext,
                    target, c_a, c_v, counters, norms, *self._fixed_args, *rows.kernel_args(), self._fresh)
            if compiled is None:
                status = converge_step(*args)
            else:
                last = np.array([previous])
                status = converge_compliant_step(last, F_base, self.CONTRACTION, compiled, *args)
                previous = float(last[0])
            self.evaluations += int(counters[0]) - done
            done = int(counters[0])
            if status == CONVERGED and rows.refresh is not None and rows.refresh(q, v):
                refreshed += 1  # curved contact rows re-linearised at the converged iterate: iterate on
                if refreshed > self.MAX_REFRESH:
                    raise NewtonFailure(f"the contact geometry did not settle in {self.MAX_REFRESH} re-linearisations")
                continue
            if status == CONVERGED and rows.count:
                project_step(q, v, a, a_pseudo, lam, cons.dm_dofs, dm_acc, *self._constraint_args, *self._band_args,
                             self._scale, pseudo_ratio, nu * h * h, rows.dofs, rows.col, rows.row, rows.diag,
                             rows.gamma, rows.lam)
            if status == CONVERGED:
                return State(t1, q, v, a, lam, a_pseudo, rows.lam.copy()), int(counters[1])
            if status == DIVERGED:
                self._factor = None
                raise NewtonFailure(divergence(norms[0], self.max_iter))
            if status == FOLLOWER:  # new loads at the updated configuration, same matrix while it contracts
                if norms[0] > self.CONTRACTION * previous:
                    self._factor = None
                previous = norms[0]
                continue
            self._factor = None  # REFACTOR: the reused matrix no longer contracts

    def _refactor(self, q, v, a, lam, F_ext, c_a, c_v, target, h, follower) -> None:
        """Factorise the Newton matrix at the current iterate into the integrator's band
        storage; the constraint rows' scale is set once per step size (the diagonal's
        size is set by ``M / (nu h^2)``)."""
        band = self.asm.band
        self._band_storage()
        scale = self._scale if self._scale_h == h else 0.0
        psi, g, G_vals = self._psi, self._g, self._G_vals
        self._scale, singular = newton_factorize(
            q, v, a, lam, F_ext, *self._system_args[:-2], c_a, c_v, self.asm._blocks, self._extra,
            *self._system_args[-1:], target,
            *self._constraint_args, psi, g, G_vals, scale, band.band_row, band.band_col, self._AB, band.kl, band.ku,
            self._ipiv, BandLU.PIVOT_RATIO, self._fresh,
        )
        self._adopt_factors(h, follower, singular)
        self.factorizations += 1

    def _band_storage(self) -> None:
        """The band storage the factors are written to (column-major: the LU's column sweeps
        read it contiguously)."""
        if self._AB is None:
            band = self.asm.band
            self._AB = np.empty((band.ldab, band.size), order="F")
            self._ipiv = np.empty(band.size, dtype=np.int64)

    def _adopt_factors(self, h: float, follower: bool, singular: bool) -> None:
        """Take the factors just written to the band storage (with the scale ``self._scale``,
        for steps of ``h``) as the matrix of the following iterations."""
        band = self.asm.band
        self._scale_h = h
        self._factor = BandLU(band, self._AB, self._ipiv, singular)
        self._band_args = (self._AB, band.kl, band.ku, self._ipiv, band.perm)
        self._fixed_args = (*self._system_args, *self._constraint_args, self._psi, self._g, self._G_vals,
                            *self._band_args, self._scale, *self._control, follower)
        self._factor_follower = follower
        self._factor_h = h

    @property
    def runs_free_steps(self) -> bool:
        """Whether steps may be taken in runs (:mod:`.free_steps`): the loads are constant (gravity
        only) and nothing else depends on time but the drivers."""
        s = self.asm.sys
        return not (self._follower or s.loads or s.movers or s.free_strains.active or self.asm.force_pairs)

    def factor_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The factorisation state as :func:`.free_steps.free_steps` carries it: ``factor`` =
        (valid, factorizations, residual evaluations, steps, failed status) and ``scale`` =
        (constraint scale, its step, the factors' step, ``|psi|`` of a failed step)."""
        self._band_storage()
        valid = self._factor is not None and not self._factor.singular and not self._factor_follower
        nan = np.nan
        return (np.array([int(valid), 0, 0, 0, 0], dtype=np.int64),
                np.array([self._scale, nan if self._scale_h is None else self._scale_h,
                          nan if self._factor_h is None else self._factor_h, nan]))

    def take_factor_state(self, factor: np.ndarray, scale: np.ndarray, h: float) -> None:
        """Count the factorisations and residuals of a run of free steps of ``h`` and take the
        factors it left (:meth:`factor_state`)."""
        self.factorizations += int(factor[1])
        self.evaluations += int(factor[2])
        if factor[1]:
            self._scale = float(scale[0])
            self._adopt_factors(h, False, False)
        if not factor[0]:
            self._factor = None

    def run_arguments(self) -> tuple:
        """The arguments of :func:`.free_steps.free_steps` from ``mass_diag`` on: the system,
        scratch, band storage and control of this integrator."""
        band = self.asm.band
        return (*self._system_args, *self._constraint_args, self._psi, self._g, self._G_vals, self.asm._blocks,
                self._no_extra, band.band_row, band.band_col, self._AB, band.kl, band.ku, self._ipiv, band.perm,
                BandLU.PIVOT_RATIO, *self._control, *self._no_rows.kernel_args(), self._fresh)
