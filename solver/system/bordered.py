"""Contact rows bordering the Newton system, solved with the banded factors (thesis App. B).

A contact model in the Lagrange-multiplier form adds ``c`` unknowns ``lambda_c`` (contact
forces, N) and ``c`` equations to the equations of motion (thesis eqs. 4.4, 4.16, 4.29):

    Psi(q) - sum_k C_k lambda_k = 0            C_k: generalised force per unit lambda_k
    r_k = R_k . x + D_k lambda_k - b_k = 0     x = q (position rows) or v / c_v (velocity rows)

Each row touches at most :data:`K` dofs (the striking point and up to two target nodes),
so ``C_k`` and ``R_k`` are stored compactly on ``dofs[k]``.  The rows are linear in ``q``
within one Newton pass; a model with curved geometry re-linearises them through
``ContactRows.refresh`` until the exact gap holds.

Newton's linearised system is bordered by the rows:

    [ A   -C ] [ dx  ]   [ b ]        A: the banded saddle-point matrix of the joints
    [ R    D ] [ dlam] = [ r ]        (:mod:`solver.system.assembly`)

and is solved as Appendix B solves it, by the Schur complement on the contact unknowns
(eqs. 4.23-4.24 for one row, 4.36-4.38 for two): ``W = A^-1 C`` (one banded solve per
row), ``(R W + D) dlam = r - R A^-1 b``, ``dx = A^-1 b + W dlam``.  The banded factors
and their sparsity pattern stay those of the contact-free system, so a contact row costs
one extra back-substitution per step (and per new factorisation) and a ``c x c`` solve per
iteration.

Rows may hold one motion twice: a rigid rod lying on a line with both ends sticking (two
tangential rows on its one sliding motion), two normal rows on a rigid edge lying on a line where
the joints hold it too.  ``S = R W + D`` is then singular (symmetric positive semidefinite where
``C = R^T``, as for sticking and frictionless rows), and the thesis's solve of eqs. 4.36-4.38 has no
unique answer: the structure is statically indeterminate.  What the rows hold is determinate
(the sum of the two tangential forces on the rod, ``mu m g`` while it slides, zero at rest); the
split among them is not, and is taken as the one of least norm (``S^+``, :func:`schur_inverse`;
the multipliers start each step from a solve of least norm, ``consistent_acceleration``, and the
increments of least norm keep them so while the rows' null space stays put): equal shares on the
rod.  The stick test (eq. 4.6, ``|F_t| <= mu_s F_n``) judges each pair's share of that split.
The same arithmetic serves the steps one by one and the compiled runs (:func:`border_prepare`).
Rows that ask different values of a motion they hold twice cannot be met:
:func:`bordered_solve` says so (:func:`redundant_rows`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import numpy as np
from ..jit import fused, njit

from .banded import BandLU, band_columns
from ..errors import SolverError

if TYPE_CHECKING:
    from .mass_cholesky import MassCholesky

#: dofs a contact row may touch: the point (x, y, and the rotation of a round point) and two
#: target nodes (x, y each), a moving circle's centre and rotation, or the six dofs of the
#: element a rolling body is on
K = 9

#: row levels: the residual of a position row is ``R . q + D lambda - b``, of a velocity row
#: ``R . v / c_v + D lambda - b`` (its derivative with respect to q is R either way)
POSITION, VELOCITY = 0, 1

#: a singular value of the rows' Schur matrix at most this fraction of its largest is zero: the rows hold
#: that combination of motions twice (:func:`schur_inverse`).  Rows holding one motion twice leave it at
#: round-off (5.6e-18 for a rigid rod lying on a line on both ends, both sticking); a combination the
#: model lets move has ``sigma / sigma_max ~ 1 / (1 + nu (omega h)^2)``, ``omega`` the stiffest mode
#: between the rows' points (m/N: its compliance ``1 / (k + m / (nu h^2))`` against a free mass's
#: ``nu h^2 / m``): above 1e-10 up to ``omega h = 2e5``, far beyond any mode a step of the model resolves
SCHUR_RANK = 1e-10
#: rows whose residual after the solve exceeds this fraction of their largest term (``|r|``, ``|R x|``
#: before the multipliers) ask different values of a motion they hold twice (:func:`bordered_solve`);
#: rows that agree leave round-off (1e-16) and the motions :data:`SCHUR_RANK` drops (1e-10)
CONTRADICTION = 1e-6
#: why the rows' Schur matrix has no (pseudo-)inverse: numba's SVD refuses a matrix that is not finite
NOT_FINITE = "the contact rows cannot be solved: their matrix is not finite (the model diverged)"


@dataclass
class ContactRows:
    """The contact rows of one step (arrays ready for the compiled Newton kernel).

    Unused slots of a row hold dof 0 with zero coefficients.  ``lam`` is the multipliers'
    first guess on entry to a step and their converged values after it.  ``gamma`` is the
    right-hand side of the rows at acceleration level (``R a = gamma``, ``-Rdot v``).
    ``refresh(q, v)``, when given, re-linearises curved rows at the converged iterate in
    place and returns whether they had to change (the integrator then iterates on).
    """

    dofs: np.ndarray  # (c, K) int64
    col: np.ndarray  # (c, K) C_k on dofs[k], 1 (N/N or N m/N)
    row: np.ndarray  # (c, K) R_k on dofs[k]
    level: np.ndarray  # (c,) int64, POSITION or VELOCITY
    diag: np.ndarray  # (c,) D_k, m/N
    rhs: np.ndarray  # (c,) b_k, m
    gamma: np.ndarray  # (c,) m/s^2
    lam: np.ndarray  # (c,) N
    refresh: Callable[[np.ndarray, np.ndarray], bool] | None = field(default=None, compare=False)
    #: the kind of the model of each row (``"moving"``, ``"lagrange"``, ...), for messages
    holders: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def empty(cls) -> "ContactRows":
        return cls.build(0)

    @classmethod
    def build(cls, count: int) -> "ContactRows":
        """``count`` zero rows, to be filled in."""
        return cls(np.zeros((count, K), dtype=np.int64), np.zeros((count, K)), np.zeros((count, K)),
                   np.zeros(count, dtype=np.int64), np.zeros(count), np.zeros(count), np.zeros(count), np.zeros(count))

    @property
    def count(self) -> int:
        return self.lam.shape[0]

    def kernel_args(self) -> tuple:
        """The arrays the compiled kernels take, in their order."""
        return self.dofs, self.col, self.row, self.level, self.diag, self.rhs, self.lam

    def force(self, n: int, lam: np.ndarray | None = None) -> np.ndarray:
        """``sum_k C_k lambda_k``, the generalised contact force (n,)."""
        out = np.zeros(n)
        np.add.at(out, self.dofs.ravel(), (self.col * (self.lam if lam is None else lam)[:, None]).ravel())
        return out

    def times(self, x: np.ndarray) -> np.ndarray:
        """``R x`` (c,) for an n-vector ``x``."""
        return (self.row * x[self.dofs]).sum(axis=1)


@njit(cache=True)
def border_prepare(AB, kl, ku, ipiv, perm, size, dofs, col, row, diag):
    """``W = A^-1 [C; 0]`` (c, size) and the inverse Schur matrix ``(R W + D)^-1`` (c, c)
    with the factors of ``A``."""
    if dofs.shape[0] == 0:  # no contact rows (every step of a run of free steps)
        return np.zeros((0, size)), np.zeros((0, 0))
    W = band_columns(AB, kl, ku, ipiv, perm, size, dofs, col)
    return W, border_schur(W, dofs, row, diag)


@njit(cache=True)
def schur_matrix(W, dofs, row, diag):
    """The rows' Schur matrix ``S = R W + D`` (c, c), m/N, for ``W = A^-1 [C; 0]`` (thesis eqs. 4.23, 4.36)."""
    c = dofs.shape[0]
    S = np.zeros((c, c))
    for k in range(c):
        S[k, k] = diag[k]
        for l in range(c):
            for j in range(dofs.shape[1]):
                S[k, l] += row[k, j] * W[l, dofs[k, j]]
    return S


