"""Closed forms of the Flores et al. 2006 examples (``001_…txt``) that runs are checked
against: the crank moment of the ideal rigid slider-crank at constant speed (inverse
dynamics) and the elastic Hertz impact of a sphere (eq. 2).
"""
from __future__ import annotations

import math

import numpy as np
from scipy.integrate import quad


def slider_crank_moment(t, omega: float, crank: float, rod: float, m_rod: float, I_rod: float,
                        m_slider: float) -> np.ndarray:
    """Crank moment (N m) that turns the ideal slider-crank at constant ``omega`` (rad/s),
    from the power balance ``M omega = dT/dt`` with the exact kinematics: crank angle
    ``theta = omega t`` from the dead centre, rod angle ``sin(phi) = -r sin(theta) / l``,
    slider ``x = r cos(theta) + l cos(phi)``; the rod's centre of mass at mid-length, the
    crank's on its axis of rotation (its kinetic energy is then constant).  ``t`` in s,
    lengths in m, masses in kg, ``I_rod`` in kg m^2."""
    th = omega * np.asarray(t, dtype=float)
    s_phi = -crank * np.sin(th) / rod
    c_phi = np.sqrt(1.0 - s_phi**2)
    phi_d = -crank * omega * np.cos(th) / (rod * c_phi)
    phi_dd = (crank * omega**2 * np.sin(th) + rod * s_phi * phi_d**2) / (rod * c_phi)
    x_d = -crank * omega * np.sin(th) - rod * s_phi * phi_d
    x_dd = -crank * omega**2 * np.cos(th) - rod * c_phi * phi_d**2 - rod * s_phi * phi_dd
    v_a = crank * omega * np.stack([-np.sin(th), np.cos(th)])
    a_a = -crank * omega**2 * np.stack([np.cos(th), np.sin(th)])
    v_g = 0.5 * (v_a + np.stack([x_d, 0 * x_d]))
    a_g = 0.5 * (a_a + np.stack([x_dd, 0 * x_dd]))
    return (m_rod * np.sum(v_g * a_g, axis=0) + I_rod * phi_d * phi_dd + m_slider * x_d * x_dd) / omega


