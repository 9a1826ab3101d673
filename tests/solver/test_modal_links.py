"""Modal links (floating frame of reference with component-mode synthesis): the modes,
the exact inertia, the tangent, invariants, statics with static correction modes, and the
rigid limit (issue 14).  Published and analytic values, tolerances stated in each test."""
import copy
import math

import numpy as np
import pytest
import scipy.linalg as sla

from solver.analysis.modal import natural_modes
from solver.analysis.static import static_equilibrium
from solver.api import load_model, simulate
from solver.fem import modal as K
from solver.fem.modal_basis import inertia_integrals, link_mesh, modal_basis, shape_functions
from solver.model.io import examples_dir
from solver.model.validate import validate
from solver.system.assembly import Assembly
from solver.system.compile import compile_model

from .builders import as_modal, beam_model

#: Euler-Bernoulli beta L of the first three bending modes
CLAMPED_FREE = (1.8751040687, 4.6940911330, 7.8547574382)
FREE_FREE = (4.7300407449, 7.8532046241, 10.9956078380)


def euler_bernoulli(beta_L, EI=1e2, rhoA=1.0, L=1.0):
    """Bending frequencies, Hz."""
    return np.array(beta_L) ** 2 * math.sqrt(EI / (rhoA * L**4)) / (2 * math.pi)


# ----------------------------------------------------------------------------- the modes
@pytest.mark.parametrize("reference, clamp, beta_L", [("clamped", True, CLAMPED_FREE), ("free", False, FREE_FREE)])
def test_modes_reproduce_the_fe_model_and_euler_bernoulli(reference, clamp, beta_L):
    """The link's frequencies are those of the beam mesh they were built from (the mesh's
    generalised eigenproblem with the reference conditions as supports, solved directly) to
    round-off (1e-9), and of the corotational model of that mesh linearised (natural_modes) to 1e-7; the
    first three bending frequencies are Euler-Bernoulli's within 0.1 % (20 elements, no
    rotary inertia; the first axial mode is at 790 Hz, above the six compared)."""
    beam = beam_model(EA=1e7, EI=1e2, rhoA=1.0, n=20, clamp=clamp)
    link = compile_model(as_modal(beam, modes=6, reference=reference)).modal.links[0]
    mesh = link.mesh
    free = np.arange(3, 63) if clamp else np.arange(63)
    w2 = sla.eigh(mesh.K[np.ix_(free, free)], mesh.M[np.ix_(free, free)], eigvals_only=True)
    direct = np.sqrt(np.clip(w2, 0.0, None)) / (2 * math.pi)
    direct = direct[direct > 1e-3][:6]  # the free beam's rigid modes removed
    np.testing.assert_allclose(link.basis.frequencies, direct, rtol=1e-9)
    corotational = natural_modes(beam, count=9).frequencies
    np.testing.assert_allclose(link.basis.frequencies, corotational[corotational > 1e-3][:6], rtol=1e-7)
    np.testing.assert_allclose(link.basis.frequencies[:3], euler_bernoulli(beta_L), rtol=1e-3)


def test_a_clamped_modal_link_vibrates_at_its_mode_frequencies():
    """The whole system (mass and stiffness blocks of the modal link, the clamp's constraints)
    has the link's frequencies: natural_modes of the modal model equals the basis, to 1e-8."""
    doc = as_modal(beam_model(EA=1e9, EI=1e2, rhoA=1.0, rhoI=1e-4, n=12), modes=5, reference="clamped")
    link = compile_model(doc).modal.links[0]
    np.testing.assert_allclose(natural_modes(doc, count=5).frequencies, link.basis.frequencies, rtol=1e-8)


