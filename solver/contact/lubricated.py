"""The oil film of a lubricated revolute clearance joint: short journal bearing theory
(Ocvirk; Pinkus & Sternlicht 1961, *Theory of Hydrodynamic Lubrication*, ch. 4) as Flores,
Ambrósio & Claro (Multibody Syst. Dyn. 12, 2004) apply it to a revolute joint.  That paper
is not among the seeds, so its equation numbers are not quoted here; the numbers (L1)-(L8)
are this module's, derived below.

**Film (L1).**  The journal (radius R, centre J) turns at ω_j inside the bearing (centre B,
radial clearance c = Rb - Rj, axial length L) turning at ω_b.  The eccentricity
e = J - B has the ratio ε = |e|/c, the direction u_r = e/|e| at the angle φ, and
u_t = u_r turned by +90°.  At the angle θ from u_r the film is h = c (1 - ε cos θ).

**Reynolds equation, short bearing (L2).**  In the frame turning with u_r (at φ̇), the
surfaces move at R(ω_j - φ̇) and R(ω_b - φ̇) and the film changes as ∂h/∂t = -c ε̇ cos θ.
Leaving out the circumferential pressure flow (L << R),

    ∂/∂z (h³ ∂p/∂z) = 6 μ R ω̄ ∂h/(R ∂θ) + 12 μ ∂h/∂t,      ω̄ = ω_j + ω_b - 2 φ̇,

with p = 0 at the bearing's ends z = ±L/2, so that

    p(θ, z) = (3 μ / c²) (L²/4 - z²) (2 ε̇ cos θ - ε ω̄ sin θ) / (1 - ε cos θ)³.     (L3)

**Gumbel (half-Sommerfeld) condition (L4).**  The film holds no negative pressure: (L3)
goes as ρ cos(θ - α), α = atan2(-ε ω̄, 2 ε̇), and is integrated over the half film
|θ - α| < π/2 where it is positive.  For a journal turning without squeeze (ε̇ = 0,
ω̄ > 0) that half is θ from π to 2π, the converging wedge over which Flores 2004 integrates
after Pinkus and Sternlicht; Flores 2004 keeps that half for the squeeze term too, which
makes the forces jump where ω̄ changes sign (as the whirl of a journal at half its spin
does): here the half turns with α, and the forces are continuous.

**Forces on the journal (L5)**, -∫∫ p (cos θ, sin θ) R dθ dz over that half, with
k = μ R L³ / (2 c²) (N s):

    (F_r, F_t) = -k ∫ (2 ε̇ cos θ - ε ω̄ sin θ) (cos θ, sin θ) / (1 - ε cos θ)³ dθ,

by Gauss-Legendre quadrature.  Over θ from π to 2π they are Flores 2004's closed forms,

    F_r = -k [ 2 ε² ω̄ / (1 - ε²)² + π ε̇ (1 + 2 ε²) / (1 - ε²)^(5/2) ],
    F_t =  k [ π ε ω̄ / (2 (1 - ε²)^(3/2)) + 4 ε ε̇ / (1 - ε²)² ].

At constant spin and load (ε̇ = φ̇ = 0) their resultant is Ocvirk's load-eccentricity
relation (L6), W = k ω̄ ε √(16 ε² + π² (1 - ε²)) / (2 (1 - ε²)²) (:func:`ocvirk_load`).

**Torques (L7).**  The fluid carries no moment: the pressure's shear torques on the two
surfaces sum to -e × F, half on each (the Poiseuille shear of a film is the same on both
walls), so T_j = T_b = -(e × F)/2.  With them the film's power on the journal, the bearing
and their spins, F_r c ε̇ - |e| F_t ω̄ / 2 = -(k c / 2) ∫ (2 ε̇ cos θ - ε ω̄ sin θ)² /
(1 - ε cos θ)³ dθ over the half film, is never positive: the film only dissipates.
The Couette (Petroff) shear torque, which only brakes the spins, is left out.

**Film breakdown (L8).**  The forces grow without bound as ε → 1.  From the ratio
ε_s (``film_limit``) on, the film's force is the one at ε_s faded linearly to zero at
ε = 1, (1 - w) F(ε_s), w = (ε - ε_s)/(1 - ε_s), where the joint's dry compliant law takes
over as the surfaces touch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: relative step of the finite differences of the film's Jacobian
DIFFERENCE_STEP = 1e-7
#: Gauss-Legendre points over the half film, on [-1, 1]: the pressure's peak at ε = 0.95 is
#: about 0.3 rad wide, resolved to 1e-9 of the force
GAUSS_NODES, GAUSS_WEIGHTS = np.polynomial.legendre.leggauss(64)


@dataclass(frozen=True)
class JournalFilm:
    """The oil film of one joint (SI units): viscosity μ (Pa s), bearing length L (m),
    journal radius R (m), radial clearance c (m) and the ratio ε_s where it breaks."""

    viscosity: float
    length: float
    radius: float
    clearance: float
    film_limit: float

    @property
    def k(self) -> float:
        """μ R L³ / (2 c²), N s (L5)."""
        return self.viscosity * self.radius * self.length ** 3 / (2.0 * self.clearance ** 2)

    def polar_forces(self, eps: float, eps_dot: float, omega: float) -> tuple[float, float]:
        """``(F_r, F_t)`` (N) on the journal at eccentricity ratio ``eps``, its rate ``eps_dot``
        (1/s) and ω̄ = ``omega`` (rad/s): (L5) over the half film (L4) by Gauss-Legendre
        quadrature, with the breakdown (L8)."""
        fade = 1.0
        if eps > self.film_limit:
            fade = max(0.0, (1.0 - eps) / (1.0 - self.film_limit))
            eps = self.film_limit
        a, b = 2.0 * eps_dot, -eps * omega  # the pressure goes as a cos θ + b sin θ = ρ cos(θ - α)
        if a == 0.0 and b == 0.0:
            return 0.0, 0.0
        theta = math.atan2(b, a) + 0.5 * math.pi * GAUSS_NODES
        cos, sin = np.cos(theta), np.sin(theta)
        weight = 0.5 * math.pi * GAUSS_WEIGHTS * (a * cos + b * sin) / (1.0 - eps * cos) ** 3
        return -fade * self.k * float(weight @ cos), -fade * self.k * float(weight @ sin)

    def forces(self, e: np.ndarray, e_dot: np.ndarray, omega_j: float, omega_b: float) -> tuple[np.ndarray, float]:
        """The film's force on the journal (2,), N (on the bearing its opposite), and the torque
        on each of journal and bearing, N m (L7), for the eccentricity ``e`` (m), its rate
        ``e_dot`` (m/s) and the spins (rad/s)."""
        dist = math.hypot(e[0], e[1])
        if dist > 1e-12 * self.clearance:
            u = e / dist
            phi_dot = (e[0] * e_dot[1] - e[1] * e_dot[0]) / dist ** 2
        else:  # at the centre the direction of the motion stands in for u_r
            speed = math.hypot(e_dot[0], e_dot[1])
            if speed == 0.0:
                u, phi_dot = np.array([1.0, 0.0]), 0.0
            else:
                u, phi_dot = e_dot / speed, 0.0
        eps, eps_dot = dist / self.clearance, float(u @ e_dot) / self.clearance
        F_r, F_t = self.polar_forces(eps, eps_dot, omega_j + omega_b - 2.0 * phi_dot)
        F = F_r * u + F_t * np.array([-u[1], u[0]])
        return F, -0.5 * (e[0] * F[1] - e[1] * F[0])

    def ocvirk_load(self, eps: float, omega: float) -> float:
        """Ocvirk's load (N) that holds the journal at ratio ``eps`` at constant spin ``omega``
        (rad/s), eq. (L6)."""
        s = 1.0 - eps * eps
        return self.k * abs(omega) * eps * math.sqrt(16.0 * eps * eps + math.pi ** 2 * s) / (2.0 * s * s)


def film_of(model: dict, radius: float, clearance: float) -> JournalFilm | None:
    """The film of a clearance pair whose model has a ``lubricant`` (None: a dry joint)."""
    lube = model.get("lubricant")
    if lube is None:
        return None
    return JournalFilm(lube["viscosity"], lube.get("length", model["length"]), radius, clearance, lube["film_limit"])


class FilmPair:
    """A film between a pair's point (the journal) and its moving circle (the bearing): its
    generalised forces and their Newton block on the pair's dofs (``pair.dofs`` order)."""

    def __init__(self, pair, film: JournalFilm):
        slot = {int(d): i for i, d in enumerate(pair.dofs)}
        self.film = film
        self.journal = [slot[d] for d in pair.point]
        self.bearing = [slot[d] for d in pair.target]
        self.spins = [slot.get(pair.point_rotation, -1), slot.get(pair.target_rotation, -1)]

    def _inputs(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """(e_x, e_y, ė_x, ė_y, ω_j, ω_b) from the pair's local positions and velocities."""
        j, b = self.journal, self.bearing
        spins = [v[s] if s >= 0 else 0.0 for s in self.spins]
        return np.array([q[j[0]] - q[b[0]], q[j[1]] - q[b[1]], v[j[0]] - v[b[0]], v[j[1]] - v[b[1]], *spins])

    def _local(self, x: np.ndarray, size: int) -> np.ndarray:
        """The generalised forces (size,) on the pair's local dofs for the inputs ``x``."""
        F, torque = self.film.forces(x[0:2], x[2:4], x[4], x[5])
        Q = np.zeros(size)
        Q[self.journal] += F
        Q[self.bearing] -= F
        for s in self.spins:
            if s >= 0:
                Q[s] += torque
        return Q

    def generalized(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Forces on the pair's local dofs at local ``q``, ``v``."""
        return self._local(self._inputs(q, v), len(q))

    def journal_force(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The film's force on the journal (N, world x and y) at local ``q``, ``v``."""
        x = self._inputs(q, v)
        return self.film.forces(x[0:2], x[2:4], x[4], x[5])[0]

    def power(self, q: np.ndarray, v: np.ndarray) -> float:
        """The film's power on the system (W, ≤ 0 by (L7))."""
        return float(self.generalized(q, v) @ v)

    def newton_block(self, q: np.ndarray, v: np.ndarray, c_v: float) -> tuple[np.ndarray, np.ndarray]:
        """Forces on the local dofs and ``-(dQ/dq + c_v dQ/dv)`` (k, k), by forward differences
        in the six inputs."""
        n, x = len(q), self._inputs(q, v)
        Q = self._local(x, n)
        dQ = np.zeros((n, 6))
        for i in range(6):
            step = DIFFERENCE_STEP * max(abs(x[i]), self.film.clearance if i < 2 else 1.0)
            xi = x.copy()
            xi[i] += step
            dQ[:, i] = (self._local(xi, n) - Q) / step
        block = np.zeros((n, n))
        j, b = self.journal, self.bearing
        for axis in range(2):  # e = q_j - q_b, ė = v_j - v_b
            block[:, j[axis]] -= dQ[:, axis] + c_v * dQ[:, 2 + axis]
            block[:, b[axis]] += dQ[:, axis] + c_v * dQ[:, 2 + axis]
        for i, s in enumerate(self.spins):
            if s >= 0:
                block[:, s] -= c_v * dQ[:, 4 + i]
        return Q, block