@njit(cache=True)
def border_schur(W, dofs, row, diag):
    """The inverse Schur matrix ``(R W + D)^-1`` (c, c), N/m, of the rows for ``W = A^-1 [C; 0]``
    (:func:`schur_inverse`)."""
    return schur_inverse(schur_matrix(W, dofs, row, diag))


@njit(cache=True)
def schur_inverse(S):
    """``S^-1`` (c, c), N/m, of the rows' Schur matrix ``S`` (m/N); where the rows hold a motion twice
    (a singular value of ``S`` at most :data:`SCHUR_RANK` of the largest) its pseudo-inverse
    ``S^+ = V diag(1 / sigma_i) U^T`` over the other singular values, which gives the increments of
    least norm ``|dlam|`` that meet the rows (all of them where they agree, in the least-squares sense
    where they do not).  Independent rows keep the inverse (the same numbers as before)."""
    if S.shape[0] == 0:
        return S
    U, sigma, Vt = np.linalg.svd(S)
    if sigma[-1] > SCHUR_RANK * sigma[0]:
        return np.ascontiguousarray(np.linalg.inv(S))
    out = np.zeros_like(S)
    for i in range(sigma.shape[0]):
        if sigma[i] > SCHUR_RANK * sigma[0]:
            out += np.outer(Vt[i], U[:, i]) / sigma[i]
    return out