def test_static_correction_modes_keep_the_normal_frequencies_and_add_coordinates():
    mesh = link_mesh(np.linspace(0.0, 1.0, 11), 1e6, 1e2, 1.0, 0.0)
    plain = modal_basis(mesh, "clamped", 3)
    with_static = modal_basis(mesh, "clamped", 3, [30, 31])  # the tip's axial and transverse dofs
    assert with_static.count == 5 and with_static.normal == 3
    np.testing.assert_allclose(with_static.omega[:3], plain.omega, rtol=1e-10)
    # mass- and stiffness-orthogonal; each mode's largest nodal displacement is 1 m
    Mq = with_static.Phi.T @ mesh.M @ with_static.Phi
    np.testing.assert_allclose(Mq, np.diag(np.diag(Mq)), atol=1e-12)
    tr = np.hypot(with_static.Phi[0::3], with_static.Phi[1::3])
    np.testing.assert_allclose(tr.max(axis=0), 1.0, rtol=1e-12)


# ----------------------------------------------------------------------------- the kernel
def _one_link(stiffening=True, gravity=(0.3, -9.81), beta0=0.3):
    """A packed modal link (3 normal + 2 static modes, rotary inertia, tilted) and its mesh and basis."""
    mesh = link_mesh(np.linspace(0.0, 1.0, 6), 1e4, 10.0, 2.0, 0.01)
    basis = modal_basis(mesh, "clamped", 3, [15, 16])
    from solver.system.modal_links import ModalLink, ModalSet

    lk = ModalLink("l", "clamped", [f"n{k}" for k in range(6)], mesh, basis, inertia_integrals(mesh, basis.Phi),
                   (0.5, 0.0), beta0, math.nan, stiffening, np.full(basis.count, 0.02))
    lk.frame = tuple(range(3 + basis.count))
    return ModalSet.build([lk], gravity, 0.01).args, mesh, basis


def _forces(modal, p, pd, pdd, alpha=0.3, want=False, c=(0.0, 0.0, 0.0)):
    D = len(p)
    fi, fm, fd = np.zeros(D), np.zeros(D), np.zeros(D)
    K.assemble_modal(p, pd, pdd, modal, alpha, want, *c, fi, fm, fd)
    return fi, fm, fd


def _mass(modal, p):
    D = len(p)
    M = np.empty((D, D))
    K.mass_matrix(p, D - 3, modal[K.SCAL][0], modal[K.VEC][0], modal[K.MAT][0], M)
    return M


def test_inertia_force_is_lagranges_equation_of_the_kinetic_energy():
    """``M p'' + h`` equals ``d/dt dT/dp' - dT/dp`` with ``T = 1/2 p'^T M(p) p'``
    (derivatives of M by central differences), to 1e-8 of the force."""
    modal, _mesh, _basis = _one_link()
    rng = np.random.default_rng(0)
    D = modal[K.DOFS].shape[1]
    p, pd, pdd = 0.1 * rng.normal(size=D), rng.normal(size=D), rng.normal(size=D)
    eps = 1e-6
    dM = [(_mass(modal, p + eps * e) - _mass(modal, p - eps * e)) / (2 * eps) for e in np.eye(D)]
    lagrange = _mass(modal, p) @ pdd + sum(dM[k] * pd[k] for k in range(D)) @ pd
    lagrange -= np.array([0.5 * pd @ dM[k] @ pd for k in range(D)])
    f_in = _forces(modal, p, pd, pdd)[1]
    assert np.abs(f_in - lagrange).max() < 1e-8 * np.abs(lagrange).max()


