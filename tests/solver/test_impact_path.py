"""The impulse path's shared work: the constrained mass factors and the compiled kinetic energy."""
import numpy as np
import pytest

from solver.contact.jump import (HELD_SHARE, MAX_SETTLING, Held, contact_inertia, held_jump, impulse_reactions,
                                 moved_share, velocity_jump)
from solver.model.io import examples_dir, load_model
from solver.system.assembly import Assembly, dense_matrices, newton_scale
from solver.system.compile import compile_model
from solver.system.bordered import K
from solver.system.initial import consistent_acceleration, initial_state
from solver.system.mass_cholesky import MassCholesky, MassPattern
from solver.system.state import State


def assembly(name: str, formulation: str = "consistent") -> Assembly:
    doc = load_model(examples_dir() / f"{name}.json")
    doc["solver"]["formulation"] = formulation
    return Assembly(compile_model(doc))


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("name", ["two_bars_impact", "rod_floor_flexible", "timoshenko_cantilever_stubby"])
def test_kinetic_energy_is_half_v_M_v(name, formulation):
    """T of the compiled pass (velocities at the Gauss points, or Q v) is 1/2 v^T M v of the
    element mass matrices (eq. 2.31) plus the lumped masses', to rounding."""
    asm = assembly(name, formulation)
    rng = np.random.default_rng(7)
    q = asm.sys.q0 + 1e-2 * rng.standard_normal(asm.n)
    v = rng.standard_normal(asm.n)
    ve = v[asm.sys.elem_dofs]
    T = 0.5 * (np.einsum("ei,eij,ej->", ve, asm.mass_matrix_elements(q), ve) + np.dot(asm.sys.mass_diag * v, v))
    assert asm.kinetic_energy(q, v) == pytest.approx(T, rel=1e-13)


@pytest.mark.parametrize("formulation", ["consistent", "thesis"])
@pytest.mark.parametrize("name", ["two_bars_impact", "rod_floor_flexible", "bimetal_strip_heated",
                                  "pendulum_flexible_modal1_newton"])
def test_the_energies_in_one_pass_are_those_of_the_three_methods(name, formulation):
    """The energy guard's kinetic, strain and potential energy in one compiled pass over the
    elements (``Assembly.energies``) are :meth:`kinetic_energy`, :meth:`strain_energy` and
    :meth:`potential_energy` to the last bit, on random states (free strains at a time of their
    ramp; a modal link); so are the frames' stacked energies."""
    asm = assembly(name, formulation)
    rng = np.random.default_rng(11)
    for _ in range(5):
        q = asm.sys.q0 + 1e-2 * rng.standard_normal(asm.n)
        v = rng.standard_normal(asm.n)
        t = float(rng.uniform(0.0, 2.0))
        one_pass = asm.energies(q, v, t)
        assert one_pass == (asm.kinetic_energy(q, v), asm.strain_energy(q, t), asm.potential_energy(q))
        if not asm.sys.modal.links and not asm.sys.free_strains.active:
            stacked = asm.stacked_energies(q[None], v[None])
            assert tuple(float(x[0]) for x in stacked) == one_pass


def test_mass_factors_are_the_mass_blocks_and_shared_by_impulse_and_restart():
    """The factors come from the element mass blocks (the Newton blocks with c_a = 1, c_v = c_k = 0,
    bit for bit); an impulse and the consistent restart after it at the same configuration
    factorise once; a new configuration factorises again."""
    asm = assembly("rod_floor_flexible")
    s = initial_state(asm)
    zero = np.zeros(asm.n)
    _f, B, diag = asm.forces(s.q, zero, zero, s.t, blocks=(1.0, 0.0, 0.0))
    np.testing.assert_array_equal(B, asm.mass_matrix_elements(s.q))
    lu, scale = asm.mass_factors(s.q, s.t)
    assert scale == newton_scale(B, diag)
    pair = asm.sys.contacts[0]
    v = s.v.copy()
    v[pair.point[1]] = -1.0  # the rod's tip falls onto the floor
    struck = State(s.t, s.q, v, s.a, s.lam)
    v_new, res, _held = velocity_jump(asm, struck, pair.geometry(s.q), pair.mu_s, pair.mu_d, pair.e, pair.law)
    assert res.I_n > 0.0
    assert asm.mass_factors(s.q.copy(), s.t)[0] is lu  # equal configuration: remembered
    a, _lam, _lam_c = consistent_acceleration(asm, s.q, v_new, s.t)
    assert asm.mass_factors(s.q, s.t)[0] is lu
    M, _K = dense_matrices(asm, s.q, s.t)  # the rod has no joints: M a = -Psi(a = 0)
    residual = asm.forces(s.q, v_new, zero, s.t).residual
    np.testing.assert_allclose(M @ a, -residual, atol=1e-9 * np.abs(residual).max())
    moved = s.q.copy()
    moved[pair.point[1]] += 1e-3
    assert asm.mass_factors(moved, s.t)[0] is not lu


