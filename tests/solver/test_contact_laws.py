"""Continuous contact laws (Flores, Ambrósio, Claro & Lankarani 2006, ``001_…txt``).

Reference numbers: the Hertz impact's closed forms (Johnson, Contact Mechanics §11.4),
the exact restitution of the hysteresis laws (first integral of the 1-DOF impact, see
:func:`solver.contact.normal_laws.effective_restitution`), the seed's K = 6.6e10 N/m^1.5
and its implicit cylinder relations, eqs. (10)-(11).  ``python -m
tests.solver.test_contact_laws`` prints the restitution table.
"""
import math
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.integrate import solve_ivp
from scipy.special import beta

from solver.contact.friction_laws import (
    FRICTION_LAW_NAMES,
    FRICTION_LAWS,
    friction_force,
)
from solver.contact.normal_laws import (
    NORMAL_LAW_NAMES,
    NORMAL_LAWS,
    effective_restitution,
    material_compliance,
    normal_force,
    penetration_limit,
    sphere_contact_stiffness,
)

# the seed's journal-bearing joint (Table 2): steel pin 9.5 mm in a 10 mm bore, 15 mm long
E_STEEL, NU_STEEL = 207e9, 0.3
SIGMA = material_compliance(E_STEEL, NU_STEEL)
R_BEARING, R_JOURNAL, LENGTH = 10e-3, 9.5e-3, 15e-3
CYLINDERS = {"sigma": 2 * SIGMA, "length": LENGTH, "R_bearing": R_BEARING, "R_journal": R_JOURNAL}
CYLINDER_LAWS = ("dubowsky_freudenstein", "goldsmith", "esdu78035")
HYSTERESIS_LAWS = ("lankarani_nikravesh", "hunt_crossley", "flores")
K_SEED = sphere_contact_stiffness(SIGMA, SIGMA, R_JOURNAL, -R_BEARING)   # N/m^1.5
MASS, SPEED = 0.14, 1.0   # kg (the seed's slider), m/s
# 2 ∫₀¹ (1 - x^(5/2))^(-1/2) dx = (4/5) B(2/5, 1/2): Hertz contact time over δ_max/v
HERTZ_TIME_CONSTANT = 0.8 * beta(0.4, 0.5)


def params_for(law, c_e=0.9):
    """Parameters of ``law`` for the seed's data (spheres: K of the pin in the bore)."""
    if law in CYLINDER_LAWS:
        return dict(CYLINDERS)
    if law in ("hooke", "kelvin_voigt"):
        return {"K": 1.5e8, "c_e": c_e} if law == "kelvin_voigt" else {"K": 1.5e8}
    return {"K": K_SEED, "c_e": c_e} if law in HYSTERESIS_LAWS else {"K": K_SEED}


class Impact(NamedTuple):
    delta_max: float
    duration: float
    restitution: float
    force_at_delta_max: float
    largest_force: float   # largest and smallest force inside the contact,
    least_force: float     # on 400 samples per phase


def impact(law, params, m=MASS, v=SPEED):
    """Free mass ``m`` (kg) meeting a fixed surface at ``v`` (m/s): m δ̈ = -F(δ, δ̇).

    Integrated in two phases, compression (until δ̇ = 0) and restitution (until δ = 0),
    so Kelvin-Voigt's jump at δ̇ = 0 falls on a phase boundary.
    """
    def rhs(_t, y):
        return [y[1], -normal_force(law, params, y[0], y[1], v).force / m]

    def stopped(_t, y):
        return y[1]

    def separated(_t, y):
        return y[0]

    stopped.terminal = separated.terminal = True
    stopped.direction = separated.direction = -1.0
    scale = (5 * m * v * v / (4 * params["K"])) ** 0.4
    y, t, forces = [0.0, v], 0.0, []
    for event in (stopped, separated):
        sol = solve_ivp(rhs, (t, t + 1.0), y, method="DOP853", events=event, dense_output=True,
                        rtol=1e-12, atol=[1e-12 * scale, 1e-12 * v])
        assert sol.status == 1, sol.message
        t_end, y_end = sol.t_events[0][0], sol.y_events[0][0]
        samples = sol.sol(np.linspace(t, t_end, 402)[1:-1])
        forces.append(normal_force(law, params, samples[0], samples[1], v).force)
        if event is stopped:
            delta_max, force_at_delta_max = y_end[0], normal_force(law, params, *y_end, v).force
        t, y = t_end, y_end
    forces = np.concatenate(forces)
    return Impact(delta_max, t, -y[1] / v, force_at_delta_max, forces.max(), forces.min())