def test_kinetic_energy_is_that_of_the_interpolated_beam():
    """``1/2 p'^T M p'`` equals the kinetic energy integrated over the deformed mesh
    (translation and rotary inertia, 6-point Gauss per element), to 1e-12."""
    modal, mesh, basis = _one_link()
    rng = np.random.default_rng(1)
    D = modal[K.DOFS].shape[1]
    p, pd = 0.1 * rng.normal(size=D), rng.normal(size=D)
    A = lambda a: np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])  # noqa: E731
    J = A(math.pi / 2)
    w = mesh.undeformed() + basis.Phi @ p[3:]
    wd = basis.Phi @ pd[3:]
    xg, wg = np.polynomial.legendre.leggauss(6)
    T = 0.0
    for e, (idx, Le) in enumerate(zip(mesh.element_dofs(), mesh.element_lengths)):
        for xi, weight in zip(0.5 * xg + 0.5, 0.5 * wg):
            Nu, Nv, dNv = shape_functions(xi, Le)
            u, ud = np.array([Nu @ w[idx], Nv @ w[idx]]), np.array([Nu @ wd[idx], Nv @ wd[idx]])
            r_dot = pd[:2] + pd[2] * A(p[2]) @ J @ A(0.3) @ u + A(p[2]) @ A(0.3) @ ud
            T += 0.5 * Le * weight * (mesh.rhoA * r_dot @ r_dot + mesh.rhoI * (pd[2] + dNv @ wd[idx]) ** 2)
    assert 0.5 * pd @ _mass(modal, p) @ pd == pytest.approx(T, rel=1e-12)


def test_newton_block_is_the_exact_derivative():
    """The block ``c_a M + c_v C + c_k K`` equals the derivatives of the total force by central
    differences (inertia, gyroscopic, damping, stiffening, gravity), to 1e-7 of its size."""
    modal, _mesh, _basis = _one_link()
    rng = np.random.default_rng(2)
    D = modal[K.DOFS].shape[1]
    p, pd, pdd = 0.1 * rng.normal(size=D), rng.normal(size=D), rng.normal(size=D)
    c = (2.0, 3.0, 5.0)
    _forces(modal, p, pd, pdd, want=True, c=c)
    block = modal[K.BLOCKS][0].copy()

    def total(*args):
        return sum(_forces(modal, *args))

    h = 1e-6
    fd = np.zeros((D, D))
    for k, e in enumerate(np.eye(D) * h):
        fd[:, k] = (c[0] * (total(p, pd, pdd + e) - total(p, pd, pdd - e))
                    + c[1] * (total(p, pd + e, pdd) - total(p, pd - e, pdd))
                    + c[2] * (total(p + e, pd, pdd) - total(p - e, pd, pdd))) / (2 * h)
    assert np.abs(block - fd).max() < 1e-7 * np.abs(fd).max()


def test_elastic_force_and_gravity_are_gradients_of_their_energies():
    """``dU/dq`` (with geometric stiffening) and ``-dV/dp`` (gravity) by central differences, to 1e-7."""
    modal, _mesh, _basis = _one_link()
    rng = np.random.default_rng(3)
    D = modal[K.DOFS].shape[1]
    p, zero = 0.05 * rng.normal(size=D), np.zeros(D)
    q0 = np.zeros(D)

    def energy(x):
        return np.array(K.modal_energies(x, zero, q0, modal))

    h = 1e-6
    grad = np.array([(energy(p + e) - energy(p - e)) / (2 * h) for e in np.eye(D) * h])  # (D, 4)
    f_int = _forces(modal, p, zero, zero)[0]  # elastic minus gravity
    assert np.abs(f_int - grad[:, 1] - grad[:, 2]).max() < 1e-7 * np.abs(grad[:, 1:3]).max()


@pytest.mark.parametrize("stiffening", [False, True])
def test_rigid_motion_gives_no_elastic_force(stiffening):
    """A modal link moved and turned rigidly (q = 0, any R, theta, velocities) has no elastic
    force: without gravity and at rest the internal force is zero to round-off."""
    modal, _mesh, _basis = _one_link(stiffening=stiffening, gravity=(0.0, 0.0))
    D = modal[K.DOFS].shape[1]
    for theta in (0.3, 2.0, -2.9, 7.5):
        p = np.zeros(D)
        p[:3] = (1.7, -0.4, theta)
        f_int, _f_in, f_d = _forces(modal, p, np.zeros(D), np.zeros(D))
        assert np.abs(f_int).max() < 1e-12
        assert np.abs(f_d).max() < 1e-12


