"""Runs of compliant steps in one compiled call while a contact pair of a run is closed or live
(issue 28, point 1; seed ``001_…txt`` §5).

A run whose only contacts are dry circle pairs (clearance joints, :mod:`solver.contact.circle_pairs`),
with rigid links or a few beam elements, no loads but gravity, constant-speed drivers and no
Rayleigh damping, takes its steps one by one in Python while a pair is closed or live (its gap
within a step's reach, :meth:`~solver.contact.compliant.CompliantModel.begin_step`): the pairs live
in each attempt, the step size of the penetration error, the Newmark step with the compiled
iterations (:func:`~.newmark.converge_compliant_step`), the energy guard
(:meth:`~solver.results.outputs.OutputBuilder.spurious_growth`), ``event_time``'s contact starts
stepped over (:func:`~solver.contact.hermite_gap.first_crossing`) and criteria
(:mod:`solver.contact.step_criteria`, on each pair's predicted peak set at its contact's start),
acceptance or rejection, the stall window (:class:`~.step_limits.StepLimits`), the ledger's
trapezoid of the powers, :meth:`~solver.contact.compliant.CompliantModel.switch` (contact starts and
separations, :mod:`.circle_events`; peaks, a hysteresis law's force peak inside the step, validity
and width counts, stick or slide, the impulses of the forces), the watch on created energy and
flown-apart nodes, and the frame.  :func:`compliant_steps` takes such steps in one compiled call,
with the same arithmetic and decisions, and records each step's end state, energies and contact
columns in preallocated rows (the frames of a run saved at every step made a block at a time,
:func:`~solver.results.gathered_frames.block_of_rows`) and its contact starts and separations in
rows of events, which the loop's side logs after the run.  A Kelvin-Voigt pair's loading steps stay
the loop's (it looks for the maximum compression, where the force switches with a jump).

A run ends before a step from a state where every pair is open and none live (a run of open steps
takes it, :mod:`.open_circles`) or a closed Kelvin-Voigt pair loads.  It hands a step back to the
time loop, which then takes it exactly as it would have, at anything else: an attempt with no pair
live, a Kelvin-Voigt pair's contact start already at its maximum compression, an attempt that may
not be cut further (the loop stops the run), the stall window closing, a node flown apart, a
breakpoint within reach.  Every attempt of a step handed back is undone (the factors of the Newton matrix, the
counters, the guard's largest energy, the rejections): the loop starts from the same integrator
state.  A run ends after a step at which the created-energy watch flags (the loop switches
numerical damping on) or a frame is due that the run does not gather (``solver.output_interval``
> 0), at the end time, and after its rows (:class:`~.closed_circles.ClosedCircles`: work bounded as
a run of free steps', the loop checks for a cancel between runs).  The divergence watch's energy
check looks at a run's last state (as after runs of free steps); its flown-apart check at every step.
"""
from __future__ import annotations

import numpy as np

from ..contact.circle_pairs import CENTRE_X, CENTRE_Y, POINT_X, POINT_Y, circle_forces, circle_pair_state, \
    compiled_distance
from ..contact.compliant_laws import WIDTH_FRACTION, pair_normal
from ..contact.force_peak import force_peak
from ..contact.hermite_gap import first_crossing, hermite_min
from ..contact.state_terms import state_terms
from ..contact.step_criteria import next_step, pair_criteria
from ..jit import njit
from ..system.assembly import newton_factorize
from ..system.state_energies import strain_total
from .circle_events import begin_attempt, contact_start, separation
from .newmark import CONVERGED, DIVERGED, FOLLOWER, converge_compliant_step, newmark_predict
from .live_pairs import any_live
from .step_ends import near, output_target, step_to_output, step_towards

