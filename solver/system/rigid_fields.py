"""Rigid velocity fields of a compiled system: the velocities without deformation rates.

A velocity field ``w`` (n,) has no deformation rates (:func:`solver.system.initial.deformation_rates`)
when every modal coordinate is at rest and every beam element moves rigidly: both its
rotation dofs turn at one rate ``omega`` and its end nodes move as
``v_z - v_a = omega (-(y_z - y_a), x_z - x_a)`` (zero rates of the extension and the end
slopes of the corotational frame, thesis §2.6, eq. 2.65).
Elements that share a rotation dof turn together (a *class*: a link, or links welded
together); elements of one class that share a node move with one field (a *piece*).
Such fields are ``w = P a`` with the parameters ``a``: the velocity ``(v_x, v_y)`` of every
piece at its reference node, the rate of every class, and the velocity of every dof that
no element and no modal coordinate touches (rigid bodies, point masses, rigid links' nodes),
subject to ``C a = 0``: a node shared by pieces of two classes (a pin) moves with both.

``P`` has O(n) entries and ``a`` a few entries per link, so the rigid motions that the
joints allow, ``null(G P) ∩ null(C)``, come from the singular values of a matrix with one
column per parameter, never from the null space of an n-column matrix.
"""
from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .compile import System


def _components(a: np.ndarray, z: np.ndarray, count: int) -> tuple[int, np.ndarray]:
    """Connected components of the graph on ``count`` vertices with edges ``(a, z)``."""
    graph = sp.coo_matrix((np.ones(a.size), (a, z)), shape=(count, count))
    return connected_components(graph, directed=False)


def rigid_fields(system: System, q: np.ndarray) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """``(P, C)``: the rigid velocity fields ``w = P a`` (n, p) in configuration ``q``, and the
    conditions ``C a = 0`` (2 per pin between pieces, p) that make them one field."""
    n, ed = system.n, system.elem_dofs
    E = ed.shape[0]
    xa, ya, ra, xz, yz, rz = ed.T
    rot = np.unique(np.concatenate([ra, rz]))
    classes, class_of_rot = _components(np.searchsorted(rot, ra), np.searchsorted(rot, rz), rot.size)
    kappa = class_of_rot[np.searchsorted(rot, ra)]
    # vertices: (node, class) pairs, the node named by its x dof; pieces join them by elements
    xdof, ydof = np.concatenate([xa, xz]), np.concatenate([ya, yz])
    keys, inverse = np.unique(xdof * classes + np.concatenate([kappa, kappa]), return_inverse=True)
    pieces, piece = _components(inverse[:E], inverse[E:], keys.size)
    vx, vclass = keys // classes, keys % classes
    vy = np.empty_like(vx)
    vy[inverse] = ydof
    # the first vertex of a node owns its velocity; the first vertex of a piece is its reference
    _nodes, owner_of_node, node_of_vertex = np.unique(vx, return_index=True, return_inverse=True)
    owner = owner_of_node[node_of_vertex]
    ref = np.unique(piece, return_index=True)[1]
    xr, yr = q[vx[ref]][piece], q[vy[ref]][piece]  # reference point of each vertex's piece
    free = np.ones(n, dtype=bool)
    free[ed.ravel()] = False
    free[system.modal.coordinate_dofs()] = False
    free_dofs = np.flatnonzero(free)
    c_vx, c_vy = piece, pieces + piece  # parameter columns of each vertex
    c_w = 2 * pieces + vclass
    p = 2 * pieces + classes + free_dofs.size
    # P: owned node velocities, rotation rates, free dofs
    own = np.flatnonzero(owner == np.arange(vx.size))
    dx, dy = q[vx[own]] - xr[own], q[vy[own]] - yr[own]
    rows = np.concatenate([vx[own], vx[own], vy[own], vy[own], rot, free_dofs])
    cols = np.concatenate([c_vx[own], c_w[own], c_vy[own], c_w[own], 2 * pieces + class_of_rot,
                           2 * pieces + classes + np.arange(free_dofs.size)])
    vals = np.concatenate([np.ones(own.size), -dy, np.ones(own.size), dx, np.ones(rot.size + free_dofs.size)])
    P = sp.csr_matrix((vals, (rows, cols)), shape=(n, p))
    # C: every other vertex of a node moves as its owner there
    other = np.flatnonzero(owner != np.arange(vx.size))
    o = owner[other]
    k = np.arange(other.size)
    x, y = q[vx[other]], q[vy[other]]
    one = np.ones(other.size)
    rows = np.concatenate([2 * k, 2 * k, 2 * k, 2 * k, 2 * k + 1, 2 * k + 1, 2 * k + 1, 2 * k + 1])
    cols = np.concatenate([c_vx[other], c_w[other], c_vx[o], c_w[o], c_vy[other], c_w[other], c_vy[o], c_w[o]])
    vals = np.concatenate([one, -(y - yr[other]), -one, y - yr[o], one, x - xr[other], -one, -(x - xr[o])])
    C = sp.csr_matrix((vals, (rows, cols)), shape=(2 * other.size, p))
    return P, C


def rigid_motions(system: System, q: np.ndarray, G: sp.spmatrix) -> np.ndarray:
    """An orthonormal basis (n, k) of the rigid velocity fields that meet ``G w = 0``:
    the motions of the mechanism that deform nothing (``null(B) ∩ null(G)``)."""
    P, C = rigid_fields(system, q)
    K = sp.vstack([C, G @ P]).toarray()
    Z = sla.null_space(K) if K.shape[0] else np.eye(P.shape[1])
    return sla.orth(P @ Z) if Z.size else np.zeros((system.n, 0))