# ----------------------------------------------------------------------------- the rigid limit
def test_a_modal_link_without_modes_is_the_rigid_link():
    """The pendulum of pendulum_impact.json with its rod a modal link of 0 modes (rhoI = 0):
    the frame at the centre of mass has the rigid link's coordinates and equations, so the
    impulses, their times and the velocities after them equal the rigid run's to 1e-9."""
    rigid = load_model(examples_dir() / "pendulum_impact.json")
    modal = copy.deepcopy(rigid)
    modal["links"][0] = {"id": "rod", "kind": "modal", "nodes": ["O", "tip"], "modes": 0,
                         "section": {"kind": "per_length", "EA": 1e9, "EI": 1e5, "rhoA": 1.0, "rhoI": 0.0}}
    a, b = simulate(rigid), simulate(modal)
    ea = [e for e in a.events if e["kind"] == "impulse"]
    eb = [e for e in b.events if e["kind"] == "impulse"]
    assert len(ea) == len(eb) == 3
    for x, y in zip(ea, eb):
        assert x["type"] == y["type"]
        for key in ("time_s", "I_n_N_s", "I_t_N_s", "v_n_post_m_s", "v_t_post_m_s", "dT_J"):
            assert y[key] == pytest.approx(x[key], abs=1e-9)
    tip = a.node_index("tip")
    np.testing.assert_allclose(b.stack("node_v")[:, tip], a.stack("node_v")[:, tip], atol=1e-9)


# ----------------------------------------------------------------------------- statics
def test_static_correction_mode_makes_the_tip_deflection_exact():
    """Clamped modal cantilever with a tip load: with the tip's static correction modes and no
    normal mode at all, the tip deflection is the FE (and beam theory) value PL^3 / 3EI to
    1e-9; with normal modes only, the error falls as modes are added."""
    P, L, EI = -1.0, 1.0, 1e2
    beam = beam_model(EA=1e9, EI=EI, n=10, clamp=True, loads=[{"node": "tip", "fy": P}])
    exact = P * L**3 / (3 * EI)
    static = static_equilibrium(as_modal(beam, modes=0, static_modes=True, reference="clamped"), load_steps=1)
    assert static.node_xy("tip")[1] == pytest.approx(exact, rel=1e-9)
    errors = [abs(static_equilibrium(as_modal(beam, modes=n, reference="clamped"), load_steps=1).node_xy("tip")[1]
                  / exact - 1) for n in (1, 2, 4)]
    assert errors[0] < 0.03 and errors[1] < errors[0] and errors[2] < errors[1]


def test_a_load_at_an_interior_node_of_a_simply_supported_modal_link():
    """A modal link pinned to ground at one end, on a slider at the other, loaded at a node in
    the middle of its span (a node of the link): with pinned reference conditions and static
    correction modes the mid-span deflection is PL^3 / 48EI and the moment there PL/4, to 1e-9."""
    P, L, EI = -2.0, 1.0, 1e2
    doc = beam_model(EA=1e9, EI=EI, n=10, clamp=False, loads=[{"node": "mid", "fy": P}])
    doc["nodes"].append({"id": "mid", "x": 0.5, "y": 0.0})
    doc["links"][0]["nodes"].append("mid")
    doc["joints"] = [{"id": "pin", "kind": "ground", "node": "root"}, {"id": "roller", "kind": "slider", "node": "tip"}]
    doc = as_modal(doc, modes=2, reference="pinned", static_modes=True)
    assert validate(doc) == []
    eq = static_equilibrium(doc, load_steps=1)
    assert eq.node_xy("mid")[1] == pytest.approx(P * L**3 / (48 * EI), rel=1e-9)
    from solver.results.outputs import OutputBuilder
    from solver.system.state import State

    zero = np.zeros(eq.asm.n)
    out = OutputBuilder(eq.asm)
    frame = out.frame(State(0.0, eq.q, zero, zero, eq.lam))
    assert frame.midspan[0] == pytest.approx(P * L**2 / (48 * EI), rel=1e-9)
    k = [i for i, e in enumerate(out.layout.elements) if e[2] == "mid"][0]
    assert frame.bending_moment[k, 0] == pytest.approx(-P * L / 4, rel=1e-9)