@pytest.mark.parametrize("name", ["two_bars_impact", "moving_mass_beam"])
def test_mass_cholesky_solves_the_constrained_mass_matrix_as_the_band_lu(name):
    """The Cholesky factors with the dof fixes eliminated and the other constraint rows by their
    Schur complement (the moving mass's track row) solve ``[M G^T; G 0] [x; lambda] = [b; c]``
    and its bordered form as the band LU of the scaled matrix does, to rounding."""
    asm = assembly(name)
    rng = np.random.default_rng(3)
    q = asm.sys.q0 + 1e-3 * rng.standard_normal(asm.n)
    lu, scale = asm.mass_factors(q, 0.0)
    cons = asm.sys.constraints
    pattern = MassPattern(asm.sys.elem_dofs, asm.n, cons.rows, cons.cols, cons.count)
    chol = MassCholesky.of(pattern, asm, q)
    assert chol is not None and len(pattern.fix_rows) >= 2
    b, c = rng.standard_normal(asm.n), rng.standard_normal(asm.m)
    ref = lu.solve(np.concatenate([b, scale * c]))
    x = chol.solve(np.concatenate([b, c]))
    np.testing.assert_allclose(x[: asm.n], ref[: asm.n], rtol=0, atol=1e-11 * np.abs(ref[: asm.n]).max())
    np.testing.assert_allclose(x[asm.n :], scale * ref[asm.n :], rtol=0, atol=1e-11 * np.abs(scale * ref[asm.n :]).max())
    dofs = np.zeros((1, K), dtype=np.int64)
    dofs[0, :2] = asm.sys.elem_dofs[len(asm.sys.elem_dofs) // 2, :2]
    col = np.zeros((1, K))
    col[0, :2] = (0.6, -0.8)
    W_lu, W = lu.columns(dofs, col), chol.columns(dofs, col)
    np.testing.assert_allclose(W[0, : asm.n], W_lu[0, : asm.n], rtol=0, atol=1e-11 * np.abs(W_lu[0, : asm.n]).max())


def test_mass_cholesky_declines_a_mass_matrix_that_is_not_positive_definite():
    """The slider-crank has massless dofs that only its joints hold: no Cholesky factors (the
    run's mass factors stay the band LU)."""
    asm = assembly("slider_crank_flexible")
    cons = asm.sys.constraints
    assert MassCholesky.of(MassPattern(asm.sys.elem_dofs, asm.n, cons.rows, cons.cols, cons.count), asm,
                           asm.sys.q0) is None


def test_held_pairs_that_keep_settling_leave_the_impulse_taken_from_the_last_state():
    """Each settling of the held pairs changes a mode for good, so it ends; past :data:`MAX_SETTLING` of them the
    impulse is taken once more from the state they left, never returned from the state before the last one
    (whose velocities the last settling changed)."""
    asm = assembly("rod_floor_flexible")
    s = initial_state(asm)
    pair = asm.sys.contacts[0]
    v = s.v.copy()
    v[pair.point[1]] = -1.0
    struck = State(s.t, s.q, v, s.a, s.lam)
    states = []

    def settle(st, _v, _lam):  # each settling: a slower state (as a slip stopped would leave it)
        states.append(State(st.t, st.q, 0.9 * st.v, st.a, st.lam))
        return states[-1]

    held = Held(lambda st: None, settle)
    start, v_new, res = held_jump(asm, struck, pair.geometry(s.q), pair, pair.e, pair.law, held)
    assert len(states) == MAX_SETTLING and start is states[-1]
    expected, expected_res, _held = velocity_jump(asm, start, pair.geometry(s.q), pair.mu_s, pair.mu_d, pair.e,
                                                  pair.law)
    np.testing.assert_array_equal(v_new, expected)
    assert res.I_n == expected_res.I_n


def test_the_masses_share_of_an_impulse_on_a_pinned_rod_is_its_momentum():
    """A uniform rigid rod (1 kg, 1 m) pinned at one end, struck across it at ``r`` from the pin: the impulse
    gives the rod ``dw = r / I_p`` (``I_p = m L^2 / 3``), momentum ``M X = (0, 1.5 r, r / 4)`` on its centre's
    dofs and its rotation, against ``|J_n| = sqrt(1 + (r - 0.5)^2)`` (``D_nn = 3 r^2``, LAJSS eq. 5).  At the pin
    the joint holds the point: round-off, below :data:`HELD_SHARE`; so is every point along the rod (the pin
    holds that motion), while 1 nm from the pin the point still moves (1.4e-9)."""
    asm = Assembly(compile_model({
        "format": "flexmech", "version": 1, "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 1.0, "y": 0.0}],
        "links": [{"id": "rod", "nodes": ["A", "B"], "kind": "rigid", "mass": 1.0}],
        "joints": [{"id": "pin", "kind": "ground", "node": "A"}]}))
    x, y, phi = dict(asm.sys.rigid_bodies)["rod"]
    q = asm.sys.q0
    for r in (1.0, 0.5, 1e-3, 1e-9, 0.0):
        J = np.zeros((2, asm.n))
        J[0, [y, phi]] = 1.0, r - 0.5  # across the rod at r from the pin (the centre at 0.5 m)
        J[1, x] = 1.0  # along it
        X, L, Lam = impulse_reactions(asm, q, 0.0, J)
        across, along = (moved_share(asm, q, J[k], Lam[:, k], L[:, k], None) for k in range(2))
        assert along <= 1e-15
        if r:
            assert across == pytest.approx(r * np.hypot(1.5, 0.25) / np.hypot(1.0, r - 0.5), rel=1e-9)
            assert across > HELD_SHARE and contact_inertia(asm, q, 0.0, J)[1][0, 0] == pytest.approx(3 * r * r, rel=1e-6)
        else:
            assert across <= 1e-15
