"""Runs of contact-free steps in one compiled call.

Between two output times a mechanism without contact pairs, time-dependent loads or free
strains takes steps of one size whose only inputs from Python are the prescribed motions
of its drivers at the steps' ends.  :func:`free_steps` takes such a run of steps in one
compiled call: per step the predictor, the modified-Newton iterations with a new Newton
matrix whenever they stop contracting (:func:`~solver.integration.newmark.converge_step`,
:func:`~solver.system.assembly.newton_factorize`), the pseudo-acceleration and the
projection of the accelerations; it records each step's corrections and the power of the
drivers for the energy ledger.  The arithmetic is that of
:meth:`~solver.integration.newmark.NewmarkIntegrator.step`, operation for operation, so a
run gives the same numbers either way; what it saves is the Python around the compiled
calls (about 20 µs per step) and numba's argument dispatch (60 arguments per call).
numba's cache does not follow the kernels a kernel calls: a change to ``converge_step`` or
``newton_terms`` (their convergence tests, ``|dq|`` and ``|g|``) must come with a change to
this file, or its cached run keeps the old arithmetic.

A step that fails (Newton diverges, the matrix is singular) ends the run before it, and
the time loop cuts it as it cuts a failed ordinary step.  One step of a run,
:func:`free_step`, also serves the runs of closed Lagrange steps (:mod:`.closed_steps`), with
straight contact rows bordering the Newton matrix.
"""
from __future__ import annotations

import numpy as np
from ..jit import borrowed, njit

from ..fem.modal import DOFS, modal_damping_power
from ..system.assembly import newton_factorize
from ..system.state import State
from .step_ends import near, step_to_output, step_towards
from ..system.bordered import border_prepare
from .newmark import COLLAPSED, CONVERGED, DIVERGED, SINGULAR, NewmarkIntegrator, NewtonFailure, converge_bordered, \
    divergence, newmark_predict, project_accelerations

#: the last step of a run failed (see :func:`free_steps`)
FAILED = -1


#: the arguments of :func:`free_steps` before the ``system`` ones: the state, its records and the factorisation state
RUN_ARGS = 23


@njit(cache=True, nogil=True)
def free_steps(*args):
    """Steps ``0`` to ``len(targets) - 1`` of size ``h``, ``args`` = ``(targets, accs, h, nu, af, c_a, c_v,
    pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows, drv_dofs, iterations, powers,
    states, factor, scale, *system)``: from the state ``q, v, a, ap, lam``, one per row of ``targets`` (the
    dof-motion rows' values at the step's end) and ``accs`` (their prescribed accelerations).  Its arrays
    are borrowed, not reference-counted (:mod:`solver.borrowing`): the caller holds them for the whole call.
    One function, not a wrapper over the loop: numba compiles every function of a chain with all it calls
    linked in and optimised again (a level over the Newton machinery cost 10-13 s of compiling).

    The state arrays hold the last converged state at every moment (also when an element
    collapses and a ``ZeroDivisionError`` ends the call).  ``factor`` = (valid, factorizations,
    residual evaluations, steps taken, status of a failed step: DIVERGED, or CONVERGED for a
    singular matrix) and ``scale`` = (constraint scale, step of the scale, step of the factors,
    ``|psi|`` of a failed step) carry the integrator's factorisation state in and out.
    ``iterations[k]`` and ``powers[k]`` receive step k's Newton corrections, and the drivers'
    power ``-sum lambda_d qdot_d`` at its end and the modal damping's ``v_m^T Cqq v_m`` at its
    mean rates ``v_m`` (W: h times it is the trapezoidal rule's damping work, thesis eq. 2.50
    with tau = 1/2); ``states[:, k]`` (4, steps, dofs), if it has rows, receives its end state
    ``q, v, a, lam`` (the frames of a run saved at every step: :mod:`solver.results.frame_block`).  ``system``: the arguments of :func:`free_step` from
    ``mass_diag`` on.  Returns the number of steps taken, or :data:`FAILED` minus that number
    when the next one failed.
    """
    (targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam, F_ext, drv_rows,
     drv_dofs, iterations, powers, states, factor, scale) = borrowed(args[:RUN_ARGS])
    system = borrowed(args[RUN_ARGS:])
    work = step_work(q, lam, system[-8].shape[0])
    if scale[2] != h:
        factor[0] = 0
    for k in range(targets.shape[0]):
        if not free_step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified, q, v, a, ap, lam,
                         F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work, *system):
            return FAILED - k
    return targets.shape[0]


@njit(cache=True)
def step_work(q, lam, rows):
    """Scratch of :func:`free_step` for a state ``q, lam`` and ``rows`` contact rows: the iterate
    ``q, v, a, a~, lam``, the Newton counters and norms, the bordered solve's ``W = A^-1 C`` and
    inverse Schur matrix (:func:`~solver.system.bordered.border_prepare`) and whether they are
    those of the present factors, and the rows' ``gamma`` (zero: straight rows)."""
    return (q.copy(), q.copy(), q.copy(), q.copy(), lam.copy(), np.zeros(2, dtype=np.int64), np.empty(2),
            np.empty((rows, q.shape[0] + lam.shape[0])), np.empty((rows, rows)), np.zeros(1, dtype=np.int64),
            np.zeros(rows))


