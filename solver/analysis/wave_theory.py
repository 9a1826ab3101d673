"""Elastic wave theory of the longitudinal impacts of thesis §5.1 (Johnson 1972,
Goldsmith 1960): the reference solutions the finite-element impacts are checked against.

A bar of axial stiffness ``EA`` (N) and mass per length ``rhoA`` (kg/m) carries waves at
``c = sqrt(EA / rhoA)`` (thesis eq. 3.6); a wave of particle velocity ``u`` carries the
force ``Z u`` with the impedance ``Z = rhoA c = EA / c`` (N s/m).  Times here count
from the first contact.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.polynomial import Polynomial
from scipy.optimize import brentq


@dataclass(frozen=True)
class _Bars:
    """Bars of axial stiffness ``EA`` (N) and mass per length ``rhoA`` (kg/m)."""

    EA: float
    rhoA: float

    @property
    def c(self) -> float:
        """Wave speed (m/s), thesis eq. (3.6)."""
        return math.sqrt(self.EA / self.rhoA)

    @property
    def Z(self) -> float:
        """Impedance (N s/m)."""
        return self.rhoA * self.c


@dataclass(frozen=True)
class MassOnBar(_Bars):
    """A rigid mass ``M`` (kg) at ``v0`` (m/s) striking the free end of a bar of length
    ``L`` (m) fixed at its other end (thesis §5.1.1, Johnson 1972 §9.2).

    With ``f(t)`` the particle velocity of the wave leaving the struck end, the wave
    comes back reversed after ``T = 2L/c`` (fixed end: ``u = 0`` there), so at the
    struck end the velocity is ``f(t) - f(t - T)`` and the force ``Z (f(t) + f(t - T))``.
    The mass's law ``M (f' (t) - f'(t - T)) = -Z (f(t) + f(t - T))`` is solved interval
    by interval: on ``[nT, (n+1)T)``, ``f = exp(-s/tau) P_n(s)`` with ``s = t - nT``,
    ``tau = M/Z`` and polynomials ``P_n`` (degree n), the mass's velocity continuous.
    Contact ends where the force first vanishes (:attr:`separation`).
    """

    L: float
    M: float
    v0: float

    @property
    def T(self) -> float:
        """Round trip of a wave along the bar, 2L/c (s)."""
        return 2.0 * self.L / self.c

    def _pieces(self, count: int) -> list[Polynomial]:
        tau, T = self.M / self.Z, self.T
        pieces = [Polynomial([self.v0])]
        for n in range(1, count):
            before = pieces[n - 1]
            older = pieces[n - 2](T) if n >= 2 else 0.0       # f((n-1)T-) * exp(T/tau)
            q0 = before(0.0) + math.exp(-T / tau) * (before(T) - older)
            pieces.append(before - (2.0 / tau) * before.integ() + (q0 - before(0.0)))
        return pieces

    def _f(self, t: np.ndarray, pieces: list[Polynomial]) -> np.ndarray:
        tau, T = self.M / self.Z, self.T
        t = np.asarray(t, dtype=float)
        out = np.zeros_like(t)
        n = np.floor(t / T).astype(int)
        for k, p in enumerate(pieces):
            here = (n == k) & (t >= 0)
            s = t[here] - k * T
            out[here] = np.exp(-s / tau) * p(s)
        return out

    def force(self, t) -> np.ndarray:
        """Contact force (N) at times ``t`` (s) of the contact, ignoring separation."""
        pieces = self._pieces(self._intervals(t))
        t = np.asarray(t, dtype=float)
        return self.Z * (self._f(t, pieces) + self._f(t - self.T, pieces))

    def mass_velocity(self, t) -> np.ndarray:
        """The mass's velocity towards the bar (m/s) while in contact."""
        pieces = self._pieces(self._intervals(t))
        t = np.asarray(t, dtype=float)
        return self._f(t, pieces) - self._f(t - self.T, pieces)

    def _intervals(self, t) -> int:
        return int(np.max(np.asarray(t, dtype=float), initial=0.0) / self.T) + 2

    @property
    def separation(self) -> float:
        """Duration of the contact (s): the first zero of the force."""
        T, k = self.T, 0
        while self.force(np.array([(k + 1) * T * (1 - 1e-12)]))[0] > 0.0:
            k += 1
            if k > 10_000:
                raise ValueError("no separation within 10 000 wave round trips")
        return brentq(lambda s: self.force(np.array([s]))[0], k * T * (1 + 1e-12), (k + 1) * T * (1 - 1e-12),
                      xtol=1e-15, rtol=1e-15)

    def history(self, t) -> dict[str, np.ndarray]:
        """Force (N), the mass's velocity (m/s, towards the bar) and its displacement
        from the point of first contact (m) at times ``t`` (s) from the first contact,
        also after the separation (force 0, constant velocity)."""
        t = np.asarray(t, dtype=float)
        t_sep = self.separation
        inside = np.minimum(t, t_sep)
        force = np.where(t < t_sep, self.force(inside), 0.0)
        velocity = self.mass_velocity(inside)
        v_after = self.mass_velocity(np.array([t_sep]))[0]
        fine = np.linspace(0.0, t_sep, 4001)
        v_fine = self.mass_velocity(fine)
        x_fine = np.concatenate([[0.0], np.cumsum(0.5 * (v_fine[1:] + v_fine[:-1]) * np.diff(fine))])
        displacement = np.interp(inside, fine, x_fine) + np.where(t > t_sep, (t - t_sep) * v_after, 0.0)
        velocity = np.where(t > t_sep, v_after, velocity)
        return {"force": force, "velocity": velocity, "displacement": displacement}


