"""The modes of a modal link: its own linear beam model, reference conditions, static
correction modes, and the inertia shape integrals of the floating frame.

A modal link (Predebon ``003_…txt`` §2-3; Shabana, *Dynamics of Multibody Systems*,
ch. 5) is a straight link whose points sit at ``r = R + A(theta) (u0 + S q)``: the
frame ``(R, theta)`` carries the rigid motion and ``S q`` is the elastic displacement,
a sum of the link's vibration modes.  The modes are those of the link's *linear* beam
model, meshed with the project's beam element undeformed (thesis App. A: linear axial
shape, Hermite cubic bending shape, consistent translational + rotary mass A.25-A.26,
stiffness A.15), with the reference conditions chosen per link:

``clamped``  the frame is clamped at the first node (``u = v = phi = 0`` there; the
             modes are cantilever modes);
``pinned``   the frame's x axis passes through both end nodes (``u1 = v1 = v_n = 0``;
             simply-supported modes with the axial freedom of the far end);
``free``     free-free modes with the three rigid modes removed (the frame is then a
             mean-axis frame: the modes are mass-orthogonal to every rigid motion).

Optional static correction modes (the attachment modes of component mode synthesis:
the static shape under a unit force or moment at a joint, load or contact node; for a
free-free link the load is balanced by the rigid inertia: inertia relief) are added to the normal modes and
the set is orthogonalised (a Rayleigh-Ritz eigenproblem on the combined basis), so
every modal coordinate is uncoupled in the linear model and the normal modes keep
their exact frequencies.

The frame's origin is the link's centre of mass in the sketch (``x0 = L/2`` along the
link): the reference conditions fix how the frame follows the deformed link, the origin
is merely a point of the frame, and at the centre of mass a link without modes has
exactly the coordinates and equations of a rigid link.

Every mode is scaled so that its largest nodal displacement is 1 m: a modal
coordinate ``q_i`` is then the amplitude in metres (a mode of the rotary inertia alone,
which moves no node, is scaled to a largest section rotation of one per element length).  The local dofs of the mesh are
``(u, v, phi)`` per node (axial, transverse, section rotation), node 0 at x = 0.

All the integrals over the link that the equations of motion need (:class:`ModalInertia`)
are exact for the interpolated beam: the undeformed position ``u0 = (x, 0)`` is itself
interpolated exactly by the element's shape functions, so every integral is a product
of the finite-element matrices with the mode matrix.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from .beam import BeamSet, _thesis_stiffness

_GAUSS_X = np.array([0.0694318442029737, 0.3300094782075719, 0.6699905217924281, 0.9305681557970263])
_GAUSS_W = np.array([0.1739274225687269, 0.3260725774312731, 0.3260725774312731, 0.1739274225687269])


@dataclass(frozen=True)
class LinkMesh:
    """The linear beam model of a straight link in its own frame, undeformed.

    ``x`` (P,) node positions from the first node, m; ``x0`` the frame's origin (the
    centre of mass) along the link, m; matrices (3P, 3P) on the dofs
    ``(u, v, phi)`` of each node: ``K`` linear stiffness (A.15), ``M`` consistent mass
    (A.25 + A.26), ``Mt`` its translational part, ``Gt = int rhoA N^T J^T N dx`` (skew:
    the Coriolis coupling of the two displacement components); ``E`` (2, 3P) the
    integrals ``int rhoA N dx`` and ``er`` (3P,) ``int rhoI N_phi dx``.
    """

    x: np.ndarray
    x0: float
    EA: float
    EI: float
    rhoA: float
    rhoI: float
    K: np.ndarray
    M: np.ndarray
    Mt: np.ndarray
    Gt: np.ndarray
    E: np.ndarray
    er: np.ndarray

    @property
    def nodes(self) -> int:
        return len(self.x)

    @property
    def length(self) -> float:
        return float(self.x[-1])

    @property
    def element_lengths(self) -> np.ndarray:
        return np.diff(self.x)

    def undeformed(self) -> np.ndarray:
        """``d0`` (3P,): the nodal values that interpolate the position in the frame,
        ``u0(x) = (x - x0, 0)``, exactly."""
        d0 = np.zeros(3 * self.nodes)
        d0[0::3] = self.x - self.x0
        return d0

    def element_dofs(self) -> np.ndarray:
        """(E, 6) the mesh dofs of each element."""
        first = 3 * np.arange(self.nodes - 1)
        return first[:, None] + np.arange(6)[None, :]


def link_mesh(x: np.ndarray, EA: float, EI: float, rhoA: float, rhoI: float) -> LinkMesh:
    """The matrices of :class:`LinkMesh` for nodes at ``x`` (m, increasing from 0) and a
    uniform section (EA in N, EI in N m^2, rhoA in kg/m, rhoI in kg m)."""
    x = np.asarray(x, dtype=float)
    P = len(x)
    Le = np.diff(x)
    E_count = len(Le)
    n = 3 * P
    K, M, Mt, Gt = (np.zeros((n, n)) for _ in range(4))
    Ev = np.zeros((2, n))
    er = np.zeros(n)
    zero = np.zeros(E_count)
    M_all = BeamSet(Le, zero, zero, zero, np.full(E_count, rhoA), np.full(E_count, rhoI)).local_mass()
    Mt_all = BeamSet(Le, zero, zero, zero, np.full(E_count, rhoA), zero).local_mass()
    Ke = np.empty((6, 6))
    for e, L in enumerate(Le):
        idx = np.arange(3 * e, 3 * e + 6)
        _thesis_stiffness(EA, EI, L, 0.0, 0.0, Ke)
        K[np.ix_(idx, idx)] += Ke
        M[np.ix_(idx, idx)] += M_all[e]
        Mt[np.ix_(idx, idx)] += Mt_all[e]
        C = np.zeros((6, 6))  # int rhoA Nu^T Nv dx
        for xi, w in zip(_GAUSS_X, _GAUSS_W):
            Nu, Nv, _ = shape_functions(xi, L)
            C += rhoA * L * w * np.outer(Nu, Nv)
        Gt[np.ix_(idx, idx)] += C - C.T
        Ev[0, idx] += rhoA * L * np.array([0.5, 0.0, 0.0, 0.5, 0.0, 0.0])
        Ev[1, idx] += rhoA * L * np.array([0.0, 0.5, L / 12.0, 0.0, 0.5, -L / 12.0])
        er[idx] += rhoI * np.array([0.0, -1.0, 0.0, 0.0, 1.0, 0.0])
    return LinkMesh(x, 0.5 * float(x[-1]), EA, EI, rhoA, rhoI, K, M, Mt, Gt, Ev, er)


def shape_functions(xi: float, L: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Element shape functions at ``xi`` (0..1) on ``(u1, v1, phi1, u2, v2, phi2)``: axial
    ``Nu`` (linear), transverse ``Nv`` (Hermite cubic, A.9) and the slope ``Nv'`` (1/m)."""
    Nu = np.array([1.0 - xi, 0.0, 0.0, xi, 0.0, 0.0])
    Nv = np.array([0.0, 1.0 - 3 * xi**2 + 2 * xi**3, L * (xi - 2 * xi**2 + xi**3),
                   0.0, 3 * xi**2 - 2 * xi**3, L * (xi**3 - xi**2)])
    dNv = np.array([0.0, (-6 * xi + 6 * xi**2) / L, 1 - 4 * xi + 3 * xi**2,
                    0.0, (6 * xi - 6 * xi**2) / L, 3 * xi**2 - 2 * xi])
    return Nu, Nv, dNv


