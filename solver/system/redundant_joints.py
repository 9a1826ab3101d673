"""Joint rows that hold one motion twice: found once, at the sketched configuration, and dropped.

A rigid link pinned to the ground at both ends (a shelf, a brace, a stop) has three rigid-body
motions and four pin rows: the two rows along the link both hold its stretching, which the link
already holds.  The constraint Jacobian ``G`` (rows, n) then has rank below its number of rows, the
saddle-point matrix ``[M G^T; G 0]`` of the initial velocities, the consistent accelerations, the
impulses (thesis eqs. 3.10-3.21) and Newton's iteration (eqs. 2.54-2.59) is singular, and the
structure is statically indeterminate: what the rows hold together is determinate (the reactions'
resultant, ``m g`` on the shelf), their split among the joints is not.

As Adams and Working Model do, the dependent rows are found once, when the model is compiled
(:func:`dependent_rows`: the rank of ``G`` at the sketched configuration, with the relative
tolerance :data:`RANK`), and dropped; the motion is that of the rows kept, and every solve of the
run (every contact model, free and compiled runs) sees a full-rank ``G``.  A model without dependent
rows compiles to the same system as before, bit for bit.  The rows are taken in the order
*the links' own rows* (body points, modal section rows), *drivers*, *ground pins and clamps*,
*sliders*: a row is dependent when its part outside the span of the rows before it is at most
:data:`RANK` of its norm, so a later joint is the one named (the shelf's second pin, its row along
the link).  A link's own row or a driver held twice, or a joint's row holding a motion a driver
moves, cannot be dropped (the motions would differ): :func:`dependent_rows` says so, naming them.

The reactions of the joints named are one statically admissible split: :func:`least_norm_multipliers`
gives the split of least norm ``lambda = (G G^T)^+ G f`` over all the rows (kept and dropped) of
the generalised reaction ``f = G_kept^T lambda_kept`` (N, N m), with the pseudo-inverse of
:func:`~solver.system.bordered.schur_inverse` (the contact rows' least-norm split): the shelf's two
pins carry ``m g / 2`` each, and a horizontal load half each.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bordered import schur_inverse
from ..errors import SolverError
from ..model.paths import split_path

#: a row whose part outside the span of the rows before it is at most this fraction of its norm holds
#: nothing new: rows holding one motion twice leave round-off (1e-16); a mechanism sketched this close
#: to a singular position (1e-10 rad from a toggle) is taken as held twice there
RANK = 1e-10


@dataclass(frozen=True)
class RedundantRow:
    """A joint's row dropped as holding a motion the others hold: ``owner`` the joint's model path
    (``joints[pinB]``), ``motion`` the row's motion in words, ``partners`` the paths of the joints
    whose rows hold it too (with the links' own rows)."""

    owner: str
    motion: str
    partners: tuple[str, ...]

    def __str__(self) -> str:
        also = ", ".join(f"'{path_id(p)}'" for p in self.partners) or "the links"
        return (f"joint '{path_id(self.owner)}' holds {self.motion}, which {also} and the links already hold: "
                f"its row is dropped, and the reactions of these joints are one admissible split (least norm; "
                f"their total is right)")


def path_id(path: str) -> str:
    """The id in a model path: ``joints[pinB]`` -> ``pinB``, ``joints["pin[B]"]`` -> ``pin[B]``
    (:func:`~solver.model.paths.split_path`)."""
    return split_path(path)[1][0] if "[" in path else path


def dependent_rows(G: np.ndarray, order: list[int]) -> dict[int, np.ndarray]:
    """The rows of ``G`` (rows, n) that the rows before them in ``order`` already span (to
    :data:`RANK` of their norm), each with its coefficients ``c`` (rows,) on the independent rows
    (``G[row] = c @ G``, by Gram-Schmidt twice, then least squares).  One Householder QR of the rows
    in order first: where no row's part outside those before it (``|R_ii|``) is small, none is found
    (cost ``O(rows^2 n)`` in LAPACK, the common case)."""
    rows = G[order]
    if rows.shape[0] <= rows.shape[1]:
        R = np.linalg.qr(rows.T, mode="r")
        if np.all(np.abs(np.diag(R)) > RANK * np.linalg.norm(rows, axis=1)):
            return {}
    basis = np.zeros((0, G.shape[1]))
    kept: list[int] = []
    found: dict[int, np.ndarray] = {}
    for i in order:
        g = G[i]
        norm = np.linalg.norm(g)
        r = g - basis.T @ (basis @ g)
        r -= basis.T @ (basis @ r)
        rest = np.linalg.norm(r)
        if norm == 0.0 or rest <= RANK * norm:
            c = np.zeros(G.shape[0])
            if kept:
                c[kept] = np.linalg.lstsq(G[kept].T, g, rcond=None)[0]
            found[i] = c
        else:
            basis = np.vstack([basis, r / rest])
            kept.append(i)
    return found


def refuse_dependence(owners: list[str], internal: set[int], drivers: set[int], found: dict[int, np.ndarray],
                      motion) -> None:
    """:class:`SolverError` where a dependent row cannot be dropped: a link's own row or a driver's held
    twice, or a joint's row whose motion a driver moves (``motion(row)``: the row's motion in words)."""
    for row, c in found.items():
        weight = np.abs(c).max(initial=0.0)
        moved = [owners[k] for k in sorted(drivers) if abs(c[k]) > 1e-8 * weight]
        if row in internal:
            raise SolverError(f"the links hold {motion(row)} twice (two rigid links joined at the same two nodes, or "
                              f"a rigid link's nodes on one body): merge those links into one")
        if row in drivers or moved:
            names = ", ".join(f"'{path_id(p)}'" for p in [owners[row], *moved])
            raise SolverError(f"{names} contradict each other: they hold {motion(row)} twice, and a driver moves it "
                              f"(a joint holding what a driver moves, or two drivers on one motion); remove one of them")


def least_norm_multipliers(G: np.ndarray, f: np.ndarray) -> np.ndarray:
    """The multipliers ``lambda`` (rows,) of least norm with ``G^T lambda = f``: the split of the
    generalised reaction ``f`` (n,) among rows ``G`` (rows, n) that hold some motions twice,
    ``(G G^T)^+ G f`` (:func:`~solver.system.bordered.schur_inverse`)."""
    return schur_inverse(np.ascontiguousarray(G @ G.T)) @ (G @ f)


def joint_reactions(constraints, held_twice, q: np.ndarray, lam: np.ndarray, n: int) -> dict[str, list[float]]:
    """The reaction on the model of each joint (``joints[...]`` paths: a ground pin's or clamp's
    ``(F_x, F_y[, M])`` in N and N m, a slider's ``(F_x, F_y)``, N) at ``(q, lam)``: the multipliers
    ``lam`` of the rows ``constraints`` kept, split among them and the rows ``held_twice`` dropped
    (:class:`~solver.system.constraints.ConstraintSet` each) with the least norm of the joints' rows.

    The generalised reaction ``f = G^T lam`` is what every split gives; the links' own rows and the
    drivers' (``G_I``, independent: :func:`refuse_dependence`) take what they take in any split, so
    the joints' rows ``G_J`` split ``f`` projected off their range, ``P = I - G_I^T (G_I G_I^T)^-1 G_I``:
    ``lam_J`` of least norm with ``(G_J P)^T lam_J = P f`` (:func:`least_norm_multipliers`)."""
    G = np.vstack([constraints.jacobian_dense(q, n), held_twice.jacobian_dense(q, n)])
    f = G[: constraints.count].T @ lam
    owners = [*constraints.owners, *held_twice.owners]
    joint = np.array([o.startswith("joints[") for o in owners])
    Gi, Gj = G[~joint], G[joint]
    if Gi.shape[0]:
        X = np.linalg.solve(Gi @ Gi.T, Gi)
        f, Gj = f - Gi.T @ (X @ f), Gj - (Gj @ Gi.T) @ X
    split = dict(zip(np.flatnonzero(joint).tolist(), least_norm_multipliers(Gj, f)))
    rows: dict[str, list[tuple[int, list[float]]]] = {}
    for offset, cs in ((0, constraints), (constraints.count, held_twice)):
        k0, first_slider = len(cs.dm_dofs), cs.count - len(cs.sl_n)
        for row in range(cs.count):
            if (k := offset + row) in split:
                force = [-split[k]] if row < k0 else list(-split[k] * cs.sl_nrm[row - first_slider][:2])
                rows.setdefault(owners[k], []).append((int(cs.dm_dofs[row]) if row < k0 else 0, force))
    return {owner: [float(f) for _dof, force in sorted(parts, key=lambda p: p[0]) for f in force]
            for owner, parts in rows.items()}