def restitution_table(c_es=(0.9, 0.7, 0.5)):
    """{law: [(c_e, integrated, exact)]} for Kelvin-Voigt and the hysteresis laws."""
    return {law: [(c_e, impact(law, params_for(law, c_e)).restitution,
                   effective_restitution(law, params_for(law, c_e))) for c_e in c_es]
            for law in ("kelvin_voigt", *HYSTERESIS_LAWS)}


# --- spheres: stiffness and the 1-DOF impact -------------------------------------------

def test_seed_stiffness_of_internal_spheres():
    """Pin 9.5 mm in a -10 mm bore, steel: K = 6.6102e10 N/m^1.5, printed 6.6e10 (Figs. 2-3)."""
    assert K_SEED == pytest.approx(6.6102e10, rel=1e-4)
    assert round(K_SEED / 1e10, 1) == 6.6


def test_stiffness_sign_convention_and_plane_limit():
    convex = sphere_contact_stiffness(SIGMA, SIGMA, R_JOURNAL, R_BEARING)
    assert convex == pytest.approx(1.05848e10, rel=1e-5)     # R = 4.872 mm against 0.19 m
    assert sphere_contact_stiffness(SIGMA, SIGMA, -R_BEARING, R_JOURNAL) == K_SEED
    plane = sphere_contact_stiffness(SIGMA, SIGMA, R_JOURNAL)
    assert plane == pytest.approx(4 / (6 * SIGMA) * math.sqrt(R_JOURNAL), rel=1e-15)   # eq. (5)
    for far in (1e6, -1e6):      # a huge convex or concave partner tends to the plane
        assert sphere_contact_stiffness(SIGMA, SIGMA, R_JOURNAL, far) == pytest.approx(plane, rel=1e-8)
    for R_i, R_j in ((R_BEARING, -R_JOURNAL), (R_BEARING, -R_BEARING), (-R_BEARING, -R_JOURNAL)):
        with pytest.raises(ValueError):
            sphere_contact_stiffness(SIGMA, SIGMA, R_i, R_j)


def test_hertz_impact_matches_closed_forms():
    """δ_max = (5 m v²/(4K))^(2/5), T = 2.9432752 δ_max/v, F_max = K δ_max^1.5, e = 1.

    Johnson rounds the time constant to 2.94, 0.11 % low: checked here with the exact one.
    """
    assert HERTZ_TIME_CONSTANT == pytest.approx(2.9432752, abs=1e-7)
    run = impact("hertz", {"K": K_SEED})
    delta_max = (5 * MASS * SPEED**2 / (4 * K_SEED)) ** 0.4
    assert run.delta_max == pytest.approx(delta_max, rel=1e-8)
    assert run.duration == pytest.approx(HERTZ_TIME_CONSTANT * delta_max / SPEED, rel=1e-8)
    assert run.force_at_delta_max == pytest.approx(K_SEED * delta_max**1.5, rel=1e-8)
    assert run.largest_force <= run.force_at_delta_max     # the peak is at δ_max
    assert run.restitution == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("c_e", [0.9, 0.7, 0.5])
def test_kelvin_voigt_restitution_is_root_of_c_e(c_e):
    """Eq. (1) returns c_e of the stored energy ½ K δ_max²: e = √c_e."""
    run = impact("kelvin_voigt", params_for("kelvin_voigt", c_e))
    assert run.restitution == pytest.approx(math.sqrt(c_e), rel=1e-8)
    assert run.least_force > 0.0


@pytest.mark.parametrize("law", HYSTERESIS_LAWS)
@pytest.mark.parametrize("c_e", [0.9, 0.7, 0.5])
def test_hysteresis_restitution_matches_first_integral(law, c_e):
    """Integrated and exact restitution agree; the law dissipates and never pulls."""
    run = impact(law, params_for(law, c_e))
    exact = effective_restitution(law, params_for(law, c_e))
    message = f"{law}, c_e = {c_e}: restitution {run.restitution:.6f} (exact {exact:.6f})"
    assert run.restitution == pytest.approx(exact, rel=1e-8), message
    assert 0.0 < run.restitution < 1.0, message
    assert run.least_force > 0.0, message    # the clamp at 0 was never needed