def fixed_dofs(reference: str, nodes: int) -> list[int]:
    """Mesh dofs the reference conditions hold (none for ``free``)."""
    if reference == "clamped":
        return [0, 1, 2]
    if reference == "pinned":
        return [0, 1, 3 * (nodes - 1) + 1]
    return []


def rigid_modes(mesh: LinkMesh) -> np.ndarray:
    """(3P, 3): translation along x, along y, rotation about the first node."""
    R = np.zeros((3 * mesh.nodes, 3))
    R[0::3, 0] = 1.0
    R[1::3, 1] = 1.0
    R[1::3, 2] = mesh.x
    R[2::3, 2] = 1.0
    return R


@dataclass(frozen=True)
class ModalBasis:
    """The modes of a link: ``Phi`` (3P, n) on the mesh dofs, scaled to a largest nodal
    displacement of 1 m; ``omega`` (n,) rad/s; ``mass`` (n,) kg and ``stiffness`` (n,)
    N/m, the diagonal of ``Phi^T M Phi`` and ``Phi^T K Phi``; ``normal`` how many of them
    are normal modes (the first ones), the rest being orthogonalised static corrections."""

    Phi: np.ndarray
    omega: np.ndarray
    mass: np.ndarray
    stiffness: np.ndarray
    normal: int

    @property
    def count(self) -> int:
        return self.Phi.shape[1]

    @property
    def frequencies(self) -> np.ndarray:
        """Hz."""
        return self.omega / (2 * np.pi)


