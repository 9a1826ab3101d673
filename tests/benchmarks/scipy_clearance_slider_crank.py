"""The slider-crank with a revolute clearance joint, as a researcher would script it: Flores,
Ambrósio, Claro & Lankarani 2006 (``001_…txt``), Fig. 10, Tables 1-2, at 5000 rpm, written
from the paper's equations with numpy and scipy only (it imports nothing of Flexmech), as the
reference the clearance benchmark (``bench_clearance.py``) times Flexmech against.

Three coordinates: the crank angle θ = ω t (prescribed), the rod's angle φ and the slider's
position x; the state ``(φ, x, φ̇, ẋ)``.  The crank (length r) turns about O, the rod (length l,
centre of mass at mid-length) is pinned to it at A and carries the journal at its end B; the
bearing is in the slider, whose centre runs on the x axis.  Eccentricity ``e = B - S``, penetration
``δ = |e| - c`` with the radial clearance c = Rb - Rj (eq. 18), normal ``n = e/|e|``.  In contact the
journal is pushed by ``-F_N n + F_T t`` at its contact point ``P = B + Rj n`` (t = n turned by 90°),
the bearing by the opposite force; F_N from the example's normal law -- Hertz (eq. 2),
Lankarani-Nikravesh (eq. 9), Dubowsky-Freudenstein (eq. 10, b = 3), Goldsmith (eq. 10, b = 1),
ESDU-78035 (eq. 11) -- with K from eqs. (3)-(5) with the signed radii, and F_T from Ambrósio's
friction law (eqs. 16-17) on the relative tangential velocity of the contact points.  Lagrange's
equations with the generalised forces of the contact force give

    (I_rod + m_rod l²/4) φ̈ = Q_φ - m_rod (l/2) u'·Ä,      m_slider ẍ = Q_x,

and the driving moment (the crank's angular momentum about O is constant) ``M = (A × F_A)_z`` with
``F_A = m_rod G̈ - F_c`` the pin force on the rod.

Integration: ``solve_ivp`` DOP853, rtol 1e-10, atol 1e-12 (positions in m and rad, velocities in
m/s and rad/s), terminal events at contact onset (δ rising through 0: the impact velocity
δ̇⁽⁻⁾ is read there, at least 1e-4 m/s) and separation (δ falling through 0), both 1e-12 m
off zero (:data:`EVENT_HYSTERESIS`); the integration restarts at each, with a first step of
10 ns.  Two crank revolutions (the example's ``end_time``).

    python tests/benchmarks/scipy_clearance_slider_crank.py resources/examples/slider_crank_clearance_hertz.json

prints the wall time of the integration, its steps and the largest |moment|.
"""
from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

RTOL, ATOL = 1e-10, 1e-12
#: least impact velocity δ̇⁽⁻⁾ of eq. (9), m/s (a journal that creeps into contact)
MIN_IMPACT_VELOCITY = 1e-4
#: the events fire at δ = +1e-12 m (onset) and -1e-12 m (separation), so that each phase starts
#: on its own side of its event (a root at δ = 0 leaves δ of either sign by round-off, and a free
#: step that starts at δ = +1e-16 and ends in contact shows no sign change); the force is 0 for δ ≤ 0
EVENT_HYSTERESIS = 1e-12
#: the first step after each restart, s (solve_ivp's own guess, from the force at δ = 0, is a
#: step so long that its stages drive the journal metres into the bearing)
FIRST_STEP = 1e-8
CRANK, ROD = 0.05, 0.12  # m, Table 1
M_ROD, I_ROD, M_SLIDER = 0.21, 2.5e-4, 0.14  # kg, kg m², kg, Table 1


@dataclass(frozen=True)
class Clearance:
    """The clearance joint of one example: law, radii (m), length (m), material, c_e, friction."""

    law: str
    R_bearing: float
    R_journal: float
    length: float
    E: float
    poisson: float
    c_e: float
    c_f: float = 0.0
    v0: float = 1e-4
    v1: float = 1e-3
    omega: float = 5000 * 2 * math.pi / 60
    end_time: float = 0.024

    @property
    def sigma(self) -> float:
        """σ_i + σ_j, eq. (4), m²/N (journal and bearing of the same material)."""
        return 2.0 * (1.0 - self.poisson**2) / self.E

    @property
    def K(self) -> float:
        """Generalised stiffness, eqs. (3)-(5) with the bearing's radius negative, N/m^1.5."""
        R_i, R_j = self.R_journal, -self.R_bearing
        return 4.0 / (3.0 * self.sigma) * math.sqrt(R_i * R_j / (R_i + R_j))

    @classmethod
    def of_example(cls, doc: dict) -> "Clearance":
        """The clearance joint, material and driver of a Flexmech clearance example."""
        joint = next(j for j in doc["joints"] if j["kind"] == "clearance")
        material = next(m for m in doc["materials"] if m["id"] == joint["material"])
        speed = next(d for d in doc["drivers"] if d["kind"] == "speed")["function"]["value"]
        return cls(joint["law"], joint["bearing_radius"], joint["journal_radius"], joint["length"],
                   material["E"], material["poisson"], joint["restitution"], joint.get("friction", 0.0),
                   joint.get("friction_velocity", 1e-4), joint.get("friction_velocity_1", 1e-3), speed,
                   doc["solver"]["end_time"])


