"""Newmark dynamics: closed-form kinematics, inverse dynamics, invariants of free flight."""
import numpy as np
import pytest

from solver.api import load_model, simulate
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.model.io import examples_dir

from .builders import rigid_slider_crank


def slider_position(theta, r=0.15, l=0.3):
    return r * np.cos(theta) + np.sqrt(l * l - (r * np.sin(theta)) ** 2)


def test_rigid_slider_crank_follows_closed_form_kinematics():
    res = simulate(rigid_slider_crank())
    assert res.completed
    t = res.time
    xB = res.stack("node_xy")[:, res.node_index("B"), 0]
    np.testing.assert_allclose(xB, slider_position(150.0 * t), atol=1e-6)
    yB = res.stack("node_xy")[:, res.node_index("B"), 1]
    assert np.abs(yB).max() < 1e-9


def test_driver_torque_matches_inverse_dynamics():
    """Motor torque of a rigid slider-crank at constant speed: tau = 1/2 J'(theta) omega^2."""
    r, l, w = 0.15, 0.3, 150.0
    mc, mr, ms = 0.1, 0.2, 0.1
    res = simulate(rigid_slider_crank(r=r, l=l, omega=w, m_crank=mc, m_rod=mr, m_slider=ms, steps_per_rev=2000))
    theta = w * res.time

    def J_eff(th):
        # kinetic energy / (1/2 omega^2) from the exact kinematics
        phi = np.arcsin(r * np.sin(th) / l)  # rod angle below the x axis
        dphi = r * np.cos(th) / (l * np.cos(phi))  # d phi / d theta
        vA = np.array([-r * np.sin(th), r * np.cos(th)])
        vB = -r * np.sin(th) - l * np.sin(phi) * dphi
        vG = np.array([(vA[0] + vB) / 2, vA[1] / 2])
        return mc * r * r / 3 + mr * (vG**2).sum(axis=0) + mr * l * l / 12 * dphi**2 + ms * vB**2

    dth = 1e-6
    tau = 0.5 * (J_eff(theta + dth) - J_eff(theta - dth)) / (2 * dth) * w * w
    got = res.stack("driver_reaction")[:, 0]
    assert np.abs(got - tau).max() < 2e-3 * np.abs(tau).max()


def test_rigid_driven_mechanism_conserves_energy_with_motor_work():
    res = simulate(rigid_slider_crank(steps_per_rev=1000))
    T = res.energy("kinetic")
    W = res.energy("work_drivers")
    assert np.abs(T - W - T[0]).max() < 1e-4 * T.max()


def flying_beam(step, formulation="consistent", end_time=4.0):
    doc = load_model(examples_dir() / "flying_beam.json")
    doc["solver"].update(step=step, end_time=end_time, output_interval=0.05, formulation=formulation)
    return doc


def invariants(doc, res):
    """Relative drift of total energy, linear and angular momentum (about the origin) after the loads end.

    The momenta are the discrete Noether quantities of T = 1/2 qdot^T M(q) qdot: the
    generalised momentum M qdot projected on rigid translation and rigid rotation."""
    asm = Assembly(compile_model(doc))
    s = asm.sys
    out = []
    for f in res.frames:
        if f.time < 2.5 - 1e-9:
            continue
        q, v = np.zeros(s.n), np.zeros(s.n)
        q[s.node_dofs], v[s.node_dofs] = f.node_xy, f.node_v
        q[s.rot_dofs], v[s.rot_dofs] = f.rot, f.rot_v
        Me = asm.mass_matrix_elements(q)
        Mv = np.bincount(s.elem_dofs.ravel(), weights=np.einsum("eij,ej->ei", Me, v[s.elem_dofs]).ravel(), minlength=s.n)
        xy, p = q[s.node_dofs], Mv[s.node_dofs]
        H = float((xy[:, 0] * p[:, 1] - xy[:, 1] * p[:, 0]).sum() + Mv[s.rot_dofs].sum())
        out.append((f.energy["kinetic"] + f.energy["strain"], p[:, 0].sum(), p[:, 1].sum(), H))
    a = np.array(out)
    d = np.abs(a - a[0]).max(axis=0)
    momentum = np.hypot(a[0, 1], a[0, 2])
    return np.array([d[0] / a[0, 0], np.hypot(d[1], d[2]) / momentum, d[3] / abs(a[0, 3])])


