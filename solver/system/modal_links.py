"""Compiling modal links: their modes, their degrees of freedom, and how their nodes
are tied to them.

A modal link (:mod:`solver.fem.modal`) carries the dofs ``(R_x, R_y, theta, q_1 .. q_n)``:
its frame's origin (the link's centre of mass in the sketch), the frame's rotation from
the sketched orientation and its modal coordinates (m).  Its nodes keep their own
``(x, y)`` dofs, so joints, drivers, masses, loads and contacts act on them as on any
node, and each is tied to the link by a body-point constraint whose arm moves with
the modes, ``x_n = R + A(theta) (u0_n + S_n q)``; a rotation slot at the node follows
the section, ``theta_n = theta + s_n . q`` (a linear row), except where no mode turns
the section (the clamped first node, or a link without modes), where it is ``theta``
itself.  The impulse-momentum balance with the joints held
(``[M G^T; G 0]``, Predebon's H matrix) therefore works over the reference and modal
coordinates without knowing about modal links.

The mesh's other nodes carry no dofs: their positions, strains and the mid-span
deflection are computed from ``p`` for the frames (:mod:`solver.results.modal_outputs`),
unless the link is the target of a contact pair, when every mesh node is tied to it so
that the target's segments follow the deformed shape.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..fem.modal_basis import LinkMesh, ModalBasis, ModalInertia, inertia_integrals, link_mesh, modal_basis
from ..fem.modal import DOFS, MAT
from ..errors import SolverError
from ..model.paths import item_label


@dataclass
class ModalLink:
    """One modal link of a compiled system (SI units; ``frame`` filled once dofs are final)."""

    id: str
    reference: str
    names: list[str]  # mesh node names, first to last
    mesh: LinkMesh
    basis: ModalBasis
    inertia: ModalInertia
    origin: tuple[float, float]  # the frame's origin (centre of mass) in the sketch, m
    beta0: float  # sketched orientation, rad
    fibre: float  # outer-fibre distance, m (nan when unknown)
    stiffening: bool
    damping: np.ndarray  # (n,) modal damping ratios
    frame: tuple[int, ...] = ()  # global dofs (R_x, R_y, theta, q_1 .. q_n)

    @property
    def count(self) -> int:
        return self.basis.count

    def rotation(self) -> np.ndarray:
        """A(beta0): the link's axes in the inertial frame, (2, 2)."""
        c, s = math.cos(self.beta0), math.sin(self.beta0)
        return np.array([[c, -s], [s, c]])

    def node_arm(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Of mesh node ``k``: arm ``u0`` (2,) and modal displacements ``S`` (2, n) along the
        inertial axes in the sketched orientation, and the section's rotation per mode (n,)."""
        A = self.rotation()
        Phi = self.basis.Phi
        return A @ np.array([self.mesh.x[k] - self.mesh.x0, 0.0]), A @ Phi[3 * k : 3 * k + 2], Phi[3 * k + 2].copy()


def modal_stations(link: dict, xy: dict[str, tuple[float, float]]) -> tuple[np.ndarray, dict[int, str]]:
    """Mesh stations of a modal link (fractions, 0..1) with every node of the link on one,
    and which station each of its nodes sits on."""
    mesh = link["mesh"]
    st = list(mesh["stations"]) if mesh["kind"] == "stations" else list(np.linspace(0.0, 1.0, mesh["elements"] + 1))
    (x1, y1), (x2, y2) = xy[link["nodes"][0]], xy[link["nodes"][1]]
    dx, dy = x2 - x1, y2 - y1
    along = {name: ((xy[name][0] - x1) * dx + (xy[name][1] - y1) * dy) / (dx * dx + dy * dy) for name in link["nodes"]}
    stations: list[float] = []
    for s in sorted(set(st) | set(along.values())):
        if not stations or s - stations[-1] > 1e-9:
            stations.append(s)
    stations[0], stations[-1] = 0.0, 1.0
    out = np.array(stations)
    return out, {int(np.argmin(np.abs(out - s))): name for name, s in along.items()}


def interface_nodes(link: dict, doc: dict) -> set[str]:
    """Nodes of ``link`` where something else acts: joints, drivers, masses, loads, contact
    points and targets, free bodies, or another link (where static corrections go)."""
    mine = set(link["nodes"])
    used = {j["node"] for j in doc["joints"]} | {m["node"] for m in doc["masses"]} | {ld["node"] for ld in doc["loads"]}
    used |= {d.get("pivot", d.get("node")) for d in doc["drivers"]}
    used |= {c["point"].get("node") for c in doc["contacts"]} | {c["target"].get("node") for c in doc["contacts"]}
    used |= {n for other in doc["links"] if other["id"] != link["id"] for n in other["nodes"]}
    return mine & used


def build_modal_link(link: dict, properties: tuple, xy: dict, doc: dict) -> ModalLink:
    """The modes and inertia of a ``modal`` link of the model document (with defaults);
    ``properties`` are ``(EA, EI, rhoA, rhoI, c)`` of its section."""
    EA, EI, rhoA, rhoI, fibre = properties
    stations, at = modal_stations(link, xy)
    (x1, y1), (x2, y2) = xy[link["nodes"][0]], xy[link["nodes"][1]]
    length = math.hypot(x2 - x1, y2 - y1)
    mesh = link_mesh(stations * length, EA, EI, rhoA, rhoI)
    corrections: list[int] = []
    if link["static_modes"]:
        for k, name in sorted(at.items()):
            if name in interface_nodes(link, doc):
                corrections += [3 * k, 3 * k + 1, 3 * k + 2]  # a force along, across, a moment
    if link["stiffening"]:
        corrections = sorted(set(corrections) | {3 * k for k in range(mesh.nodes)})
    try:
        basis = modal_basis(mesh, link["reference"], link["modes"], corrections)
    except np.linalg.LinAlgError as exc:  # scipy.linalg's too
        raise SolverError(f"links{item_label(link['id'])}: its vibration modes cannot be computed ({exc}): the link's "
                          f"mass and stiffness matrices are too ill-conditioned (a link of {length:.3g} m)") from None
    ratios = list(link["damping_ratios"])
    damping = np.array([ratios[min(i, len(ratios) - 1)] if ratios else 0.0 for i in range(basis.count)])
    names = [at.get(k, f"{link['id']}.{k}") for k in range(mesh.nodes)]
    s0 = mesh.x0 / length
    origin = (x1 + s0 * (x2 - x1), y1 + s0 * (y2 - y1))
    return ModalLink(link["id"], link["reference"], names, mesh, basis, inertia_integrals(mesh, basis.Phi),
                     origin, math.atan2(y2 - y1, x2 - x1), fibre, link["stiffening"], damping)


def is_contact_target(link_id: str, doc: dict) -> bool:
    return any(c["target"].get("kind") == "link" and c["target"].get("link") == link_id for c in doc["contacts"])


def number_modal_link(b, lk: ModalLink, doc: dict) -> None:
    """Give ``lk`` its dofs in the compile builder ``b`` (:class:`solver.system.builder.DofBuilder`)
    and tie its nodes to it: the model's nodes on the link, and every mesh node when the
    link is a contact target (those get the ids ``<link>.<k>``)."""
    frame = tuple(b.new_dofs([*lk.origin, 0.0] + [0.0] * lk.count))
    b.modal_frames.append((lk.id, frame))
    every = is_contact_target(lk.id, doc)
    if every:
        b.modal_names[lk.id] = lk.names
    for k, name in enumerate(lk.names):
        if name not in b.node_dof:
            if not every:
                continue
            b.add_node(name, *(np.array(lk.origin) + lk.node_arm(k)[0]))
        arm, S, s_phi = lk.node_arm(k)
        b.attachments.append((b.node_dof[name], frame, (float(arm[0]), float(arm[1])), S))
        if not np.any(s_phi):
            b.rotation_slot(name, lk.id, frame[2])  # the section turns with the frame
        else:
            slot = b.rotation_slot(name, lk.id)
            b.linear_rows.append(((slot, frame[2], *frame[3:]), (1.0, -1.0, *(-s_phi))))


@dataclass
class ModalSet:
    """All modal links of a system and the packed arrays of :mod:`solver.fem.modal`."""

    links: list[ModalLink] = field(default_factory=list)
    args: tuple = ()

    @classmethod
    def build(cls, links: list[ModalLink], gravity: tuple[float, float], beta: float) -> ModalSet:
        """Pack ``links`` (their ``frame`` dofs final) for the kernels; ``beta`` is the
        model's Rayleigh stiffness coefficient (s)."""
        L = len(links)
        W = max((lk.count for lk in links), default=0)
        Emax = max((lk.mesh.nodes - 1 for lk in links), default=0)
        dofs = np.zeros((L, 3 + W), dtype=np.int64)
        ints = np.zeros((L, 3), dtype=np.int64)
        scal = np.zeros((L, 4))
        vec = np.zeros((L, 4, W))
        mat = np.zeros((L, 5, W, W))
        elphi = np.zeros((L, Emax, 6, W))
        elprop = np.zeros((L, Emax, 2))
        for l, lk in enumerate(links):
            n, I, A = lk.count, lk.inertia, lk.rotation()
            ne = lk.mesh.nodes - 1
            dofs[l, : 3 + n] = lk.frame
            dofs[l, 3 + n :] = lk.frame[2]
            ints[l] = (n, ne, int(lk.stiffening))
            scal[l] = (I.m, *(A @ I.c), I.I0)
            vec[l, :2, :n] = A @ I.Sbar
            vec[l, 2, :n], vec[l, 3, :n] = I.a, I.b
            damping = beta * I.Kqq + np.diag(2.0 * lk.damping * lk.basis.omega * lk.basis.mass)
            for k, matrix in enumerate((I.Mqt, I.G, I.Mqq, I.Kqq, damping)):
                mat[l, k, :n, :n] = matrix
            elphi[l, :ne, :, :n] = lk.basis.Phi[lk.mesh.element_dofs()]
            elprop[l, :ne, 0] = lk.mesh.element_lengths
            elprop[l, :ne, 1] = lk.mesh.EA
        blocks = np.zeros((L, 3 + W, 3 + W))
        return cls(links, (dofs, ints, scal, vec, mat, elphi, elprop, np.array(gravity, dtype=float), blocks))

    @classmethod
    def empty(cls) -> ModalSet:
        return cls.build([], (0.0, 0.0), 0.0)

    @property
    def damped(self) -> bool:
        """Whether the modal coordinates of a link are damped: ``Cqq`` (damping ratios, Rayleigh's
        beta) is not zero."""
        return bool(self.args[MAT][:, 4].any())

    @property
    def frames(self) -> list[tuple[str, tuple[int, ...]]]:
        """``(link id, dofs)`` of every modal link."""
        return [(lk.id, lk.frame) for lk in self.links]

    def pattern(self) -> tuple[np.ndarray, np.ndarray]:
        """Rows and columns of the packed Newton blocks in the global matrix, block by block."""
        dofs = self.args[DOFS]
        W = dofs.shape[1]
        return np.repeat(dofs, W, axis=1).ravel(), np.tile(dofs, (1, W)).ravel()

    def transit_times(self) -> list[float]:
        """Per link, ``2 / omega_max`` of its highest mode, s: the modal analogue of an
        element's wave transit ``l / c`` (for a bar element ``omega_max = 2 c / l``), for
        the impact step of thesis eq. (3.5)."""
        return [2.0 / lk.basis.omega.max() for lk in self.links if lk.count and lk.basis.omega.max() > 0]

    def coordinate_dofs(self) -> np.ndarray:
        """The global dofs of every modal coordinate, link by link."""
        return np.array([d for lk in self.links for d in lk.frame[3:]], dtype=np.int64)

    def rate_rows(self, n: int) -> sp.csr_matrix:
        """(total modal coordinates, n), sparse: the rates ``q_i' / L`` (1/s) of every modal
        coordinate, the deformation rates an initial velocity field should not have."""
        dofs = self.coordinate_dofs()
        lengths = np.array([lk.mesh.length for lk in self.links for _j in range(lk.count)])
        return sp.csr_matrix((1.0 / lengths, (np.arange(dofs.size), dofs)), shape=(dofs.size, n))