# ----------------------------------------------------------------------------- dynamics
def _momenta(asm, q, v):
    """Linear momentum and angular momentum about the origin of the one modal link, from its
    conjugate momenta ``M p'`` (``p_theta`` is the angular momentum about the frame's origin R)."""
    dofs = list(asm.sys.modal.frames[0][1])
    mom = _mass(asm.modal, q[dofs]) @ v[dofs]
    R = q[dofs[:2]]
    return np.array([mom[0], mom[1], mom[2] + R[0] * mom[1] - R[1] * mom[0]])


@pytest.mark.parametrize("stiffening", [False, True])
def test_free_flight_keeps_energy_and_momenta(stiffening):
    """A free-free modal link thrown spinning at 6 rad/s with its three modes vibrating
    (q' = 0.3 m/s each; with stiffening the axial coordinates start at rest) over 0.5 s:
    the linear momentum is an exact invariant of the scheme (to 1e-11 N s); the energy and
    the angular momentum drift by less than 1e-4 at the 1 ms step and at least three times
    less when the step is halved (second order: 1.4e-6 -> 3.5e-7 without stiffening)."""
    from solver.integration.newmark import NewmarkIntegrator
    from solver.system.initial import initial_state, restart
    from solver.system.state import State

    doc = as_modal(beam_model(EA=1e5, EI=50.0, rhoA=1.0, rhoI=1e-3, n=8, clamp=False), modes=3,
                   reference="free", stiffening=stiffening)
    asm = Assembly(compile_model(doc))
    s0 = initial_state(asm)
    dofs = list(asm.sys.modal.frames[0][1])
    G = asm.sys.constraints.jacobian_dense(s0.q, asm.n)
    N = sla.null_space(G)
    wanted = np.zeros(len(dofs))
    wanted[:6] = (0.5, -0.2, 6.0, 0.3, 0.3, 0.3)  # frame, then the three normal modes
    v = N @ np.linalg.lstsq(N[dofs], wanted, rcond=None)[0]  # the nodes follow the link
    start = restart(asm, State(0.0, s0.q, v, s0.a, s0.lam))
    drifts = []
    for h in (1e-3, 5e-4):
        integ, s = NewmarkIntegrator(asm, asm.sys.settings), start
        E, P = [], []
        for _ in range(round(0.5 / h)):
            s, _it = integ.step(s, h)
            E.append(asm.kinetic_energy(s.q, s.v) + asm.strain_energy(s.q))
            P.append(_momenta(asm, s.q, s.v))
        E, P = np.array(E), np.array(P)
        assert np.abs(P[:, :2] - P[0, :2]).max() < 1e-11
        drifts.append((np.ptp(E) / E.mean(), np.ptp(P[:, 2]) / abs(P[0, 2])))
    drifts = np.array(drifts)
    assert (drifts[0] < 1e-4).all()
    assert (drifts[1] < drifts[0] / 3).all()


def test_modes_of_the_rotary_inertia_alone_are_scaled_and_kept():
    """A thick link (the robot arm's rhoI = 10 kg m with 5 elements) has modes that turn the
    sections without moving the nodes; with the axial coordinates of geometric stiffening they
    are kept (the combined basis spans the whole mesh less the reference conditions: 15) and
    scaled to a section rotation of one per element length, not blown up to a unit translation."""
    mesh = link_mesh(np.linspace(0.0, 10.0, 6), 1e4, 1e3, 1.0, 10.0)
    for reference in ("clamped", "pinned", "free"):
        basis = modal_basis(mesh, reference, 12, [3 * k for k in range(6)])
        assert basis.count == 15 and np.isfinite(basis.Phi).all()
        moves = np.hypot(basis.Phi[0::3], basis.Phi[1::3]).max(axis=0)
        turns = 2.0 * np.abs(basis.Phi[2::3]).max(axis=0)  # element length 2 m
        assert np.all(np.isclose(moves, 1.0, rtol=1e-12) | np.isclose(turns, 1.0, rtol=1e-12))
        assert np.all(np.diff(basis.omega) > 0)


