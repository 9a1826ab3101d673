"""The constrained mass matrix by a band Cholesky factorisation, the dof fixes eliminated.

The velocity jump of an impulse and the consistent restart after it (thesis eqs. 3.10-3.21,
:mod:`solver.contact.jump`, :func:`solver.system.initial.restart`) solve

    [ M  G^T ] [ x      ]   [ b ]
    [ G  0   ] [ lambda ] = [ c ]

at every impulse, with ``M`` the mass matrix at the configuration of the impulse.  ``M`` is
symmetric positive definite and, in the reverse Cuthill-McKee order of its own pattern,
narrow-banded: it is factorised ``M = L L^T`` (LAPACK's dpbtf2, lower band storage
``LB[i - j, j] = L[i, j]``) instead of the band LU with partial pivoting of the whole
saddle-point matrix (:mod:`.banded`).  A constraint row with one entry ``g`` at dof ``d`` (a
fixed or driven dof) is eliminated: ``x_d = c / g``, its column of ``M`` moves to the right-hand
side, its row and column in the factorised matrix are the identity's, and ``lambda = (b_d -
M_d. x) / g`` from the row of ``M`` kept aside.  The other rows go through ``W = M~^-1 G^T``
and their Schur complement ``S = G W`` (m x m):

    lambda = S^-1 (G M~^-1 b - c),    x = M~^-1 b - W^T lambda

(``W`` stored as rows).  On the two bars of thesis §5.1.2 (726 dofs, three fixes) the
factorisation with the element masses costs about half of the band LU's (half-band 5 against
7 and the pivots' fill-in), a solve two thirds; the results are those of the LU to rounding.
:meth:`~.assembly.Assembly.mass_factors` uses it in runs with velocity jumps of at least
:data:`MIN_DOFS` dofs and falls back to the LU when ``M`` is not positive definite (a massless
dof that only the joints hold), when ``S`` is not (redundant constraints: the LU then reports
the singular matrix as before), for modal links (their mass blocks come with an evaluation of
their forces) and above :data:`MAX_CONSTRAINTS` constraint rows in all (the fixes counted).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ..fem.beam import add_element_masses
from ..jit import njit

#: above this many constraint rows the Schur complement (m solves and an m x m matrix per
#: factorisation, m n more operations per solve) costs more than it saves: the band LU is used
MAX_CONSTRAINTS = 32

#: below this many dofs the band LU is as fast (the Python around the factors costs more than
#: the arithmetic they save: the bar struck by a mass, 123 dofs, 20 us more per impulse; the two
#: bars, 726 dofs, 45 us less)
MIN_DOFS = 300

#: a Cholesky pivot (squared) below this fraction of the largest diagonal entry makes the
#: mass matrix numerically singular here (the band LU then takes over)
PIVOT_RATIO = 1e-14


class MassPattern:
    """Where each entry of the element mass blocks and of the diagonal masses goes in the lower
    band storage of ``M`` in its RCM order (flat positions in column-major order, -1 for the
    upper triangle), and the constraint rows split into dof fixes (one entry: eliminated) and
    the others (by the Schur complement)."""

    def __init__(self, elem_dofs: np.ndarray, n: int, g_rows: np.ndarray, g_cols: np.ndarray, m: int):
        rows = np.repeat(elem_dofs, 6, axis=1).ravel()
        cols = np.tile(elem_dofs, (1, 6)).ravel()
        graph = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)) + sp.identity(n, format="csr")
        self.perm = np.ascontiguousarray(reverse_cuthill_mckee(graph.tocsr(), symmetric_mode=True), dtype=np.int64)
        self.inv = np.empty(n, dtype=np.int64)
        self.inv[self.perm] = np.arange(n)
        r, c = self.inv[rows], self.inv[cols]
        self.kd = int(max(0, (r - c).max(initial=0)))
        ld = self.kd + 1
        self.block_pos = np.where(r >= c, (r - c) + c * ld, -1).astype(np.int64)
        self.diag_pos = (self.inv * ld).astype(np.int64)
        self.n = n
        entries = np.bincount(g_rows, minlength=m)
        single = entries[g_rows] == 1  # the entries of rows with one entry
        fixed = g_cols[single]
        others = g_cols[~single]
        if len(set(fixed.tolist())) < fixed.size or np.isin(others, fixed).any():
            single[:] = False  # a dof fixed twice, or another row on a fixed dof: every row by the Schur complement
        #: the entries (positions in the constraints' pattern) of the dof fixes and of the other rows
        self.fix_entries = np.flatnonzero(single)
        self.other_entries = np.flatnonzero(~single)
        self.fix_dofs = np.ascontiguousarray(g_cols[self.fix_entries], dtype=np.int64)
        self.fix_rows = np.ascontiguousarray(g_rows[self.fix_entries], dtype=np.int64)
        other_rows = np.unique(g_rows[self.other_entries])
        #: the other rows, numbered from 0, and their entries' columns
        self.other_rows = other_rows.astype(np.int64)
        self.other_index = np.ascontiguousarray(np.searchsorted(other_rows, g_rows[self.other_entries]),
                                                dtype=np.int64)
        self.other_cols = np.ascontiguousarray(g_cols[self.other_entries], dtype=np.int64)


@njit(cache=True)
def pbtrf(LB, n, kd):
    """Cholesky factorisation of a symmetric positive definite band matrix in lower band
    storage, in place (dpbtf2, flat column-major ``LB[(i - j) + j (kd + 1)]``), the diagonal of
    ``L`` kept as its reciprocals (the solves multiply).  Returns 0, or ``j + 1`` when the pivot
    of column ``j`` is not above :data:`PIVOT_RATIO` of the largest diagonal entry."""
    ld = kd + 1
    big = 0.0
    for j in range(n):
        big = max(big, LB[j * ld])
    for j in range(n):
        o = j * ld
        ajj = LB[o]
        if not ajj > PIVOT_RATIO * big:
            return j + 1
        inv = 1.0 / np.sqrt(ajj)
        LB[o] = inv
        kn = min(kd, n - 1 - j)
        for i in range(1, kn + 1):
            LB[o + i] *= inv
        for c in range(1, kn + 1):
            f = LB[o + c]
            if f != 0.0:
                oc = (j + c) * ld
                for i in range(c, kn + 1):
                    LB[oc + i - c] -= LB[o + i] * f
    return 0


@njit(cache=True)
def pbtrs(LB, n, kd, perm, b, x):
    """``x = M^-1 b`` with the factors of :func:`pbtrf` (``b``, ``x`` in the original order): the
    forward and the backward substitution both by columns of ``L``, so that each unknown waits
    on one multiplication, not on a sum along the band."""
    ld = kd + 1
    y = np.empty(n)
    for k in range(n):
        y[k] = b[perm[k]]
    for j in range(n):  # L y = b
        o = j * ld
        yj = y[j] * LB[o]
        y[j] = yj
        for i in range(1, min(kd, n - 1 - j) + 1):
            y[j + i] -= LB[o + i] * yj
    for j in range(n - 1, -1, -1):  # L^T x = y: x_j, then its share of the unknowns above it
        yj = y[j] * LB[j * ld]
        y[j] = yj
        for i in range(1, min(kd, j) + 1):
            y[j - i] -= LB[(j - i) * ld + i] * yj
    for k in range(n):
        x[perm[k]] = y[k]


@njit(cache=True)
def schur_inverse(S):
    """``S^-1`` of the symmetric ``S`` (m, m) by its Cholesky factor, and whether ``S`` is
    positive definite with every pivot (squared) above :data:`PIVOT_RATIO` of its largest
    diagonal entry (independent constraints)."""
    m = S.shape[0]
    R = S.copy()
    big = 0.0
    for j in range(m):
        big = max(big, S[j, j])
    for j in range(m):
        for k in range(j):
            R[j, j] -= R[j, k] * R[j, k]
        if not R[j, j] > PIVOT_RATIO * big:
            return S, False
        R[j, j] = np.sqrt(R[j, j])
        for i in range(j + 1, m):
            acc = R[i, j]
            for k in range(j):
                acc -= R[i, k] * R[j, k]
            R[i, j] = acc / R[j, j]
    inv = np.zeros((m, m))
    for c in range(m):  # column c of S^-1: R R^T x = e_c
        y = np.zeros(m)
        for i in range(m):
            acc = 1.0 if i == c else 0.0
            for k in range(i):
                acc -= R[i, k] * y[k]
            y[i] = acc / R[i, i]
        for i in range(m - 1, -1, -1):
            acc = y[i]
            for k in range(i + 1, m):
                acc -= R[k, i] * inv[k, c]
            inv[i, c] = acc / R[i, i]
    return inv, True


@njit(cache=True)
def mass_cholesky(q, dofs, secs, Mbars, form, mass_diag, block_pos, diag_pos, kd, perm, inv, fix_dofs, o_rows,
                  o_cols, o_vals, mo):
    """``M`` at ``q`` (the element mass blocks of :func:`~solver.fem.beam.element_mass` and the
    diagonal masses) filled into a lower band, its rows and columns of the fixed dofs ``fix_dofs``
    kept aside (F, 2 kd + 1: ``M[d, d + k]`` at ``kd + k``) and replaced by the identity, factorised;
    then, for the ``mo`` other constraint rows (entries ``o_rows, o_cols, o_vals``), ``W = M~^-1 G^T``
    (mo, n) and ``S^-1 = (G W)^-1``.  Returns ``(LB, fixed columns, W, S^-1, info)``, ``info`` that
    of :func:`pbtrf`, or -1 when ``S`` is not positive definite (:func:`schur_inverse`)."""
    n = mass_diag.shape[0]
    ld = kd + 1
    LB = np.zeros(ld * n)
    add_element_masses(q, dofs, secs, Mbars, form, block_pos, LB)
    for i in range(n):
        LB[diag_pos[i]] += mass_diag[i]
    F = fix_dofs.shape[0]
    cols = np.zeros((F, 2 * kd + 1))
    for f in range(F):  # the fixed dofs' rows of M, then the identity in their place
        pd = inv[fix_dofs[f]]
        for j in range(max(0, pd - kd), min(n - 1, pd + kd) + 1):
            cols[f, kd + j - pd] = LB[(pd - j) + j * ld] if pd >= j else LB[(j - pd) + pd * ld]
    for f in range(F):
        pd = inv[fix_dofs[f]]
        for j in range(max(0, pd - kd), min(n - 1, pd + kd) + 1):
            if pd >= j:
                LB[(pd - j) + j * ld] = 0.0
            else:
                LB[(j - pd) + pd * ld] = 0.0
        LB[pd * ld] = 1.0
    W = np.zeros((mo, n))
    S = np.zeros((mo, mo))
    info = pbtrf(LB, n, kd)
    if info:
        return LB, cols, W, S, info
    G = np.zeros(n)
    for row in range(mo):
        G[:] = 0.0
        for e in range(o_rows.shape[0]):
            if o_rows[e] == row:
                G[o_cols[e]] += o_vals[e]
        pbtrs(LB, n, kd, perm, G, W[row])
    for e in range(o_rows.shape[0]):
        for l in range(mo):
            S[o_rows[e], l] += o_vals[e] * W[l, o_cols[e]]
    Sinv, independent = schur_inverse(S)
    return LB, cols, W, Sinv, 0 if independent else -1


@njit(cache=True)
def saddle_solve(LB, kd, perm, inv, fix_dofs, fix_rows, fix_gain, cols, W, Sinv, o_rows, o_cols, o_vals, o_index,
                 rhs, out):
    """``out = [x; lambda]`` of ``[M G^T; G 0] [x; lambda] = rhs`` (module docstring) with the
    factors of :func:`mass_cholesky`: the fixed dofs' values ``x_d = c / g``, their share of the
    other equations moved to the right-hand side, the rest by the Schur complement, the fixed
    dofs' multipliers from their own rows of ``M``."""
    n = W.shape[1]
    mo = W.shape[0]
    b = rhs[:n].copy()
    F = fix_dofs.shape[0]
    xf = np.empty(F)
    for f in range(F):
        xf[f] = rhs[n + fix_rows[f]] / fix_gain[f]
        pd = inv[fix_dofs[f]]
        for j in range(max(0, pd - kd), min(n - 1, pd + kd) + 1):
            b[perm[j]] -= cols[f, kd + j - pd] * xf[f]
    for f in range(F):
        b[fix_dofs[f]] = xf[f]
    x = out[:n]
    pbtrs(LB, n, kd, perm, b, x)
    t = np.empty(mo)
    for k in range(mo):
        t[k] = -rhs[n + o_index[k]]
    for e in range(o_rows.shape[0]):
        t[o_rows[e]] += o_vals[e] * x[o_cols[e]]
    lam = np.empty(mo)
    for k in range(mo):
        acc = 0.0
        for l in range(mo):
            acc += Sinv[k, l] * t[l]
        lam[k] = acc
        out[n + o_index[k]] = acc
    for k in range(mo):
        if lam[k] != 0.0:
            for i in range(n):
                x[i] -= W[k, i] * lam[k]
    for f in range(F):  # lambda of a fix from its row of M: g lambda = b_d - M_d. x
        pd = inv[fix_dofs[f]]
        acc = rhs[fix_dofs[f]]
        for j in range(max(0, pd - kd), min(n - 1, pd + kd) + 1):
            acc -= cols[f, kd + j - pd] * x[perm[j]]
        out[n + fix_rows[f]] = acc / fix_gain[f]


