"""The Lagrange-multiplier contact model (thesis ch. 4) against closed forms: a block resting and
sliding on an incline (Coulomb, eqs. 4.5-4.6), a bead in a bowl and on a dome (curved target,
release when the force would pull, §4.1), a stone on a link, and the bordered solve of App. B."""
import math

import numpy as np
import pytest

from solver.api import simulate
from solver.model.io import model_with_defaults
from solver.system.compile import compile_model
from solver.system.impact_times import LAGRANGE_COURANT, impact_time_step, run_impact_step, struck_transit
from solver.system.banded import BandLU, BandPattern
from solver.system.bordered import ContactRows, bordered_solve

G = 9.81


def block(target, xy, v=(0.0, 0.0), mu_s=0.0, mu_d=0.0, end=0.5, step=1e-3, **solver):
    """A point mass of 2 kg under gravity against ``target`` with the Lagrange model."""
    return {
        "format": "flexmech", "version": 1, "nodes": [],
        "bodies": [{"id": "block", "x": xy[0], "y": xy[1], "mass": 2.0}],
        "gravity": {"y": -G},
        "contacts": [{"id": "c", "point": {"body": "block"}, "target": target, "mu_s": mu_s, "mu_d": mu_d,
                      "model": {"kind": "lagrange"}}],
        "initial_velocities": [{"body": "block", "vx": v[0], "vy": v[1]}],
        "solver": dict({"end_time": end, "step": step, "output_interval": 0.0}, **solver),
    }


def series(res, key):
    return np.array([f.contact[key][0] for f in res.frames])


def incline(theta, mu_s, mu_d, end=0.5):
    """The block on a line through the origin at ``theta``, starting on it at rest."""
    s0 = 1.0
    target = {"kind": "ground_line", "x": 0.0, "y": 0.0, "angle": theta}
    return simulate(block(target, (s0 * math.cos(theta), s0 * math.sin(theta)), mu_s=mu_s, mu_d=mu_d, end=end,
                          step=1e-4, output_interval=1e-3)), s0


def test_a_block_sticks_on_an_incline_flatter_than_its_friction_angle():
    """tan 20° = 0.364 < mu_s = 0.5: it stays, held by F_n = m g cos θ and F_t = m g sin θ."""
    theta = math.radians(20.0)
    res, s0 = incline(theta, 0.5, 0.4)
    assert res.completed
    late = res.time > 0.05
    assert series(res, "state")[late] == pytest.approx(2)  # stick
    assert series(res, "F_n_N")[late] == pytest.approx(2.0 * G * math.cos(theta), rel=1e-6)
    assert series(res, "F_t_N")[late] == pytest.approx(2.0 * G * math.sin(theta), rel=1e-6)  # t points up the slope
    xy = res.stack("node_xy")[-1, 0]
    assert np.hypot(*xy) == pytest.approx(s0, abs=1e-6)
    assert res.energy("dissipated_friction")[-1] == pytest.approx(0.0, abs=1e-6)


def test_a_block_slides_down_a_steeper_incline_with_coulomb_friction():
    """tan 30° > mu_s = 0.3: it slides down with a = g (sin θ - mu_d cos θ), held by F_n = m g cos θ,
    braked by F_t = mu_d F_n (eq. 4.5); friction dissipates mu_d F_n times the distance."""
    theta, mu = math.radians(30.0), 0.25
    res, s0 = incline(theta, 0.3, mu)
    assert res.completed
    a = G * (math.sin(theta) - mu * math.cos(theta))
    t = res.time[-1]
    s = np.hypot(*res.stack("node_xy")[-1, 0])
    assert s0 - s == pytest.approx(0.5 * a * t * t, rel=2e-3)  # one step of sticking at the onset
    late = res.time > 0.05
    assert series(res, "state")[late] == pytest.approx(1)  # slide
    F_n = 2.0 * G * math.cos(theta)
    assert series(res, "F_n_N")[late] == pytest.approx(F_n, rel=1e-6)
    assert series(res, "F_t_N")[late] == pytest.approx(mu * F_n, rel=1e-6)
    assert series(res, "v_t_m_s")[-1] == pytest.approx(-a * t, rel=2e-3)
    assert res.energy("dissipated_friction")[-1] == pytest.approx(mu * F_n * (s0 - s), rel=1e-3)
    drift = res.total_energy() - res.total_energy()[0]
    assert np.abs(drift).max() < 1e-6 * res.energy("kinetic").max()