@dataclass(frozen=True)
class TwoBars(_Bars):
    """A free bar of length ``L1`` (m) at ``v0`` (m/s) striking the free end of a bar of
    the same material and section, length ``L2 >= L1``, fixed at its far end (thesis
    §5.1.2; Goldsmith 1960).

    Equal impedances: while the bars touch, the interface moves at ``v0/2`` and the force
    is ``Z v0/2``.  The striker's tension reflection ends the first pulse at ``2 L1/c``;
    the struck bar's pulse, reflected at its fixed end, presses the bars together again
    from ``2 L2/c`` to ``2 (L1 + L2)/c``, when they separate and the striker leaves
    unstressed at ``v0`` reversed.
    """

    L1: float
    L2: float
    v0: float

    def __post_init__(self):
        if self.L2 < self.L1:
            raise ValueError("the struck bar must be at least as long as the striker (L2 >= L1)")

    @property
    def separation(self) -> float:
        """Duration of the contact, ``2 (L1 + L2) / c`` (s)."""
        return 2.0 * (self.L1 + self.L2) / self.c

    def history(self, t) -> dict[str, np.ndarray]:
        """At times ``t`` (s) from the first contact: the contact force (N) and the
        velocities (m/s, positive away from the fixed bar, the striker arriving at
        ``-v0``) of the striker's front and back ends and of the struck end."""
        t = np.asarray(t, dtype=float)
        c, v0, L1, L2 = self.c, self.v0, self.L1, self.L2
        first = (t >= 0) & (t < 2 * L1 / c)
        second = (t >= 2 * L2 / c) & (t < self.separation)
        pressing = first | second
        interface = np.where(first, -0.5 * v0, np.where(second, 0.5 * v0, 0.0))
        front = np.where(t < 0, -v0, np.where(t >= self.separation, v0, interface))
        back = np.where(t < L1 / c, -v0, np.where(t < 2 * L2 / c + L1 / c, 0.0, v0))
        return {"force": np.where(pressing, self.Z * 0.5 * v0, 0.0), "front": front, "back": back,
                "struck_end": np.where(t < 0, 0.0, interface)}
