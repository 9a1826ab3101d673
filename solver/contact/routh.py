"""Impulse at one frictional contact point by Routh's incremental method: closed form.

Source: Elkaranshawy & Bajaba, "Algebraic solutions and computational strategy for
planar multibody systems subjected to impact with friction", LAJSS 21 (2024)
(``002_…txt``; equation numbers below are theirs), cross-checked against the thesis
ch. 3 (``000_…txt``, eqs. 3.21-3.77; the thesis writes P for the impulse).

Conventions
-----------
* ``D`` (2 x 2, symmetric positive definite) is the Jacobian inertia ``J M^-1 J^T``
  of eq. (5) with the rows of ``J`` ordered (normal, tangential), so in the paper's
  notation ``D = [[a, c], [c, b]]``: ``a = D[0, 0]``, ``b = D[1, 1]``, ``c = D[0, 1]``.
  Constraints (joints, drivers) are eliminated by the caller before forming ``D``.
  A pair sliding under a Lagrange multiplier while the impulse acts takes its share
  along ``eta = alpha - mu_D [beta] sigma`` (thesis eqs. 4.16-4.18), not along the row
  it holds, and ``D`` is then not symmetric: ``c = D[0, 1]`` (the tangential impulse's
  share of ``v_n``) and ``c_tn = D[1, 0]`` (the normal impulse's share of ``v_t``) differ.
  The closed form below reads each where it belongs (``v = v_0 + D I``, eq. 4), so it
  holds for that ``D`` too (``routh_impulse(..., symmetric=False)``); with ``c_tn = c``
  it is the paper's, operation for operation.
* ``n`` is the outward normal of the target; ``v_n > 0`` is separation, ``v_n0 < 0``
  on impact. ``(I_n, I_t)`` is the impulse the target applies to the striking point,
  ``I_n >= 0``; the generalised velocity jump is ``M^-1 J^T [I_n, I_t]`` (eq. 1) and the
  contact velocity jump is ``D [I_n, I_t]`` (eq. 4).
* ``t`` is either unit vector perpendicular to ``n``; the caller picks it, and ``v_t``,
  ``I_t``, the second row of ``J`` and ``c`` all refer to it. Reversing ``t`` flips the
  signs of ``c``, ``v_t0``, ``I_t`` and ``v_t`` and changes nothing else (a tested
  symmetry). The rigid rod of the paper's §6 has ``n = +y``, ``t = +x`` (eq. 59).

The normal impulse ``I_n`` is the time-like variable (eq. 8). Along it the contact
velocities are piecewise linear: a first segment of slip in the initial direction
``sigma_I = sign(v_t0)`` (eqs. 8-11) until ``v_t`` vanishes at ``I_nh`` (eq. 31), then
either sticking (eqs. 12-18) when ``mu_s >= |c|/b`` or reverse slip (eqs. 20-23).
The end of the impact follows from the restitution law (eqs. 24-26).

Slips of the paper corrected here (derivations in ``docs/validation.md``): the
critical coefficient of eq. (14), ``-c/b``, and eq. (31) assume ``sigma_I = +1``; in
general sticking persists when ``mu_s >= |c|/b``, a reverse slip goes in the direction
``sign(c)``, and ``I_nh = -v_t0 / (c - mu_D b sigma_I)``. The second term of eq. (44)
carries a minus sign. Eq. (49) (Poisson, slip halting in restitution) is replaced by
``I_ne = (1 + e) I_nc``; in eqs. (49)-(50) ``zeta_F^s`` in the first ratio means
``zeta_F`` (``zeta_F^ns`` when sticking).

The paper's ``zeta = 1 / (dv_n/dI_n)`` becomes infinite or negative when
``mu_D |c| >= a``; the code therefore works with the slopes ``s = 1 / zeta`` and
``t = 1 / epsilon`` and with trapezoid integrals of the linear segments, which are the
paper's expressions (27)-(29), (36)-(43) multiplied out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from ..jit import njit

LAWS = ("newton", "poisson", "energetic")
NEWTON, POISSON, ENERGETIC = range(len(LAWS))
KINDS = ("S", "SCS", "SRS", "SCD", "SRD", "stick", "normal")
SLIP, SCS, SRS, SCD, SRD, STICK, NORMAL = range(len(KINDS))
#: relative rounding of an impulse: slip that stops within it of the end of the impact never stops
EPS = float(np.finfo(float).eps)


@dataclass(frozen=True)
class ImpactResult:
    """Outcome of one impulse. Impulses in N s, velocities in m/s (or the units of
    ``J q_dot``), work and energy in J.

    ``kind``: ``'S'`` slip throughout (also a contact that starts at rest and cannot
    stick, so slips at once in the direction ``sign(c)``), ``'SCS'`` / ``'SRS'`` slip
    stops in compression / restitution and the contact sticks, ``'SCD'`` / ``'SRD'`` slip
    stops in compression / restitution and reverses, ``'stick'`` initially at rest and
    sticking throughout, ``'normal'`` initially at rest without friction (``mu_s = 0``) and
    nothing to move it along the target (``c_tn = 0``): no tangential motion and no friction,
    where ``'stick'`` would say that friction held the point.

    ``I_nh`` is ``None`` when slip never stops, ``0.0`` for ``'stick'`` and ``'normal'``. ``a, b, c`` are
    the entries of ``D`` (eq. 5) so the Routh diagram can be redrawn later; ``c_tn`` is
    ``D[1, 0]`` where ``D`` is not symmetric (module docstring), ``None`` where it is.

    Beyond the integrator's interface: ``mu_c = |c_tn|/b`` (the general form of eq. 14),
    ``v_nh`` (eq. 32, ``None`` with ``I_nh``), ``I_np`` and ``I_nf`` (eqs. 33, 34: end of
    compression and of impact had the initial slip continued; ``inf`` when it would
    not, or when there is no initial slip), ``W_nc`` (work of the normal impulse in
    compression, eq. 29), ``W_held`` (work of the friction impulses of the sliding pairs a
    Lagrange multiplier held during the impulse, :func:`solver.contact.jump.held_works`;
    not part of ``dT``), ``W_held_rows`` (work of the held rows' impulses on the velocities the rows
    hold, :func:`solver.contact.jump.held_works`; not part of ``dT``), ``W_joints`` (work of the joints' impulse that brought the velocities onto
    their constraints before a Lagrange onset, its drivers' part aside, :func:`solver.contact.jump.joint_velocities`;
    not part of ``dT``), ``W_drivers`` (work of the drivers' impulses, in that correction and in the impulse,
    :func:`solver.contact.jump.driver_work`; not part of ``dT``) and ``path``: the breakpoints ``(I_n, I_t, v_n, v_t)`` of the
    piecewise-linear history (start, slip stop, end of compression, end), by ``I_n``.
    """

    kind: str
    I_n: float
    I_t: float
    v_n: float
    v_t: float
    v_n0: float
    v_t0: float
    I_nh: float | None
    I_nc: float
    I_ne: float
    W_n: float
    W_t: float
    dT: float
    e_achieved: float
    a: float
    b: float
    c: float
    mu_s: float
    mu_d: float
    e: float
    law: str
    mu_c: float = math.nan
    v_nh: float | None = None
    I_np: float = math.inf
    I_nf: float = math.inf
    W_nc: float = math.nan
    W_held: float = 0.0
    W_joints: float = 0.0
    W_held_rows: float = 0.0
    W_drivers: float = 0.0
    c_tn: float | None = None
    path: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def friction_dissipation(self) -> float:
        """Energy dissipated by friction, ``-W_t >= 0`` (J)."""
        return -self.W_t

    @property
    def restitution_dissipation(self) -> float:
        """Energy dissipated by the normal impulse, ``-W_n`` (J); negative when the
        law creates energy (Newton's law can)."""
        return -self.W_n


def check_inputs(D, v_n0, v_t0, mu_s, mu_d, e, law,
                 symmetric: bool = True) -> tuple[float, float, float, float]:
    """Validate the arguments of :func:`routh_impulse`; return ``(a, b, c, c_tn)`` of eq. (5)
    (``c_tn = c``, their mean, when ``symmetric``)."""
    D = np.asarray(D, dtype=float)
    if D.shape != (2, 2) or not all(math.isfinite(x) for x in D.flat):
        raise ValueError(f"D must be a finite 2x2 matrix, got shape {D.shape}")
    (a, d01), (d10, b) = D.tolist()
    c = c_tn = 0.5 * (d01 + d10)
    scale = max(abs(a), abs(b), abs(c))
    if not symmetric:
        c, c_tn = d01, d10
    elif abs(d01 - d10) > 1e-12 * scale:
        raise ValueError("D must be symmetric")
    if not (a > 0.0 and b > 0.0 and a * b - c * c_tn > 0.0):
        raise ValueError("D must be positive definite" if symmetric else "D must have a, b and det(D) positive")
    if not (math.isfinite(v_n0) and v_n0 < 0.0):
        raise ValueError(f"v_n0 must be negative (approaching), got {v_n0}")
    if not math.isfinite(v_t0):
        raise ValueError("v_t0 must be finite")
    if not (0.0 <= mu_d <= mu_s < math.inf):
        raise ValueError(f"need 0 <= mu_d <= mu_s, got mu_d={mu_d}, mu_s={mu_s}")
    if not (0.0 <= e <= 1.0):
        raise ValueError(f"e must lie in [0, 1], got {e}")
    if law not in LAWS:
        raise ValueError(f"law must be one of {LAWS}, got {law!r}")
    return a, b, c, c_tn


@njit(cache=True)
def kinetic_energy_change(v_n0: float, v_t0: float, v_n: float, v_t: float,
                          I_n: float, I_t: float) -> float:
    """``T_e - T_i`` (eq. 57) from the contact quantities alone (J).

    With ``T = 1/2 q_dot^T M q_dot`` and ``q_dot_e = q_dot_i + M^-1 J^T I`` (eq. 1),
    ``dT = v_i . I + 1/2 I . D I = 1/2 (v_i + v_e) . I`` as ``v_e = v_i + D I`` (eq. 4);
    the second form is the better conditioned when D is nearly singular.
    """
    return 0.5 * ((v_n0 + v_n) * I_n + (v_t0 + v_t) * I_t)


class RouthArrays(NamedTuple):
    """The closed form evaluated on arrays (:func:`routh_arrays`): every field has the
    broadcast shape of the inputs.  Units as in :class:`ImpactResult`.

    ``kind`` indexes :data:`KINDS`.  ``I_nh`` is ``inf`` where the initial slip never
    stops and ``0`` for a contact starting at rest; ``v_nh`` is ``inf`` with it.  The
    slopes of the two linear segments of the history, before and after ``I_nh``, are
    ``s_* = dv_n/dI_n``, ``t_* = dv_t/dI_n`` and ``k_* = dI_t/dI_n`` (eqs. 8-11, 13,
    18, 20-22).
    """

    kind: np.ndarray
    I_n: np.ndarray
    I_t: np.ndarray
    v_n: np.ndarray
    v_t: np.ndarray
    I_nh: np.ndarray
    v_nh: np.ndarray
    I_nc: np.ndarray
    I_np: np.ndarray
    I_nf: np.ndarray
    W_n: np.ndarray
    W_t: np.ndarray
    W_nc: np.ndarray
    dT: np.ndarray
    mu_c: np.ndarray
    s_A: np.ndarray
    t_A: np.ndarray
    k_A: np.ndarray
    s_B: np.ndarray
    t_B: np.ndarray
    k_B: np.ndarray


def routh_arrays(a, b, c, v_n0, v_t0, mu_s, mu_d, e, law: str, c_tn=None) -> RouthArrays:
    """The closed form of §5 (eqs. 31-56, with the corrections of the module docstring)
    on numpy arrays that broadcast together: one impulse per element, in one compiled loop
    (impact-type maps evaluate 10^4 cells at once).

    Parameters
    ----------
    a, b, c : entries of ``D = [[a, c], [c_tn, b]]`` (eq. 5), ``a, b > 0``, ``ab > c c_tn``.
    v_n0, v_t0 : contact velocity before impact, ``v_n0 < 0`` (m/s).
    mu_s, mu_d : friction coefficients, ``0 <= mu_d <= mu_s``.
    e : coefficient of restitution in ``[0, 1]``.
    law : ``'newton'``, ``'poisson'`` or ``'energetic'`` (one law for all elements).
    c_tn : ``D[1, 0]`` where it differs from ``c`` (a Lagrange pair held sliding through the impulse,
        module docstring; an impulse event's ``c_tn``); ``None``: ``c``, ``D`` symmetric.  The same
        closed form as :func:`routh_impulse`'s, so a map's cell at an event's own parameters is that
        event's impulse.

    The arguments are not checked (:func:`routh_impulse` checks one impulse's).

    >>> r = routh_arrays(2.5, 2.5, -1.5, -1.0, 0.6, np.array([0.5, 0.73]), 0.4, 0.82, "newton")
    >>> [KINDS[k] for k in r.kind], r.mu_c.round(3)
    (['SCD', 'SCS'], array([0.6, 0.6]))
    """
    c_tn = c if c_tn is None else c_tn
    args = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (a, b, c, c_tn, v_n0, v_t0, mu_s, mu_d, e)))
    shape = args[0].shape
    out = _closed_form_many(*(np.ascontiguousarray(x).ravel() for x in args), LAWS.index(law))
    fields = [x.reshape(shape) for x in out]
    fields[0] = fields[0].astype(np.int64)
    return RouthArrays(*fields)


