"""Shear-flexible (Timoshenko) beam: the interdependent-interpolation element (IIE).

The corotational element of :mod:`.beam` interpolates, in its corotated frame, the
transverse displacement ``v`` and the section rotation ``psi`` of a Timoshenko beam
(Amirouche & Xie eqs. 22-25: shear strain ``gamma = v' - psi``) with the shape functions
that solve the homogeneous Timoshenko equations exactly (Friedman & Kosmatka 1993,
Comput. Struct. 47(3); Reddy 1997, Commun. Numer. Meth. Eng. 13): ``v`` cubic, ``psi``
quadratic, coupled through the shear parameter

    phi = 12 EI / (k G A L^2).

The shear strain is then constant along the element, ``gamma = -phi (tb1 + tb2) / (2 (1 + phi))``
(end displacements relative to the chord are zero, the end section rotations relative to
it are ``tb1, tb2``), so a thin element does not lock, and at ``phi = 0`` every function
below is the Euler-Bernoulli element's (thesis A.9): the Timoshenko element reduces
exactly to it as ``k G A -> infinity``.  Strain energy of bending and shear together

    U_b = EI / (2 L (1 + phi)) [(4 + phi)(tb1^2 + tb2^2) + 2 (2 - phi) tb1 tb2],

the stiffness of the IIE (Przemieniecki 1968 §5.6).  The functions are written with
plain arithmetic: compiled for the kernels and, through ``.py_func``, on numpy arrays.
Units: L in m, the slopes in rad; ``phi`` is a pure number.
"""
from __future__ import annotations

import numpy as np
from numba import njit


def shear_parameter(EI: np.ndarray, kGA: np.ndarray, L: np.ndarray) -> np.ndarray:
    """``phi = 12 EI / (k G A L^2)`` per element, 0 where ``kGA`` is infinite (Euler-Bernoulli)."""
    with np.errstate(divide="ignore"):
        return np.where(np.isinf(kGA), 0.0, 12.0 * EI / (kGA * L * L))


@njit(cache=True)
def bending_coefficients(phi):
    """``(k_d, k_o)``: the bending-and-shear moments are ``EI/L (k_d tb1 + k_o tb2)`` and
    ``EI/L (k_o tb1 + k_d tb2)``; ``(4, 2)`` for Euler-Bernoulli."""
    return (4.0 + phi) / (1.0 + phi), (2.0 - phi) / (1.0 + phi)


@njit(cache=True)
def stretch_coefficients(phi):
    """``(g_a, g_b)``: the mean of ``1/2 (v')^2`` over the element is
    ``g_a (tb1^2 + tb2^2) + g_b tb1 tb2`` (the second-order part of the mean strain, A.3);
    ``(1/15, -1/30)`` for Euler-Bernoulli."""
    d = 120.0 * (1.0 + phi) * (1.0 + phi)
    return (8.0 + 10.0 * phi + 5.0 * phi * phi) / d, -(4.0 + 20.0 * phi + 10.0 * phi * phi) / d


@njit(cache=True)
def shapes(xi, phi, L):
    """Shape functions of the end slopes at ``xi = x / L``: transverse ``(N3, N6)`` (m/rad)
    and section rotation ``(P3, P6)``; ``v = N3 tb1 + N6 tb2``, ``psi = P3 tb1 + P6 tb2``."""
    h = 1.0 / (1.0 + phi)
    b = 0.5 * phi * xi * (1.0 - xi)
    N3 = L * h * (xi * (1.0 - xi) * (1.0 - xi) + b)
    N6 = L * h * (xi * xi * (xi - 1.0) - b)
    P3 = h * ((1.0 - xi) * (1.0 - 3.0 * xi) + phi * (1.0 - xi))
    P6 = h * (xi * (3.0 * xi - 2.0) + phi * xi)
    return N3, N6, P3, P6


@njit(cache=True)
def curvature_coefficients(xi, phi, L):
    """``(c3, c6)``: the curvature ``psi' = c3 tb1 + c6 tb2`` at ``xi``, 1/m per rad."""
    h = 1.0 / ((1.0 + phi) * L)
    return h * (6.0 * xi - 4.0 - phi), h * (6.0 * xi - 2.0 + phi)


@njit(cache=True)
def geometric_coefficients(phi):
    """Entries of the IIE stress stiffness ``T_s / (30 L (1 + phi)^2) [...]`` (thesis A.16 at
    ``phi = 0``): ``(c_vv, c_vt, c_tt, c_tT)`` for the transverse-transverse, transverse-slope
    (times L), slope-slope and slope-other slope entries (times L^2)."""
    return 6.0 * (5.0 * phi * phi + 10.0 * phi + 6.0), 3.0, 0.5 * (5.0 * phi * phi + 10.0 * phi + 8.0), \
        -0.5 * (5.0 * phi * phi + 10.0 * phi + 2.0)


def full_shapes(xi: float, phi: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Axial, transverse and section-rotation shape rows of all six local dofs
    ``[u1, v1, t1, u2, v2, t2]`` at ``xi``, each (E, 6): for the consistent local mass."""
    h = 1.0 / (1.0 + phi)
    N3, N6, P3, P6 = shapes.py_func(xi, phi, L)
    Nv1 = h * (1.0 - 3.0 * xi * xi + 2.0 * xi**3 + phi * (1.0 - xi))
    Pv1 = 6.0 * h * (xi * xi - xi) / L
    zero = np.zeros_like(phi)
    axial = np.stack([zero + 1.0 - xi, zero, zero, zero + xi, zero, zero], axis=1)
    trans = np.stack([zero, Nv1, N3, zero, 1.0 - Nv1, N6], axis=1)
    rot = np.stack([zero, Pv1, P3, zero, -Pv1, P6], axis=1)
    return axial, trans, rot


#: 4-point Gauss-Legendre on [0, 1] (exact to degree 7)
_GAUSS_X = np.array([0.0694318442029737, 0.3300094782075719, 0.6699905217924281, 0.9305681557970263])
_GAUSS_W = np.array([0.1739274225687269, 0.3260725774312731, 0.3260725774312731, 0.1739274225687269])


def local_mass(L: np.ndarray, rhoA: np.ndarray, rhoI: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """Consistent local mass of the IIE, translational + rotary, (E, 6, 6): 4-point Gauss of
    ``rhoA (N_u^T N_u + N_v^T N_v) + rhoI P^T P`` (exact: the integrands are of degree 6 at most).
    At ``phi = 0`` it is the thesis's A.25 + A.26."""
    M = np.zeros((L.shape[0], 6, 6))
    for xg, wg in zip(_GAUSS_X, _GAUSS_W):
        axial, trans, rot = full_shapes(xg, phi, L)
        w = (wg * L)[:, None, None]
        M += w * (rhoA[:, None, None] * (axial[:, :, None] * axial[:, None, :] + trans[:, :, None] * trans[:, None, :])
                  + rhoI[:, None, None] * rot[:, :, None] * rot[:, None, :])
    return M