def line_contact_force(delta: float, a: float, B: float) -> float:
    """F_N solving δ = a F [ln(B/F) + 1] (eqs. 10-11) on its rising branch F < B, by Newton's
    method on y = ln(B/F): y - ln(1 + y) = ln(aB/δ)."""
    s = math.log(a * B / delta)
    y = s + math.sqrt(s * (s + 2.0))  # above the root; Newton descends onto it
    for _ in range(50):
        step = (y - math.log1p(y) - s) * (1.0 + y) / y
        y -= step
        if abs(step) < 1e-15 * (1.0 + y):
            break
    return B * math.exp(-y)


def normal_force(cl: Clearance, delta: float, delta_dot: float, impact_velocity: float) -> float:
    """F_N (N) of the clearance's law at penetration ``delta`` (m) and rate ``delta_dot`` (m/s)."""
    if delta <= 0.0:
        return 0.0
    if cl.law == "hertz":
        return cl.K * delta**1.5  # eq. (2)
    if cl.law == "lankarani_nikravesh":  # eq. (9)
        return max(cl.K * delta**1.5 * (1.0 + 0.75 * (1.0 - cl.c_e**2) * delta_dot / impact_velocity), 0.0)
    a = cl.sigma / cl.length
    dR = cl.R_bearing - cl.R_journal
    if cl.law == "esdu78035":
        B = 4.0 * cl.length * dR / cl.sigma  # eq. (11)
    else:
        b = 3.0 if cl.law == "dubowsky_freudenstein" else 1.0  # eq. (10); Goldsmith b = 1
        B = cl.length**b * dR / (cl.R_bearing * cl.R_journal * cl.sigma)
    return line_contact_force(delta, a, B) if delta < a * B else B


def friction_force(cl: Clearance, v_t: float, F_n: float) -> float:
    """F_T (N, along t) of Ambrósio's law, eqs. (16)-(17)."""
    speed = abs(v_t)
    if cl.c_f == 0.0 or speed <= cl.v0:
        return 0.0
    c_d = min((speed - cl.v0) / (cl.v1 - cl.v0), 1.0)
    return -math.copysign(cl.c_f * c_d * F_n, v_t)


def crank_motion(omega: float, t: float) -> tuple[float, float, float, float, float, float]:
    """Position, velocity and acceleration of the crank pin A at ``t`` (θ = ω t)."""
    c, s = math.cos(omega * t), math.sin(omega * t)
    rw, rww = CRANK * omega, CRANK * omega * omega
    return CRANK * c, CRANK * s, -rw * s, rw * c, -rww * c, -rww * s


def contact(cl: Clearance, t: float, y, impact_velocity: float):
    """The contact force on the journal (F_cx, F_cy), its contact point P relative to A, the
    penetration δ and the normal force at state ``y``; no force when ``impact_velocity`` is None
    (the pair is open)."""
    phi, x, dphi, dx = y
    Ax, Ay, Avx, Avy, _, _ = crank_motion(cl.omega, t)
    cp, sp = math.cos(phi), math.sin(phi)
    ex, ey = Ax + ROD * cp - x, Ay + ROD * sp
    e = math.hypot(ex, ey)
    delta = e - (cl.R_bearing - cl.R_journal)
    if impact_velocity is None or delta <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, delta, 0.0
    nx, ny = ex / e, ey / e
    delta_dot = (Avx - ROD * sp * dphi - dx) * nx + (Avy + ROD * cp * dphi) * ny
    F_n = normal_force(cl, delta, delta_dot, impact_velocity)
    px, py = ROD * cp + cl.R_journal * nx, ROD * sp + cl.R_journal * ny  # P - A
    v_t = -(Avx - dphi * py - dx) * ny + (Avy + dphi * px) * nx  # (v_P - v_bearing) . t, t = (-ny, nx)
    F_t = friction_force(cl, v_t, F_n)
    return -F_n * nx - F_t * ny, -F_n * ny + F_t * nx, px, py, delta, F_n


