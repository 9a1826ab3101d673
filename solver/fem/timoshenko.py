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
from ..jit import njit


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
    """``(A, B, w)``: the mean of ``1/2 (v')^2`` over the element (the second-order part of the
    mean strain, A.3) is ``(A tb1^2 + B tb1 tb2 + A tb2^2) / w``; ``(2, -1, 30)`` for
    Euler-Bernoulli (so that its arithmetic is the Euler-Bernoulli element's to the last bit)."""
    return 0.25 * (8.0 + 10.0 * phi + 5.0 * phi * phi), -0.25 * (4.0 + 20.0 * phi + 10.0 * phi * phi), \
        30.0 * (1.0 + phi) * (1.0 + phi)


@njit(cache=True)
def shapes(xi, phi, L):
    """Shape functions of the end slopes at ``xi = x / L``: transverse ``(N3, N6)`` (m/rad)
    and section rotation ``(P3, P6)``; ``v = N3 tb1 + N6 tb2``, ``psi = P3 tb1 + P6 tb2``
    (written so that at ``phi = 0`` the arithmetic is that of A.9)."""
    h = 1.0 / (1.0 + phi)
    b = L * 0.5 * phi * xi * (1.0 - xi)
    N3 = (L * xi * (1.0 - xi) ** 2 + b) * h
    N6 = (L * (xi**3 - xi * xi) - b) * h
    P3 = ((1.0 - xi) * (1.0 - 3.0 * xi) + phi * (1.0 - xi)) * h
    P6 = (xi * (3.0 * xi - 2.0) + phi * xi) * h
    return N3, N6, P3, P6


@njit(cache=True)
def curvature(xi, phi, L, t1, t2):
    """The curvature ``psi'`` at ``xi`` for end slopes ``t1, t2``, 1/m (A.9's second derivative
    at ``phi = 0``)."""
    return ((6.0 * xi - 4.0 - phi) * t1 + (6.0 * xi - 2.0 + phi) * t2) / (L * (1.0 + phi))


@njit(cache=True)
def geometric_coefficients(phi):
    """Entries of the IIE stress stiffness ``T_s / (30 L (1 + phi)^2) [...]`` (thesis A.16 at
    ``phi = 0``): ``(c_vv, c_vt, c_tt, c_tT)`` for the transverse-transverse, transverse-slope
    (times L), slope-slope and slope-other slope entries (times L^2)."""
    return 6.0 * (5.0 * phi * phi + 10.0 * phi + 6.0), 3.0, 0.5 * (5.0 * phi * phi + 10.0 * phi + 8.0), \
        -0.5 * (5.0 * phi * phi + 10.0 * phi + 2.0)


#: 4-point Gauss-Legendre on [0, 1] (exact to degree 7)
_GAUSS_X = np.array([0.0694318442029737, 0.3300094782075719, 0.6699905217924281, 0.9305681557970263])
_GAUSS_W = np.array([0.1739274225687269, 0.3260725774312731, 0.3260725774312731, 0.1739274225687269])


def local_mass(L: np.ndarray, rhoA: np.ndarray, rhoI: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """Consistent local mass of the IIE, translational + rotary, (E, 6, 6) on ``[u1, v1, t1, u2, v2,
    t2]``: ``int rhoA (N_u^T N_u + N_v^T N_v) + rhoI P^T P dx`` in closed form (Friedman & Kosmatka
    1993); at ``phi = 0`` the thesis's A.25 + A.26, entry by entry."""
    p = phi[:, None, None]
    one = np.ones_like(p)
    d = (1.0 + p) ** 2
    a, b, c = 2 * (70 * p * p + 147 * p + 78), (35 * p * p + 77 * p + 44) / 2, 2 * (35 * p * p + 63 * p + 27)
    e, f, g = (35 * p * p + 63 * p + 26) / 2, (7 * p * p + 14 * p + 8) / 2, (7 * p * p + 14 * p + 6) / 2
    trans = np.block([
        [140 * d, 0 * one, 0 * one, 70 * d, 0 * one, 0 * one],
        [0 * one, a, b, 0 * one, c, -e],
        [0 * one, b, f, 0 * one, e, -g],
        [70 * d, 0 * one, 0 * one, 140 * d, 0 * one, 0 * one],
        [0 * one, c, e, 0 * one, a, -b],
        [0 * one, -e, -g, 0 * one, -b, f],
    ])
    r, s, t = -3 * (5 * p - 1), 10 * p * p + 5 * p + 4, 5 * p * p - 5 * p - 1
    rot = np.block([
        [0 * one, 0 * one, 0 * one, 0 * one, 0 * one, 0 * one],
        [0 * one, 36 * one, r, 0 * one, -36 * one, r],
        [0 * one, r, s, 0 * one, -r, t],
        [0 * one, 0 * one, 0 * one, 0 * one, 0 * one, 0 * one],
        [0 * one, -36 * one, -r, 0 * one, 36 * one, -r],
        [0 * one, r, t, 0 * one, -r, s],
    ])
    k = np.array([0, 0, 1, 0, 0, 1])
    powers = L[:, None, None] ** (k[:, None] + k[None, :])[None]
    M1 = (rhoA * L / (420.0 * (1.0 + phi) ** 2))[:, None, None] * trans * powers
    M2 = (rhoI / (30.0 * L * (1.0 + phi) ** 2))[:, None, None] * rot * powers
    return M1 + M2
