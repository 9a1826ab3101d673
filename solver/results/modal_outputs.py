"""Outputs of modal links: the deformed mesh, strains, mid-span deflection, modal coordinates.

A modal link reports like a corotational one (:mod:`.outputs`): every node of the mesh
its modes were computed on is a node of the frames (those that carry no dofs are
computed from the link's coordinates ``p = (R, theta, q)``), every element of that
mesh an element with strains at the stations, and the link a flexible link with its
mid-span deflection.  Per mode it adds the modal coordinate and its rates and the
mode's energies (the ``modes`` table).

Kinematics of a point at ``u = u0 + S q`` in the frame (along the inertial axes in the
sketched orientation, :meth:`~solver.system.modal_links.ModalLink.node_arm`)::

    r   = R + A u
    r'  = R' + theta' J A u + A S q'
    r'' = R'' + theta'' J A u - theta'^2 A u + 2 theta' J A S q' + A S q''

and the section turns by ``theta + s . q``.  In an element of the mesh with nodal
displacements ``d = Phi_e q`` (in the frame): axial strain ``(u2 - u1)/L`` (plus the
mean of ``1/2 v'^2`` with geometric stiffening, the strain the link's energy uses),
curvature ``kappa = N_v'' d`` (the Hermite shape, A.9), bending moment ``EI kappa``,
outer-fibre bending strain ``-c kappa`` (the sign convention of :mod:`.outputs`).
Mode energies: strain ``1/2 k_i q_i^2`` and kinetic ``1/2 m_i q_i'^2`` (the linear
modal stiffness and mass; the modes are mass- and stiffness-orthogonal).
"""
from __future__ import annotations

import numpy as np

from ..system.compile import System


def _rotate(theta: np.ndarray | float, x: np.ndarray) -> np.ndarray:
    """``A(theta) x`` for x of shape (..., 2)."""
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([c * x[..., 0] - s * x[..., 1], s * x[..., 0] + c * x[..., 1]], axis=-1)


def _perp(x: np.ndarray) -> np.ndarray:
    """``J x``: x turned by +90 degrees."""
    return np.stack([-x[..., 1], x[..., 0]], axis=-1)


