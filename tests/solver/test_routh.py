"""Impulse at one frictional contact point (Routh's incremental method).

Published values: Elkaranshawy & Bajaba, LAJSS 2024 §6 (``002_…txt``), with the
misprints listed in ``docs/validation.md`` corrected. The closed form
(:func:`routh_impulse`) is checked against direct integration in the normal impulse
(:func:`routh_impulse_integrated`) to 1e-9.
"""
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.contact import (LAWS, routh_impulse, routh_impulse_integrated,
                            traditional_stick_impulse)

ROD_D = np.array([[2.5, -1.5], [-1.5, 2.5]])
SCALAR_FIELDS = ("I_n", "I_t", "v_n", "v_t", "I_nc", "I_ne", "W_n", "W_t", "dT",
                 "e_achieved", "W_nc", "I_np", "I_nf")
ENERGIES = ("W_n", "W_t", "dT", "W_nc")


def energy_scale(r):
    """Size of the terms whose sum is an energy of the impact (J): |I| |v|."""
    return max(1.0, (abs(r.I_n) + abs(r.I_t)) * (abs(r.v_n0) + abs(r.v_t0) + abs(r.v_n) + abs(r.v_t)))


def rod(theta_deg=45.0, m=1.0, L=1.0):
    """Uniform rod with end B on the ground at the origin, axis B->A at ``theta`` from +x.

    Generalised coordinates (x_cm, y_cm, theta); contact frame n = +y, t = +x. The
    velocity of B = v_cm + omega x (B - cm), B - cm = -(L/2)(cos, sin), so
    v_n = y_dot - (L/2) cos(theta) omega and v_t = x_dot + (L/2) sin(theta) omega (eq. 59).
    """
    th = math.radians(theta_deg)
    J = np.array([[0.0, 1.0, -0.5 * L * math.cos(th)],
                  [1.0, 0.0, 0.5 * L * math.sin(th)]])
    M = np.diag([m, m, m * L * L / 12.0])
    return J, M


def generalised_after(r, J, M, qd0):
    """q_dot_e = q_dot_i + M^-1 J^T [I_n, I_t] (eq. 1)."""
    return qd0 + np.linalg.solve(M, J.T @ np.array([r.I_n, r.I_t]))


def kinetic(M, qd):
    return 0.5 * qd @ M @ qd