# ----------------------------------------------------------------------------- damping, contact, results
@pytest.mark.parametrize("zeta, beta", [(0.05, 0.0), (0.0, 2e-4)])
def test_each_mode_is_damped_at_its_ratio(zeta, beta):
    """A clamped modal cantilever with one mode, released with a modal velocity: the amplitude
    decays as exp(-zeta omega t) with zeta the link's damping ratio or Rayleigh's beta omega / 2,
    measured from successive peaks of q over 0.5 s to 2 %."""
    from solver.integration.newmark import NewmarkIntegrator
    from solver.system.initial import initial_state, restart
    from solver.system.state import State

    doc = as_modal(beam_model(EA=1e7, EI=1e2, rhoA=1.0, n=10, clamp=True), modes=1, reference="clamped",
                   damping_ratios=[zeta])
    doc["damping"] = {"beta": beta}
    asm = Assembly(compile_model(doc))
    link = asm.sys.modal.links[0]
    omega = link.basis.omega[0]
    expected = zeta + beta * omega / 2
    s = initial_state(asm)
    G = asm.sys.constraints.jacobian_dense(s.q, asm.n)
    N = sla.null_space(G)
    dofs = list(link.frame)
    v = N @ np.linalg.lstsq(N[dofs], np.array([0.0, 0.0, 0.0, 1.0]), rcond=None)[0]
    s = restart(asm, State(0.0, s.q, v, s.a, s.lam))
    integ, h = NewmarkIntegrator(asm, asm.sys.settings), 2 * math.pi / omega / 200
    q = []
    for _ in range(round(0.5 / h)):
        s, _it = integ.step(s, h)
        q.append(s.q[dofs[3]])
    q = np.array(q)
    peaks = [i for i in range(1, len(q) - 1) if q[i - 1] < q[i] > q[i + 1]]
    t_peaks = np.array(peaks) * h
    rate = -np.polyfit(t_peaks, np.log(q[peaks]), 1)[0]
    assert rate / omega == pytest.approx(expected, rel=2e-2)



#: a pair of the tip against a floor it never reaches (Lagrange: its open steps are compiled runs)
FAR_FLOOR = {"id": "floor", "point": {"node": "tip"}, "target": {"kind": "ground_line", "y": -0.5},
             "model": {"kind": "lagrange"}}


@pytest.mark.parametrize("path, extra", [
    ("free steps", {}),
    ("open steps", {"contacts": [FAR_FLOOR]}),
    ("steps one by one", {"loads": [{"id": "push", "node": "tip", "fy": 2.0}]}),
    ("with Rayleigh damping", {"damping": {"alpha": 0.5, "beta": 2e-4}}),
])
def test_modal_damping_is_booked_in_the_energy_balance(path, extra):
    """A clamped modal cantilever (two modes, zeta = 0.05) sagging under gravity for 0.5 s: the
    modal damping's work is booked at each step's mean motion, ``h v_m^T Cqq v_m`` (the
    trapezoidal rule's own, as Rayleigh damping's), so kinetic + strain + potential energy +
    the damping dissipated - the loads' work stays constant to 1e-6 of the energy in play
    (measured: 2e-14 to 5e-14) in every path of the time loop: compiled runs of free steps,
    compiled open steps of a Lagrange pair, steps one by one (a load keeps a model out of the
    compiled runs), and with Rayleigh damping too.  Issue 26: none was booked without Rayleigh
    damping, 0.0200 J over 0.5 s (24 % of the energy in play) lost without a word."""
    doc = as_modal(beam_model(EA=1e7, EI=1e2, rhoA=1.0, n=10, clamp=True), modes=2, reference="clamped",
                   damping_ratios=[0.05])
    doc.update(gravity={"y": -9.81}, solver={"step": 1e-3, "end_time": 0.5}, **extra)
    res = simulate(doc)
    assert res.meta["status"] == "completed"
    total = res.total_energy()
    in_play = max(res.energy("kinetic") + res.energy("strain"))
    assert res.energy("dissipated_damping")[-1] > 0.05 * in_play
    assert np.max(np.abs(total - total[0])) < 1e-6 * in_play