def hertz_impact(mass: float, K: float, v0: float, count: int = 201) -> dict[str, np.ndarray | float]:
    """The elastic impact ``m delta'' = -K delta^1.5`` (Hertz, Flores et al. eq. 2) of a
    body of ``mass`` (kg) arriving at ``v0`` (m/s) on a contact of stiffness ``K``
    (N/m^1.5): ``delta_max = (5 m v0^2 / (4 K))^(2/5)``, and from the energy integral
    ``t(delta) = int_0^delta dx / sqrt(v0^2 - 4K/(5m) x^(5/2))``, ``count`` samples of the
    penetration ``delta`` (m), force ``K delta^1.5`` (N) and approach velocity (m/s) over
    the contact (times from its start, s), and its duration ``2 t(delta_max)`` (2.9432
    delta_max / v0)."""
    d_max = (5.0 * mass * v0 * v0 / (4.0 * K)) ** 0.4
    # x = d_max u: t(u) = (d_max / v0) int_0^u du / sqrt(1 - u^2.5); the end singularity is integrable
    half = d_max / v0 * quad(lambda u: 1.0 / math.sqrt(1.0 - u**2.5), 0.0, 1.0)[0]
    u = np.sin(np.linspace(0.0, 0.5 * math.pi, (count + 1) // 2)) ** 2     # dense near the peak
    t_rise = np.array([d_max / v0 * quad(lambda x: 1.0 / math.sqrt(1.0 - x**2.5), 0.0, k)[0] for k in u])
    t = np.concatenate([t_rise, 2.0 * half - t_rise[-2::-1]])
    delta = d_max * np.concatenate([u, u[-2::-1]])
    speed = v0 * np.sqrt(np.clip(1.0 - (delta / d_max) ** 2.5, 0.0, None))
    velocity = np.concatenate([speed[:len(u)], -speed[len(u):]])
    return {"time": t, "penetration": delta, "force": K * delta**1.5, "velocity": velocity,
            "max_penetration": d_max, "max_force": K * d_max**1.5, "duration": 2.0 * half}


def moving_force_deflection(t, x: float, P: float, speed: float, L: float, EI: float, rhoA: float,
                            terms: int = 200) -> np.ndarray:
    """Deflection (m, along the force) at ``x`` (m) of a simply supported Euler-Bernoulli beam
    (span ``L`` in m, ``EI`` in N m^2, ``rhoA`` in kg/m, undamped, at rest at t = 0) under a
    constant force ``P`` (N) entering at ``x = 0`` at t = 0 and crossing at ``speed`` (m/s):
    Fryba's series (Vibration of Solids and Structures under Moving Loads, 1972, eq. 1.21),

        w = w0 sum_j sin(j pi x / L) / (j^2 (j^2 - alpha^2)) (sin(j omega t) - alpha / j sin(omega_j t))

    with ``w0 = 2 P L^3 / (pi^4 EI)``, ``omega = pi speed / L``, ``omega_j = j^2 omega_1`` and
    ``alpha = omega / omega_1``, while the force is on the beam (``t <= L / speed``); after it
    leaves, each mode vibrates freely from its state then.  ``t`` in s (array-like)."""
    t = np.asarray(t, dtype=float)
    w1 = (math.pi / L) ** 2 * math.sqrt(EI / rhoA)
    om = math.pi * speed / L
    alpha = om / w1
    w0 = 2.0 * P * L**3 / (math.pi**4 * EI)
    T = L / speed
    out = np.zeros_like(t)
    for j in range(1, terms + 1):
        wj = j * j * w1
        if abs(j * j - alpha * alpha) < 1e-9:
            raise ValueError(f"the speed is critical for mode {j} (alpha = j)")
        amp = w0 / (j * j * (j * j - alpha * alpha))

        def q(tt, amp=amp, wj=wj, j=j):
            return amp * (np.sin(j * om * tt) - alpha / j * np.sin(wj * tt))

        q_T = amp * (math.sin(j * om * T) - alpha / j * math.sin(wj * T))
        v_T = amp * (j * om * math.cos(j * om * T) - alpha / j * wj * math.cos(wj * T))
        free = q_T * np.cos(wj * (t - T)) + v_T / wj * np.sin(wj * (t - T))
        out += np.where(t <= T, q(t), free) * math.sin(j * math.pi * x / L)
    return out


def moving_mass_deflection(t, x: float, mass: float, P: float, speed: float, L: float, EI: float, rhoA: float,
                           modes: int = 12) -> np.ndarray:
    """Deflection (m, along the force) at ``x`` of the beam of :func:`moving_force_deflection`
    when the force ``P`` (N) is carried by a mass ``mass`` (kg) crossing at ``speed``: the
    Galerkin equations on the first ``modes`` sine modes with the mass's inertia and the
    convective terms of its acceleration ``w_tt + 2 v w_xt + v^2 w_xx`` at ``x = v t``
    (Fryba 1972, ch. 6), integrated by an adaptive Runge-Kutta method (scipy), while the
    mass is on the beam; zero-mass limit: the moving force."""
    from scipy.integrate import solve_ivp

    j = np.arange(1, modes + 1)
    k = j * math.pi / L
    m_modal = rhoA * L / 2
    K = m_modal * (k * k * math.sqrt(EI / rhoA)) ** 2
    T = L / speed

    def rhs(tt, y):
        q, qd = y[:modes], y[modes:]
        xs = speed * tt
        phi, dphi, ddphi = np.sin(k * xs), k * np.cos(k * xs), -k * k * np.sin(k * xs)
        M = np.diag(np.full(modes, m_modal)) + mass * np.outer(phi, phi)
        f = P * phi - K * q - mass * phi * (2 * speed * dphi @ qd + speed**2 * ddphi @ q)
        return np.concatenate([qd, np.linalg.solve(M, f)])

    t = np.asarray(t, dtype=float)
    inside = t[t <= T]
    sol = solve_ivp(rhs, (0.0, T), np.zeros(2 * modes), t_eval=inside, rtol=1e-10, atol=1e-14, method="DOP853")
    return np.sin(k * x) @ sol.y[:modes]