def assert_same(r, q, tol=1e-9, decidable=True):
    """Closed form ``r`` and integration ``q`` agree to ``tol`` (relative above 1); the
    type and the slip-stop values only where the type is ``decidable``."""
    if decidable:
        assert r.kind == q.kind
    for name in SCALAR_FIELDS:
        x, y = getattr(r, name), getattr(q, name)
        # energies are differences of terms of size |I| |v|: compared on that scale
        size = energy_scale(r) if name in ENERGIES else max(1.0, abs(x))
        if math.isinf(x) or math.isinf(y):
            # a slip stop at 1e12 times the impact's normal impulse is one that never comes: a slope of
            # round-off (mu = 1 - 1.1e-16 against a ratio of exactly 1 gives I_np = 1.8e16 N s, not inf)
            assert x == y or min(abs(x), abs(y)) > 1e12 * max(1.0, abs(r.I_n)), name
        else:
            assert abs(x - y) <= tol * size, (name, x, y)
    for name in ("I_nh", "v_nh") if decidable else ():
        x, y = getattr(r, name), getattr(q, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert abs(x - y) <= tol * max(1.0, abs(x)), (name, x, y)


def assert_consistent(r, D, tol=1e-10):
    """Momentum balance, the friction law along the path and the restitution law."""
    D = np.asarray(D, dtype=float)
    scale = max(1.0, abs(r.I_n), abs(r.v_n0), abs(r.v_t0))
    # post velocities = v0 + D I (eq. 4 integrated)
    v = np.array([r.v_n0, r.v_t0]) + D @ np.array([r.I_n, r.I_t])
    np.testing.assert_allclose([r.v_n, r.v_t], v, rtol=0, atol=tol * scale)
    # the path: starts at rest impulse, ends at the result, linear pieces obey eq. (4)
    P = np.array(r.path)
    np.testing.assert_allclose(P[0], [0.0, 0.0, r.v_n0, r.v_t0], atol=tol * scale)
    np.testing.assert_allclose(P[-1], [r.I_n, r.I_t, r.v_n, r.v_t], atol=tol * scale)
    assert np.all(np.diff(P[:, 0]) > 0.0)
    for p0, p1 in zip(P[:-1], P[1:]):
        dI = p1[:2] - p0[:2]
        np.testing.assert_allclose(p1[2:] - p0[2:], D @ dI, atol=tol * scale)
        # Coulomb: |dI_t| <= mu_s dI_n on every piece (eq. 15) ...
        assert abs(dI[1]) <= r.mu_s * dI[0] + tol * scale
        # ... equal to mu_d dI_n opposing the slip where the point slides (eq. 7)
        v_big = p0[3] if abs(p0[3]) >= abs(p1[3]) else p1[3]
        if abs(v_big) > tol * scale:
            assert dI[1] == pytest.approx(-r.mu_d * math.copysign(1.0, v_big) * dI[0],
                                          abs=tol * scale)
            assert p0[3] * p1[3] >= -tol * scale   # no sign change inside a piece
        else:                                      # sticking: v_t stays 0 (eq. 12)
            assert abs(p0[3]) <= tol * scale and abs(p1[3]) <= tol * scale
    # |I_t| <= mu_s I_n at every breakpoint, hence along the whole path
    assert np.all(np.abs(P[:, 1]) <= r.mu_s * P[:, 0] + tol * scale)
    # the end of compression is where v_n = 0
    k = int(np.argmin(np.abs(P[:, 0] - r.I_nc)))
    assert P[k, 0] == pytest.approx(r.I_nc, abs=tol * scale) and abs(P[k, 2]) <= tol * scale
    assert np.all(P[P[:, 0] < r.I_nc - tol * scale, 2] < tol * scale)
    assert np.all(P[P[:, 0] > r.I_nc + tol * scale, 2] > -tol * scale)
    # work from the path (eq. 28-30), the energy balance, the law (eqs. 24-26)
    W_n = np.sum(0.5 * (P[:-1, 2] + P[1:, 2]) * np.diff(P[:, 0]))
    W_t = np.sum(0.5 * (P[:-1, 3] + P[1:, 3]) * np.diff(P[:, 1]))
    W_nc = np.sum((0.5 * (P[:-1, 2] + P[1:, 2]) * np.diff(P[:, 0]))[P[1:, 0] <= r.I_nc + tol * scale])
    assert r.W_n == pytest.approx(W_n, abs=tol * scale)
    assert r.W_t == pytest.approx(W_t, abs=tol * scale)
    assert r.W_nc == pytest.approx(W_nc, abs=tol * scale)
    assert r.W_n + r.W_t == pytest.approx(r.dT, abs=tol * scale)
    assert r.I_ne == r.I_n
    assert r.e_achieved == pytest.approx(-r.v_n / r.v_n0)
    if r.law == "newton":
        assert r.v_n == pytest.approx(-r.e * r.v_n0, abs=tol * scale)
    elif r.law == "poisson":
        assert r.I_ne == pytest.approx((1.0 + r.e) * r.I_nc, abs=tol * scale)
    else:
        assert r.W_n - W_nc == pytest.approx(-r.e ** 2 * W_nc, abs=tol * scale)
    # the type matches where slip stops
    if r.kind == "S":
        assert r.I_nh is None
    elif r.kind in ("stick", "normal"):
        assert r.I_nh == 0.0 and r.v_t0 == 0.0 and np.all(np.abs(P[:, 3]) <= tol * scale)
    else:
        assert 0.0 <= r.I_nh < r.I_ne      # 0 only when v_t0 underflows
        assert (r.I_nh < r.I_nc) == (r.kind[1] == "C")
        if r.kind[2] == "S":
            assert abs(r.v_t) <= tol * scale
        else:   # reversed: the final slip opposes the initial one
            assert r.v_t != 0.0 and (r.v_t > 0.0) != (r.v_t0 > 0.0)


# --------------------------------------------------------------------------- the rod

def test_rod_jacobian_inertia_is_the_papers():
    J, M = rod()
    D = J @ np.linalg.solve(M, J.T)
    np.testing.assert_allclose(D, ROD_D, atol=1e-14)
    # initial contact velocity of B: (v_n, v_t) = (-1, 0.6)
    np.testing.assert_allclose(J @ [0.6, -1.0, 0.0], [-1.0, 0.6], atol=1e-15)
    # the Jacobian entry printed 0.353533 is sqrt(2)/4 = 0.353553
    assert J[1, 2] == pytest.approx(0.353553, abs=5e-7)


def test_rod_intermediate_values():
    """§6, eqs. (60)-(64): mu_c, I_nh, v_nh, I_np, type SCS; I_nf corrected."""
    for law in LAWS:
        r = routh_impulse(ROD_D, -1.0, 0.6, 0.73, 0.7, 0.82, law)
        assert r.kind == "SCS"                     # I_nh < I_np and mu_s > mu_c, eq. (62)
        assert r.mu_c == pytest.approx(0.6, abs=1e-12)
        assert r.I_nh == pytest.approx(0.184615, abs=5e-7)
        assert r.v_nh == pytest.approx(-0.344615, abs=5e-7)
        assert r.I_np == pytest.approx(0.281690, abs=5e-7)     # = zeta_I^s, eq. (63)
        assert r.I_nf == pytest.approx(0.512676, abs=5e-7)     # printed 0.422535: misprint
        assert (r.a, r.b, r.c) == (2.5, 2.5, -1.5)
    # 1/(dv_n/dI_n) while sticking, zeta_F^ns = 0.625 (printed as "zeta_F^s")
    r = routh_impulse(ROD_D, -1.0, 0.6, 0.73, 0.7, 0.82, "poisson")
    (I0, _, v0, _), (I1, _, v1, _) = r.path[1], r.path[2]
    assert (I1 - I0) / (v1 - v0) == pytest.approx(0.625, abs=1e-12)


# Table 1 (e = 0.82) and Table 2 (e = 1) as printed, misprints corrected
# (docs/validation.md): q_dot_e, v_ne, I_ne, I_te, W_ne, dT, W_te. Table 2's Poisson
# omega (blank in print) is the derived -2.375879; W_te in Table 1 is not printed:
# -0.03877 = eq. (44) with the paper's numbers.
TABLES = {
    (0.82, "newton"): dict(qd=("0.9075", "-0.0875", "-2.5668"), v_n="0.82", I_n="0.9125",
                           I_t="0.3075", W_n="0.0489", dT="0.0101", W_t="-0.03877"),
    (0.82, "poisson"): dict(qd=("0.7968", "-0.272", "-2.2537"), v_n="0.5248", I_n="0.728",
                            I_t="0.1968", W_n="-0.0752", dT="-0.1139", W_t="-0.03877"),
    (0.82, "energetic"): dict(qd=("0.8209", "-0.2319", "-2.3218"), v_n="0.589", I_n="0.7681",
                              I_t="0.2209", W_n="-0.0528", dT="-0.0916", W_t="-0.03877"),
    (1.0, "newton"): dict(qd=("0.975", "0.025", "-2.758"), dT="0.1125", W_t="-0.0388"),
    (1.0, "poisson"): dict(qd=("0.84", "-0.2", "-2.375879"), dT="-0.072", W_t="-0.0388"),
    (1.0, "energetic"): dict(qd=("0.869", "-0.151", "-2.459"), dT="-0.0388", W_t="-0.0388"),
}


def as_printed(x, ref: str) -> bool:
    """``x`` agrees with the printed ``ref`` to 4 significant figures, or to the printed
    digits where fewer are printed (half a unit of the last one)."""
    r = float(ref)
    decimals = len(ref.split(".")[1]) if "." in ref else 0
    tol = 0.5 * 10.0 ** -decimals
    if r != 0.0:
        tol = max(tol, 0.5 * 10.0 ** (math.floor(math.log10(abs(r))) - 3))
    return abs(x - r) <= tol + 1e-12


@pytest.mark.parametrize("e,law", sorted(TABLES))
def test_rod_tables_1_and_2(e, law):
    J, M = rod()
    qd0 = np.array([0.6, -1.0, 0.0])
    ref = TABLES[(e, law)]
    r = routh_impulse(J @ np.linalg.solve(M, J.T), -1.0, 0.6, 0.73, 0.7, e, law)
    assert r.kind == "SCS"
    assert abs(r.v_t) < 1e-15
    qd = generalised_after(r, J, M, qd0)
    for x, y in zip(qd, ref["qd"]):
        assert as_printed(x, y), (qd, ref["qd"])
    for name in ("v_n", "I_n", "I_t", "W_n", "W_t", "dT"):
        if name in ref:
            assert as_printed(getattr(r, name), ref[name]), (name, getattr(r, name), ref[name])
    # dT from the impulse agrees with T = 1/2 q_dot^T M q_dot (eq. 57)
    assert r.dT == pytest.approx(kinetic(M, qd) - kinetic(M, qd0), abs=1e-14)
    assert_consistent(r, J @ np.linalg.solve(M, J.T))


def test_rod_traditional_stick_creates_energy():
    """§6: continuous sticking with Newton's law gives dT = +0.010125 J."""
    s = traditional_stick_impulse(ROD_D, -1.0, 0.6, 0.82, mu_s=0.73)
    assert s.dT == pytest.approx(0.010125, abs=1e-12)
    assert s.admissible and s.I_t / s.I_n == pytest.approx(0.3075 / 0.9125)
    # ... and from the kinetic energy of the rod
    J, M = rod()
    qd0 = np.array([0.6, -1.0, 0.0])
    qd = qd0 + np.linalg.solve(M, J.T @ [s.I_n, s.I_t])
    assert kinetic(M, qd) - kinetic(M, qd0) == pytest.approx(0.010125, abs=1e-12)
    np.testing.assert_allclose(J @ qd, [0.82, 0.0], atol=1e-14)


def test_rod_e1_only_the_energetic_law_dissipates_exactly_the_friction_work():
    out = {law: routh_impulse(ROD_D, -1.0, 0.6, 0.73, 0.7, 1.0, law) for law in LAWS}
    W_t = out["energetic"].W_t
    assert all(r.W_t == pytest.approx(W_t, abs=1e-15) for r in out.values())
    assert out["energetic"].dT == pytest.approx(W_t, abs=1e-14)    # W_n = 0
    assert out["newton"].dT > 0.0                                   # energy created
    assert out["poisson"].dT < W_t - 0.03                           # extra normal loss


def test_mirrored_rod_slides_throughout():
    """The mirror image (axis at 135 deg) has c = +1.5: the slip never stops."""
    J, M = rod(135.0)
    D = J @ np.linalg.solve(M, J.T)
    np.testing.assert_allclose(D, [[2.5, 1.5], [1.5, 2.5]], atol=1e-14)
    for law in LAWS:
        r = routh_impulse(D, -1.0, 0.6, 0.73, 0.7, 0.82, law)
        assert r.kind == "S" and r.I_nh is None
        assert r.I_n == pytest.approx(r.I_nf) and r.e_achieved == pytest.approx(0.82)
        assert r.I_t == pytest.approx(-0.7 * r.I_n)
        assert_consistent(r, D)
        assert_same(r, routh_impulse_integrated(D, -1.0, 0.6, 0.73, 0.7, 0.82, law))


# ------------------------------------------------------------------ the five types

# (D, v_t0, mu_s, mu_d, e, expected kind); v_n0 = -1 throughout.
CASES = {
    "S":      (ROD_D, 3.0, 0.73, 0.7, 0.82),      # I_nh = 0.923 > I_nf = 0.513
    "SCS":    (ROD_D, 0.6, 0.73, 0.7, 0.82),      # the paper's case
    "SRS":    (ROD_D, 1.3, 0.73, 0.7, 0.82),      # I_np = 0.282 < I_nh = 0.4 < I_nf
    "SCD":    (ROD_D, 0.6, 0.5, 0.4, 0.82),       # mu_s < mu_c = 0.6; I_nh = 0.24 < 0.323
    "SRD":    (ROD_D, 1.0, 0.5, 0.4, 0.82),       # I_np = 0.323 < I_nh = 0.4 < I_nf = 0.587
    "stick":  (ROD_D, 0.0, 0.73, 0.7, 0.82),      # at rest, mu_s >= mu_c
    "S-rest": (ROD_D, 0.0, 0.5, 0.4, 0.82),       # at rest, mu_s < mu_c: slips at once
    "S-frictionless": (ROD_D, 0.0, 0.0, 0.0, 0.82),   # at rest, no friction, c != 0: slides at once
    "normal": (np.diag([2.5, 2.5]), 0.0, 0.0, 0.0, 0.82),  # at rest, no friction, c = 0: nothing tangential
    # slip in the initial direction drives v_n down (mu_d c sigma > a): 1/zeta_I^s < 0.
    # Such a slip always stops and always sticks (mu_d > a/|c| > |c|/b = mu_c as ab > c^2)
    "SCS-neg": (np.array([[1.0, 2.0], [2.0, 5.0]]), 1.0, 0.9, 0.8, 0.7),
    # the same impacts seen with t reversed (c > 0, v_t0 < 0)
    "SRD-flip": (np.array([[2.5, 1.5], [1.5, 2.5]]), -1.0, 0.5, 0.4, 0.82),
    "SRS-flip": (np.array([[2.5, 1.5], [1.5, 2.5]]), -1.3, 0.73, 0.7, 0.82),
}


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_each_type(name, law):
    D, v_t0, mu_s, mu_d, e = CASES[name]
    r = routh_impulse(D, -1.0, v_t0, mu_s, mu_d, e, law)
    assert r.kind == name.split("-")[0]
    assert_consistent(r, D)
    assert_same(r, routh_impulse_integrated(D, -1.0, v_t0, mu_s, mu_d, e, law))
    if name == "S-rest":
        assert r.I_nh is None and r.v_t < 0.0 and r.I_t == pytest.approx(0.4 * r.I_n)
    if name.endswith("-neg"):
        assert math.isinf(r.I_np) and r.path[1][2] < -1.0    # v_n fell while slipping


def test_stick_keeps_the_contact_at_rest():
    for law in LAWS:
        r = routh_impulse(ROD_D, -1.0, 0.0, 0.73, 0.7, 0.82, law)
        assert r.kind == "stick" and r.v_t == 0.0 and r.W_t == 0.0
        assert r.I_t == pytest.approx(0.6 * r.I_n)           # -c/b, eq. (13)
        assert r.e_achieved == pytest.approx(0.82)            # constant slope: laws agree


def test_a_frictionless_point_at_rest_that_nothing_moves_along_the_target_does_not_stick():
    """A point struck square on (v_t0 = 0, c = 0) without friction keeps v_t = 0 with no
    tangential impulse: the type says so (``normal``), not ``stick``, which says that friction held
    it (the type of a ball dropped on a frictionless floor was ``stick``).  With friction it sticks."""
    D = np.diag([1.0, 1.0])
    for law in LAWS:
        r = routh_impulse(D, -1.0, 0.0, 0.0, 0.0, 0.5, law)
        assert (r.kind, r.I_t, r.v_t) == ("normal", 0.0, 0.0)
        assert routh_impulse_integrated(D, -1.0, 0.0, 0.0, 0.0, 0.5, law).kind == "normal"
        assert routh_impulse(D, -1.0, 0.0, 0.3, 0.2, 0.5, law).kind == "stick"


def test_flipping_t_mirrors_the_result():
    for name, (D, v_t0, mu_s, mu_d, e) in CASES.items():
        F = np.diag([1.0, -1.0])
        for law in LAWS:
            r = routh_impulse(D, -1.0, v_t0, mu_s, mu_d, e, law)
            m = routh_impulse(F @ D @ F, -1.0, -v_t0, mu_s, mu_d, e, law)
            assert m.kind == r.kind, name
            for f in ("I_n", "v_n", "W_n", "W_t", "dT", "I_nc"):
                assert getattr(m, f) == pytest.approx(getattr(r, f), abs=1e-14)
            assert m.I_t == pytest.approx(-r.I_t, abs=1e-14)
            assert m.v_t == pytest.approx(-r.v_t, abs=1e-14)


# -------------------------------------------------------------------- three laws

def test_three_laws_on_one_case_and_the_newton_paradox():
    """Same impact (slip stops in restitution and reverses, e = 1): the laws disagree;
    Newton's normal impulse does positive work, Poisson's dissipates although e = 1, the
    energetic law's does none. Then the paper's case, where Newton's law gains energy."""
    D, v_t0, mu_s, mu_d = ROD_D, 1.0, 0.5, 0.4
    out = {law: routh_impulse(D, -1.0, v_t0, mu_s, mu_d, 1.0, law) for law in LAWS}
    assert {r.kind for r in out.values()} == {"SRD"}
    assert len({round(r.I_n, 9) for r in out.values()}) == 3
    assert out["newton"].W_n > 0.0                 # the normal impulse does positive work
    assert out["energetic"].W_n == pytest.approx(0.0, abs=1e-14)
    assert out["energetic"].dT == pytest.approx(out["energetic"].W_t, abs=1e-14)
    assert out["poisson"].W_n < 0.0                # dissipates although e = 1
    # the paradox case of the paper: Newton + Routh still gains energy (Table 1)
    r = routh_impulse(ROD_D, -1.0, 0.6, 0.73, 0.7, 0.82, "newton")
    assert r.dT > 0.0 and r.dT == pytest.approx(0.010125, abs=1e-12)
    for law in ("poisson", "energetic"):
        assert routh_impulse(ROD_D, -1.0, 0.6, 0.73, 0.7, 0.82, law).dT < 0.0


def test_laws_agree_while_slip_is_unidirectional():
    """Thesis eqs. (3.43), (3.46): constant slope, so e_N = e_P = e_E."""
    res = [routh_impulse(ROD_D, -1.0, 3.0, 0.73, 0.7, 0.6, law) for law in LAWS]
    for r in res[1:]:
        assert r.I_n == pytest.approx(res[0].I_n) and r.v_n == pytest.approx(0.6)


def test_bad_inputs_are_refused():
    good = (ROD_D, -1.0, 0.6, 0.73, 0.7, 0.82, "energetic")
    for i, bad in ((0, [[1.0, 2.0], [2.0, 1.0]]), (0, [[1.0, 0.5], [0.4, 1.0]]), (1, 0.0),
                   (3, 0.5), (5, 1.2), (6, "stronge")):
        args = list(good)
        args[i] = bad
        with pytest.raises(ValueError):
            routh_impulse(*args)
        with pytest.raises(ValueError):
            routh_impulse_integrated(*args)


# -------------------------------------------------------------- property tests

finite = dict(allow_nan=False, allow_infinity=False)


@st.composite
def impacts(draw):
    l11 = draw(st.floats(0.2, 3.0, **finite))
    l22 = draw(st.floats(0.2, 3.0, **finite))
    l21 = draw(st.floats(-3.0, 3.0, **finite))
    L = np.array([[l11, 0.0], [l21, l22]])
    D = L @ L.T
    v_n0 = draw(st.floats(-5.0, -0.05, **finite))
    v_t0 = draw(st.one_of(st.just(0.0), st.floats(-5.0, 5.0, **finite)))
    mu_d = draw(st.one_of(st.just(0.0), st.floats(0.0, 1.0, **finite)))
    mu_s = mu_d + draw(st.one_of(st.just(0.0), st.floats(0.0, 1.0, **finite)))
    e = draw(st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0, **finite)))
    law = draw(st.sampled_from(LAWS))
    return D, v_n0, v_t0, mu_s, mu_d, e, law


