"""A mass moving at constant speed along a link pre-bent to curvature kappa (issue 26): the force
it exerts on the link is m v^2 kappa (+ m g cos phi with gravity, phi = kappa s the link's slope
there) on every frame, on a mesh node or between.

The link is a stiff cantilever, bent by a through-depth temperature gradient (free curvature
alpha dT', Amirouche & Xie eq. 11) or by a tip torque M = EI kappa, ramped over 0.1 s and
settled by stiffness-proportional damping before the mass enters it at 0.2 s from a rigid track
along its sketched line; steps of 1 ms, the mass crossing a node every 50 ms, so that frames land
on the nodes.  Numerical damping tau = 0.6 (thesis ch. 5): at tau = 0.5 the link's own accelerations
ring from step to step (:data:`AT_TAU_HALF`), and the mass reads them.

Before: the point-on-element interpolation turned the tangent by atan(tb) at the nodes, a kink of
(kappa l)^3 / 12, and the curvature term was a difference 1e-7 s wide across it: -208 N where
m v^2 kappa = 2 N on a node, -105 N (and -4165 N along the link) at the entry, where the
difference straddled the track and the link."""
from __future__ import annotations

import numpy as np
import pytest

from solver.api import simulate
from solver.fem.beam_point import point_on_element

E, RHO, ALPHA = 2e11, 7850.0, 1.2e-5
L, ELEMENTS, B, H = 1.0, 10, 0.05, 0.2
EI = E * B * H**3 / 12
KAPPA, SPEED, MASS = 0.5, 2.0, 1.0
ENTRY = 0.2  # s


def bent_cantilever(how: str, g: float) -> dict:
    """The cantilever bent by ``how`` ("thermal" or "moment") to KAPPA, the mass on its track."""
    omega_1 = 3.516 * np.sqrt(EI / (RHO * B * H)) / L**2  # first bending mode, rad/s
    ramp = {"kind": "ramp", "t0": 0.0, "t1": 0.1, "v0": 0.0, "v1": 1.0}
    link = {"id": "beam", "kind": "flexible", "nodes": ["A", "B"], "mesh": {"elements": ELEMENTS},
            "section": {"kind": "rectangle", "material": "steel", "b": B, "h": H}}
    doc = {"format": "flexmech", "version": 1, "name": "mass on a bent cantilever",
           "materials": [{"id": "steel", "E": E, "density": RHO, "poisson": 0.3, "expansion": ALPHA}],
           "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": L, "y": 0.0}],
           "links": [link], "joints": [{"id": "clamp", "kind": "fixed", "node": "A"}],
           "damping": {"beta": 2.0 / omega_1}, "gravity": {"x": 0.0, "y": -g},
           "moving": [{"id": "cart", "kind": "mass", "link": "beam", "mass": MASS, "position": {
               "kind": "table", "t": [0.0, 1.0], "v": [-SPEED * ENTRY, SPEED * (1.0 - ENTRY)]}}],
           "solver": {"end_time": ENTRY + L / SPEED, "step": 1e-3, "output_interval": 1e-3, "tau": 0.6}}
    if how == "thermal":
        link["free_strains"] = {"temperature_gradient": KAPPA / ALPHA, "temperature_function": ramp}
    else:
        doc["loads"] = [{"id": "moment", "node": "B", "torque": EI * KAPPA, "function": ramp}]
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


#: why the default tau = 0.5 does not meet 1e-3 (issue 26, open): the link's own accelerations ring
AT_TAU_HALF = ("at tau = 0.5 the bent cantilever's own accelerations ring at the Nyquist frequency, with no "
               "moving mass at all (tip a_y +-4.3 m/s^2 at 0.64 s, the positions alternating by 1e-12 m): the "
               "trapezoidal rule's amplification of an overdamped mode, -1 + 4 / (beta omega^2 h), is -1 + 1.4e-5 "
               "for the stiffest (beta omega^2 = 2.8e8 1/s); a 1e-4 kg mass reads the same relative error as 1 kg "
               "(0.88, 0.84): the mass reports m times the link's acceleration")


@pytest.mark.parametrize("how, g, tau", [("thermal", 0.0, 0.6), ("moment", 9.81, 0.6), pytest.param(
    "thermal", 0.0, 0.5, marks=pytest.mark.xfail(reason=AT_TAU_HALF, strict=True))])
def test_a_mass_on_a_bent_link_reads_m_v2_kappa_on_every_frame(how, g, tau):
    """Within 1e-3 on every frame on the link (measured: 2.2e-4 at g = 0, 5.4e-5 with gravity,
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