@njit(cache=True, nogil=True)
def free_step(k, targets, accs, h, nu, af, c_a, c_v, pseudo_ratio, lam_factor, modified,
              q, v, a, ap, lam, F_ext, drv_rows, drv_dofs, iterations, powers, states, factor, scale, work,
              mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks, dm_dofs,
              bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
              blocks, extra, band_row, band_col, AB, kl, ku, ipiv, perm, pivot_ratio,
              tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse, cr_dofs, cr_col, cr_row, cr_level, cr_diag,
              cr_rhs, lam_c, fresh):
    """Step ``k`` of :func:`free_steps` (its arguments, with the scratch ``work`` of
    :func:`step_work`): the predictor, the modified-Newton iterations with the contact rows
    ``cr_*`` bordering the Newton matrix (none in a run of free steps; straight rows in a run of
    closed Lagrange steps, :mod:`.closed_steps`, whose ``W`` and Schur matrix serve every step
    while the factors do), the projection; whether it converged."""
    qn, vn, an, apn, lamn, counters, norms, W, Sinv, border, gamma = work
    newmark_predict(q, v, a, ap, h, af, qn, vn, an)
    lamn[:] = lam
    target = targets[k]
    counters[0] = 0
    counters[1] = 0
    norms[0] = np.inf
    norms[1] = np.inf
    done = 0
    status = DIVERGED
    while True:
        if factor[0] == 0 or not modified:
            s_in = scale[0] if scale[1] == h else 0.0
            scale[0], singular = newton_factorize(
                qn, vn, an, lamn, F_ext, mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, c_a, c_v, blocks,
                extra, dm_dofs, target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                s_in, band_row, band_col, AB, kl, ku, ipiv, pivot_ratio, fresh)
            scale[1] = h
            scale[2] = h
            factor[0] = 0 if singular else 1
            factor[1] += 1
            border[0] = 0
            if singular:
                break
        if border[0] == 0:  # the bordered solve's W and Schur matrix of these factors
            W_new, S_new = border_prepare(AB, kl, ku, ipiv, perm, q.shape[0] + g.shape[0], cr_dofs, cr_col, cr_row,
                                          cr_diag)
            W[:, :] = W_new
            Sinv[:, :] = S_new
            border[0] = 1
        # follower np.bool_(False), not the literal False: converge_bordered and newton_iterations compile once for
        # this call and the loop's step one by one (:meth:`~.newmark.NewmarkIntegrator.step`), not twice (15 s of CPU)
        status = converge_bordered(q, v, ap, h, nu, apn, accs[k], pseudo_ratio, lam_factor,
                                   qn, vn, an, lamn, F_ext, target, c_a, c_v, counters, norms,
                                   mass_diag, alpha, beta, form, dofs, secs, Mbars, modal, no_blocks, dm_dofs,
                                   bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, vals,
                                   AB, kl, ku, ipiv, perm, scale[0], tol_rel, tol_abs, tol_g, max_iter, contraction,
                                   max_reuse, np.bool_(False), cr_dofs, cr_col, cr_row, cr_level, cr_diag, cr_rhs,
                                   lam_c, fresh, W, Sinv)
        factor[2] += counters[0] - done
        done = counters[0]
        if status == CONVERGED or status == DIVERGED:
            break
        factor[0] = 0  # REFACTOR: the reused matrix no longer contracts
    if status != CONVERGED:  # singular or diverged: the step is given back
        factor[0] = 0
        factor[4] = status
        scale[3] = norms[0]
        return False
    if cr_dofs.shape[0] > 0:  # with contact rows: projected with them (:func:`~.newmark.project_step`)
        project_accelerations(qn, vn, an, apn, lamn, dm_dofs, accs[k], bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows,
                              cols, AB, kl, ku, ipiv, perm, scale[0], pseudo_ratio, lam_factor, W, Sinv, cr_dofs,
                              cr_row, gamma, lam_c)
    powers[k, 1] = modal_damping_power(0.5 * (v + vn), modal) if modal[DOFS].shape[0] else 0.0
    q[:] = qn
    v[:] = vn
    a[:] = an
    ap[:] = apn
    lam[:] = lamn
    if states.shape[1] > k:
        states[0, k, :q.shape[0]] = q
        states[1, k, :v.shape[0]] = v
        states[2, k, :a.shape[0]] = a
        states[3, k, :lam.shape[0]] = lam
    factor[3] = k + 1
    iterations[k] = counters[1]
    p = 0.0
    for i in range(drv_rows.shape[0]):
        p += lam[drv_rows[i]] * v[drv_dofs[i]]
    powers[k, 0] = -p
    return True


