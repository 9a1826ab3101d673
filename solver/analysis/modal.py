"""Natural frequencies and mode shapes about a configuration, and Rayleigh coefficients.

:func:`modal_link_modes` gives the modes a modal link is built with (its own mesh
under its reference conditions, :mod:`solver.fem.modal_basis`) without a whole model
to run.

The undamped eigenproblem ``K_T phi = omega^2 M phi`` (M from eq. 2.32, K_T from
eq. 2.57 / the consistent tangent) is solved on the null space of the constraint
Jacobian, so joints and drivers (held fixed) are respected.  Rigid-body modes come
out with frequency 0.  :func:`rayleigh_coefficients` picks the thesis's damping
(eq. 2.45) ``C = alpha M + beta K`` from two modes and their damping ratios.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from ..model.io import model_with_defaults
from ..system.assembly import Assembly, dense_matrices
from ..system.compile import compile_model, section_properties
from ..system.modal_links import build_modal_link


@dataclass
class Modes:
    """Frequencies (Hz, ascending) and mode shapes (n, k) in the system's dofs."""

    frequencies: np.ndarray
    shapes: np.ndarray
    asm: Assembly

    def node_shape(self, k: int) -> np.ndarray:
        """Mode ``k`` as nodal (dx, dy), normalised to a unit largest displacement, (N, 2)."""
        d = self.shapes[self.asm.sys.node_dofs, k]
        return d / max(np.abs(d).max(), 1e-300)


def natural_modes(model: dict, count: int = 6, q: np.ndarray | None = None) -> Modes:
    """The ``count`` lowest modes of ``model`` about ``q`` (default: the sketched configuration)."""
    asm = Assembly(compile_model(model))
    return modes_of(asm, count, q)


def modes_of(asm: Assembly, count: int = 6, q: np.ndarray | None = None) -> Modes:
    q = asm.sys.q0 if q is None else q
    M, K = dense_matrices(asm, q)
    if asm.m:
        G = asm.sys.constraints.jacobian_dense(q, asm.n)
        N = sla.null_space(G)
    else:
        N = np.eye(asm.n)
    Mr, Kr = N.T @ M @ N, N.T @ K @ N
    w2, phi = sla.eigh(0.5 * (Kr + Kr.T), 0.5 * (Mr + Mr.T))
    k = min(count, len(w2))
    freqs = np.sqrt(np.clip(w2[:k], 0.0, None)) / (2 * np.pi)
    return Modes(freqs, N @ phi[:, :k], asm)


def rayleigh_coefficients(f1: float, f2: float, zeta1: float, zeta2: float | None = None) -> tuple[float, float]:
    """``(alpha, beta)`` giving damping ratios ``zeta1, zeta2`` at frequencies ``f1, f2`` (Hz).

    ``zeta_i = alpha / (2 omega_i) + beta omega_i / 2``.

    >>> a, b = rayleigh_coefficients(1.0, 10.0, 0.02)
    >>> round(a / (4 * np.pi) + b * np.pi, 6), round(a / (40 * np.pi) + b * 10 * np.pi, 6)
    (0.02, 0.02)
    """
    zeta2 = zeta1 if zeta2 is None else zeta2
    w1, w2 = 2 * np.pi * f1, 2 * np.pi * f2
    A = np.array([[1 / (2 * w1), w1 / 2], [1 / (2 * w2), w2 / 2]])
    alpha, beta = np.linalg.solve(A, [zeta1, zeta2])
    return float(alpha), float(beta)


@dataclass
class LinkModes:
    """The modal coordinates of a modal link: frequency (Hz) and damping ratio of each
    (Rayleigh's ``alpha / 2 omega + beta omega / 2`` plus the link's own ratio), the first
    ``normal`` being normal modes, the rest static corrections."""

    frequencies: np.ndarray
    damping: np.ndarray
    normal: int


def modal_link_modes(model: dict, link_id: str) -> LinkModes:
    """The modes of the modal link ``link_id`` of a valid ``model``."""
    doc = model_with_defaults(model)
    link = next(lk for lk in doc["links"] if lk["id"] == link_id)
    materials = {m["id"]: m for m in doc["materials"]}
    xy = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    lk = build_modal_link(link, section_properties(link["section"], materials), xy, doc)
    omega = lk.basis.omega
    alpha, beta = doc["damping"]["alpha"], doc["damping"]["beta"]
    positive = np.where(omega > 0, omega, 1.0)
    rayleigh = np.where(omega > 0, alpha / (2 * positive) + 0.5 * beta * omega, np.inf)
    return LinkModes(lk.basis.frequencies, rayleigh + lk.damping, lk.basis.normal)
