"""Compiled forces and Newton blocks of the compliant pairs of kind ``circle`` (a point of
radius r inside or outside a circle, fixed or about a node: the revolute clearance joints of
Flores et al. 2006, §5, eq. 18, and cylinders): what :meth:`.compliant.CompliantModel.evaluate`
does at every Newton iterate, for such a pair, in one compiled call instead of a geometry, a
law and two outer products in Python.

The same arithmetic as the general path, to the last bit: the gap and frame of
:meth:`~solver.system.contact_pairs.ContactPair.geometry` (the distance by the same function,
:func:`~solver.system.contact_pairs.centre_distance`, compiled; the Jacobian rows on the pair's
dofs with the point's rotation times r and the target's times ρ), the velocities ``J v`` by the same BLAS product as
:meth:`~solver.system.contact_pairs.ContactGeometry.velocity`, the touch tolerance of
:func:`.pair_forces.touching_depth`, the force ``J^T (F_n, F_t)`` and the block
``-(dQ/dq + c_v dQ/dv)`` of :mod:`.compliant`.  Pairs with an oil film (:mod:`.lubricated`) or
a worn bore (:mod:`.wear`) are not served here: they keep the general path.
"""
from __future__ import annotations

import numpy as np

from ..jit import njit
from ..system.contact_pairs import ContactPair, centre_distance
from .compliant_laws import PairLaw, pair_normal
from .friction_laws import friction_kernel
from .normal_kernels import elastic_kernel

#: the columns of a circle pair's packed indices: dofs of the point, the circle's centre (-1:
#: fixed) and the two rotations (-1: none), then their slots in the pair's dofs
POINT_X, POINT_Y, CENTRE_X, CENTRE_Y, POINT_ROTATION, TARGET_ROTATION = range(6)
#: :func:`~solver.system.contact_pairs.centre_distance` compiled: one formula for both paths
compiled_distance = njit(cache=True)(centre_distance)


def compiled_circle(pair: ContactPair, filmed: bool) -> bool:
    """Whether ``pair`` is served by this module: a circle without a film or a worn bore."""
    return pair.kind == "circle" and not filmed and "worn" not in pair.params


def pack_circle_pair(pair: ContactPair, law: PairLaw, touch: float) -> tuple:
    """The arguments of :func:`circle_pair_state` after ``(q, v)`` for ``pair`` (kind ``circle``)
    with its laws and the touch tolerance ``touch`` (m), up to the rate and phase."""
    slot = {int(d): i for i, d in enumerate(pair.dofs)}
    centre = pair.target if pair.target is not None else (-1, -1)
    dofs = (*pair.point, *centre, pair.point_rotation, pair.target_rotation)
    slots = np.array([slot.get(d, -1) if d >= 0 else -1 for d in dofs], dtype=np.int64)
    geometry = np.array([pair.radius, pair.params["radius"], pair.params.get("x", 0.0), pair.params.get("y", 0.0),
                         1.0 if pair.params["inside"] else 0.0, touch])
    friction = (-1, np.zeros(1)) if law._friction is None else law._friction
    return (pair.dofs, np.array(dofs, dtype=np.int64), slots, geometry, law._normal[0], law._normal[1],
            law.normal == "kelvin_voigt", law.damping, friction[0], friction[1])


@njit(cache=True)
def circle_pair_state(q, v, dofs, ends, slots, geometry, law, p, kelvin, damping, friction, fp, rate_0, unloading):
    """The pair at ``(q, v)``: ``(gap, n_x, n_y, J, v_n, v_t, depth, normal, F_t, dF_t/dv_t)`` with
    ``J`` (2, k) the rows of ``(v_n, v_t)`` on ``dofs``, ``depth`` the penetration (0 within the
    touch tolerance ``geometry[5]`` of touching) and ``normal`` = :func:`.compliant_laws.pair_normal`'s
    ``(F_n, F_δ, F_δ̇, F_el, valid)`` (zeros and valid while the pair is open).  ``rate_0`` is the
    impact velocity δ̇⁽⁻⁾ (m/s) the hysteresis laws read."""
    px, py = q[ends[POINT_X]], q[ends[POINT_Y]]
    if ends[CENTRE_X] >= 0:
        cx, cy = q[ends[CENTRE_X]], q[ends[CENTRE_Y]]
    else:
        cx, cy = geometry[2], geometry[3]
    dx, dy = px - cx, py - cy
    dist = compiled_distance(dx, dy)
    nx, ny = (dx / dist, dy / dist) if dist > 0 else (0.0, 1.0)
    if geometry[4] > 0.5:  # inside the circle: the normal points to its centre, the surface is concave
        gap, nx, ny, rho = geometry[1] - dist, -nx, -ny, -geometry[1]
    else:
        gap, rho = dist - geometry[1], geometry[1]
    gap -= geometry[0]
    k = dofs.shape[0]
    J = np.zeros((2, k))
    _frame_rows(J, slots[POINT_X], slots[POINT_Y], 1.0, nx, ny)
    if ends[CENTRE_X] >= 0:
        _frame_rows(J, slots[CENTRE_X], slots[CENTRE_Y], -1.0, nx, ny)
    if slots[POINT_ROTATION] >= 0:
        J[1, slots[POINT_ROTATION]] += geometry[0]
    if slots[TARGET_ROTATION] >= 0:
        J[1, slots[TARGET_ROTATION]] += rho
    w = np.empty(k)
    for j in range(k):
        w[j] = v[dofs[j]]
    rates = np.dot(J, w)  # BLAS, as ContactGeometry.velocity's product
    v_n, v_t = rates[0], rates[1]
    depth = -gap if abs(gap) > geometry[5] else 0.0
    if depth <= 0.0:
        return gap, nx, ny, J, v_n, v_t, depth, (0.0, 0.0, 0.0, 0.0, True), 0.0, 0.0
    normal = pair_normal(law, p, kelvin, damping, depth, -v_n, rate_0, unloading)
    F_t, dF_t = (0.0, 0.0) if friction < 0 else friction_kernel(friction, v_t, normal[0], fp)
    return gap, nx, ny, J, v_n, v_t, depth, normal, F_t, dF_t