#: the columns of a pair's values at a state (:func:`pair_values`; ∂F/∂δ, ∂F/∂δ̇ of the normal force)
DEPTH, V_N, V_T, F_N, F_T, VALID, GAP, DF_DDELTA, DF_DRATE = range(9)
#: the factor state ``fs``: valid, the factors' step, the constraint scale and its step, counts
VALID_F, FACTOR_H, SCALE, SCALE_H, FACTORIZATIONS, EVALUATIONS = range(6)
#: the run's scalars ``run`` (in and out)
(T, H, H0, T_END, EPS_T, SHORTEST, BREAKPOINT, NEXT_OUT, DT_OUT, ACCURACY, INCREMENT, TOL, H_ERROR, LARGEST, IN_PLAY,
 BALANCE0, WINDOW, LAST_STEP, REJECTED, EXTENT, UNDAMPED, NU, TAU, ALPHA_M, ALPHA_F, CONTRACTION, RETRIES,
 MAX_WINDOW, ONSET, FLOOR, ORDER, MAX_CUTS, FREE, EVENT_COUNT) = range(34)
#: the run's scalars' count; ``run[FREE]`` counts the steps taken with every pair open, ``run[EVENT_COUNT]``
#: the rows of the run's contact starts and separations (:mod:`.circle_events`)
SCALARS = 34
#: :func:`attempt`'s verdict on a step in which no pair would be live (the loop takes it without contact forces)
NOT_LIVE = -2
#: the ledger's keys in :attr:`OutputBuilder.ledger`'s order are booked from the powers' slots of
#: :meth:`~solver.results.outputs.OutputBuilder.powers`: slot ``j`` into ledger entry ``BOOKED[j]``
BOOKED = (0, 1, 3, 4, 6, 2)
#: the energy balance's signs (:data:`~solver.results.frames.ENERGY_BALANCE_SIGNS`) of the four
#: energy terms and the seven ledger entries, in their order
SIGNS = (1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0)
#: the compiled closed runs of circle pairs serve models with fewer beam elements than this: numpy's pairwise
#: sum of the strain energies, which the loop took, added fewer than 8 terms one after the other (every path
#: now sums them in order, :mod:`solver.system.state_energies`: the bound could go)
SEQUENTIAL_SUM = 8
#: what a run ended with: steps to take on, a step handed back, a frame due or the watch's flag
GOING, HANDED, DUE = 0, 1, 2


@njit(cache=True)
def prescribed(codes, values, base, t, target, acc):
    """The dof-motion rows' targets and prescribed accelerations at ``t`` (s) of constant-speed
    drivers (``codes`` 1: the integral ``value t``; 2: a constant ``value``; 0: fixed), as
    :meth:`~solver.system.constraints.Constraints.target` and ``prescribed(t, 2)`` give them."""
    for i in range(codes.shape[0]):
        motion = values[i] * t if codes[i] == 1 else values[i] if codes[i] == 2 else 0.0
        target[i] = base[i] + motion
        acc[i] = 0.0


@njit(cache=True)
def pair_values(q, v, batch, codes, delta_dot_0, trial_rate, unloading, pv, Js):
    """Each pair's penetration, contact velocities, forces, validity and gap at ``(q, v)`` into the
    rows of ``pv`` (:data:`DEPTH` …) and its Jacobian rows into ``Js``: the
    :class:`~solver.contact.pair_forces.PairForces` of :meth:`CompliantModel._circle_forces`."""
    dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, _offsets = batch
    for i in range(dofs.shape[0]):
        rate = delta_dot_0[i] if codes[i] != 0 else trial_rate[i]
        gap, _nx, _ny, J, v_n, v_t, depth, normal, F_t, _dF = circle_pair_state(
            q, v, dofs[i, :widths[i]], ends[i], slots[i], geometry[i], law[i], p[i], kelvin[i], damping[i],
            friction[i], fp[i], rate, unloading[i])
        pv[i, DEPTH], pv[i, V_N], pv[i, V_T], pv[i, F_T], pv[i, GAP] = depth, v_n, v_t, F_t, gap
        pv[i, F_N] = normal[0] if depth > 0.0 else 0.0
        pv[i, DF_DDELTA], pv[i, DF_DRATE] = (normal[1], normal[2]) if depth > 0.0 else (0.0, 0.0)
        pv[i, VALID] = 1.0 if depth <= 0.0 or normal[4] else 0.0
        Js[i, :, :widths[i]] = J