def test_a_block_slides_off_the_end_of_a_ground_segment_and_falls():
    """Along a horizontal segment from x = 0.2 m at 2 m/s, braked by mu_d m g (F_n = m g), it
    reaches the end x = 1 m at t_e = (2 - sqrt(4 - 2 a 0.8)) / a, a = mu_d g; there the pair is
    released (the point left the target) and the block falls freely, y = -g (t - t_e)^2 / 2."""
    mu = 0.1
    segment = {"kind": "ground_segment", "x1": 0.0, "y1": 0.0, "x2": 1.0, "y2": 0.0}
    res = simulate(block(segment, (0.2, 0.0), v=(2.0, 0.0), mu_s=mu, mu_d=mu, end=0.6, step=1e-4,
                         output_interval=1e-3))
    assert res.completed
    a = mu * G
    t_edge = (2.0 - math.sqrt(4.0 - 2.0 * a * 0.8)) / a
    t, xy = res.time, res.stack("node_xy")[:, 0]
    on, off = (t > 0.01) & (t < t_edge - 0.01), t > t_edge + 0.01
    assert xy[on, 0] == pytest.approx(0.2 + 2.0 * t[on] - 0.5 * a * t[on] ** 2, abs=1e-8)
    assert series(res, "F_n_N")[on] == pytest.approx(2.0 * G, rel=1e-9)
    assert series(res, "state")[off] == pytest.approx(0)  # open
    assert xy[off, 1] == pytest.approx(-0.5 * G * (t[off] - t_edge) ** 2, abs=1e-4)  # m: one step's overshoot
    released = [e for e in res.events if e["kind"] == "separation"]
    assert [e["cause"] for e in released] == ["passed the end of the target"]
    assert released[0]["time_s"] == pytest.approx(t_edge, abs=2e-4)
    assert res.energy("dissipated_friction")[-1] == pytest.approx(mu * 2.0 * G * 0.8, rel=1e-3)


def test_a_bead_in_a_bowl_swings_with_the_normal_force_of_circular_motion():
    """Inside a circle of radius R, from the bottom at v0: frictionless, so it rises to v0^2 / 2g
    with F_n = m (v^2 / R + g cos φ) (the gap of a curved target is re-linearised, App. B)."""
    R, v0 = 0.5, 1.0
    res = simulate(block({"kind": "circle", "x": 0.0, "y": R, "radius": R, "inside": True}, (0.0, 0.0), v=(v0, 0.0),
                         end=1.2, step=5e-4))
    assert res.completed
    y = res.stack("node_xy")[:, 0, 1]
    assert y.max() == pytest.approx(v0 * v0 / (2 * G), rel=2e-3)
    dist = np.hypot(*(res.stack("node_xy")[:, 0] - [0.0, R]).T)[res.time > 1e-2]
    assert np.ptp(dist) < 1e-9 and abs(dist[0] - R) < 1e-6  # the gap held where the contact began (TOL_imp)
    v = res.stack("node_v")[:, 0]
    cos_phi = (R - y) / R
    F_expected = 2.0 * (np.sum(v * v, axis=1) / R + G * cos_phi)
    closed = series(res, "state") > 0
    assert closed[res.time > 1e-2].all()
    assert series(res, "F_n_N")[closed] == pytest.approx(F_expected[closed], rel=1e-3, abs=1e-6)
    E = res.energy("kinetic") + res.energy("potential")
    assert np.ptp(E) < 1e-4 * E[0]


def test_a_bead_leaves_a_dome_where_the_force_would_turn_tensile():
    """Over the top of a circle from (nearly) rest: the bead leaves where m g cos φ = m v^2 / R, i.e.
    cos φ = (2 + v0^2 / g R) / 3 (§4.1: release when the normal force would pull)."""
    R = 1.0
    v0 = 0.1 * math.sqrt(G * R)
    res = simulate(block({"kind": "circle", "x": 0.0, "y": 0.0, "radius": R}, (0.0, R), v=(v0, 0.0), end=1.2, step=5e-4))
    release = next(e for e in res.events if e["kind"] == "separation")
    xy = res.stack("node_xy")[np.searchsorted(res.time, release["time_s"]), 0]
    assert xy[1] / np.hypot(*xy) == pytest.approx((2 + v0 * v0 / (G * R)) / 3, rel=1e-3)
    assert release["cause"] == "tensile normal force"
    assert len([e for e in res.events if e["kind"] == "contact_start"]) == 1
    assert (series(res, "F_n_N") >= 0.0).all()


def test_a_stone_resting_on_a_link_is_held_by_its_weight():
    """A point on a rigid link (a segment between its nodes) and on a flexible clamped-clamped one:
    after the vibration dies out (mass-proportional damping, and tau = 0.6 for the light beam's
    own modes) the force is the weight, and the beam's mid-span deflection is P L^3 / 192 EI."""
    L, EI = 1.0, 50.0
    doc = block({"kind": "link", "link": "beam"}, (0.5, 0.0), end=1.5, step=2e-3, impact_step=2e-3, tau=0.6)
    doc["nodes"] = [{"id": "a", "x": 0.0, "y": 0.0}, {"id": "b", "x": L, "y": 0.0}]
    doc["links"] = [{"id": "beam", "kind": "flexible", "nodes": ["a", "b"], "mesh": {"elements": 4},
                     "section": {"kind": "per_length", "EA": 1e5, "EI": EI, "rhoA": 1e-3, "rhoI": 0.0}}]
    doc["joints"] = [{"id": "ca", "kind": "fixed", "node": "a"}, {"id": "cb", "kind": "fixed", "node": "b"}]
    doc["damping"] = {"alpha": 20.0}
    res = simulate(doc)
    assert res.completed
    assert series(res, "F_n_N")[-1] == pytest.approx(2.0 * G, rel=1e-3)
    mid = res.node_index("beam.2")
    assert -res.stack("node_xy")[-1, mid, 1] == pytest.approx(2.0 * G * L**3 / (192 * EI), rel=2e-3)
    doc["links"] = [{"id": "beam", "kind": "rigid", "nodes": ["a", "b"], "mass": 1.0}]
    doc["joints"] = [{"id": "w", "kind": "fixed", "node": "a"}]
    res = simulate(doc)
    assert series(res, "F_n_N")[-1] == pytest.approx(2.0 * G, rel=1e-6)


