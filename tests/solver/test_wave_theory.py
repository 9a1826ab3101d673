"""Wave theory of the chapter-5 bar impacts (thesis §5.1.1-5.1.2): closed forms against
the published numbers and against an independent lattice solution of the wave equation."""
import math

import numpy as np
import pytest

from solver.analysis.wave_theory import MassOnBar, TwoBars


def test_the_bar_struck_by_an_equal_mass_gives_the_published_numbers():
    """E = 100, rho = 0.01, A = 1, L = 10, M = rho A L, v0 = 0.1 (thesis §5.1.1): contact
    0.3068 s, peak force 0.2135 N when the reflected wave returns at 0.2 s, and the mass
    leaves at 2 v0 exp(-(2 + e^-2) / 2)."""
    bar = MassOnBar(EA=100.0, rhoA=0.01, L=10.0, M=0.1, v0=0.1)
    assert (bar.c, bar.Z, bar.T) == pytest.approx((100.0, 1.0, 0.2))
    assert bar.separation == pytest.approx(0.2 + 0.1 * (1 + math.exp(-2) / 2), rel=1e-12)
    assert bar.separation == pytest.approx(0.3068, abs=5e-5)
    F = bar.force(np.array([0.0, 0.2 - 1e-9, 0.2 + 1e-9]))
    assert F == pytest.approx([0.1, 0.1 * math.exp(-2), 0.1 * (2 + math.exp(-2))], rel=1e-6)
    assert F[2] == pytest.approx(0.2135, abs=5e-5)
    h = bar.history(np.array([bar.separation + 0.1]))
    assert -h["velocity"][0] == pytest.approx(0.2 * math.exp(-(2 + math.exp(-2)) / 2), rel=1e-9)


def lattice_force(EA, rhoA, L, M, v0, t_end, n=2000):
    """Contact force of a chain of n masses and springs (the bar; fixed far end) struck by
    M, by the explicit central-difference scheme at its stability limit (time step = the
    wave's transit of one segment): an independent solution, converging as 1/n.  While
    they touch the mass moves with the end node (their accelerations shared); it leaves
    when the force between them would pull."""
    dx = L / n
    k, m = EA / dx, rhoA * dx
    dt = dx / math.sqrt(EA / rhoA)
    u, v = np.zeros(n + 1), np.zeros(n + 1)       # u[0] the struck end (towards the fixed end), u[n] fixed
    v[0] = v0
    mass = np.full(n + 1, m)
    mass[0] = m / 2 + M
    touching = True
    times, forces = [], []
    for step in range(int(t_end / dt)):
        strain = u[1:] - u[:-1]
        f = np.zeros(n + 1)
        f[:-1] += k * strain
        f[1:] -= k * strain
        a = f / mass
        F = -M * a[0] if touching else 0.0
        if touching and F < 0.0:                   # the bar would pull the mass: they part
            touching = False
            mass[0] = m / 2
            a[0], F = f[0] / mass[0], 0.0
        v += dt * a
        v[n] = 0.0
        u += dt * v
        times.append(step * dt)
        forces.append(F)
    return np.array(times), np.array(forces)


def test_a_heavy_mass_stays_in_contact_over_several_round_trips_as_a_lattice_does():
    """M = 5 times the bar's mass: contact lasts several round trips of the wave, so the
    interval-by-interval solution is used to its fifth piece."""
    bar = MassOnBar(EA=100.0, rhoA=0.01, L=10.0, M=0.5, v0=0.1)
    assert bar.separation / bar.T > 3
    t, F_lattice = lattice_force(100.0, 0.01, 10.0, 0.5, 0.1, bar.separation * 1.05)
    F = np.where(t < bar.separation, bar.force(t), 0.0)
    # momentum: the force's impulse takes the mass from v0 to its release velocity
    v_release = bar.history(np.array([bar.separation]))["velocity"][0]
    assert np.trapezoid(F, t) == pytest.approx(0.5 * (0.1 - v_release), rel=1e-3)
    assert np.abs(F - F_lattice).mean() < 1e-3 * F.max()          # 1e-4 at n = 2000; the jumps dominate
    assert t[np.flatnonzero(F_lattice > 0)[-1]] == pytest.approx(bar.separation, rel=1e-4)


def test_two_equal_bars_press_with_half_the_speed_and_the_striker_leaves_reversed():
    """Thesis §5.1.2: 1 m at 10 m/s on 2 m fixed; A = 0.01, E = 1e11, rho = 4000."""
    bars = TwoBars(EA=1e11 * 0.01, rhoA=4000 * 0.01, L1=1.0, L2=2.0, v0=10.0)
    assert bars.c == pytest.approx(5000.0)
    assert bars.separation == pytest.approx(1.2e-3)
    t = np.linspace(0, 1.3e-3, 13001)
    h = bars.history(t)
    assert h["force"].max() == pytest.approx(2e5 * 5.0)
    assert np.flatnonzero(h["force"] == 0)[0] == pytest.approx(4000, abs=1)       # zero from 0.4 ms
    # the striker's momentum, 40 kg x 10 m/s, is reversed by the two pulses
    assert np.trapezoid(h["force"], t) == pytest.approx(2 * 40.0 * 10.0, rel=1e-3)
    assert h["front"][-1] == h["back"][-1] == 10.0 and h["struck_end"][-1] == 0.0
    with pytest.raises(ValueError, match="at least as long"):
        TwoBars(1.0, 1.0, 2.0, 1.0, 1.0)