def borderline(r, tol=1e-9):
    """Slip stopping within rounding of the end of compression or of the impact, or a
    friction coefficient within rounding of mu_c: the type is not decidable there."""
    s = tol * max(1.0, r.I_n)
    near = abs(r.mu_s - r.mu_c) < tol
    for I in (r.I_nh, r.I_np if math.isfinite(r.I_np) else None):
        if I is not None:
            near |= abs(I - r.I_nc) < s or abs(I - r.I_ne) < s
    return near


@settings(max_examples=400, deadline=None)
@given(impacts())
def test_properties(args):
    D, v_n0, v_t0, mu_s, mu_d, e, law = args
    r = routh_impulse(*args)
    tol = 1e-12 * energy_scale(r)
    assert r.W_t <= tol                                     # friction never does work
    assert r.W_n + r.W_t == pytest.approx(r.dT, abs=tol)
    assert r.v_n >= -1e-12 * max(1.0, abs(v_n0))            # the bodies separate
    if law == "energetic":
        assert r.dT <= tol                                  # never creates energy
        assert r.W_n <= tol
    q = routh_impulse_integrated(*args)
    assert_same(r, q, decidable=not borderline(r))
    assert_consistent(r, D, tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(impacts())
def test_energetic_law_never_creates_energy(args):
    D, v_n0, v_t0, mu_s, mu_d, e, _ = args
    r = routh_impulse(D, v_n0, v_t0, mu_s, mu_d, e, "energetic")
    assert r.dT <= 1e-12 * energy_scale(r)
    assert r.dT <= r.W_t + 1e-12 * energy_scale(r)          # W_n = (1 - e^2) W_nc <= 0
    # with e = 1 only friction dissipates
    r1 = routh_impulse(D, v_n0, v_t0, mu_s, mu_d, 1.0, "energetic")
    assert r1.dT == pytest.approx(r1.W_t, abs=1e-12 * energy_scale(r1))


# ------------------------------------------------------------------ D not symmetric

# A pair held sliding takes its share of the impulse along eta = alpha - mu_D [beta] sigma
# (thesis eqs. 4.16-4.18): D = J X is then not symmetric.  mu_c = |D[1, 0]| / b = 0.6 here,
# where the mean of c and c_tn would give 0.275: mu_s = 0.5 reverses, not sticks.
D_HELD = np.array([[3.0, 0.05], [-0.6, 1.0]])
UNSYMMETRIC = {  # (v_t0, mu_s, mu_d, e); v_n0 = -1; slope dv_t/dI_n = -1 while sliding along +t
    "S": (3.0, 0.7, 0.4, 0.82), "SCS": (0.2, 0.7, 0.4, 0.82), "SCD": (0.2, 0.5, 0.4, 0.82),
    "SRS": (0.45, 0.7, 0.4, 0.82), "SRD": (0.45, 0.5, 0.4, 0.82),
    "stick": (0.0, 0.7, 0.4, 0.82), "S-rest": (0.0, 0.5, 0.4, 0.82),
}


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("name", sorted(UNSYMMETRIC))
def test_an_unsymmetric_d_is_solved_as_it_is(name, law):
    """Each entry of D where v = v_0 + D I puts it (eq. 4): the closed form's type, its
    velocities v_0 + D I and its path against the direct integration, to 1e-9."""
    v_t0, mu_s, mu_d, e = UNSYMMETRIC[name]
    r = routh_impulse(D_HELD, -1.0, v_t0, mu_s, mu_d, e, law, symmetric=False)
    assert r.kind == name.split("-")[0] and r.c_tn == -0.6 and r.mu_c == pytest.approx(0.6)
    assert_consistent(r, D_HELD)
    assert_same(r, routh_impulse_integrated(D_HELD, -1.0, v_t0, mu_s, mu_d, e, law, symmetric=False))


def test_a_symmetric_d_read_as_unsymmetric_gives_the_same_bits():
    """symmetric=False changes nothing where D is symmetric (the impulse model's D)."""
    for name, (D, v_t0, mu_s, mu_d, e) in CASES.items():
        for law in LAWS:
            r = routh_impulse(D, -1.0, v_t0, mu_s, mu_d, e, law)
            u = routh_impulse(D, -1.0, v_t0, mu_s, mu_d, e, law, symmetric=False)
            assert u == replace(r, c_tn=u.c_tn) and u.c_tn == r.c, name