def modal_basis(mesh: LinkMesh, reference: str, count: int, corrections: list[int] = ()) -> ModalBasis:
    """The ``count`` lowest normal modes under ``reference``, plus the static correction
    modes of a unit load at each mesh dof of ``corrections`` that the reference conditions
    leave free, orthogonalised (see the module docstring)."""
    n = 3 * mesh.nodes
    fixed = fixed_dofs(reference, mesh.nodes)
    free = np.setdiff1d(np.arange(n), fixed)
    # T: a basis of the admissible elastic displacements (rigid modes removed when free)
    T = np.eye(n)[:, free]
    if reference == "free":
        T = sla.null_space(rigid_modes(mesh).T @ mesh.M)
    w2, Y = sla.eigh(T.T @ mesh.K @ T, T.T @ mesh.M @ T)
    Phi_n = T @ Y[:, :count]
    statics = [_static_mode(mesh, reference, d) for d in corrections if d not in fixed]
    basis = np.column_stack([Phi_n, *statics]) if statics else Phi_n
    if statics:
        basis = _orthogonalised(mesh, basis)
    Phi = _scaled(basis, mesh.length / (mesh.nodes - 1))
    mass = np.einsum("ij,ik,kj->j", Phi, mesh.M, Phi)
    stiffness = np.einsum("ij,ik,kj->j", Phi, mesh.K, Phi)
    omega = np.sqrt(np.clip(stiffness / mass, 0.0, None))
    return ModalBasis(Phi, omega, mass, stiffness, min(count, Phi.shape[1]))


def _static_mode(mesh: LinkMesh, reference: str, dof: int) -> np.ndarray:
    """The static displacement under a unit load at mesh ``dof`` (inertia relief when free)."""
    n = 3 * mesh.nodes
    load = np.zeros(n)
    load[dof] = 1.0
    if reference == "free":
        R = rigid_modes(mesh)
        Mr = R.T @ mesh.M @ R
        load = load - mesh.M @ R @ np.linalg.solve(Mr, R.T @ load)  # balanced by the rigid inertia
        supports = fixed_dofs("pinned", mesh.nodes)  # statically determinate: no reactions
    else:
        supports = fixed_dofs(reference, mesh.nodes)
    free = np.setdiff1d(np.arange(n), supports)
    psi = np.zeros(n)
    psi[free] = np.linalg.solve(mesh.K[np.ix_(free, free)], load[free])
    if reference == "free":
        R = rigid_modes(mesh)
        psi -= R @ np.linalg.solve(R.T @ mesh.M @ R, R.T @ mesh.M @ psi)
    return psi


def _orthogonalised(mesh: LinkMesh, basis: np.ndarray) -> np.ndarray:
    """The modes of the Rayleigh-Ritz problem on ``basis`` (dependent columns dropped),
    ascending: mass- and stiffness-orthogonal; the normal modes in the basis come out exactly."""
    basis = basis / np.sqrt(np.einsum("ij,ik,kj->j", basis, mesh.M, basis))  # unit modal masses: comparable
    Mb = basis.T @ mesh.M @ basis
    lam, V = sla.eigh(0.5 * (Mb + Mb.T))
    keep = lam > 1e-10 * lam.max()
    T = basis @ (V[:, keep] / np.sqrt(lam[keep]))
    Kb = T.T @ mesh.K @ T
    _w2, Y = sla.eigh(0.5 * (Kb + Kb.T))
    return T @ Y


