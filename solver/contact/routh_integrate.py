"""Impulse at one contact point by stepping through the normal impulse: the cross-check
of :mod:`solver.contact.routh`.

This path shares no formula with the closed form. It integrates the impulse equations
of motion ``dv = D dI`` (eq. 4) with ``I_n`` as the independent variable (eq. 8), in
increments of at most 2 % of the impulse so far, and with the friction law applied per
increment: during slip ``dI_t = -mu_d sign(v_t) dI_n`` (eq. 7), during sticking ``dI_t``
is whatever keeps ``dv_t = 0`` (eq. 12), allowed while ``|dI_t| <= mu_s dI_n`` (eq. 15).
The right-hand side is constant between events, so every increment is exact (explicit
Euler on a constant slope, trapezoid for the work integrals, eqs. 28-30); events are
located inside an increment by root finding (Brent) on the increment length:

* slip stops (``v_t`` reaches 0): stick if the sticking ratio is admissible under
  ``mu_s``, otherwise slip in the direction for which ``v_t`` then grows;
* compression ends (``v_n`` reaches 0): ``I_nc`` and ``W_nc`` are recorded;
* the impact ends when the law is met: Newton ``v_n = -e v_n0``, Poisson
  ``I_n = (1 + e) I_nc``, energetic ``W_n - W_nc = -e^2 W_nc``.

The characteristic impulses ``I_np`` and ``I_nf`` of the hypothetical continued initial
slip are obtained by the same stepping with switching disabled.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .routh import ImpactResult, check_inputs, kinetic_energy_change

_EPS = np.finfo(float).eps


@dataclass(frozen=True)
class _State:
    I_n: float
    I_t: float
    v_n: float
    v_t: float
    W_n: float
    W_t: float
    W_r: float = 0.0    # work of the normal impulse since the last reset (end of compression)


class _Stepper:
    """Exact increments of the contact state in a given friction mode."""

    def __init__(self, D: np.ndarray, mu_s: float, mu_d: float):
        self.D = np.asarray(D, dtype=float)
        self.mu_s, self.mu_d = mu_s, mu_d

    def ratio(self, mode) -> float:
        """``dI_t / dI_n`` in ``mode`` (``('slip', sigma)`` or ``('stick',)``)."""
        if mode[0] == "slip":
            return -self.mu_d * mode[1]
        return -self.D[1, 0] / self.D[1, 1]   # dv_t = D[1,0] dI_n + D[1,1] dI_t = 0

    def rate_t(self, mode) -> float:
        """``dv_t / dI_n`` in ``mode``."""
        return self.D[1, 0] + self.D[1, 1] * self.ratio(mode)

    def advance(self, s: _State, mode, h: float) -> _State:
        k = self.ratio(mode)
        dv_n = (self.D[0, 0] + self.D[0, 1] * k) * h
        dv_t = (self.D[1, 0] + self.D[1, 1] * k) * h
        v_n, v_t = s.v_n + dv_n, s.v_t + dv_t
        if mode[0] == "stick":
            v_t = s.v_t
        dW_n = 0.5 * (s.v_n + v_n) * h
        return _State(I_n=s.I_n + h, I_t=s.I_t + k * h, v_n=v_n, v_t=v_t,
                      W_n=s.W_n + dW_n, W_t=s.W_t + 0.5 * (s.v_t + v_t) * k * h,
                      W_r=s.W_r + dW_n)

    def mode_at_rest(self) -> tuple:
        """Friction mode once ``v_t = 0``: stick if the friction it needs is within the
        static cone, else the slip direction that is self-consistent (v_t grows along
        sigma while friction opposes it)."""
        if abs(self.ratio(("stick",))) <= self.mu_s:
            return ("stick",)
        for sigma in (1.0, -1.0):
            if sigma * self.rate_t(("slip", sigma)) > 0.0:
                return ("slip", sigma)
        raise AssertionError("no consistent friction mode")  # impossible for SPD D


def _integrate(D, v_n0, v_t0, mu_s, mu_d, e, law, switching=True, max_steps=100_000):
    """Step through ``I_n``; return the final state and the event record."""
    st = _Stepper(D, mu_s, mu_d)
    scale = float(np.abs(st.D).max())
    h0 = abs(v_n0) / scale / 200.0
    s = _State(0.0, 0.0, v_n0, v_t0, 0.0, 0.0)
    if v_t0 != 0.0:
        mode = ("slip", math.copysign(1.0, v_t0))
        I_nh = v_nh = None
    else:
        mode = st.mode_at_rest()
        I_nh = 0.0 if mode[0] == "stick" else None
        v_nh = v_n0 if mode[0] == "stick" else None
    phase = "compression"
    I_nc = W_nc = None
    stop_phase = stop_mode = None
    breakpoints = [s]

    def end_value(x: _State) -> float:
        if law == "newton":
            return x.v_n + e * v_n0
        if law == "poisson":
            return x.I_n - (1.0 + e) * I_nc
        return x.W_r + e * e * W_nc      # W_r = W_n - W_nc, kept apart for precision

    for _ in range(max_steps):
        if phase == "restitution" and end_value(s) >= 0.0:
            return s, dict(I_nh=I_nh, v_nh=v_nh, I_nc=I_nc, W_nc=W_nc, stop_phase=stop_phase,
                           stop_mode=stop_mode, breakpoints=breakpoints + [s])
        h = max(h0, 0.02 * s.I_n)
        trial = st.advance(s, mode, h)
        events = []   # (increment to the event, name)

        def locate(g, name):
            if g(trial) < 0.0:
                return
            if g(s) >= 0.0:
                events.append((0.0, name))
                return
            from scipy.optimize import brentq  # here: scipy.optimize costs a run's start 0.15 s

            tau = brentq(lambda x: g(st.advance(s, mode, x)), 0.0, h, xtol=4 * _EPS * h,
                         rtol=4 * _EPS, maxiter=500)
            events.append((tau, name))

        if phase == "compression":
            locate(lambda x: x.v_n, "compression")
        else:
            locate(end_value, "end")
        if switching and mode[0] == "slip" and mode[1] * st.rate_t(mode) < 0.0:
            # a decelerating slip: it stops where v_t reaches 0 (at once if it is
            # there already, e.g. together with the end of compression)
            locate(lambda x: -mode[1] * x.v_t, "slip_stop")
        if not events:
            s = trial
            continue
        tau, name = min(events)
        s = st.advance(s, mode, tau) if tau > 0.0 else s
        if name == "end":
            return s, dict(I_nh=I_nh, v_nh=v_nh, I_nc=I_nc, W_nc=W_nc, stop_phase=stop_phase,
                           stop_mode=stop_mode, breakpoints=breakpoints + [s])
        if name == "compression":
            s = replace(s, v_n=0.0, W_r=0.0)
            phase, I_nc, W_nc = "restitution", s.I_n, s.W_n
        elif name == "slip_stop":
            s = replace(s, v_t=0.0)
            mode = st.mode_at_rest()
            if I_nh is None:
                I_nh, v_nh, stop_phase, stop_mode = s.I_n, s.v_n, phase, mode[0]
        breakpoints.append(s)
    raise RuntimeError(f"impulse integration did not end within {max_steps} increments")


def routh_impulse_integrated(D: np.ndarray, v_n0: float, v_t0: float, mu_s: float,
                             mu_d: float, e: float, law: str, symmetric: bool = True) -> ImpactResult:
    """Same arguments and result as :func:`solver.contact.routh.routh_impulse`, by direct
    integration in the normal impulse (module docstring); it reads ``D`` entry by entry, so
    an unsymmetric one (``symmetric=False``) needs nothing more."""
    a, b, c, c_tn = check_inputs(D, v_n0, v_t0, mu_s, mu_d, e, law, symmetric)
    v_n0, v_t0, mu_s, mu_d, e = float(v_n0), float(v_t0), float(mu_s), float(mu_d), float(e)
    s, rec = _integrate(D, v_n0, v_t0, mu_s, mu_d, e, law)

    if v_t0 == 0.0:
        kind = ("stick" if mu_s > 0.0 else "normal") if rec["I_nh"] == 0.0 else "S"
    elif rec["I_nh"] is None:
        kind = "S"
    else:
        kind = ("S" + ("C" if rec["stop_phase"] == "compression" else "R")
                + ("S" if rec["stop_mode"] == "stick" else "D"))

    # Characteristic impulses of the continued initial slip (no switching): the
    # compression end I_np and, with Newton's law, the end I_nf; inf if never reached.
    I_np = I_nf = math.inf
    if v_t0 != 0.0:
        slip = _Stepper(D, mu_s, mu_d)
        rising = slip.advance(_State(0.0, 0.0, v_n0, v_t0, 0.0, 0.0),
                              ("slip", math.copysign(1.0, v_t0)), 1.0).v_n > v_n0
        if rising:
            s_free, rec_free = _integrate(D, v_n0, v_t0, mu_s, mu_d, e, "newton", switching=False)
            I_np, I_nf = rec_free["I_nc"], s_free.I_n

    bps = []
    for p in rec["breakpoints"]:
        if not bps or p.I_n > bps[-1][0]:
            bps.append((p.I_n, p.I_t, p.v_n, p.v_t))
    return ImpactResult(
        kind=kind, I_n=s.I_n, I_t=s.I_t, v_n=s.v_n, v_t=s.v_t, v_n0=v_n0, v_t0=v_t0,
        I_nh=rec["I_nh"], I_nc=rec["I_nc"], I_ne=s.I_n, W_n=s.W_n, W_t=s.W_t,
        dT=(kinetic_energy_change(v_n0, v_t0, s.v_n, s.v_t, s.I_n, s.I_t) if c_tn == c else s.W_n + s.W_t),
        e_achieved=-s.v_n / v_n0,
        a=a, b=b, c=c, mu_s=mu_s, mu_d=mu_d, e=e, law=law, mu_c=abs(c_tn) / b,
        v_nh=rec["v_nh"], I_np=I_np, I_nf=I_nf, W_nc=rec["W_nc"],
        c_tn=(None if symmetric else c_tn), path=tuple(bps))
