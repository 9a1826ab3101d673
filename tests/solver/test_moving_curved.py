"""A mass moving at constant speed along a link pre-bent to curvature kappa (issue 26): the force
it exerts on the link is m v^2 kappa (+ m g cos phi with gravity, phi = kappa s the link's slope
there) on every frame, on a mesh node or between, at the default tau = 0.5 as with numerical damping.

The link is a stiff cantilever, bent by a through-depth temperature gradient (free curvature
alpha dT', Amirouche & Xie eq. 11) or by a tip torque M = EI kappa, and the run starts from that
static shape (``solver.initial_shape = "static"``); stiffness-proportional damping settles the
link's response to the mass, which enters it at 0.01 s from a rigid track along its sketched
line; steps of 1 ms, the mass crossing a node every 50 ms, so that frames land on the nodes.

Before: the point-on-element interpolation turned the tangent by atan(tb) at the nodes, a kink of
(kappa l)^3 / 12, and the curvature term was a difference 1e-7 s wide across it: -208 N where
m v^2 kappa = 2 N on a node, -105 N (and -4165 N along the link) at the entry, where the
difference straddled the track and the link.  And the link could only be bent by ramping the
load on from the sketched shape: at tau = 0.5 the ramp's kinks left the link's stiffest
(overdamped) modes ringing from step to step for the rest of the run, with no mass at all (tip
a_y +-4.3 m/s^2 at 0.64 s, the positions alternating by 1e-12 m), and the mass read m times
that acceleration (0.84 relative error)."""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import simulate
from solver.fem.beam_point import point_on_element

E, RHO, ALPHA = 2e11, 7850.0, 1.2e-5
L, ELEMENTS, B, H = 1.0, 10, 0.05, 0.2
EI = E * B * H**3 / 12
KAPPA, SPEED, MASS = 0.5, 2.0, 1.0
ENTRY = 0.01  # s


def bent_cantilever(how: str, g: float) -> dict:
    """The cantilever bent by ``how`` ("thermal" or "moment") to KAPPA, at rest in that shape at
    t = 0, the mass on its track."""
    omega_1 = 3.516 * np.sqrt(EI / (RHO * B * H)) / L**2  # first bending mode, rad/s
    link = {"id": "beam", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": ELEMENTS},
            "section": {"kind": "rectangle", "material": "steel", "b": B, "h": H}}
    doc = {"format": "flexmech", "version": 1, "name": "mass on a bent cantilever",
           "materials": [{"id": "steel", "E": E, "density": RHO, "poisson": 0.3, "expansion": ALPHA}],
           "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": L, "y": 0.0}],
           "links": [link], "joints": [{"id": "clamp", "kind": "fixed", "node": "A"}],
           "damping": {"beta": 2.0 / omega_1}, "gravity": {"x": 0.0, "y": -g},
           "moving": [{"id": "cart", "kind": "mass", "link": "beam", "mass": MASS, "position": {
               "kind": "table", "t": [0.0, 1.0], "v": [-SPEED * ENTRY, SPEED * (1.0 - ENTRY)]}}],
           "solver": {"end_time": ENTRY + L / SPEED, "step": 1e-3, "output_interval": 1e-3,
                      "initial_shape": "static"}}
    if how == "thermal":
        link["free_strains"] = {"temperature_gradient": KAPPA / ALPHA}
    else:
        doc["loads"] = [{"id": "moment", "node": "B", "torque": EI * KAPPA}]
    return doc


def test_the_tangent_turns_by_the_nodal_rotation_at_both_ends_of_an_element():
    """Two elements of an arc of curvature 2 (kappa l = 0.4): at their common node both tangents
    point along the node's rotation (before: 0.4^3 / 12 = 5.3e-3 rad apart)."""
    kappa, l = 2.0, 0.2
    node = [np.array([np.sin(kappa * s), 1 - np.cos(kappa * s)]) / kappa for s in (0.0, l, 2 * l)]
    theta = [kappa * s for s in (0.0, l, 2 * l)]  # the sketched line is along x: rotation = slope
    first = np.r_[node[0], theta[0], node[1], theta[1]]
    second = np.r_[node[1], theta[1], node[2], theta[2]]
    ends = [point_on_element(first, 0.0, 1.0)[2], point_on_element(second, 0.0, 0.0)[2]]
    for dp in ends:
        assert np.arctan2(dp[1], dp[0]) == pytest.approx(theta[1], abs=1e-14)


@pytest.mark.parametrize("how, g, tau", [("thermal", 0.0, 0.5), ("moment", 9.81, 0.5), ("thermal", 0.0, 0.6)])
def test_a_mass_on_a_bent_link_reads_m_v2_kappa_on_every_frame(how, g, tau):
    """Within 1e-3 on every frame on the link (measured at tau = 0.5 and 0.6: 2.1e-4 at g = 0, 5.4e-5 with gravity,
    the cubic interpolation's own error: its curvature is (kappa l)^2 / 12 low at the nodes and
    (kappa l)^2 / 24 high between them, for kappa l = 0.05), the eleven nodes and the entry included."""
    doc = bent_cantilever(how, g)
    doc["solver"]["tau"] = tau
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    s = np.array([f.moving_s[0] for f in res.frames])
    F_n = np.array([f.moving_force[0][0] for f in res.frames])
    on = (s >= 0.0) & (s <= L)
    expected = -MASS * (SPEED**2 * KAPPA + g * np.cos(KAPPA * s[on]))
    assert np.abs(F_n[on] / expected - 1).max() < 1e-3
    at_nodes = np.abs(s[on] * ELEMENTS / L - np.round(s[on] * ELEMENTS / L)) < 1e-9
    assert at_nodes.sum() == ELEMENTS + 1


def test_a_run_ended_between_steps_on_the_curve_reads_m_v2_kappa_on_its_last_frame():
    """Ended at 0.3003 s, not a multiple of the 1 ms step (the mass at s = 0.58 m), at tau = 0.5: the last
    two steps share 1.3 ms (:mod:`solver.integration.step_ends`) and the last frame reads m v^2 kappa
    like every other (measured 1.4e-5; ended at 0.3 s + 1e-12 s, 8.8e-6)."""
    doc = bent_cantilever("thermal", 0.0)
    doc["solver"]["end_time"] = 0.3003
    res = simulate(doc)
    assert res.completed, res.meta["message"]
    assert res.frames[-1].time == 0.3003
    assert res.frames[-1].moving_force[0][0] == pytest.approx(-MASS * SPEED**2 * KAPPA, rel=1e-4)
