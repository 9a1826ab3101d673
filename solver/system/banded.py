"""Banded LU with partial pivoting for the Newton matrix (compiled).

The saddle-point matrix of a planar mechanism is sparse and, once its unknowns are
put in reverse Cuthill-McKee order, narrow-banded: a chain of beam elements gives a
band of a few dofs however long it is, so a factorisation costs O(n kl (kl + ku))
and a solve O(n (2 kl + ku)): linear in the number of elements.  The algorithm is
LAPACK's dgbtf2 / dgbtrs (band storage ``AB[kv + i - j, j] = A[i, j]`` with
``kv = kl + ku`` and ``kl`` extra rows for the fill-in of row interchanges), written
out here so that the compiled Newton loop can call it without leaving machine code.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from ..jit import njit
from scipy.sparse.csgraph import reverse_cuthill_mckee


class BandPattern:
    """Where each entry of a fixed sparsity pattern goes in band storage after RCM ordering."""

    def __init__(self, rows: np.ndarray, cols: np.ndarray, size: int):
        self.size = size
        graph = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(size, size))
        graph = graph + graph.T + sp.identity(size, format="csr")
        perm = reverse_cuthill_mckee(graph.tocsr(), symmetric_mode=True)
        self.perm = np.ascontiguousarray(perm, dtype=np.int64)  # new position k holds old index perm[k]
        self.inv = np.empty(size, dtype=np.int64)
        self.inv[self.perm] = np.arange(size)
        r, c = self.inv[rows], self.inv[cols]
        self.kl = int(max(0, (r - c).max(initial=0)))
        # a diagonal pattern (rigid links' masses) gets one zero superdiagonal: band storage of one row
        # is C- as well as Fortran-contiguous, which numba types as C, and every kernel taking the
        # factors compiled again for it (167 s for a rigid block under Lagrange contact); the zeros
        # change no factor and no solution
        self.ku = int(max(0, (c - r).max(initial=0), 1 - self.kl))
        kv = self.kl + self.ku
        self.ldab = 2 * self.kl + self.ku + 1
        self.band_row = np.ascontiguousarray(kv + r - c, dtype=np.int64)
        self.band_col = np.ascontiguousarray(c, dtype=np.int64)


@njit(cache=True)
def band_fill(AB, band_row, band_col, vals):
    """Zero ``AB`` and add ``vals`` at their band positions."""
    AB[:, :] = 0.0
    for k in range(vals.shape[0]):
        AB[band_row[k], band_col[k]] += vals[k]


@njit(cache=True)
def gbtrf(AB, n, kl, ku, ipiv):
    """LU factorisation with partial pivoting of a band matrix, in place (dgbtf2).
    Returns 0, or j + 1 if the pivot of column j is exactly zero."""
    kv = kl + ku
    info = 0
    ju = 0
    for j in range(n):
        km = min(kl, n - 1 - j)
        jp = 0
        best = abs(AB[kv, j])
        for i in range(1, km + 1):
            val = abs(AB[kv + i, j])
            if val > best:
                best = val
                jp = i
        ipiv[j] = j + jp
        if AB[kv + jp, j] != 0.0:
            ju = max(ju, min(j + ku + jp, n - 1))
            if jp != 0:
                for c in range(j, ju + 1):
                    t = AB[kv + j - c, c]
                    AB[kv + j - c, c] = AB[kv + j + jp - c, c]
                    AB[kv + j + jp - c, c] = t
            if km > 0:
                piv = AB[kv, j]
                for i in range(1, km + 1):
                    AB[kv + i, j] /= piv
                for c in range(j + 1, ju + 1):
                    f = AB[kv + j - c, c]
                    if f != 0.0:
                        for i in range(1, km + 1):
                            AB[kv + j + i - c, c] -= AB[kv + i, j] * f
        elif info == 0:
            info = j + 1
    return info


@njit(cache=True)
def band_factorize(AB, band_row, band_col, vals, kl, ku, ipiv, pivot_ratio):
    """Fill ``AB`` with ``vals`` and factorise it in place; True when the matrix is
    (numerically) singular (:func:`band_factor`)."""
    band_fill(AB, band_row, band_col, vals)
    return band_factor(AB, kl, ku, ipiv, pivot_ratio)


@njit(cache=True)
def band_factor(AB, kl, ku, ipiv, pivot_ratio):
    """Factorise the filled ``AB`` in place; True when the matrix is (numerically) singular: a
    zero pivot, or one below ``pivot_ratio`` of the largest."""
    n = AB.shape[1]
    info = gbtrf(AB, n, kl, ku, ipiv)
    lo, hi = np.inf, 0.0
    for j in range(n):
        piv = abs(AB[kl + ku, j])
        lo = min(lo, piv)
        hi = max(hi, piv)
    return info != 0 or lo < pivot_ratio * hi


@njit(cache=True)
def gbtrs(AB, n, kl, ku, ipiv, b):
    """Solve ``A x = b`` in place with the factors of :func:`gbtrf` (dgbtrs)."""
    kv = kl + ku
    for j in range(n - 1):
        lm = min(kl, n - 1 - j)
        p = ipiv[j]
        if p != j:
            t = b[p]
            b[p] = b[j]
            b[j] = t
        bj = b[j]
        if bj != 0.0:
            for i in range(1, lm + 1):
                b[j + i] -= AB[kv + i, j] * bj
    for j in range(n - 1, -1, -1):
        b[j] /= AB[kv, j]
        bj = b[j]
        if bj != 0.0:
            for i in range(max(0, j - kv), j):
                b[i] -= AB[kv + i - j, j] * bj


@njit(cache=True)
def band_solve(AB, kl, ku, ipiv, perm, rhs, x):
    """``x = A^-1 rhs`` for an RCM-ordered factorised matrix (rhs and x in original order);
    ``rhs`` is overwritten (it holds the reordering, so that a solve allocates nothing)."""
    n = rhs.shape[0]
    for k in range(n):
        x[k] = rhs[perm[k]]
    gbtrs(AB, n, kl, ku, ipiv, x)
    for k in range(n):
        rhs[perm[k]] = x[k]
    for k in range(n):
        x[k] = rhs[k]


@njit(cache=True)
def band_columns(AB, kl, ku, ipiv, perm, size, dofs, col):
    """``A^-1 [C_k; 0]`` (c, size) for the compact columns ``C_k`` on ``dofs[k]`` (c, K) with the
    factors of ``A``."""
    c = dofs.shape[0]
    W = np.zeros((c, size))
    rhs = np.zeros(size)
    x = np.empty(size)
    for k in range(c):
        rhs[:] = 0.0
        for j in range(dofs.shape[1]):
            rhs[dofs[k, j]] += col[k, j]
        band_solve(AB, kl, ku, ipiv, perm, rhs, x)
        W[k] = x
    return W


class BandLU:
    """A factorised matrix on a :class:`BandPattern`."""

    #: pivots smaller than this fraction of the largest make the matrix numerically singular
    PIVOT_RATIO = 1e-14

    def __init__(self, pattern: BandPattern, AB: np.ndarray, ipiv: np.ndarray, singular: bool):
        self.p = pattern
        self.AB = AB
        self.ipiv = ipiv
        self.singular = singular

    @classmethod
    def of(cls, pattern: BandPattern, vals: np.ndarray) -> "BandLU":
        """The factors of the matrix with ``vals`` on ``pattern``."""
        AB = np.empty((pattern.ldab, pattern.size), order="F")
        ipiv = np.empty(pattern.size, dtype=np.int64)
        singular = band_factorize(AB, pattern.band_row, pattern.band_col, vals, pattern.kl, pattern.ku, ipiv,
                                  cls.PIVOT_RATIO)
        return cls(pattern, AB, ipiv, singular)

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        x = np.empty_like(rhs)
        if self.singular:
            x[:] = np.nan
            return x
        band_solve(self.AB, self.p.kl, self.p.ku, self.ipiv, self.p.perm, np.array(rhs, dtype=float), x)
        return x

    def columns(self, dofs: np.ndarray, col: np.ndarray) -> np.ndarray:
        """``A^-1 [C_k; 0]`` for the compact columns ``C_k`` on ``dofs[k]`` (:func:`band_columns`)."""
        return band_columns(self.AB, self.p.kl, self.p.ku, self.ipiv, self.p.perm, self.p.size, dofs, col)