@njit(cache=True)
def _closed_form_many(a, b, c, c_tn, v_n0, v_t0, mu_s, mu_d, e, law):
    """:func:`_closed_form` for every element of the 1-D arrays; (21, N), rows in the
    order of :class:`RouthArrays`."""
    out = np.empty((21, a.shape[0]))
    for i in range(a.shape[0]):
        r = _closed_form(a[i], b[i], c[i], c_tn[i], v_n0[i], v_t0[i], mu_s[i], mu_d[i], e[i], law)
        for k in range(21):
            out[k, i] = r[k]
    return out


@njit(cache=True, error_model="numpy")
def _closed_form(a, b, c, c_tn, v_n0, v_t0, mu_s, mu_d, e, law):
    """One impulse by the closed form (law: index into :data:`LAWS`); the fields of
    :class:`RouthArrays` in their order (``kind`` as a float).  ``c = D[0, 1]`` scales the
    tangential impulse in ``v_n``, ``c_tn = D[1, 0]`` the normal impulse in ``v_t`` (equal
    unless held pairs slide, module docstring)."""
    inf = np.inf
    mu_c = abs(c_tn) / b                # eq. (14), valid for either initial direction
    sticks = mu_s >= mu_c               # eq. (16)
    rest = v_t0 == 0.0                  # initially at rest: segment A is empty

    # Segment A: slip in the initial direction sigma_I (eqs. 8, 10, 11).
    sig_I = np.sign(v_t0)
    s_A = 0.0 if rest else a - mu_d * c * sig_I           # dv_n/dI_n = 1/zeta_I^s, eq. (10)
    t_A = 0.0 if rest else c_tn - mu_d * b * sig_I        # dv_t/dI_n = 1/epsilon_I, eq. (11)
    k_A = -mu_d * sig_I                                   # dI_t/dI_n, eq. (8)
    I_nh = 0.0 if rest else (-v_t0 / t_A if sig_I * t_A < 0.0 else inf)   # eq. (31), corrected
    I_np = -v_n0 / s_A if (not rest and s_A > 0.0) else inf  # eq. (33)
    I_nf = (1.0 + e) * I_np                               # eqs. (34), (35)
    sig_F = math.copysign(1.0, c_tn) if rest else -sig_I  # eq. (23)
    stopped_at_all = math.isfinite(I_nh)
    v_nh = v_n0 + s_A * I_nh if stopped_at_all else inf   # eq. (32)

    # Segment B, after v_t = 0: sticking (eqs. 13, 18) or reverse slip (eqs. 20-22).
    if sticks:
        s_B, t_B, k_B = a - c * c_tn / b, 0.0, -c_tn / b
    else:
        s_B, t_B, k_B = a - mu_d * c * sig_F, c_tn - mu_d * b * sig_F, -mu_d * sig_F

    # End of compression (v_n = 0) and the work of compression (eqs. 27-29).
    comp_in_A = I_nh >= I_np
    if comp_in_A:
        I_nc = I_np                                                         # eq. (40)
        W_nc = -0.5 * v_n0 * v_n0 / s_A                                     # eq. (42)
    else:
        I_nc = I_nh - v_nh / s_B                                            # eq. (36)
        W_nc = 0.5 * (v_n0 + v_nh) * I_nh - 0.5 * v_nh * v_nh / s_B         # eq. (38)

    # End of impact from the restitution law.
    if law == NEWTON:
        v_ne = -e * v_n0                                                    # eqs. (24), (48)
        end_in_A = comp_in_A and v_ne <= v_nh
    elif law == POISSON:
        I_ne = (1.0 + e) * I_nc                                             # eq. (25)
        end_in_A = I_ne <= I_nh
        v_ne = v_n0 + s_A * I_ne if end_in_A else v_nh + s_B * (I_ne - I_nh)  # eq. (54)
    else:
        W_nR = -e * e * W_nc                                                # eq. (26)
        W_RA = 0.5 * v_nh * v_nh / s_A if stopped_at_all else inf          # eq. (43), 1st term
        end_in_A = comp_in_A and W_nR <= W_RA
        if end_in_A:
            v_ne = np.sqrt(2.0 * s_A * W_nR)                                # eq. (35): -e v_n0
        elif comp_in_A:
            v_ne = np.sqrt(v_nh * v_nh + 2.0 * s_B * (W_nR - W_RA))        # eqs. (43), (50)
        else:
            v_ne = np.sqrt(2.0 * s_B * W_nR)                                # eqs. (39), (50)
    end_in_A = end_in_A and not rest
    if law != POISSON:
        I_ne = (v_ne - v_n0) / s_A if end_in_A else I_nh + (v_ne - v_nh) / s_B   # eqs. (34), (54)

    # Impulse type (§5 list, thesis Table 3.1) as an index into KINDS.
    if comp_in_A:
        halted = SRS if sticks else SRD
    else:
        halted = SCS if sticks else SCD
    # slip that stops within rounding of the end of the impact never sticks nor reverses
    ends_sliding = end_in_A or (I_ne - I_nh <= 4.0 * EPS * I_ne)
    if rest:  # at rest: held by friction, unmoved without it (mu_s = 0 >= |c_tn| / b), or slipping at once
        kind = (STICK if mu_s > 0.0 else NORMAL) if sticks else SLIP
    else:
        kind = SLIP if ends_sliding else halted

    # Tangential impulse and velocity (eqs. 52, 53, 55), the work of the normal impulse
    # (eq. 28) and of friction (eqs. 30, 44; the second term of eq. 44 is
    # -1/2 mu_D sigma_F epsilon_F v_te^2): trapezoids of the linear segments.
    if end_in_A:
        I_te = k_A * I_ne
        v_te = v_t0 + t_A * I_ne
        W_n = 0.5 * (v_n0 + v_ne) * I_ne
        W_t = k_A * 0.5 * (v_t0 + v_te) * I_ne
    else:
        I_te = k_A * I_nh + k_B * (I_ne - I_nh)
        v_te = t_B * (I_ne - I_nh)                                          # 0 when sticking, eq. (52)
        W_n = 0.5 * (v_n0 + v_nh) * I_nh + 0.5 * (v_nh + v_ne) * (I_ne - I_nh)
        W_t = k_A * 0.5 * v_t0 * I_nh + k_B * 0.5 * v_te * (I_ne - I_nh)
    # eq. (57) needs D symmetric; otherwise the impulse's work, the kinetic energy jump less
    # the held pairs' friction work (:func:`solver.contact.jump.held_works`)
    dT = kinetic_energy_change(v_n0, v_t0, v_ne, v_te, I_ne, I_te) if c_tn == c else W_n + W_t
    return (float(kind), I_ne, I_te, v_ne, v_te, I_nh, v_nh, I_nc, I_np, I_nf, W_n, W_t, W_nc, dT, mu_c,
            s_A, t_A, k_A, s_B, t_B, k_B)


