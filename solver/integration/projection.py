"""Projection of the accelerations onto the constraints after a converged Newmark step
(:func:`~.newmark.converge_step`): position constraints hold after Newton, but with the
trapezoidal rule the acceleration error they leave is undamped and makes the multipliers (joint
reactions, driver torques) oscillate from step to step; one solve with the factorised Newton
matrix enforces ``G a = gamma`` (Bayo & Ledesma 1996), bordered by the contact rows
(:mod:`solver.system.bordered`).
"""
from __future__ import annotations

import numpy as np

from ..jit import njit
from ..system.banded import band_solve
from ..system.bordered import border_correct, border_prepare, row_residuals
from ..system.constraints import constraint_eval


@njit(cache=True)
def project_accelerations(q, v, a, a_pseudo, lam, dm_dofs, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p,
                          rows, cols, AB, kl, ku, ipiv, perm, scale, pseudo_ratio, lam_factor,
                          W, Sinv, cr_dofs, cr_row, cr_gamma, lam_c):
    """In place: ``a += da`` with ``[S  s G^T; s G  0] [da; mu] = [0; s (gamma - G a)]``,
    bordered by the contact rows (``R da = gamma_c - R a``, :mod:`solver.system.bordered`),
    the pseudo-acceleration alike, and ``lambda += lam_factor s mu``, ``lambda_c +=
    lam_factor dlambda_c`` (see :func:`converge_step`)."""
    n, m = q.shape[0], dm_dofs.shape[0] + 2 * bp_n.shape[0] + sl_n.shape[0]
    g = np.empty(m)
    vals = np.empty(rows.shape[0])
    gamma = np.empty(m)
    constraint_eval(q, v, dm_dofs, dm_acc, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, g, vals, gamma)
    rhs = np.zeros(n + m)
    for k in range(rows.shape[0]):
        gamma[rows[k]] -= vals[k] * a[cols[k]]
    for i in range(m):
        rhs[n + i] = scale * gamma[i]
    x = np.empty(n + m)
    band_solve(AB, kl, ku, ipiv, perm, rhs, x)
    c = cr_dofs.shape[0]
    if c > 0:
        r_c = np.empty(c)
        dlam = np.empty(c)
        row_residuals(cr_gamma, cr_dofs, cr_row, a, r_c)
        border_correct(x, W, Sinv, cr_dofs, cr_row, r_c, dlam)
        for k in range(c):
            lam_c[k] += lam_factor * dlam[k]
    for i in range(n):
        a[i] += x[i]
        a_pseudo[i] += x[i] * pseudo_ratio
    for i in range(m):
        lam[i] += lam_factor * scale * x[n + i]


@njit(cache=True)
def project_step(q, v, a, ap, lam, dm_dofs, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p, rows, cols,
                 AB, kl, ku, ipiv, perm, scale, pseudo_ratio, lam_factor, cr_dofs, cr_col, cr_row, cr_diag, cr_gamma,
                 lam_c):
    """:func:`project_accelerations` with the contact rows, once their ``gamma`` is that of the
    converged state: without it the multipliers of contact rows take the same step-to-step
    oscillation as the joints' (round-off, amplified by ``1 / h^2``, grows without bound at
    tau = 0.5), and with a ``gamma`` of the step's start a bead in a bowl loses energy."""
    W, Sinv = border_prepare(AB, kl, ku, ipiv, perm, q.shape[0] + lam.shape[0], cr_dofs, cr_col, cr_row, cr_diag)
    project_accelerations(q, v, a, ap, lam, dm_dofs, dm_acc, bp_n, bp_b, bp_r, sl_n, sl_nrm, sl_p,
                          rows, cols, AB, kl, ku, ipiv, perm, scale, pseudo_ratio, lam_factor,
                          W, Sinv, cr_dofs, cr_row, cr_gamma, lam_c)