@njit(cache=True)
def newmark_compliant(h, t0, run, q0, v0, a0, ap0, lam0, q, v, a, ap, lam, motion, contact, fs, extra, system):
    """One Newmark step of ``h`` (s) from ``(q0, v0, a0, ap0, lam0)`` into ``(q, v, a, ap, lam)`` with
    the circle pairs' forces re-evaluated at every iterate: what
    :meth:`~.newmark.NewmarkIntegrator.step` does for a step whose live pairs are all circle pairs
    (their forces and Newton blocks, the refactorisation rules, the compiled iterations); ``fs``
    carries the factor state.  Returns the Newton corrections, or -1 when the step failed."""
    (mass_diag, alpha, beta, form, elem_dofs, secs, Mbars, modal, no_blocks, dm_dofs, bp_n, bp_b, bp_r, sl_n, sl_nrm,
     sl_p, rows, cols, psi, g, G_vals, blocks, _no_extra, band_row, band_col, AB, kl, ku, ipiv, perm, pivot_ratio,
     tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse, cr_dofs, cr_col, cr_row, cr_level, cr_diag, cr_rhs,
     lam_c, fresh) = system
    nu, tau, am, af = run[NU], run[TAU], run[ALPHA_M], run[ALPHA_F]
    c_a = (1.0 - am) / (1.0 - af) / (nu * h * h)
    c_v = tau / (nu * h)
    newmark_predict(q0, v0, a0, ap0, h, af, q, v, a)
    lam[:] = lam0
    if h != fs[FACTOR_H]:
        fs[VALID_F] = 0.0
    target, dm_acc = np.empty(motion[2].shape[0]), np.empty(motion[2].shape[0])
    prescribed(motion[0], motion[1], motion[2], t0 + h, target, dm_acc)
    gravity = motion[3]
    counters, norms = np.zeros(2, dtype=np.int64), np.array([np.inf, np.inf])
    F_contact, F_ext = np.empty(q.shape[0]), np.empty(q.shape[0])
    previous, done = np.array([np.inf]), 0
    while True:
        F_contact[:] = 0.0
        extra[:] = 0.0
        circle_forces(q, v, c_v, *contact, F_contact, extra)
        for i in range(q.shape[0]):
            F_ext[i] = gravity[i] + F_contact[i]
        if fs[VALID_F] == 0.0:
            scale_in = fs[SCALE] if fs[SCALE_H] == h else 0.0
            fs[SCALE], singular = newton_factorize(
                q, v, a, lam, F_ext, mass_diag, alpha, beta, form, elem_dofs, secs, Mbars, modal, c_a, c_v, blocks,
                extra, dm_dofs, target, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi, g, G_vals, scale_in,
                band_row, band_col, AB, kl, ku, ipiv, pivot_ratio, fresh)
            fs[SCALE_H], fs[FACTOR_H], fs[VALID_F] = h, h, 1.0
            fs[FACTORIZATIONS] += 1.0
            previous[0] = np.inf
            if singular:
                fs[VALID_F] = 0.0
                return -1
        # follower np.bool_(True), not the literal True: converge_compliant_step compiles once for this call and the
        # loop's step one by one (:meth:`~.newmark.NewmarkIntegrator.step`), not twice (21 s of CPU)
        status = converge_compliant_step(
            previous, gravity, run[CONTRACTION], contact, q0, v0, ap0, h, nu, ap, dm_acc, (1.0 - af) / (1.0 - am),
            nu * h * h, q, v, a, lam, F_ext, target, c_a, c_v, counters, norms, mass_diag, alpha, beta, form,
            elem_dofs, secs, Mbars, modal, no_blocks, dm_dofs, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols, psi,
            g, G_vals, AB, kl, ku, ipiv, perm, fs[SCALE], tol_rel, tol_abs, tol_g, max_iter, contraction, max_reuse,
            np.bool_(True), cr_dofs, cr_col, cr_row, cr_level, cr_diag, cr_rhs, lam_c, fresh)
        fs[EVALUATIONS] += counters[0] - done
        done = counters[0]
        if status == CONVERGED:
            return counters[1]
        if status == DIVERGED:
            fs[VALID_F] = 0.0
            return -1
        if status == FOLLOWER:
            if norms[0] > run[CONTRACTION] * previous[0]:
                fs[VALID_F] = 0.0
            previous[0] = norms[0]
            continue
        fs[VALID_F] = 0.0