def accelerations(cl: Clearance, t: float, y, impact_velocity: float | None) -> tuple[float, float]:
    """(φ̈, ẍ) from Lagrange's equations with the contact's generalised forces."""
    phi = y[0]
    _, _, _, _, Aax, Aay = crank_motion(cl.omega, t)
    Fx, Fy, px, py, _, _ = contact(cl, t, y, impact_velocity)
    Q_phi, Q_x = px * Fy - py * Fx, -Fx
    inertia = -0.5 * M_ROD * ROD * (-math.sin(phi) * Aax + math.cos(phi) * Aay)
    return (Q_phi + inertia) / (I_ROD + 0.25 * M_ROD * ROD * ROD), Q_x / M_SLIDER


def penetration_rate(cl: Clearance, t: float, y) -> float:
    """δ̇ (m/s) at state ``y``."""
    phi, x, dphi, dx = y
    Ax, Ay, Avx, Avy, _, _ = crank_motion(cl.omega, t)
    cp, sp = math.cos(phi), math.sin(phi)
    ex, ey = Ax + ROD * cp - x, Ay + ROD * sp
    e = math.hypot(ex, ey)
    return ((Avx - ROD * sp * dphi - dx) * ex + (Avy + ROD * cp * dphi) * ey) / e


def driving_moment(cl: Clearance, t: float, y, impact_velocity: float | None) -> float:
    """The crank moment M = (A × F_A)_z, F_A = m_rod G̈ - F_c the pin force on the rod (N m)."""
    phi, _, dphi, _ = y
    Ax, Ay, _, _, Aax, Aay = crank_motion(cl.omega, t)
    ddphi, _ = accelerations(cl, t, y, impact_velocity)
    Fx, Fy, _, _, _, _ = contact(cl, t, y, impact_velocity)
    cp, sp = math.cos(phi), math.sin(phi)
    Gx = Aax + 0.5 * ROD * (-sp * ddphi - cp * dphi * dphi)
    Gy = Aay + 0.5 * ROD * (cp * ddphi - sp * dphi * dphi)
    FAx, FAy = M_ROD * Gx - Fx, M_ROD * Gy - Fy
    return Ax * FAy - Ay * FAx


def simulate(cl: Clearance) -> dict:
    """Two revolutions from the dead centre (φ = 0, x = r + l, the ideal mechanism's velocities,
    journal centred): every accepted step's time, state and driving moment, the impacts and the
    largest normal force."""
    y = np.array([0.0, CRANK + ROD, -CRANK * cl.omega / ROD, 0.0])
    t, impact_velocity = 0.0, None
    times, states, moments, forces = [np.zeros(1)], [y[:, None]], [], []
    impacts, steps, F_max = 0, 0, 0.0

    def onset(t, y):
        return contact(cl, t, y, None)[4] - EVENT_HYSTERESIS

    def separation(t, y):
        return contact(cl, t, y, None)[4] + EVENT_HYSTERESIS

    onset.terminal = separation.terminal = True
    onset.direction, separation.direction = 1.0, -1.0
    while t < cl.end_time:
        sol = solve_ivp(lambda t, y: (y[2], y[3], *accelerations(cl, t, y, impact_velocity)), (t, cl.end_time), y,
                        method="DOP853", rtol=RTOL, atol=ATOL, first_step=FIRST_STEP,
                        events=onset if impact_velocity is None else separation)
        if sol.status < 0:
            raise RuntimeError(f"solve_ivp stopped at t = {sol.t[-1]} s: {sol.message}")
        steps += sol.t.size - 1
        moments.append([driving_moment(cl, ti, yi, impact_velocity) for ti, yi in zip(sol.t, sol.y.T)])
        F_max = max([F_max] + [contact(cl, ti, yi, impact_velocity)[5] for ti, yi in zip(sol.t, sol.y.T)])
        times.append(sol.t[1:])
        states.append(sol.y[:, 1:])
        t, y = float(sol.t[-1]), sol.y[:, -1]
        if sol.status == 1 and impact_velocity is None:  # the pair closed
            impacts += 1
            impact_velocity = max(penetration_rate(cl, t, y), MIN_IMPACT_VELOCITY)
        elif sol.status == 1:  # it opened
            impact_velocity = None
    moment = np.concatenate([m if i == 0 else m[1:] for i, m in enumerate(moments)])
    return {"time": np.concatenate(times), "state": np.concatenate(states, axis=1), "moment": moment,
            "impacts": impacts, "steps": steps, "F_max_N": F_max}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as f:
        cl = Clearance.of_example(json.load(f))
    started = time.perf_counter()
    run = simulate(cl)
    wall = time.perf_counter() - started
    print(f"{argv[0]}: {run['steps']} steps in {wall:.3f} s, {run['impacts']} impacts, "
          f"largest |moment| {np.abs(run['moment']).max():.1f} N m, largest force {run['F_max_N'] / 1e3:.1f} kN")
    return 0


if __name__ == "__main__":
    sys.exit(main())
