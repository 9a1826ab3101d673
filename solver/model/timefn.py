"""Time functions of loads and drivers: value, first and second derivative, integral.

A function is the model's ``function`` object (defaults filled in).  Speed drivers
integrate it to an angle; angle drivers differentiate it for consistent initial
velocities and accelerations.  Functions are right-continuous (a window is on over
``[t_on, t_off)``) and report their :meth:`~TimeFunction.breakpoints`, where the
time loop lands a step and restarts with consistent velocities and accelerations.

>>> f = TimeFunction({"kind": "ramp", "t0": 0.0, "t1": 2.0, "v0": 0.0, "v1": 1.0})
>>> f.value(1.0), f.rate(1.0), f.integral(3.0)
(0.5, 0.5, 2.0)
"""
from __future__ import annotations

import math

import numpy as np


#: the kinds whose value, rate, acceleration and integral are polynomials in t, computed by the
#: same operations on an array of times as on each time
POLYNOMIAL = ("constant", "linear", "free")


class TimeFunction:
    """f(t) of one kind: constant, ramp, linear, window, table or sine; or ``free``, the start of
    a free moving mass's travel, ``s0 + speed0 t`` (the solver moves the mass by its dynamics
    and reads only ``s0`` and ``speed0``)."""

    def __init__(self, spec: dict):
        self.kind = spec.get("kind", "constant")
        self.spec = spec
        if self.kind in ("ramp", "table"):
            t, v = self._knots()
            self._t, self._v = np.asarray(t, float), np.asarray(v, float)
            # integral at each knot (piecewise linear between knots, held outside)
            seg = 0.5 * (self._v[1:] + self._v[:-1]) * np.diff(self._t)
            self._cum = np.concatenate([[0.0], np.cumsum(seg)])

    def _knots(self) -> tuple[list[float], list[float]]:
        s = self.spec
        if self.kind == "ramp":
            return [s["t0"], s["t1"]], [s["v0"], s["v1"]]
        return list(s["t"]), list(s["v"])

    def breakpoints(self) -> list[float]:
        """Times where f or its rate jumps (kinks of ramps and tables, window edges)."""
        s = self.spec
        if self.kind == "window":
            return [s["t_on"], s["t_off"]]
        if self.kind in ("ramp", "table"):
            return [float(t) for t in self._t]
        return []

    def value(self, t: float) -> float:
        k, s = self.kind, self.spec
        if k == "constant":
            return s["value"]
        if k == "linear":
            return s["rate"] * t
        if k == "free":
            return s["s0"] + s["speed0"] * t
        if k == "sine":
            return s["amplitude"] * math.sin(2 * math.pi * s["frequency"] * t + s["phase"])
        if k == "window":
            return s["value"] if s["t_on"] <= t < s["t_off"] else 0.0
        return float(np.interp(t, self._t, self._v))

    def rate(self, t: float) -> float:
        """df/dt (right derivative at kinks)."""
        k, s = self.kind, self.spec
        if k in ("constant", "window"):
            return 0.0
        if k == "linear":
            return s["rate"]
        if k == "free":
            return s["speed0"]
        if k == "sine":
            w = 2 * math.pi * s["frequency"]
            return s["amplitude"] * w * math.cos(w * t + s["phase"])
        i = np.searchsorted(self._t, t, side="right") - 1
        if i < 0 or i >= len(self._t) - 1:
            return 0.0
        return float((self._v[i + 1] - self._v[i]) / (self._t[i + 1] - self._t[i]))

    def accel(self, t: float) -> float:
        """d2f/dt2 (zero on piecewise-linear functions)."""
        if self.kind == "sine":
            s = self.spec
            w = 2 * math.pi * s["frequency"]
            return -s["amplitude"] * w * w * math.sin(w * t + s["phase"])
        return 0.0

    def integral(self, t: float) -> float:
        """The integral of f from 0 to t."""
        k, s = self.kind, self.spec
        if k == "constant":
            return s["value"] * t
        if k == "linear":
            return 0.5 * s["rate"] * t * t
        if k == "free":
            return s["s0"] * t + 0.5 * s["speed0"] * t * t
        if k == "sine":
            w = 2 * math.pi * s["frequency"]
            return s["amplitude"] / w * (math.cos(s["phase"]) - math.cos(w * t + s["phase"]))
        if k == "window":
            return s["value"] * max(0.0, min(t, s["t_off"]) - s["t_on"])
        return self._integral_knots(t) - self._integral_knots(0.0)

    def _integral_knots(self, t: float) -> float:
        tk, vk, cum = self._t, self._v, self._cum
        if t <= tk[0]:
            return vk[0] * (t - tk[0])
        if t >= tk[-1]:
            return cum[-1] + vk[-1] * (t - tk[-1])
        i = int(np.searchsorted(tk, t, side="right") - 1)
        vt = vk[i] + (vk[i + 1] - vk[i]) * (t - tk[i]) / (tk[i + 1] - tk[i])
        return cum[i] + 0.5 * (vk[i] + vt) * (t - tk[i])