@njit(cache=True)
def energies(q, v, lam, mechanical, batch, codes, delta_dot_0, trial_rate, unloading, e, p):
    """The energy terms ``e`` (kinetic, strain, potential, contact, J) and powers ``p`` (W) of
    :meth:`~solver.results.outputs.OutputBuilder.energy_terms` and ``powers`` at ``(q, v, lam)``:
    :func:`~solver.contact.state_terms.state_terms`, summed as :meth:`ContactTracker.state_terms`
    sums them (the elements' strain energies in order, :func:`~solver.system.state_energies.strain_total`)."""
    kinetic, potential, p_drivers, terms = state_terms(q, v, lam, *mechanical, *batch[:11], codes, delta_dot_0,
                                                       trial_rate, unloading)
    U = mechanical[-1]
    e[0], e[1], e[2], e[3] = kinetic, strain_total(U) + 0.0 if U.shape[0] else 0.0, potential, 0.0 + terms[2]
    p[0], p[1], p[2], p[3], p[4], p[5], p[6] = 0.0, p_drivers, 0.0, 0 + terms[0], 0 + terms[1], 0.0, 0 + 0.0


@njit(cache=True)
def spurious(run, h, e0, p0, e1, p1):
    """Whether the step's energy grew by more than 0.05 of the energies in play beyond the work of
    the drivers: :meth:`~solver.results.outputs.OutputBuilder.spurious_growth`, its arithmetic in
    its order (``run[LARGEST]``, the largest energy at a step's start, updated)."""
    total = 0.0
    for i in (0, 1, 5, 6):
        total += p0[i] + p1[i]
    work = 0.5 * h * total
    start, both, s0, s1 = 0.0, 0.0, 0.0, 0.0
    for i in range(4):
        start += abs(e0[i])
        s0 += e0[i]
        s1 += e1[i]
    for i in range(4):
        both += abs(e0[i])
    for i in range(4):
        both += abs(e1[i])
    run[LARGEST] = max(run[LARGEST], start)
    scale = max(both + abs(work), run[FLOOR] * run[LARGEST])
    return s1 - s0 - work > 0.05 * max(scale, 1e-30)


@njit(cache=True)
def judge(run, h, t0, a0, a1, pv0, pv1, Js, codes, peak, scale, dofs, widths):
    """``event_time`` of :class:`~solver.contact.compliant.CompliantModel` for a step of ``h`` from
    ``t0`` (``codes`` the pairs' states at its start, ``scale`` their predicted peaks, m): ``(verdict,
    t)``, 0 accepted (``run[H_ERROR]`` the next step), 1 taken again to ``t``: the first contact start
    stepped over (:func:`~solver.contact.hermite_gap.first_crossing` of an open pair), or the criteria of the
    pairs closed at its start or penetrated at its end."""
    start = np.inf
    for i in range(pv1.shape[0]):
        if codes[i] == 0:
            s = first_crossing(-pv0[i, DEPTH], h * pv0[i, V_N], -pv1[i, DEPTH], h * pv1[i, V_N], run[TOL])
            if s >= 0.0:
                start = min(start, t0 + s * h)
    if start < np.inf:
        return 1, start
    error, increment, h_increment = 0.0, 0.0, np.inf
    for i in range(pv1.shape[0]):
        depth = pv1[i, DEPTH]
        if codes[i] == 0 and not depth > 0.0:
            continue
        w, w1 = np.empty(widths[i]), np.empty(widths[i])
        for j in range(widths[i]):
            w[j] = a1[dofs[i, j]] - a0[dofs[i, j]]
            w1[j] = a1[dofs[i, j]]
        J = Js[i, :, :widths[i]].copy()
        a_n, a_n1 = np.dot(J, w)[0], np.dot(J, w1)[0]  # BLAS, as ContactGeometry.velocity
        e, c, h_c = pair_criteria(h, a_n, depth, pv0[i, DEPTH], peak[i], codes[i] != 0, run[ACCURACY],
                                  run[INCREMENT], run[TOL], scale[i], -pv1[i, V_N], -a_n1)
        error, increment, h_increment = max(error, e), max(increment, c), min(h_increment, h_c)
    if error == 0.0 and increment == 0.0:
        run[H_ERROR] = np.inf
        return 0, 0.0
    h_next, reject = next_step(h, error, increment, h_increment, run[ORDER])
    if reject:
        return 1, t0 + h_next
    run[H_ERROR] = h_next
    return 0, 0.0