def routh_impulse(D: np.ndarray, v_n0: float, v_t0: float, mu_s: float, mu_d: float,
                  e: float, law: str, symmetric: bool = True) -> ImpactResult:
    """Impulse at one contact point, closed form of §5 (eqs. 31-56) with the corrections
    listed in the module docstring (:func:`routh_arrays` for one element, checked).

    Parameters
    ----------
    D : (2, 2) array, symmetric positive definite, ``J M^-1 J^T`` (eq. 5), rows (n, t).
    v_n0, v_t0 : contact velocity before impact, ``v_n0 < 0`` (m/s).
    mu_s, mu_d : static and dynamic friction coefficients, ``0 <= mu_d <= mu_s``.
    e : coefficient of restitution in ``[0, 1]``, read by ``law``.
    law : ``'newton'`` (eq. 24, ``v_ne = -e v_n0``), ``'poisson'`` (eq. 25,
        ``I_ne = (1 + e) I_nc``) or ``'energetic'`` (eq. 26, Stronge:
        ``W_nR = -e^2 W_nc``).
    symmetric : ``False`` for the ``D`` of a system whose held pairs slide (module
        docstring): ``D`` is taken as it is, ``D[1, 0]`` reported as ``c_tn``.

    Examples
    --------
    The rod of §6 (Table 1, energetic column):

    >>> r = routh_impulse([[2.5, -1.5], [-1.5, 2.5]], -1.0, 0.6, 0.73, 0.7, 0.82, "energetic")
    >>> r.kind, round(r.I_n, 4), round(r.I_t, 4), round(r.v_n, 4)
    ('SCS', 0.7681, 0.2209, 0.589)
    """
    a, b, c, c_tn = check_inputs(D, v_n0, v_t0, mu_s, mu_d, e, law, symmetric)
    v_n0, v_t0, mu_s, mu_d, e = float(v_n0), float(v_t0), float(mu_s), float(mu_d), float(e)
    r = RouthArrays(*_closed_form(a, b, c, c_tn, v_n0, v_t0, mu_s, mu_d, e, LAWS.index(law)))
    kind = KINDS[int(r.kind)]
    slip_stops = kind != "S"

    # Breakpoints of the history, for the Routh diagram.
    def at(I):
        if I <= r.I_nh:
            return (I, r.k_A * I, v_n0 + r.s_A * I, v_t0 + r.t_A * I)
        return (I, r.k_A * r.I_nh + r.k_B * (I - r.I_nh), r.v_nh + r.s_B * (I - r.I_nh), r.t_B * (I - r.I_nh))

    marks = {0.0: (0.0, 0.0, v_n0, v_t0), r.I_n: (r.I_n, r.I_t, r.v_n, r.v_t)}
    if slip_stops and r.I_nh > 0.0:
        marks[r.I_nh] = (r.I_nh, r.k_A * r.I_nh, r.v_nh, 0.0)
    p = at(r.I_nc)
    marks[r.I_nc] = (p[0], p[1], 0.0, p[3])
    path = tuple(marks[k] for k in sorted(marks))

    return ImpactResult(
        kind=kind, I_n=r.I_n, I_t=r.I_t, v_n=r.v_n, v_t=r.v_t, v_n0=v_n0, v_t0=v_t0,
        I_nh=(r.I_nh if slip_stops else None), I_nc=r.I_nc, I_ne=r.I_n, W_n=r.W_n, W_t=r.W_t, dT=r.dT,
        e_achieved=-r.v_n / v_n0, a=a, b=b, c=c, mu_s=mu_s, mu_d=mu_d, e=e, law=law,
        mu_c=r.mu_c, v_nh=(r.v_nh if slip_stops else None), I_np=r.I_np, I_nf=r.I_nf, W_nc=r.W_nc,
        c_tn=(None if symmetric else c_tn), path=path)