@pytest.mark.slow
def test_flying_beam_conserves_energy_and_momenta_at_second_order():
    steps = [0.005, 0.0025, 0.00125]
    drifts = []
    for h in steps:
        doc = flying_beam(h, end_time=6.0)
        res = simulate(doc)
        assert res.completed
        drifts.append(invariants(doc, res))
    drifts = np.array(drifts)  # rows: steps; cols: energy, linear momentum, angular momentum
    example_step = load_model(examples_dir() / "flying_beam.json")["solver"]["step"]
    at_example = drifts[steps.index(example_step)]
    assert (at_example < 1e-3).all(), at_example
    # second order: the slope of log(drift) against log(step) (measured: 2.4, 2.0, 2.4)
    order = np.polyfit(np.log(steps), np.log(drifts), 1)[0]
    assert (order > 1.8).all(), order


def test_thesis_form_drifts_where_the_consistent_one_does_not():
    drift_thesis = invariants(flying_beam(0.01, "thesis"), simulate(flying_beam(0.01, "thesis")))
    drift_cons = invariants(flying_beam(0.01), simulate(flying_beam(0.01)))
    assert drift_thesis[0] > 10 * drift_cons[0]
    assert drift_thesis[2] > 10 * drift_cons[2]


@pytest.mark.parametrize("elements", [8, 64])
def test_driven_mechanism_starts_with_the_rigid_velocity_field(elements):
    """Slider-crank at 150 rad/s from the collinear position: the rod turns at -75 rad/s
    about B at every node, however fine the mesh."""
    from solver.system.initial import initial_state

    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    doc["links"][1]["mesh"]["elements"] = elements
    asm = Assembly(compile_model(doc))
    st = initial_state(asm)
    s = asm.sys
    rod = [d for (_n, link), d in zip(s.rot_slots, s.rot_dofs) if link == "rod"]
    np.testing.assert_allclose(st.v[rod], -75.0, atol=1e-8)
    xy, vel = st.q[s.node_dofs], st.v[s.node_dofs]
    B = xy[s.node_ids.index("B")]
    expected = np.stack([75.0 * (xy[:, 1] - B[1]), -75.0 * (xy[:, 0] - B[0])], axis=1)
    rod_nodes = [i for i, n in enumerate(s.node_ids) if n in ("A", "B") or n.startswith("rod.")]
    np.testing.assert_allclose(vel[rod_nodes], expected[rod_nodes], atol=1e-9)


def test_consistent_inertia_is_exact_for_a_rigidly_spinning_element():
    """A free undeformed element spinning at omega about the origin: the inertia forces are
    the consistent loads of the centripetal accelerations, and they balance no strain."""
    from solver.fem.beam import FORMULATIONS, element_terms

    w = 75.0
    doc = {"format": "flexmech", "version": 1, "nodes": [{"id": "a", "x": 0.1, "y": 0.2}, {"id": "b", "x": 0.25, "y": 0.2}],
           "links": [{"id": "e", "kind": "flexible", "nodes": ["a", "b"], "mesh": {"elements": 1},
                      "section": {"kind": "per_length", "EA": 1e6, "EI": 10.0, "rhoA": 2.0, "rhoI": 0.0}}]}
    asm = Assembly(compile_model(doc))
    q = asm.sys.q0[asm.sys.elem_dofs[0]]
    xy = q[[0, 1, 3, 4]].reshape(2, 2)
    v = np.array([-w * xy[0, 1], w * xy[0, 0], w, -w * xy[1, 1], w * xy[1, 0], w])
    a = np.array([-w * w * xy[0, 0], -w * w * xy[0, 1], 0.0, -w * w * xy[1, 0], -w * w * xy[1, 1], 0.0])
    out = {}
    for name in ("consistent", "thesis"):
        f_in = np.zeros(6)
        element_terms(q, v, a, asm.secs[0], asm.Mbar[0], FORMULATIONS[name], 0.0, 0.0, False, 0, 0, 0,
                      np.zeros(6), f_in, np.zeros(6), np.zeros((6, 6)))
        out[name] = f_in
    # consistent nodal loads of the linear distribution rhoA a(x) with Hermite shapes (A.9)
    np.testing.assert_allclose(out["consistent"], out["thesis"], atol=1e-9 * np.abs(out["thesis"]).max())