@njit(cache=True)
def book_step(t, step, pv0, pv1, Js, q, p1, pairs, ledger, last_powers, system, inertia, events, run):
    """An accepted step of ``step`` (s) from ``t`` booked as
    :meth:`~solver.results.outputs.OutputBuilder.advance_ledger` and
    :meth:`~solver.contact.compliant.CompliantModel.switch` book it: the ledger's trapezoid of the powers
    ``p1`` at its end, each pair's contact start or separation (:mod:`.circle_events`), each closed
    pair's peak between the step's ends (the Hermite gap's least value, a
    hysteresis law's force peak inside the step: :func:`~solver.contact.force_peak.force_peak`) and at
    its end, the largest penetration and force (``peaks`` rows: peak, peak force, largest penetration,
    largest force), stick or slide below the friction velocity, the validity and width counts, the
    impulses of the forces ``acc``.  ``pair_props`` rows: friction velocity (m/s), then a line
    contact's (on, σ, L, R, smaller radius)."""
    h = (t + step) - t
    batch, codes, delta_dot_0, _trial, unloading, peaks, report, acc, pair_props = pairs[:9]
    for j in range(6):  # work_moving (slot 6) is no term of these runs' ledgers
        ledger[BOOKED[j]] += 0.5 * h * (last_powers[j] + p1[j])
    last_powers[:] = p1
    law, p, kelvin, damping, friction = batch[5], batch[6], batch[7], batch[8], batch[9]
    closed = False
    for k in range(pv1.shape[0]):
        ends = (-pv0[k, DEPTH], h * pv0[k, V_N], -pv1[k, DEPTH], h * pv1[k, V_N])
        was, depth, F_n = codes[k] != 0, pv1[k, DEPTH], pv1[k, F_N]
        if depth > 0.0 and not was:
            contact_start(k, t, step, ends, pv1[k, GAP], q, Js[k, :, :batch[1][k]], pairs, system, inertia, run[TOL],
                          events, run, EVENT_COUNT)
        elif depth <= 0.0 and was:
            separation(k, t, step, ends, pairs, events, run, EVENT_COUNT)
        if was or codes[k] != 0:
            _s, gap = hermite_min(ends[0], ends[1], ends[2], ends[3])
            slopes = (pv0[k, DF_DDELTA], pv0[k, DF_DRATE], pv1[k, DF_DDELTA], pv1[k, DF_DRATE])
            force = force_peak(law[k], p[k], kelvin[k], damping[k], ends, h, slopes, delta_dot_0[k], unloading[k])
            if -gap > peaks[0, k]:
                peaks[0, k] = -gap
                peaks[2, k] = max(peaks[2, k], -gap)
                force = max(force, pair_normal(law[k], p[k], kelvin[k], damping[k], -gap, 0.0, delta_dot_0[k],
                                               unloading[k])[0])
            peaks[1, k] = max(peaks[1, k], force)
            peaks[3, k] = max(peaks[3, k], force)
        if codes[k] != 0:
            closed = True
            peaks[0, k] = max(peaks[0, k], depth)
            peaks[1, k] = max(peaks[1, k], F_n)
            peaks[2, k] = max(peaks[2, k], depth)
            peaks[3, k] = max(peaks[3, k], F_n)
            codes[k] = 2 if friction[k] >= 0 and abs(pv1[k, V_T]) < pair_props[k, 0] else 1
            if pv1[k, VALID] == 0.0:
                report[1, k] += 1
            if pair_props[k, 1] != 0.0 and F_n > 0.0:
                sigma, length, R, smaller = pair_props[k, 2], pair_props[k, 3], pair_props[k, 4], pair_props[k, 5]
                if np.sqrt(4.0 * F_n * R * sigma / (np.pi * length)) / smaller > WIDTH_FRACTION:
                    report[2, k] += 1
        acc[k, 0] += 0.5 * h * (pv0[k, F_N] + pv1[k, F_N])
        acc[k, 1] += 0.5 * h * (pv0[k, F_T] + pv1[k, F_T])
    ledger[6] += 0.0  # Kelvin-Voigt's switches (none here) and friction's jumps, as after_step adds them
    ledger[4] += 0.0
    if not closed:
        run[H_ERROR] = np.inf