@dataclass(frozen=True)
class StickImpulse:
    """The 'traditional' textbook solution (Whittaker, Kane & Levinson; paper §6)."""

    I_n: float
    I_t: float
    v_n: float
    dT: float
    admissible: bool    # |I_t| <= mu_s I_n, the textbook's own check


def traditional_stick_impulse(D, v_n0: float, v_t0: float, e: float, mu_s: float = math.inf) -> StickImpulse:
    """Continuous sticking with Newton's law: solve ``D I = (v_ne - v_n0, 0 - v_t0)`` with
    ``v_ne = -e v_n0`` (eqs. 4, 24 with ``v_te = 0``); ``dT`` by eq. (57).

    >>> s = traditional_stick_impulse([[2.5, -1.5], [-1.5, 2.5]], -1.0, 0.6, 0.82, 0.73)
    >>> round(s.dT, 6), s.admissible
    (0.010125, True)
    """
    D = np.asarray(D, dtype=float)
    v_ne = -e * v_n0
    I_n, I_t = (float(x) for x in np.linalg.solve(D, [v_ne - v_n0, -v_t0]))
    return StickImpulse(I_n=I_n, I_t=I_t, v_n=v_ne,
                        dT=kinetic_energy_change(v_n0, v_t0, v_ne, 0.0, I_n, I_t),
                        admissible=bool(abs(I_t) <= mu_s * I_n))