@njit(cache=True)
def plan_steps(t, h, h0, t_end, eps_t, shortest, breakpoint, next_out, dt_out, budget, uniform, h1, target):
    """The ends of the steps from ``t`` that the time loop takes one by one (its first try
    ``max(h, shortest)`` towards the end, :func:`.step_ends.step_towards`, and the output time ``target``,
    :func:`.step_ends.step_to_output`, then ``min(h0, 2 x the
    last step)``; after the first ``uniform`` steps ``min(h1, 2 x the last step)``), at most ``budget``,
    stopping before a step that comes near ``breakpoint`` (:func:`.step_ends.near`: the loop lands on
    it) or, among the first ``uniform``, changes size, and after the first that ends at an output time
    (``next_out - eps_t``; every step with ``dt_out <= 0``) or the end; returns ``(ends, steps)``, the
    ends accumulated as the loop does and each step's size (s).  With ``uniform`` infinite, a run of
    steps of one size (a run of closed Lagrange steps grows after the onset steps: :mod:`.closed_steps`)."""
    ends = np.empty(budget)
    steps = np.empty(budget)
    count = 0
    while t < t_end - eps_t and count < budget:
        h_try = step_to_output(t, step_towards(t, max(h, shortest), t_end), target, eps_t, t_end)
        if near(t, h_try, breakpoint) or (0 < count < uniform and h_try != steps[count - 1]):
            break
        t1 = t + h_try
        ends[count] = t1
        steps[count] = h_try
        count += 1
        h = min(h0 if count < uniform else h1, 2 * (t1 - t))
        t = t1
        if dt_out <= 0 or t1 >= next_out - eps_t or t1 >= t_end - eps_t:
            break
    return ends[:count], steps[:count]


def free_run(integ: NewmarkIntegrator, s: State, h: float, times: np.ndarray, targets: np.ndarray, accs: np.ndarray,
             drivers: tuple, record: bool = False, gaps=None) -> tuple:
    """Steps of ``h`` from ``s`` to ``times`` with ``integ`` in one :func:`free_steps` call (with ``gaps``
    whose steps change size, :attr:`~.open_steps.OpenGaps.resizes`, ``h`` is the first's);
    ``targets`` and ``accs`` are the prescribed motion at their ends, ``drivers`` = (rows,
    dofs) of the drivers' power.  Returns ``(state, iterations, powers, failure, states)``: the
    state after the steps taken (``s`` when none), their Newton corrections and powers (the
    drivers' and the modal damping's, W, (steps, 2), see :func:`free_steps`), the :class:`NewtonFailure` of the step after them (None when all were taken), which
    :meth:`NewmarkIntegrator.step` would have raised, and with ``record`` each step's end state
    ``(q, v, a, lam)``, arrays (steps taken, dofs) (``lam`` (steps taken, multipliers)), else None.
    With ``gaps`` (:class:`~.open_steps.OpenGaps`) the steps are taken by
    :func:`~.open_steps.open_steps`: a step that ends with a contact gap closing is not among the
    steps taken but is returned as ``failure``, ``(its end state, its Newton corrections)``."""
    nu, tau, am, af = integ.nu, integ.tau, integ.alpha_m, integ.alpha_f
    ratio = (1.0 - am) / (1.0 - af)
    q, v, a, ap, lam = s.q.copy(), s.v.copy(), s.a.copy(), s.a_pseudo.copy(), s.lam.copy()
    iterations, powers = np.empty(len(times), dtype=np.int64), np.empty((len(times), 2))
    factor, scale = integ.factor_state()
    resizes = gaps is not None and gaps.resizes  # its kernel takes the factors of nearby steps itself
    if not resizes and factor[0] and abs(h - scale[2]) <= integ.step_reuse * scale[2]:
        scale[2] = h  # factors of a nearby step serve this one (NewmarkIntegrator.reuse_near_steps)
    n = len(q)
    states = np.empty((4, len(times) if record else 0, max(n, len(lam))))
    failure, closing = None, False
    try:
        args = (targets, accs, h, nu, af, ratio / (nu * h * h), tau / (nu * h), (1.0 - af) / (1.0 - am), nu * h * h,
                integ.modified, q, v, a, ap, lam, integ.asm.sys.gravity, *drivers, iterations, powers, states, factor,
                scale, *integ.run_arguments())
        taken, closing = ((free_steps(*args), False) if gaps is None
                          else gaps.steps(args, n, len(lam), len(times) if record else 0))
    except ZeroDivisionError:
        factor[0], taken = 0, FAILED - factor[3]
        failure = NewtonFailure(COLLAPSED)
    if taken < 0:
        taken = FAILED - taken
        if failure is None:
            failure = NewtonFailure(divergence(scale[3], integ.max_iter) if factor[4] == DIVERGED else SINGULAR)
    integ.take_factor_state(factor, scale, float(scale[2]))  # the step of the last factors made
    if closing:  # the last step is handed over: the run ends at its start
        taken -= 1
        failure = (State(float(times[taken]), q, v, a, lam, ap), int(iterations[taken]))
        q, v, a, ap, lam = (gaps.before[i, :len(x)].copy() for i, x in enumerate((q, v, a, ap, lam)))
    new = State(float(times[taken - 1]), q, v, a, lam, ap) if taken else s
    recorded = (states[0, :taken, :n], states[1, :taken, :n], states[2, :taken, :n],
                states[3, :taken, :len(lam)]) if record else None
    return new, iterations[:taken], powers[:taken], failure, recorded