@njit(cache=True)
def frame_rows(i, t, q, v, a, lam, e, ledger, pv, codes, acc, impacts, batch, records):
    """Row ``i`` of the frames' ``records`` (times, q, v, a, lam, energies, contact columns) at the
    state just booked: :meth:`~solver.results.gathered_frames.GatheredFrames.add` with
    :meth:`~solver.results.outputs.OutputBuilder.energy_row` and :func:`contact_columns`."""
    times, Q, V, A, LAM, energy, contact = records
    times[i] = t
    Q[i], V[i], A[i], LAM[i, :lam.shape[0]] = q, v, a, lam
    energy[i, :4] = e
    energy[i, 4:] = ledger
    contact_columns(q, pv, codes, acc, impacts, batch, contact[i])


@njit(cache=True)
def contact_columns(q, pv, codes, acc, impacts, batch, contact):
    """The contact columns ``contact`` (keys, pairs) of a frame at ``q`` with the pairs' values ``pv``
    (:func:`pair_values`): :meth:`~solver.contact.tracker.ContactTracker.frame_row` (the impulses ``acc``
    since the last frame taken, then zeroed)."""
    ends, geometry = batch[2], batch[4]
    for k in range(pv.shape[0]):
        cx, cy = geometry[k, 2], geometry[k, 3]
        if ends[k, CENTRE_X] >= 0:
            cx, cy = q[ends[k, CENTRE_X]], q[ends[k, CENTRE_Y]]
        row = contact[:, k]
        row[0], row[1], row[2], row[3], row[4] = pv[k, GAP], pv[k, V_N], pv[k, V_T], pv[k, F_N], pv[k, F_T]
        row[5], row[6], row[7], row[8], row[9] = codes[k], acc[k, 0], acc[k, 1], 0.0, 0.0
        row[10] = max(pv[k, DEPTH], 0.0)
        row[11] = compiled_distance(q[ends[k, POINT_X]] - cx, q[ends[k, POINT_Y]] - cy)
        row[12] = impacts[k]
        acc[k, 0], acc[k, 1] = 0.0, 0.0


@njit(cache=True)
def keep(snapshot, fs, system, run):
    """The integrator's factor state, its scratch and the run's guard, rejections and next step before
    a step's attempts (:func:`undo` puts them back when the step is handed back)."""
    fs0, AB0, ipiv0, psi0, g0, Gv0, fresh0, scalars = snapshot
    fs0[:] = fs
    AB0[:, :] = system[25]
    ipiv0[:] = system[28]
    psi0[:] = system[18]
    g0[:] = system[19]
    Gv0[:] = system[20]
    fresh0[:] = system[-1]
    scalars[0], scalars[1], scalars[2] = run[LARGEST], run[REJECTED], run[H_ERROR]


@njit(cache=True)
def undo(snapshot, fs, system, run):
    """What :func:`keep` kept, put back."""
    fs0, AB0, ipiv0, psi0, g0, Gv0, fresh0, scalars = snapshot
    fs[:] = fs0
    system[25][:, :] = AB0
    system[28][:] = ipiv0
    system[18][:] = psi0
    system[19][:] = g0
    system[20][:] = Gv0
    system[-1][:] = fresh0
    run[LARGEST], run[REJECTED], run[H_ERROR] = scalars[0], scalars[1], scalars[2]