@njit(cache=True)
def row_dot(row, dofs, q):
    """``row . q[dofs]`` of a contact row (its ``J_n . q``, m): summed in order with one fused multiply-add a term
    (:mod:`solver.fused`), the steps taken one by one and the compiled runs of closed steps alike
    (:mod:`solver.integration.closed_steps`), whatever BLAS numpy has."""
    acc = 0.0
    for i in range(row.shape[0]):
        acc = fused(q[dofs[i]], row[i], acc)
    return acc


@njit(cache=True)
def row_residuals(r, dofs, row, x, out):
    """In place: ``out = r - R x``, the rows' residuals (``R`` given by its ``dofs`` and ``row``
    coefficients), each summed in the order of its dofs."""
    for k in range(dofs.shape[0]):
        acc = r[k]
        for j in range(dofs.shape[1]):
            acc -= row[k, j] * x[dofs[k, j]]
        out[k] = acc


@njit(cache=True)
def border_correct(x, W, Sinv, dofs, row, r, dlam):
    """In place: with ``x = A^-1 b`` on entry, ``dlam = (R W + D)^-1 (r - R x)`` and
    ``x += W dlam`` (the bordered solution)."""
    c = dofs.shape[0]
    t = np.empty(c)
    row_residuals(r, dofs, row, x, t)
    for k in range(c):
        acc = 0.0
        for l in range(c):
            acc += Sinv[k, l] * t[l]
        dlam[k] = acc
    for l in range(c):
        if dlam[l] != 0.0:
            for i in range(x.shape[0]):
                x[i] += W[l, i] * dlam[l]


def redundant_rows(holders: tuple[str, ...]) -> str:
    """Why rows of the kinds ``holders`` (see :attr:`ContactRows.holders`) cannot be solved, in words:
    moving supports held by the joints, or pairs that contradict each other."""
    moving = ("a moving support held where a joint already holds the link (its position s(t) outside the link "
              "is held at the link's end) or two supports at one point; keep s(t) within the link, away from its "
              "held ends")
    if holders and all(kind == "moving" for kind in holders):
        return f"the moving supports' and masses' constraints are redundant with the joints: {moving}"
    pairs = ("the contact constraints contradict each other: the pairs in contact hold one motion twice, with each "
             "other or with the joints and drivers, and ask different values of it; remove one of the pairs that "
             "touch together, or give a pair that sticks no static friction (mu_s = 0)")
    return pairs + (f", or see whether {moving}" if "moving" in holders else "")


def bordered_solve(lu: BandLU | MassCholesky, rows: ContactRows, b: np.ndarray,
                   r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Solve ``[A -C; R D] [x; lam] = [b; r]`` with the factors ``lu`` of ``A``; ``(x, lam)``.

    Rows that hold a motion twice take the multipliers of least norm (:func:`schur_inverse`) where
    they agree; :class:`SolverError` says why where they contradict each other (a residual beyond
    :data:`CONTRADICTION`) or where a moving support's row is among them (the joints hold it)."""
    x = lu.solve(b)
    lam = np.zeros(rows.count)
    if rows.count and not lu.singular:
        r = np.ascontiguousarray(r, dtype=float)
        W = lu.columns(rows.dofs, rows.col)
        S = schur_matrix(W, rows.dofs, rows.row, rows.diag)
        try:
            Sinv = schur_inverse(S)
        except np.linalg.LinAlgError:  # numba's SVD of a matrix that is not finite
            raise SolverError(NOT_FINITE) from None
        terms = np.abs(r) + _magnitudes(rows, x)
        border_correct(x, W, Sinv, rows.dofs, rows.row, r, lam)
        terms += _magnitudes(rows, x) + np.abs(rows.diag * lam)
        _check_rows(rows, np.eye(rows.count) - Sinv @ S, r - rows.times(x) - rows.diag * lam, terms)
    return x, lam


def _magnitudes(rows: ContactRows, x: np.ndarray) -> np.ndarray:
    """``|R| |x|`` (c,): the magnitude of the terms of ``R x``, whose round-off the rows' residual carries."""
    return (np.abs(rows.row) * np.abs(x[rows.dofs])).sum(axis=1)


def _check_rows(rows: ContactRows, twice: np.ndarray, residual: np.ndarray, terms: np.ndarray) -> None:
    """:class:`SolverError` where the rows held twice (the projector ``twice = I - S^+ S`` on the
    combinations :func:`schur_inverse` drops) include a moving support's, or where the rows' ``residual``
    after the solve exceeds :data:`CONTRADICTION` of their largest ``terms`` (the magnitudes of ``r``,
    ``R x`` before and after the solve and ``D lam``)."""
    held_twice = [kind for kind, weight in zip(rows.holders, np.diag(twice)) if weight > CONTRADICTION]
    if "moving" in held_twice:
        raise SolverError(redundant_rows(tuple(held_twice)))
    contradicting = np.abs(residual) > CONTRADICTION * terms.max()
    if contradicting.any():
        raise SolverError(redundant_rows(tuple(kind for kind, bad in zip(rows.holders, contradicting) if bad)))