@njit(cache=True)
def circle_pair_terms(q, v, c_v, dofs, ends, slots, geometry, law, p, kelvin, damping, friction, fp, rate_0,
                      unloading, F, vals, offset):
    """Add the pair's generalised force ``J^T (F_n, F_t)`` to ``F`` (n,) and its Newton block
    ``(J_n + μ' J_t)^T (F_δ + c_v F_δ̇) J_n - c_v (∂F_t/∂v_t) J_t^T J_t`` (row-major on ``dofs``)
    to ``vals[offset:]`` (:func:`circle_pair_state`); nothing while the pair is open."""
    _g, _nx, _ny, J, _v_n, _v_t, depth, normal, F_t, dF_t = circle_pair_state(
        q, v, dofs, ends, slots, geometry, law, p, kelvin, damping, friction, fp, rate_0, unloading)
    if depth <= 0.0:
        return
    F_n, dF, dF_rate = normal[0], normal[1], normal[2]
    mu = F_t / F_n if F_n > 0.0 else 0.0
    stiffness, slip = dF + c_v * dF_rate, c_v * dF_t
    k = dofs.shape[0]
    for i in range(k):
        F[dofs[i]] += J[0, i] * F_n + J[1, i] * F_t
        for j in range(k):
            vals[offset + i * k + j] += (J[0, i] + mu * J[1, i]) * J[0, j] * stiffness - slip * (J[1, i] * J[1, j])


@njit(cache=True)
def _frame_rows(J, sx, sy, weight, nx, ny):
    """Rows (v_n, v_t) of a point moving the contact with ``weight`` (+1 the point, -1 the target),
    tangent t = (n_y, -n_x)."""
    J[0, sx] += weight * nx
    J[0, sy] += weight * ny
    J[1, sx] += weight * ny
    J[1, sy] += weight * -nx


def pack_circle_batch(packs: list[tuple], offsets: np.ndarray) -> tuple:
    """The arguments of :func:`circle_forces` after ``(q, v, c_v)``, up to the live pairs, rates and
    phases: the packs of :func:`pack_circle_pair` of a run's pairs (all circles) stacked, padded
    (parameters with zeros: a law reads only its own), with the offsets of their Newton blocks."""
    count = len(packs)
    widths = np.array([len(pk[0]) for pk in packs], dtype=np.int64)
    dofs = np.zeros((count, widths.max()), dtype=np.int64)
    params, friction_params = np.zeros((count, 4)), np.zeros((count, 3))
    for i, pk in enumerate(packs):
        dofs[i, : widths[i]] = pk[0]
        params[i, : len(pk[5])] = pk[5]
        friction_params[i, : len(pk[9])] = pk[9]
    column = lambda j, kind: np.array([pk[j] for pk in packs], dtype=kind)  # noqa: E731
    return (dofs, widths, np.stack([pk[1] for pk in packs]), np.stack([pk[2] for pk in packs]),
            np.stack([pk[3] for pk in packs]), column(4, np.int64), params, column(6, np.bool_), column(7, float),
            column(8, np.int64), friction_params, np.asarray(offsets[:count], dtype=np.int64))


@njit(cache=True)
def circle_forces(q, v, c_v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, offsets,
                  live, rates, unloading, F, vals):
    """:func:`circle_pair_terms` of every live pair of a batch (:func:`pack_circle_batch`) into the
    force ``F`` (n,) and the Newton blocks ``vals``; ``rates`` the impact velocities δ̇⁽⁻⁾ (m/s)."""
    for i in range(dofs.shape[0]):
        if live[i]:
            circle_pair_terms(q, v, c_v, dofs[i, : widths[i]], ends[i], slots[i], geometry[i], law[i], p[i],
                              kelvin[i], damping[i], friction[i], fp[i], rates[i], unloading[i], F, vals, offsets[i])


@njit(cache=True)
def circle_energy_terms(q, v, dofs, widths, ends, slots, geometry, law, p, kelvin, damping, friction, fp, rates,
                        unloading):
    """Friction power ``Σ -F_t v_t`` (W), contact damping power ``Σ (F_n - F_el) δ̇`` (W) and the
    laws' stored energy ``Σ V(δ)`` (J, :func:`.normal_kernels.elastic_kernel`) of every pair of a
    batch (:func:`pack_circle_batch`) at ``(q, v)``: what :class:`.compliant.CompliantModel`'s
    ``friction_power``, ``damping_power`` and ``elastic_energy`` sum in Python, in the same order,
    in one pass (the energy guard and the ledger read them at every step)."""
    p_friction, p_damping, elastic = 0.0, 0.0, 0.0
    for i in range(dofs.shape[0]):
        _g, _nx, _ny, _J, v_n, v_t, depth, normal, F_t, _dF_t = circle_pair_state(
            q, v, dofs[i, : widths[i]], ends[i], slots[i], geometry[i], law[i], p[i], kelvin[i], damping[i],
            friction[i], fp[i], rates[i], unloading[i])
        p_friction += -F_t * v_t
        if depth > 0.0:
            p_damping += (normal[0] - normal[3]) * -v_n
            rate = (-1.0 if unloading[i] else 1.0) if kelvin[i] else 0.0
            elastic += elastic_kernel(law[i], depth, rate, p[i])
    return p_friction, p_damping, elastic