@njit(cache=True)
def attempt(step, run, start, work, pairs, motion, contact, fs, extra, system, mechanical, e0, p0, values):
    """A step of ``step`` (s) from ``start`` into ``work`` with the pairs live in it
    (:func:`.circle_events.begin_attempt` into ``contact``), its pairs' values and energies into
    ``values`` (pv, Js, e, p): its Newton corrections, -1 when it failed or its energy jumped
    (:func:`spurious`), :data:`NOT_LIVE` when no pair is live."""
    q, v, a, ap, lam = start
    qn, vn, an, apn, lamn = work
    batch, codes, delta_dot_0, trial_rate, unloading = pairs[:5]
    pv, Js, e, p = values
    if not begin_attempt(step, q, v, a, run[TOL], batch, codes, delta_dot_0, trial_rate, contact[12], contact[13]):
        return NOT_LIVE
    try:
        its = newmark_compliant(step, run[T], run, q, v, a, ap, lam, qn, vn, an, apn, lamn, motion, contact, fs,
                                extra, system)
    except Exception:  # noqa: BLE001 -- ZeroDivisionError: an element collapsed (NewmarkIntegrator.step's failure)
        fs[VALID_F] = 0.0
        its = -1
    if its < 0:
        return -1
    pair_values(qn, vn, batch, codes, delta_dot_0, trial_rate, unloading, pv, Js)
    energies(qn, vn, lamn, mechanical, batch, codes, delta_dot_0, trial_rate, unloading, e, p)
    if spurious(run, (run[T] + step) - run[T], e0, p0, e, p):
        return -1
    return its


@njit(cache=True)
def cut_attempt(step, run, start, work, pairs, motion, contact, fs, extra, system, mechanical, e0, p0, values):
    """:func:`attempt` halved while it fails, as :func:`~.attempts.advance` cuts a step (each cut a
    rejected attempt), at most ``run[MAX_CUTS]`` times and not below the shortest step:
    ``(Newton corrections, step)``, the corrections -1 when it may not be cut further."""
    cuts = 0
    while True:
        its = attempt(step, run, start, work, pairs, motion, contact, fs, extra, system, mechanical, e0, p0, values)
        if its >= 0 or its == NOT_LIVE or not (cuts < run[MAX_CUTS] and 0.5 * step >= run[SHORTEST]):
            return its, step
        cuts += 1
        run[REJECTED] += 1
        step = 0.5 * step


@njit(cache=True)
def created(run, e, ledger):
    """:meth:`~.divergence.DivergenceWatch.created_energy` at a state of energies ``e`` after the
    ledger's booking: the balance risen by ``run[ONSET]`` of the largest kinetic and strain energy."""
    run[IN_PLAY] = max(run[IN_PLAY], e[0] + e[1])
    total = 0.0
    for i in range(4):
        total += SIGNS[i] * e[i]
    for i in range(7):
        total += SIGNS[4 + i] * ledger[i]
    return total - run[BALANCE0] > run[ONSET] * run[IN_PLAY]


@njit(cache=True)
def kelvin_voigt(codes, kelvin, unloading, pv, starting):
    """Whether a Kelvin-Voigt pair loads, closed (its maximum compression is looked for: the loop's), or,
    ``starting``, begins its contact at the end of a step (``pv`` there) already at its maximum
    compression (its force switches with a jump at once: the loop's)."""
    for k in range(codes.shape[0]):
        if kelvin[k] and not unloading[k]:
            if not starting and codes[k] != 0:
                return True
            if starting and codes[k] == 0 and pv[k, DEPTH] > 0.0 and pv[k, V_N] >= 0.0:
                return True
    return False


@njit(cache=True)
def flown(q, position_dofs, extent):
    """Whether a node is farther than ``extent`` (m) from the origin, or not finite (the watch's first mark)."""
    if position_dofs.shape[0] == 0:
        return False
    for d in position_dofs:
        if not np.isfinite(q[d]) or abs(q[d]) > extent:
            return True
    return False