def test_bordered_solve_equals_the_dense_solution():
    """[A -C; R D] [x; lam] = [b; r] by the Schur complement on the contact rows (App. B) equals
    numpy's dense solve."""
    rng = np.random.default_rng(3)
    n = 9
    A = rng.normal(size=(n, n)) + n * np.eye(n)
    rows_i, cols_i = np.nonzero(np.ones((n, n)))
    lu = BandLU.of(BandPattern(rows_i, cols_i, n), A[rows_i, cols_i])
    rows = ContactRows.build(2)
    rows.dofs[:, :6] = [[0, 3, 5, 0, 0, 0], [1, 2, 8, 7, 0, 0]]  # the rest of the K slots: dof 0, unused
    rows.col[:, :4] = rng.normal(size=(2, 4))
    rows.row[:, :4] = rng.normal(size=(2, 4))
    rows.col[0, 3] = rows.row[0, 3] = 0.0
    rows.diag[:] = [0.0, 0.3]
    C = np.zeros((n, 2))
    R = np.zeros((2, n))
    for k in range(2):
        np.add.at(C[:, k], rows.dofs[k], rows.col[k])
        np.add.at(R[k], rows.dofs[k], rows.row[k])
    b, r = rng.normal(size=n), rng.normal(size=2)
    x, lam = bordered_solve(lu, rows, b, r)
    big = np.block([[A, -C], [R, np.diag(rows.diag)]])
    expected = np.linalg.solve(big, np.concatenate([b, r]))
    assert np.concatenate([x, lam]) == pytest.approx(expected, rel=1e-10, abs=1e-12)


def _pinned_rigid_link(kind):
    """A body striking a rigid link pinned to the end of a flexible one (4 elements, 0.3 m; the
    refinement oracle's generated model) or, with ``kind = "flexible"``, the same link flexible."""
    rigid = {"kind": "rigid", "mass": 0.2}
    flexible = {"kind": "flexible", "section": {"kind": "per_length", "EA": 1e6, "EI": 20.0, "rhoA": 0.5},
                "mesh": {"elements": 2}}
    return {
        "format": "flexmech", "version": 1,
        "nodes": [{"id": "n0", "x": 0.0, "y": 0.0}, {"id": "n1", "x": 0.3, "y": 0.0}, {"id": "n2", "x": 0.7, "y": 0.0}],
        "links": [{"id": "link0", "nodes": ["n0", "n1"], "kind": "flexible", "mesh": {"elements": 4},
                   "section": {"kind": "per_length", "EA": 1e6, "EI": 20.0, "rhoA": 0.5}},
                  {"id": "link1", "nodes": ["n1", "n2"], **(rigid if kind == "rigid" else flexible)}],
        "joints": [{"id": "pivot", "kind": "ground", "node": "n0"}],
        "bodies": [{"id": "body", "kind": "rigid", "x": 0.5, "y": 0.01, "mass": 0.5, "inertia": 2.5e-5, "radius": 0.0}],
        "contacts": [{"id": "body-link", "point": {"body": "body"}, "model": {"kind": "lagrange"},
                      "target": {"kind": "link", "link": "link1", "side": "left"}}],
        "solver": {"end_time": 0.01, "step": 5e-4},
    }


@pytest.mark.parametrize("kind", ["rigid", "flexible"])
def test_a_lagrange_pair_steps_by_the_elements_it_strikes(kind):
    """Issue 26: a Lagrange pair's impact step is 1 / sqrt(2) of the axial transit of the elements it
    strikes (a link target's own elements), not of the elements that share a node with a rigid link it
    strikes: there eq. (3.5)'s step stays, and the onset takes no damped steps."""
    sys = compile_model(model_with_defaults(_pinned_rigid_link(kind)))
    transit = struck_transit(sys, sys.contacts[0])
    if kind == "rigid":
        assert transit == math.inf and run_impact_step(sys) == impact_time_step(sys)
    else:  # the flexible link's two elements of 0.2 m, c = sqrt(EA / rhoA) = 1414 m/s
        assert transit == pytest.approx(0.2 / math.sqrt(2e6)) and run_impact_step(sys) == LAGRANGE_COURANT * transit