class ModalOutputs:
    """What the frames report about the modal links of a system."""

    def __init__(self, system: System, stations: np.ndarray):
        self.links = system.modal.links
        self.xi = np.asarray(stations, dtype=float)
        have_xy = set(system.node_ids)
        have_rot = set(system.rot_slots)
        #: per link: mesh nodes without dofs (computed), and those without a rotation slot
        self.derived = [[k for k, n in enumerate(lk.names) if n not in have_xy] for lk in self.links]
        self.derived_rot = [[k for k, n in enumerate(lk.names) if (n, lk.id) not in have_rot] for lk in self.links]
        self.nodes = [lk.names[k] for lk, ks in zip(self.links, self.derived) for k in ks]
        self.rotations = [(lk.names[k], lk.id) for lk, ks in zip(self.links, self.derived_rot) for k in ks]
        self.elements = [(lk.id, e, lk.names[e], lk.names[e + 1]) for lk in self.links for e in range(lk.mesh.nodes - 1)]
        self.element_length = np.concatenate([lk.mesh.element_lengths for lk in self.links] or [np.zeros(0)])
        self.outer_fibre = np.concatenate([np.full(lk.mesh.nodes - 1, lk.fibre) for lk in self.links] or [np.zeros(0)])
        self.modes = [(lk.id, i + 1) for lk in self.links for i in range(lk.count)]
        self.frequencies = np.concatenate([lk.basis.frequencies for lk in self.links] or [np.zeros(0)])
        self.link_ids = [lk.id for lk in self.links]

    # ------------------------------------------------------------------ per frame
    def frame_parts(self, q: np.ndarray, v: np.ndarray, a: np.ndarray) -> dict[str, np.ndarray]:
        """The modal links' share of a frame's arrays (see :class:`~solver.results.frames.Frame`)."""
        xy, vel, acc, rot, rot_v, rot_a = [], [], [], [], [], []
        axial_N, axial_eps, bend_eps, bend_M, mid = [], [], [], [], []
        mq, mqd, mqdd, m_U, m_T = [], [], [], [], []
        for lk, ks, kr in zip(self.links, self.derived, self.derived_rot):
            f = list(lk.frame)
            p, pd, pdd = q[f], v[f], a[f]
            arms = np.array([lk.node_arm(k)[0] for k in range(lk.mesh.nodes)])  # (P, 2)
            S = np.array([lk.node_arm(k)[1] for k in range(lk.mesh.nodes)])  # (P, 2, n)
            u = arms + S @ p[3:]
            Au, ASqd, ASqdd = _rotate(p[2], u), _rotate(p[2], S @ pd[3:]), _rotate(p[2], S @ pdd[3:])
            xy.append((p[:2] + Au)[ks])
            vel.append((pd[:2] + pd[2] * _perp(Au) + ASqd)[ks])
            acc.append((pdd[:2] + pdd[2] * _perp(Au) - pd[2] ** 2 * Au + 2 * pd[2] * _perp(ASqd) + ASqdd)[ks])
            s_phi = lk.basis.Phi[2::3]  # (P, n)
            rot.append((p[2] + s_phi @ p[3:])[kr])
            rot_v.append((pd[2] + s_phi @ pd[3:])[kr])
            rot_a.append((pdd[2] + s_phi @ pdd[3:])[kr])
            N, eps, kappa = self._element_strains(lk, p[3:])
            axial_N.append(np.repeat(N[:, None], len(self.xi), axis=1))
            axial_eps.append(np.repeat(eps[:, None], len(self.xi), axis=1))
            bend_M.append(lk.mesh.EI * kappa)
            bend_eps.append(-lk.fibre * kappa)
            mid.append(self._midspan(lk, p[3:]))
            b = lk.basis
            mq.append(p[3:])
            mqd.append(pd[3:])
            mqdd.append(pdd[3:])
            m_U.append(0.5 * b.stiffness * p[3:] ** 2)
            m_T.append(0.5 * b.mass * pd[3:] ** 2)
        return {
            "node_xy": _stack(xy, (0, 2)), "node_v": _stack(vel, (0, 2)), "node_a": _stack(acc, (0, 2)),
            "rot": _stack(rot, (0,)), "rot_v": _stack(rot_v, (0,)), "rot_a": _stack(rot_a, (0,)),
            "axial_force": _stack(axial_N, (0, len(self.xi))), "axial_strain": _stack(axial_eps, (0, len(self.xi))),
            "bending_strain": _stack(bend_eps, (0, len(self.xi))), "bending_moment": _stack(bend_M, (0, len(self.xi))),
            "midspan": np.array(mid, dtype=float),
            "modal_q": _stack(mq, (0,)), "modal_qd": _stack(mqd, (0,)), "modal_qdd": _stack(mqdd, (0,)),
            "modal_strain_energy": _stack(m_U, (0,)), "modal_kinetic_energy": _stack(m_T, (0,)),
        }  # fmt: skip

    def _element_strains(self, lk, qf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Axial force (E,), axial strain (E,) and curvature at the stations (E, S) of the link's mesh."""
        d = lk.basis.Phi[lk.mesh.element_dofs()] @ qf  # (E, 6) in the frame
        L = lk.mesh.element_lengths
        eps = (d[:, 3] - d[:, 0]) / L
        if lk.stiffening:
            t1 = d[:, 2] - (d[:, 4] - d[:, 1]) / L  # slopes relative to the element's chord
            t2 = d[:, 5] - (d[:, 4] - d[:, 1]) / L
            chord = (d[:, 4] - d[:, 1]) / L
            eps = eps + 0.5 * chord**2 + (2 * t1**2 - t1 * t2 + 2 * t2**2) / 30.0
        xi = self.xi[None, :]
        Lc = L[:, None]
        kappa = ((-6 + 12 * xi) * d[:, [1]] / Lc**2 + (-4 + 6 * xi) * d[:, [2]] / Lc
                 + (6 - 12 * xi) * d[:, [4]] / Lc**2 + (-2 + 6 * xi) * d[:, [5]] / Lc)
        return lk.mesh.EA * eps, eps, kappa

    @staticmethod
    def _midspan(lk, qf: np.ndarray) -> float:
        """Deflection of the mid-length point from the chord between the end nodes, over the
        length, positive to the left (as for a corotational link); in the frame."""
        x, Le = lk.mesh.x, lk.mesh.element_lengths
        half = 0.5 * x[-1]
        e = int(np.clip(np.searchsorted(x, half, side="right") - 1, 0, len(Le) - 1))
        xi = (half - x[e]) / Le[e]
        Phi = lk.basis.Phi
        d = Phi[3 * e : 3 * e + 6] @ qf
        Nu = np.array([1 - xi, xi])
        Nv = np.array([1 - 3 * xi**2 + 2 * xi**3, Le[e] * (xi - 2 * xi**2 + xi**3), 3 * xi**2 - 2 * xi**3,
                       Le[e] * (xi**3 - xi**2)])
        point = np.array([half + Nu @ d[[0, 3]], Nv @ d[[1, 2, 4, 5]]])
        ends = [np.array([x[k] + Phi[3 * k] @ qf, Phi[3 * k + 1] @ qf]) for k in (0, len(x) - 1)]
        chord = ends[1] - ends[0]
        normal = np.array([-chord[1], chord[0]]) / np.linalg.norm(chord)
        return float((point - ends[0]) @ normal) / x[-1]


def _stack(parts: list[np.ndarray], empty: tuple[int, ...]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(empty)