def test_a_body_bounces_off_a_modal_link():
    """A 0.1 kg point body dropped at 1 m/s onto the middle of a clamped horizontal modal link
    (the contact target is the link's deformed mesh): it rebounds, and with e = 1 energetic
    and mu = 0 the energy stays within 0.5 % of the energy in play."""
    doc = as_modal(beam_model(EA=1e6, EI=20.0, rhoA=1.0, n=10, clamp=True), modes=3, reference="clamped")
    doc["bodies"] = [{"id": "ball", "x": 0.55, "y": 0.01, "mass": 0.1}]
    doc["initial_velocities"] = [{"body": "ball", "vy": -1.0}]
    doc["contacts"] = [{"id": "ball-beam", "point": {"body": "ball"}, "target": {"kind": "link", "link": "beam"},
                        "e": 1.0, "law": "energetic"}]
    doc["solver"] = {"end_time": 0.1, "step": 2e-4}
    assert validate(doc) == []
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    ball = res.node_index("ball")
    assert res.stack("node_v")[-1, ball, 1] > 0.5  # bounced back up
    assert [e for e in res.events if e["kind"] == "impulse"]
    total = res.total_energy()
    assert np.ptp(total) < 5e-3 * np.max(res.energy("kinetic") + res.energy("strain"))
    # every mesh node of the target link carries dofs (its segments follow the deformed mesh)
    assert [n for n in res.layout.nodes if n.startswith("beam.")] == [f"beam.{k}" for k in range(1, 10)]


def test_modal_coordinates_are_written_and_read_back(tmp_path):
    """The modes table holds each coordinate, its rates and the mode's energies; load_results gives
    the frames' arrays back bit for bit, and the layout names the modes and their frequencies."""
    from solver.results.files import export_csv, load_results, write_results

    res = simulate(load_model(examples_dir() / "pendulum_flexible_modal3_energetic.json"))
    write_results(res, tmp_path)
    back = load_results(tmp_path)
    assert back.layout.modes == [("rod", 1), ("rod", 2), ("rod", 3)]
    np.testing.assert_array_equal(back.layout.mode_frequency, res.layout.mode_frequency)
    for name in ("modal_q", "modal_qd", "modal_qdd", "modal_strain_energy", "modal_kinetic_energy"):
        np.testing.assert_array_equal(back.stack(name), res.stack(name))
    export_csv(tmp_path, tables=["modes"])
    header = (tmp_path / "modes.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "time_s,link,mode,q_m,qdot_m_s,qddot_m_s2,strain_energy_J,kinetic_energy_J"
    # the energy per mode: 1/2 k q^2 with k the modal stiffness
    link = compile_model(res.model).modal.links[0]
    f = res.frames[-1]
    np.testing.assert_allclose(f.modal_strain_energy, 0.5 * link.basis.stiffness * f.modal_q**2, rtol=1e-12)


# ----------------------------------------------------------------------------- bad input
def test_bad_modal_links_are_refused_naming_the_field():
    """A node off the segment between the end nodes, more modes than the mesh has, an unknown
    reference condition: each a problem naming its field, never a traceback."""
    doc = as_modal(beam_model(n=4), modes=20)
    doc["nodes"].append({"id": "off", "x": 0.5, "y": 0.1})
    doc["links"][0]["nodes"].append("off")
    problems = [str(p) for p in validate(doc)]
    assert "links[beam].nodes[2]: node 'off' is not on the link between 'root' and 'tip'" in problems
    assert any(p.startswith("links[beam].modes: must be at most 12") for p in problems)
    doc = as_modal(beam_model(n=4), reference="hinged")
    assert [str(p) for p in validate(doc)] == ["links[beam].reference: must be one of clamped | pinned | free"]
    doc = as_modal(beam_model(n=4), damping_ratios=[0.1, 1.5])
    assert [str(p) for p in validate(doc)] == ["links[beam].damping_ratios[1]: must be < 1"]


def test_a_modal_link_welded_to_a_corotational_one():
    """A cantilever made of a corotational half clamped at the root and a modal half welded to
    it (their rotations shared through the modal link's section-rotation row): under a tip
    load the tip deflection is PL^3 / 3EI and the slope at the weld P a (2L - a) / 2EI, to 1e-8
    (static correction modes of a force and a moment at the weld and at the loaded tip; a load
    small enough for the corotational half's geometric nonlinearity to stay below that), and
    the two halves leave the weld with one slope."""
    P, L, EI = -1e-3, 1.0, 1e2
    section = {"kind": "per_length", "EA": 1e9, "EI": EI, "rhoA": 1.0}
    doc = {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "root", "x": 0.0, "y": 0.0}, {"id": "mid", "x": 0.5, "y": 0.0},
                  {"id": "tip", "x": 1.0, "y": 0.0}],
        "links": [
            {"id": "inner", "kind": "flexible", "nodes": ["root", "mid"], "section": section, "mesh": {"elements": 5}},
            {"id": "outer", "kind": "modal", "nodes": ["mid", "tip"], "section": section, "mesh": {"elements": 5},
             "modes": 2, "reference": "pinned", "static_modes": True},
        ],
        "joints": [{"id": "clamp", "kind": "fixed", "node": "root"},
                   {"id": "weld", "kind": "weld", "node": "mid", "links": ["inner", "outer"]}],
        "loads": [{"id": "push", "node": "tip", "fy": P}],
    }
    assert validate(doc) == []
    eq = static_equilibrium(doc, load_steps=1)
    assert eq.node_xy("tip")[1] == pytest.approx(P * L**3 / (3 * EI), rel=1e-8)
    assert eq.rotation("mid", "inner") == pytest.approx(eq.rotation("mid", "outer"), abs=1e-14)
    assert eq.rotation("mid", "inner") == pytest.approx(P * 0.5 * (2 * L - 0.5) / (2 * EI), rel=1e-8)


