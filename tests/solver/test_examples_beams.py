"""The shear-flexible, tapered and heated beam examples settle at their beam-theory values."""
import functools
import math

import numpy as np
import pytest
from scipy.integrate import quad

from solver.api import load_model, simulate
from solver.model.io import examples_dir


@functools.lru_cache(maxsize=None)
def run(name):
    res = simulate(load_model(examples_dir() / f"{name}.json"))
    assert res.completed, res.meta["message"]
    return res


def tip(res, frame=-1):
    return res.frames[frame].node_xy[res.node_index("tip")]


def test_stubby_timoshenko_cantilever_settles_at_bending_plus_shear_deflection():
    """P L^3/3EI + P L/kGA = 0.956 mm (16 % of it shear) within 0.1 %."""
    res = run("timoshenko_cantilever_stubby")
    P, L, b, h, E, nu = 1e5, 0.2, 0.02, 0.1, 2e11, 0.3
    EI, kGA = E * b * h**3 / 12, 5 / 6 * E / (2 * (1 + nu)) * b * h
    expected = P * L**3 / (3 * EI) + P * L / kGA
    assert expected == pytest.approx(0.956e-3, rel=1e-3)
    assert -tip(res)[1] == pytest.approx(expected, rel=1e-3)
    # Rayleigh damping only: the energy balance holds (work of the load = U + dissipated)
    assert np.ptp(res.total_energy()) < 1e-4 * res.energy("work_loads")[-1]


def test_tapered_cantilever_settles_at_the_integral_of_the_varying_stiffness():
    """delta = P int_0^L (L - x)^2 / EI(x) dx = 5.111 mm, h from 20 to 10 mm: within 0.5 %
    (each of the 20 elements takes its mid-point section)."""
    res = run("tapered_cantilever")
    P, L, b, E = 100.0, 0.5, 0.01, 2e11
    EI = lambda x: E * b * (0.02 - 0.02 * x) ** 3 / 12  # noqa: E731
    expected = P * quad(lambda x: (L - x) ** 2 / EI(x), 0, L)[0]
    assert expected == pytest.approx(5.111e-3, rel=1e-3)
    assert -tip(res)[1] == pytest.approx(expected, rel=5e-3)
    # twice as stiff as the uniform 20 mm beam at the root, eight times the tip's: in between
    assert P * L**3 / (3 * EI(0)) < expected < P * L**3 / (3 * EI(L))


def test_heated_bimetal_strip_curls_to_timoshenkos_curvature():
    """kappa = 3 (a2 - a1) dT / (2h) = 1.05 1/m: the tip turns by kappa L = 0.105 rad and rises to
    L (1 + alpha dT)(1 - cos kappa L)/(kappa L) = 5.253 mm, without strain energy."""
    res = run("bimetal_strip_heated")
    kappa, L, alpha, dT = 1.5 * 7e-6 * 100 / 1e-3, 0.1, 15.5e-6, 100.0
    rot = res.frames[-1].rot[res.layout.rotations.index(("tip", "strip"))]
    assert rot == pytest.approx(kappa * L, rel=1e-4)
    expected = L * (1 + alpha * dT) * (1 - math.cos(kappa * L)) / (kappa * L)
    assert expected == pytest.approx(5.253e-3, rel=1e-3)
    assert tip(res)[1] == pytest.approx(expected, rel=1e-3)
    EI = 2e11 * 0.01 * 1e-3**3 / 12
    held = 0.5 * EI * kappa**2 * L  # the bending energy a clamped-straight strip would hold
    assert res.frames[-1].energy["strain"] < 1e-6 * held
    assert np.abs(res.frames[-1].bending_strain).max() < 1e-3 * 0.5e-3 * kappa  # elastic: < 0.1 % of the free
    # the balance holds: Rayleigh damping booked as the trapezoidal rule's own (its work at the step's mean
    # motion); booked at the ends' powers it took 1.9e-7 J more (0.3 % of the free strains' work, 0.13 of the
    # largest kinetic and strain energy: a warning of energy created), now 1.2e-10 J
    total = res.total_energy()
    assert np.ptp(total) < 1e-5 * res.energy("work_free_strains")[-1]
    in_play = max(f.energy["kinetic"] + f.energy["strain"] for f in res.frames)
    assert np.max(total - total[0]) < 1e-3 * in_play
