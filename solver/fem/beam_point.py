"""A point anywhere along a corotational beam element, by the element's shape functions.

The element's deformed shape (thesis App. A, eq. A.9) is the chord from node 1 to node 2
plus the cubic deflection ``v(xi) = l (N2(xi) T1 + N4(xi) T2)`` normal to it, with the
Hermite functions ``N2 = xi (1 - xi)^2``, ``N4 = -xi^2 (1 - xi)`` and the nodal slopes
``T_i = tan(tb_i)`` of the nodal rotations from the chord ``tb_i = theta_i + beta0 - beta``
(:func:`solver.fem.beam.kinematics`); along the chord the point divides the current length
in the ratio ``xi`` (uniform extension).  So the material point at ``xi = s / L`` of an
element is

    p(q_e) = x_1 + xi d + l f n,      f = N2 T1 + N4 T2,   d = x_2 - x_1,   n = e_z x d / l

and its Jacobian on the element's dofs ``(x1, y1, theta1, x2, y2, theta2)`` is
``dp = dx_1 + xi dd + l n df + f n dl - l f e dbeta`` with ``dl = e . dd``, ``dbeta = n . dd / l``
(``e = d / l``) and ``dT_i = (1 + T_i^2) (dtheta_i - dbeta)``.  Scaled by the current chord
``l``, the tangent ``e + T_i n`` at a node turns from the chord by the node's rotation
``tb_i`` exactly, so the tangent of the deformed link is continuous across its nodes.  (The
element's own cubic takes the slope ``tb_i``, the small-rotation form, which turns the tangent
by ``atan(tb_i)``: on a link bent to curvature kappa a kink of ``(kappa l)^3 / 12`` at every node,
where a mass moving along the link took a force spike.)  The slope's magnitude, ``l / cos(tb_i)``
per unit ``xi``, is continuous too where the neighbours share length and end rotation (a
uniformly bent, uniformly meshed link).  A moving support, a moving mass or load (Amirouche &
Xie, eqs. 13-16 and 26) and rolling contact on a flexible link read their point from here.

>>> import numpy as np
>>> p, J, _t = point_on_element(np.array([0.0, 0.0, 0.0, 2.0, 0.0, 0.0]), 0.0, 0.25)
>>> p.tolist(), (J[1] + 0.0).tolist()
([0.5, 0.0], [0.0, 0.84375, 0.28125, 0.0, 0.15625, -0.09375])
"""
from __future__ import annotations

import math

import numpy as np

from ..jit import njit


@njit(cache=True)
def hermite(xi: float) -> tuple[float, float, float, float]:
    """``(N2, N4, dN2/dxi, dN4/dxi)`` of the cubic deflection (dimensionless)."""
    return xi * (1 - xi) ** 2, -xi * xi * (1 - xi), (1 - xi) * (1 - 3 * xi), xi * (3 * xi - 2)


@njit(cache=True)
def point_on_element(qe: np.ndarray, beta0: float, xi: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The material point ``xi`` in [0, 1] (arc length over the initial length) of an element of
    sketched chord angle ``beta0`` (rad) at its dofs ``qe`` (6,): its position (2,) in m,
    the Jacobian (2, 6) of the position on the dofs, and ``dp/dxi`` (2,) in m (along the
    deformed element: its tangent times the stretched length).  Compiled: a moving support or mass
    asks for its point about ten times a step (its rows, their refreshes and the central
    difference of their rates), 36 us each in numpy's small-array calls.  The same operations in
    the same order: the point and its tangent are numpy's to the bit, the Jacobian's entries differ
    from numpy's by an ulp at 0.6 % of points (numba may fuse a product into a sum)."""
    dx, dy = qe[3] - qe[0], qe[4] - qe[1]
    l = math.hypot(dx, dy)
    e = np.array([dx, dy]) / l
    n = np.array([-e[1], e[0]])
    beta = math.atan2(dy, dx)
    T1, T2 = math.tan(qe[2] + beta0 - beta), math.tan(qe[5] + beta0 - beta)
    N2, N4, d2, d4 = hermite(xi)
    f = N2 * T1 + N4 * T2
    p = np.array([qe[0], qe[1]]) + xi * np.array([dx, dy]) + l * f * n
    dbeta = np.array([-n[0], -n[1], 0.0, n[0], n[1], 0.0]) / l  # d beta / d qe = n . (dx_2 - dx_1) / l
    dl = np.array([-e[0], -e[1], 0.0, e[0], e[1], 0.0])
    c1, c2 = N2 * (1.0 + T1 * T1), N4 * (1.0 + T2 * T2)  # d f / d tb_i
    df = -(c1 + c2) * dbeta
    df[2] += c1
    df[5] += c2
    J = np.outer(n, l * df + f * dl) - np.outer(l * f * e, dbeta)
    J[0, 0] += 1 - xi
    J[1, 1] += 1 - xi
    J[0, 3] += xi
    J[1, 4] += xi
    dp_dxi = np.array([dx, dy]) + l * (d2 * T1 + d4 * T2) * n
    return p, J, dp_dxi