def test_the_created_energy_watch_books_modal_damping_at_each_step_of_a_compiled_run(monkeypatch):
    """The modal cantilever of the test above with a far Lagrange floor, undamped (tau unset: the
    created-energy watch looks at every step) and a frame every 50 steps: inside a compiled run
    of open steps the watch reads the balance with the modal damping booked to each step, the
    balance it reads stepping one by one (equal to 1e-12 of the energy in play).  It read the
    damping as at the run's start: 4.1e-3 J low at 0.049 s, 8.7 % of the energy in play, which
    hid a created energy of up to 8.7 times the watch's onset until the run's end."""
    from solver.integration.divergence import DivergenceWatch
    from solver.integration.open_steps import OpenGaps

    doc = as_modal(beam_model(EA=1e7, EI=1e2, rhoA=1.0, n=10, clamp=True), modes=2, reference="clamped",
                   damping_ratios=[0.05])
    doc.update(gravity={"y": -9.81}, solver={"step": 1e-3, "end_time": 0.1, "output_interval": 0.05},
               contacts=[FAR_FLOOR])
    seen, created = {}, DivergenceWatch.created_energy

    def balance_seen(watch, st):
        seen[round(st.t / 1e-3)] = watch.balance(st) - watch._balance0
        return created(watch, st)

    monkeypatch.setattr(DivergenceWatch, "created_energy", balance_seen)
    compiled = simulate(doc)
    in_compiled_run, seen = seen, {}
    monkeypatch.setattr(OpenGaps, "serves", staticmethod(lambda contacts: False))
    stepped = simulate(doc)
    assert compiled.completed and stepped.completed
    assert sorted(in_compiled_run) == sorted(seen) == list(range(1, 101))
    in_play = max(stepped.energy("kinetic") + stepped.energy("strain"))
    for k, balance in seen.items():
        assert in_compiled_run[k] == pytest.approx(balance, abs=1e-12 * in_play), k