class MassCholesky:
    """The factors of ``[M G^T; G 0]`` at one configuration (module docstring); the interface of
    :class:`~solver.system.banded.BandLU` that the impulse path uses (the constraint rows unscaled)."""

    singular = False

    def __init__(self, pattern: MassPattern, LB: np.ndarray, cols: np.ndarray, fix_gain: np.ndarray,
                 W: np.ndarray, Sinv: np.ndarray, o_vals: np.ndarray):
        p = pattern
        self.size = p.n + len(p.fix_rows) + len(p.other_rows)
        self._args = (LB, p.kd, p.perm, p.inv, p.fix_dofs, p.fix_rows, fix_gain, cols, W, Sinv,
                      p.other_index, p.other_cols, o_vals, p.other_rows)

    @classmethod
    def of(cls, pattern: MassPattern, asm, q: np.ndarray) -> "MassCholesky | None":
        """The factors at ``q`` of :class:`~.assembly.Assembly` ``asm`` (no modal links), or None
        when ``M`` or ``S`` is not positive definite."""
        s, p = asm.sys, pattern
        vals = s.constraints.values(q)
        fix_gain, o_vals = vals[p.fix_entries], vals[p.other_entries]
        LB, cols, W, Sinv, info = mass_cholesky(q, s.elem_dofs, asm.secs, asm.Mbar, asm.form, s.mass_diag,
                                                p.block_pos, p.diag_pos, p.kd, p.perm, p.inv, p.fix_dofs,
                                                p.other_index, p.other_cols, o_vals, len(p.other_rows))
        if info or not np.all(fix_gain != 0.0):
            return None
        return cls(p, LB, cols, fix_gain, W, Sinv, o_vals)

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        out = np.empty(rhs.shape[0])
        saddle_solve(*self._args, np.ascontiguousarray(rhs, dtype=float), out)
        return out

    def columns(self, dofs: np.ndarray, col: np.ndarray) -> np.ndarray:
        """``A^-1 [C_k; 0]`` for the compact columns ``C_k`` on ``dofs[k]`` (c, n + m)."""
        out = np.empty((dofs.shape[0], self.size))
        for k in range(dofs.shape[0]):
            rhs = np.zeros(self.size)
            np.add.at(rhs, dofs[k], col[k])
            out[k] = self.solve(rhs)
        return out