def test_restitution_exact_independent_of_mass_speed_and_stiffness():
    params = {"K": 1e9, "c_e": 0.7, "n": 1.0}
    run = impact("flores", params, m=3.0, v=0.2)
    assert run.restitution == pytest.approx(effective_restitution("flores", params), rel=1e-8)


def test_hysteresis_laws_against_their_target_restitution():
    """Lankarani-Nikravesh and Hunt-Crossley are right to first order in 1 - c_e
    (|e - c_e| ≤ 1.5 (1 - c_e)²); Flores et al. 2011 is the closest of the three at
    c_e = 0.9, 0.7, 0.5 and within 6 % of c_e there (it overshoots the damping: e < c_e)."""
    table = {law: {c: effective_restitution(law, {"K": 1.0, "c_e": c}) for c in (0.99, 0.9, 0.7, 0.5)}
             for law in HYSTERESIS_LAWS}
    for law in ("lankarani_nikravesh", "hunt_crossley"):
        for c, e in table[law].items():
            assert abs(e - c) <= 1.5 * (1 - c) ** 2, (law, c, e)
    for c in (0.9, 0.7, 0.5):
        errors = {law: abs(table[law][c] - c) for law in HYSTERESIS_LAWS}
        assert min(errors, key=errors.get) == "flores", (c, table)
        assert table["flores"][c] < c and errors["flores"] <= 0.06 * c, (c, table)


def test_sphere_laws_are_the_printed_formulas():
    """Eqs. (1), (2), (9), Hunt-Crossley and Flores 2011 written out at one state."""
    K, c, d, rate, v0 = 3e9, 0.8, 4e-5, -0.3, 0.7
    printed = {
        ("hooke", rate): K * d,
        ("kelvin_voigt", -rate): K * d,
        ("kelvin_voigt", rate): K * d * c,
        ("hertz", rate): K * d**1.5,
        ("lankarani_nikravesh", rate): K * d**1.5 * (1 + 3 * (1 - c * c) / 4 * rate / v0),
        ("hunt_crossley", rate): K * d**1.5 * (1 + 3 * (1 - c) / (2 * v0) * rate),
        ("flores", rate): K * d**1.5 * (1 + 8 * (1 - c) / (5 * c * v0) * rate),
    }
    for (law, delta_dot), force in printed.items():
        params = {"K": K, "c_e": c} if "c_e" in {p.name for p in NORMAL_LAWS[law].parameters} else {"K": K}
        assert normal_force(law, params, d, delta_dot, v0).force == pytest.approx(force, rel=1e-14), law


def test_hysteresis_force_clamped_not_adhesive():
    """A fast separation (δ̇ = -2 δ̇⁽⁻⁾) makes the L-N bracket negative for c_e = 0.5."""
    out = normal_force("lankarani_nikravesh", params_for("lankarani_nikravesh", 0.5), 1e-5, -2.0, 1.0)
    assert out.force == 0.0 and out.dF_ddelta == 0.0 and out.dF_ddelta_dot == 0.0


@given(st.sampled_from(NORMAL_LAW_NAMES), st.floats(0.05, 1.0), st.floats(-1e-2, 1e-2),
       st.floats(-1e3, 1e3), st.floats(1e-6, 1e3))
def test_normal_force_never_adhesive(law, c_e, delta, delta_dot, delta_dot_0):
    out = normal_force(law, params_for(law, c_e), delta, delta_dot, delta_dot_0)
    assert out.force >= 0.0 and out.dF_ddelta >= 0.0


@pytest.mark.parametrize("law", NORMAL_LAW_NAMES)
def test_no_force_out_of_contact(law):
    out = normal_force(law, params_for(law), np.array([-1e-3, 0.0]), 0.5, 1.0)
    assert np.all(out.force == 0.0) and np.all(out.dF_ddelta == 0.0) and np.all(out.valid)


# --- derivatives ----------------------------------------------------------------------