@njit(cache=True)
def compliant_steps(run, fs, state, work, pairs, motion, contact, mechanical, system, extra, ledger, last_powers,
                    before, position_dofs, records, snapshot, inertia, events):
    """Steps from ``state`` (q, v, a, a~, lam; in place) while a pair is closed or live
    (:func:`~.live_pairs.any_live`) and none a loading Kelvin-Voigt pair, their contact starts and
    separations booked (:mod:`.circle_events`, ``inertia`` the scratch of the effective mass, ``events``
    their rows), as the time loop takes them one by one (module docstring), at most one per row of
    ``records`` (times, steps, Newton corrections, then the frames' rows, :func:`frame_rows`, when they
    have rows); ``before`` = (pair values, energies, powers) at ``state`` as the loop has them.  Returns
    ``(steps taken, GOING | HANDED | DUE)``."""
    batch, codes, peaks, scale = pairs[0], pairs[1], pairs[5], pairs[10]
    acc, impacts = pairs[7], pairs[9]
    pv0, e0, p0 = before
    C, width = codes.shape[0], batch[0].shape[1]
    values = (np.empty((C, 9)), np.zeros((C, 2, width)), np.empty(4), np.empty(4 + 3))
    times, hs, iterations = records[:3]
    gathering = records[3].shape[0] > 0
    gaps = np.empty((C, 2))
    for taken in range(times.shape[0]):
        t = run[T]
        if not t < run[T_END] - run[EPS_T] or run[EVENT_COUNT] + C > events.shape[0]:
            return taken, GOING
        closed = codes.max() > 0
        if not (closed or any_live(state[0], state[1], state[2], run[H], run[TOL], gaps, *batch[:11])):
            return taken, GOING  # every pair open and none live: a run of open steps (:mod:`.open_circles`)
        if kelvin_voigt(codes, batch[7], pairs[4], pv0, False):
            return taken, GOING  # a loading Kelvin-Voigt pair: its maximum compression the loop's
        h_full = step_to_output(t, step_towards(t, max(min(run[H], run[H_ERROR]) if closed else run[H], run[SHORTEST]),
                                                run[T_END]),
                                output_target(run[NEXT_OUT], run[DT_OUT], run[H0]), run[EPS_T], run[T_END])
        if near(t, h_full, run[BREAKPOINT]):
            return taken, HANDED
        keep(snapshot, fs, system, run)
        its, step = cut_attempt(h_full, run, state, work, pairs, motion, contact, fs, extra, system, mechanical, e0,
                                p0, values)
        for _ in range(int(run[RETRIES])):
            if its < 0:
                break
            verdict, t_ct = judge(run, (t + step) - t, t, state[2], work[2], pv0, values[0], values[1], codes,
                                  peaks[0], scale, batch[0], batch[1])
            if verdict == 0 or (t + step) - t <= run[SHORTEST]:
                break
            run[REJECTED] += 1
            its, step = cut_attempt(max(t_ct - t, run[SHORTEST]), run, state, work, pairs, motion, contact, fs, extra,
                                    system, mechanical, e0, p0, values)
        pv1, e1, p1 = values[0], values[2], values[3]
        if its < 0 or kelvin_voigt(codes, batch[7], pairs[4], pv1, True) or run[WINDOW] + 1 >= run[MAX_WINDOW] or flown(
                work[0], position_dofs, run[EXTENT]):
            undo(snapshot, fs, system, run)
            return taken, HANDED
        h_try = (t + step) - t
        run[T], run[WINDOW], run[LAST_STEP] = t + step, run[WINDOW] + 1, h_try
        times[taken], hs[taken], iterations[taken] = t + step, h_try, its
        run[FREE] += 0.0 if closed else 1.0
        book_step(t, step, pv0, pv1, values[1], work[0], p1, pairs, ledger, last_powers, system, inertia, events, run)
        for x, y in zip(state, work):
            x[:] = y
        run[H] = min(run[H0], 2 * h_try)
        if gathering:
            frame_rows(taken, run[T], state[0], state[1], state[2], state[4], e1, ledger, pv1, codes, acc, impacts,
                       batch, records[3:])
        pv0[:, :], e0[:], p0[:] = pv1, e1, p1
        if run[UNDAMPED] != 0.0 and created(run, e1, ledger):  # the loop switches damping on
            return taken + 1, DUE
        if not gathering and (run[DT_OUT] <= 0.0 or run[T] >= run[NEXT_OUT] - run[EPS_T]
                              or run[T] >= run[T_END] - run[EPS_T]):  # the loop makes the frame due
            return taken + 1, DUE
    return times.shape[0], GOING