def _scaled(Phi: np.ndarray, spacing: float) -> np.ndarray:
    """Each column scaled to a largest nodal displacement ``|(u, v)|`` of 1, that component
    positive; a column that moves the nodes by less than 1e-6 of ``spacing`` times its
    largest section rotation (a mode of the rotary inertia alone) is scaled to a largest
    rotation of ``1 / spacing`` instead."""
    out = Phi.copy()
    for j in range(Phi.shape[1]):
        u, v, phi = Phi[0::3, j], Phi[1::3, j], Phi[2::3, j]
        k = _first_largest(np.hypot(u, v))
        size = float(np.hypot(u[k], v[k]))
        big = u[k] if abs(u[k]) > (1.0 + TIE) * abs(v[k]) else v[k]
        if size <= 1e-6 * spacing * np.abs(phi).max():
            k = _first_largest(np.abs(phi))
            size, big = abs(phi[k]) * spacing, phi[k]
        out[:, j] = Phi[:, j] * (np.sign(big) / size)
    return out


#: relative margin within which two nodal amplitudes of a mode count as equal when its sign is chosen
TIE = 1e-9


def _first_largest(amplitudes: np.ndarray) -> int:
    """The first node whose amplitude is the largest to within :data:`TIE`: a mode whose largest
    amplitudes are equal (an antisymmetric mode of a pinned-pinned rod: two peaks of opposite sign)
    takes its sign from the same node whatever the round-off, which a turned or mirrored model's
    matrices carry differently (plain ``argmax`` flipped the modal_q of the modal slider-crank's
    rod between the model as shipped and turned)."""
    return int(np.flatnonzero(amplitudes >= (1.0 - TIE) * amplitudes.max())[0])


@dataclass(frozen=True)
class ModalInertia:
    """The inertia shape integrals of a modal link in its own frame (Shabana ch. 5, planar).

    With ``w = d0 + Phi q`` the nodal vector of the deformed position in the frame:

    * ``m`` (kg), ``c = int rhoA u0`` (kg m, the first moment at q = 0: zero, the origin
      being the centre of mass), ``Sbar = E Phi`` (kg);
    * ``I0 = d0^T Mt d0 + int rhoI`` (kg m^2) and ``a = Phi^T Mt d0`` (kg m): the moment
      of inertia about the frame's origin is ``I0 + 2 a.q + q^T Mqt q``;
    * ``b = Phi^T (Gt^T d0 + er)`` (kg m) and ``G = Phi^T Gt Phi`` (kg, skew): the
      rotation-elastic coupling ``M_theta,q = b + G^T q``;
    * ``Mqt = Phi^T Mt Phi`` (its translational part), ``Mqq = Phi^T M Phi`` (kg) and
      ``Kqq = Phi^T K Phi`` (N/m): the modal mass and stiffness.
    """

    m: float
    c: np.ndarray
    Sbar: np.ndarray
    I0: float
    a: np.ndarray
    b: np.ndarray
    G: np.ndarray
    Mqt: np.ndarray
    Mqq: np.ndarray
    Kqq: np.ndarray


def inertia_integrals(mesh: LinkMesh, Phi: np.ndarray) -> ModalInertia:
    """The :class:`ModalInertia` of the modes ``Phi`` (3P, n)."""
    d0 = mesh.undeformed()
    G = Phi.T @ mesh.Gt @ Phi
    return ModalInertia(
        m=mesh.rhoA * mesh.length,
        c=mesh.E @ d0,
        Sbar=mesh.E @ Phi,
        I0=float(d0 @ mesh.Mt @ d0) + mesh.rhoI * mesh.length,
        a=Phi.T @ mesh.Mt @ d0,
        b=Phi.T @ (mesh.Gt.T @ d0 + mesh.er),
        G=0.5 * (G - G.T),
        Mqt=Phi.T @ mesh.Mt @ Phi,
        Mqq=Phi.T @ mesh.M @ Phi,
        Kqq=Phi.T @ mesh.K @ Phi,
    )