@pytest.mark.parametrize("law", NORMAL_LAW_NAMES)
def test_normal_law_derivatives_match_finite_differences(law):
    params = params_for(law, 0.7)
    delta, rate = np.meshgrid([1e-9, 3e-7, 2e-5, 1e-4], [-0.6, -0.1, 0.3, 1.2])
    v0 = 1.5
    out = normal_force(law, params, delta, rate, v0)
    h = 1e-5 * delta
    fd_delta = (normal_force(law, params, delta + h, rate, v0).force
                - normal_force(law, params, delta - h, rate, v0).force) / (2 * h)
    k = 1e-5 * np.abs(rate)
    fd_rate = (normal_force(law, params, delta, rate + k, v0).force
               - normal_force(law, params, delta, rate - k, v0).force) / (2 * k)
    np.testing.assert_allclose(out.dF_ddelta, fd_delta, rtol=1e-6, atol=0)
    np.testing.assert_allclose(out.dF_ddelta_dot, fd_rate, rtol=1e-6, atol=0)


@pytest.mark.parametrize("law", FRICTION_LAW_NAMES)
def test_friction_derivative_matches_finite_differences(law):
    params = {"c_f": 0.3, "v_stick": 1e-2, "v_r": 1e-2, "v0": 1e-3, "v1": 1e-2}
    params = {name: params[name] for name in (p.name for p in FRICTION_LAWS[law].parameters)}
    v_t = np.array([-0.3, -7e-3, -2e-3, -2e-4, 0.0, 5e-4, 4e-3, 9e-3, 0.05])
    F_n = np.array([250.0])
    h = 1e-9
    fd = (friction_force(law, params, v_t + h, F_n).force
          - friction_force(law, params, v_t - h, F_n).force) / (2 * h)
    ok = np.ones_like(v_t, dtype=bool) if law != "coulomb" else v_t != 0.0   # Coulomb jumps at 0
    slope = friction_force(law, params, v_t, F_n).dF_dv_t
    # where the force has saturated its slope is below the differences' rounding: the
    # error is measured against the law's steepest slope there
    np.testing.assert_allclose(slope[ok], fd[ok], rtol=1e-6, atol=1e-7 * np.abs(slope).max())


# --- cylinders: eqs. (10)-(11) --------------------------------------------------------

def seed_penetration(law, F):
    """δ(F) exactly as eqs. (10) and (11) print it, with the seed's joint."""
    s, dR = CYLINDERS["sigma"], R_BEARING - R_JOURNAL
    if law == "esdu78035":
        argument = 4 * LENGTH * dR / (F * s)
    else:
        b = 3 if law == "dubowsky_freudenstein" else 1
        argument = LENGTH**b * dR / (F * R_BEARING * R_JOURNAL * s)
    return F * s / LENGTH * (np.log(argument) + 1)


@pytest.mark.parametrize("law, limit", [("dubowsky_freudenstein", LENGTH**2 * 0.5e-3 / (R_BEARING * R_JOURNAL)),
                                        ("goldsmith", 0.5e-3 / (R_BEARING * R_JOURNAL)),
                                        ("esdu78035", 4 * 0.5e-3)])
def test_cylinder_law_inverts_seed_relation_up_to_its_limit(law, limit):
    assert penetration_limit(law, CYLINDERS) == pytest.approx(limit, rel=1e-14)
    limit = penetration_limit(law, CYLINDERS)
    delta = np.concatenate([np.geomspace(1e-12, 0.999 * limit, 400),
                            limit * (1 - np.array([1e-6, 1e-9, 1e-12, 1e-15]))])
    out = normal_force(law, CYLINDERS, delta)
    np.testing.assert_allclose(seed_penetration(law, out.force), delta, rtol=1e-12, atol=0)
    assert np.all(out.valid) and np.all(np.diff(out.force) > 0) and np.all(out.dF_ddelta > 0)
    beyond = normal_force(law, CYLINDERS, limit * np.array([1.0, 1.001, 3.0]))
    assert not np.any(beyond.valid) and np.all(np.isfinite(beyond.force))


def test_cylinder_laws_close_to_spheres_at_small_penetration():
    """Fig. 7: at δ = 10 µm ESDU-78035 and Dubowsky-Freudenstein are within 10 % of
    Hertz with the seed's K; Goldsmith is much softer."""
    hertz = normal_force("hertz", {"K": K_SEED}, 1e-5).force
    forces = {law: normal_force(law, CYLINDERS, 1e-5).force for law in CYLINDER_LAWS}
    assert forces["esdu78035"] == pytest.approx(hertz, rel=0.1), forces
    assert forces["dubowsky_freudenstein"] == pytest.approx(hertz, rel=0.1), forces
    assert forces["goldsmith"] < 0.6 * hertz, forces


# --- friction -------------------------------------------------------------------------

@st.composite
def friction_case(draw):
    law = draw(st.sampled_from(FRICTION_LAW_NAMES))
    v0 = draw(st.floats(0.0, 1e-2))
    values = {"c_f": draw(st.floats(0.0, 2.0)), "v_stick": draw(st.floats(1e-6, 1.0)),
              "v_r": draw(st.floats(1e-6, 1.0)), "v0": v0, "v1": v0 + draw(st.floats(1e-6, 1.0))}
    params = {p.name: values[p.name] for p in FRICTION_LAWS[law].parameters}
    return law, params, draw(st.floats(-1e3, 1e3)), draw(st.floats(-1e4, 1e5))


@given(friction_case())
def test_friction_never_does_positive_work(case):
    law, params, v_t, F_n = case
    out = friction_force(law, params, v_t, F_n)
    assert out.force * v_t <= 0.0
    assert abs(out.force) <= params["c_f"] * max(F_n, 0.0) * (1 + 1e-15)
    assert out.dF_dv_t <= 0.0      # the force never grows along the slip


@pytest.mark.parametrize("law, params, kinks", [
    ("rooney_deravi", {"c_f": 0.2, "v_stick": 1e-3}, (0.0, 1e-3)),
    ("threlfall", {"c_f": 0.2, "v_r": 1e-3}, (0.0,)),
    ("ambrosio", {"c_f": 0.2, "v0": 1e-4, "v1": 1e-3}, (0.0, 1e-4, 1e-3))])
def test_smoothed_friction_is_continuous_and_tends_to_coulomb(law, params, kinks):
    F_n = 300.0
    for v in kinks:
        for sign in (1.0, -1.0):
            left, right = friction_force(law, params, sign * v + np.array([-1e-12, 1e-12]), F_n).force
            assert abs(right - left) < 1e-6, (v, left, right)
    far = friction_force(law, params, np.array([-0.05, 0.05, 10.0]), F_n).force
    np.testing.assert_allclose(far, [0.2 * F_n, -0.2 * F_n, -0.2 * F_n], rtol=1e-12)


def test_coulomb_jumps_at_zero_slip():
    F = friction_force("coulomb", {"c_f": 0.2}, np.array([-1e-300, 0.0, 1e-300]), 300.0).force
    np.testing.assert_array_equal(F, [60.0, 0.0, -60.0])


def test_ambrosio_has_no_force_below_v0():
    F = friction_force("ambrosio", {"c_f": 0.2, "v0": 1e-4, "v1": 1e-3}, np.array([-1e-4, 5e-5, 5.5e-4]), 300.0)
    np.testing.assert_allclose(F.force, [0.0, 0.0, -30.0], rtol=1e-12, atol=0)


# --- tables ---------------------------------------------------------------------------

def test_law_tables_name_units_and_state():
    assert NORMAL_LAW_NAMES == ("hooke", "kelvin_voigt", "hertz", "lankarani_nikravesh", "hunt_crossley",
                                "flores", "dubowsky_freudenstein", "goldsmith", "esdu78035")
    assert FRICTION_LAW_NAMES == ("coulomb", "rooney_deravi", "threlfall", "ambrosio")
    for spec in (*NORMAL_LAWS.values(), *FRICTION_LAWS.values()):
        assert all(p.unit and p.description for p in spec.parameters), spec.name
    assert [n for n, s in NORMAL_LAWS.items() if "delta_dot_0" in s.inputs] == list(HYSTERESIS_LAWS)
    with pytest.raises(ValueError, match="needs parameter"):
        normal_force("hertz", {}, 1e-6)
    with pytest.raises(ValueError, match="no parameter"):
        friction_force("coulomb", {"c_f": 0.1, "v_r": 1.0}, 0.1, 1.0)
    with pytest.raises(ValueError, match="impact velocity"):
        normal_force("flores", {"K": 1.0, "c_e": 0.8}, 1e-6, 0.1)


if __name__ == "__main__":
    for name, rows in restitution_table().items():
        print(name, ", ".join(f"c_e {c}: {e:.6f} (exact {x:.6f})" for c, e, x in rows))
