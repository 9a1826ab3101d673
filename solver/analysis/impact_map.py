"""Impact-type maps: Routh's impulse type and the post-impact quantities over a grid of
two of μs, μD, e, the approach angle and the tangential/normal velocity ratio, with
the system's inertia fixed at one instant (:mod:`.contact_instant`).

Every cell is the closed form of LAJSS 2024 §5 (:func:`solver.contact.routh.routh_arrays`,
no time loop), all cells in one vectorised call.  The boundaries between the types
are the paper's criteria (§5, the list after eq. 35):

* ``mu_c`` — μs = μc = |c|/b (eq. 14, general sign): sticks once slip stops, or reverses;
* ``I_nh = I_np`` — slip stops exactly at the end of compression (eqs. 31, 33): halts
  in compression or in restitution;
* ``I_nh = I_nf`` — slip stops exactly at the end of the impact (eqs. 31, 34, 35):
  halts, or slides throughout.

Axes (``x`` and ``y`` of :func:`impact_map`, see :data:`AXES`): the friction
coefficients and e replace the instant's; the approach angle φ (deg, from the inward
normal, positive towards +t) sets ``v_n0 = -|v| cos φ, v_t0 = |v| sin φ`` at the
instant's speed |v|; the ratio r sets ``v_t0 = r |v_n0|`` at the instant's ``v_n0``.
When one friction coefficient is an axis and the other is not, ``mu_d_rule`` says
what the other does: ``'ratio'`` follows at the instant's μD/μs, ``'fixed'`` keeps its
value (cells with μD > μs are then ``invalid``).
"""
from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass, field

import numpy as np

from ..contact.routh import KINDS, LAWS, routh_arrays
from ..model.paths import item_label
from ..safe_write import replacing
from .contact_instant import ContactInstant
from .isolines import zero_isoline

#: axis name -> (label, unit)
AXES = {
    "mu_s": ("static friction coefficient μs", "-"),
    "mu_d": ("dynamic friction coefficient μD", "-"),
    "e": ("coefficient of restitution e", "-"),
    "angle": ("approach angle from the normal φ", "deg"),
    "ratio": ("tangential / normal approach velocity v_t0/|v_n0|", "-"),
}

#: what each impulse type means (LAJSS §5, thesis Table 3.1)
KIND_NAMES = {
    "S": "slides throughout",
    "SCS": "slip stops in compression, then sticks",
    "SRS": "slip stops in restitution, then sticks",
    "SCD": "slip stops in compression, then reverses",
    "SRD": "slip stops in restitution, then reverses",
    "stick": "starts at rest and sticks",
    "normal": "starts at rest, no friction, nothing moves it along the target",
    "invalid": "no impact (μD > μs)",
}

#: the category of cells outside the physics (μD > μs under the 'fixed' rule)
INVALID = -1

#: boundary name -> its criterion, for legends
BOUNDARIES = {
    "mu_c": "μs = μc (sticks / reverses)",
    "I_nh=I_np": "I_nh = I_np (halts in compression / restitution)",
    "I_nh=I_nf": "I_nh = I_nf (halts / slides throughout)",
}

#: quantities of every cell: name -> (label, unit)
QUANTITIES = {
    "I_n": ("normal impulse", "N s"),
    "I_t": ("tangential impulse", "N s"),
    "v_n": ("normal velocity after", "m/s"),
    "v_t": ("tangential velocity after", "m/s"),
    "e_achieved": ("-v_n/v_n0", "-"),
    "dT": ("kinetic energy change", "J"),
    "friction_dissipation": ("energy dissipated by friction", "J"),
    "restitution_dissipation": ("energy dissipated by restitution", "J"),
}

MAX_CELLS_PER_AXIS = 2000


class MapError(ValueError):
    """An impact map that cannot be drawn as asked (the message names the setting)."""


@dataclass(frozen=True)
class Axis:
    """One axis of a map: ``count`` values from ``low`` to ``high`` of quantity ``name``."""

    name: str
    low: float
    high: float
    count: int = 100

    @property
    def values(self) -> np.ndarray:
        return np.linspace(self.low, self.high, self.count)

    @property
    def title(self) -> str:
        label, unit = AXES[self.name]
        return label if unit == "-" else f"{label} ({unit})"

    def check(self, which: str) -> None:
        """Raise :class:`MapError` naming ``which`` axis when the axis cannot be drawn."""
        if self.name not in AXES:
            raise MapError(f"{which} axis: unknown quantity '{self.name}' (one of {', '.join(AXES)})")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise MapError(f"{which} axis {self.name}: need finite low < high, got {self.low:g} .. {self.high:g}")
        if not 2 <= self.count <= MAX_CELLS_PER_AXIS:
            raise MapError(f"{which} axis {self.name}: count must lie in 2 .. {MAX_CELLS_PER_AXIS}, got {self.count}")
        lo, hi = {"mu_s": (0.0, math.inf), "mu_d": (0.0, math.inf), "e": (0.0, 1.0)}.get(self.name, (-math.inf, math.inf))
        if self.name == "angle" and not (-90.0 < self.low and self.high < 90.0):
            raise MapError(f"{which} axis angle: must lie strictly between -90 and 90 deg")
        if self.low < lo or self.high > hi:
            raise MapError(f"{which} axis {self.name}: must lie in [{lo:g}, {hi:g}]")


@dataclass
class ImpactMap:
    """A computed map: cell values on the grid ``y`` (rows) x ``x`` (columns).

    ``kind`` (ny, nx) indexes :data:`solver.contact.routh.KINDS` (:data:`INVALID` for
    cells outside the physics); ``values[name]`` (ny, nx) for each of
    :data:`QUANTITIES`; ``boundaries[name]`` the segments ``(k, 2, 2)`` of each of
    :data:`BOUNDARIES` in axis units, only where the type changes across them.
    """

    instant: ContactInstant
    x: Axis
    y: Axis
    law: str
    mu_d_rule: str
    kind: np.ndarray
    values: dict[str, np.ndarray]
    boundaries: dict[str, np.ndarray] = field(default_factory=dict)

    def kinds_present(self) -> list[str]:
        """Names of the categories that occur, in :data:`KINDS` order (then ``invalid``)."""
        codes = set(np.unique(self.kind).tolist())
        return [k for i, k in enumerate(KINDS) if i in codes] + (["invalid"] if INVALID in codes else [])

    def instant_point(self) -> tuple[float, float]:
        """Where the instant itself (its own μs, μD, e and approach velocity) lies in the map."""
        i = self.instant
        own = {"mu_s": i.mu_s, "mu_d": i.mu_d, "e": i.e, "angle": math.degrees(math.atan2(i.v_t0, -i.v_n0)),
               "ratio": i.v_t0 / abs(i.v_n0) if i.v_n0 else math.nan}
        return own[self.x.name], own[self.y.name]

    def kind_name(self, j: int, i: int) -> str:
        code = int(self.kind[j, i])
        return "invalid" if code == INVALID else KINDS[code]


def impact_map(instant: ContactInstant, x: Axis, y: Axis, law: str | None = None,
               mu_d_rule: str = "ratio") -> ImpactMap:
    """Routh's closed form in every cell of the grid ``x`` by ``y`` (see the module docstring).

    >>> from solver.analysis.contact_instant import ContactInstant
    >>> rod = ContactInstant("B", 0.0, 2.5, 2.5, -1.5, -1.0, 0.6, 0.73, 0.7, 0.82, "energetic", "LAJSS §6")
    >>> m = impact_map(rod, Axis("mu_s", 0.0, 1.0, 11), Axis("e", 0.0, 1.0, 3))
    >>> [m.kind_name(1, i) for i in (5, 6)], m.boundaries["mu_c"][0, :, 0].round(12).tolist()
    (['SCD', 'SCS'], [0.6, 0.6])
    """
    law = instant.law if law is None else law
    if law not in LAWS:
        raise MapError(f"law: must be one of {', '.join(LAWS)}, got '{law}'")
    if mu_d_rule not in ("ratio", "fixed"):
        raise MapError(f"mu_d_rule: must be 'ratio' or 'fixed', got '{mu_d_rule}'")
    x.check("x")
    y.check("y")
    names = {x.name, y.name}
    if x.name == y.name or names == {"angle", "ratio"}:
        raise MapError(f"x and y axes: {x.name} and {y.name} are not independent")
    if names & {"mu_s", "mu_d", "e"} and not names & {"angle", "ratio"} and instant.v_n0 >= 0.0:
        raise MapError(f"contacts{item_label(instant.contact)}: not approaching at this instant "
                       f"(v_n = {instant.v_n0:.4g} m/s); choose an instant just before an impulse")
    X, Y = np.meshgrid(x.values, y.values)
    p = _cell_parameters(instant, {x.name: X, y.name: Y}, mu_d_rule)
    invalid = p["mu_d"] > p["mu_s"] * (1.0 + 1e-12)
    r = routh_arrays(instant.a, instant.b, instant.c, p["v_n0"], p["v_t0"], p["mu_s"],
                     np.minimum(p["mu_d"], p["mu_s"]), p["e"], law, instant.c_tn)
    kind = np.where(invalid, INVALID, r.kind)
    with np.errstate(invalid="ignore"):
        values = {"I_n": r.I_n, "I_t": r.I_t, "v_n": r.v_n, "v_t": r.v_t, "e_achieved": -r.v_n / p["v_n0"],
                  "dT": r.dT, "friction_dissipation": -r.W_t, "restitution_dissipation": -r.W_n}
    values = {k: np.where(invalid, np.nan, v) for k, v in values.items()}
    out = ImpactMap(instant, x, y, law, mu_d_rule, kind, values)
    out.boundaries = _boundaries(out, p, r)
    return out


def _cell_parameters(instant: ContactInstant, axes: dict[str, np.ndarray], mu_d_rule: str) -> dict[str, np.ndarray]:
    """μs, μD, e, v_n0, v_t0 of every cell."""
    shape = next(iter(axes.values())).shape
    p = {k: np.full(shape, float(getattr(instant, k))) for k in ("mu_s", "mu_d", "e", "v_n0", "v_t0")}
    p.update({k: v for k, v in axes.items() if k in ("mu_s", "mu_d", "e")})
    if mu_d_rule == "ratio" and len(axes.keys() & {"mu_s", "mu_d"}) == 1:
        ratio = instant.mu_d / instant.mu_s if instant.mu_s > 0 else 1.0
        if "mu_s" in axes:
            p["mu_d"] = ratio * axes["mu_s"]
        else:
            p["mu_s"] = axes["mu_d"] / ratio if ratio > 0 else np.full(shape, instant.mu_s)
    if "angle" in axes:
        speed = math.hypot(instant.v_n0, instant.v_t0)
        phi = np.radians(axes["angle"])
        p["v_n0"], p["v_t0"] = -speed * np.cos(phi), speed * np.sin(phi)
    if "ratio" in axes:
        p["v_t0"] = axes["ratio"] * abs(instant.v_n0)
        p["v_n0"] = np.full(shape, -abs(instant.v_n0))
    return p


#: per impulse type (KINDS order, then invalid): where the slip halts (C, R or -) and
#: how it ends (S sticks, D reverses, - neither): what the boundaries separate
_HALTS = np.array(list("-CRCR---"))
_ENDS = np.array(list("-SSDDS--"))


def _boundaries(m: ImpactMap, p: dict[str, np.ndarray], r) -> dict[str, np.ndarray]:
    """Zero lines of the three criteria, each kept in the cells whose corners differ in
    what that criterion decides (so a line where another criterion changes the type is
    not drawn twice)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        fields = {
            "mu_c": p["mu_s"] - r.mu_c,
            "I_nh=I_np": 1.0 / r.I_nh - 1.0 / r.I_np,
            "I_nh=I_nf": 1.0 / r.I_nh - 1.0 / r.I_nf,
        }
    k = m.kind
    corners = np.stack([k[:-1, :-1], k[:-1, 1:], k[1:, 1:], k[1:, :-1]], axis=-1)
    halts, ends = _HALTS[corners], _ENDS[corners]
    slides = corners == KINDS.index("S")
    keep = {
        "mu_c": (ends == "S").any(axis=-1) & (ends == "D").any(axis=-1),
        "I_nh=I_np": (halts == "C").any(axis=-1) & (halts == "R").any(axis=-1),
        "I_nh=I_nf": slides.any(axis=-1) & (halts != "-").any(axis=-1),
    }
    return {name: zero_isoline(m.x.values, m.y.values, np.where(np.isfinite(phi), phi, np.nan), keep=keep[name])
            for name, phi in fields.items()}


def write_map_csv(m: ImpactMap, path: str | os.PathLike) -> None:
    """One row per cell: the two axis values, the type and :data:`QUANTITIES` (units in
    the column names)."""
    unit = {"-": "", "N s": "_N_s", "m/s": "_m_s", "J": "_J", "deg": "_deg"}
    header = [m.x.name + unit[AXES[m.x.name][1]], m.y.name + unit[AXES[m.y.name][1]], "type"]
    header += [name + unit[u] for name, (_label, u) in QUANTITIES.items()]
    X, Y = np.meshgrid(m.x.values, m.y.values)
    with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        for j in range(m.kind.shape[0]):
            for i in range(m.kind.shape[1]):
                row = [f"{X[j, i]:.17g}", f"{Y[j, i]:.17g}", m.kind_name(j, i)]
                row += ["" if np.isnan(m.values[q][j, i]) else f"{m.values[q][j, i]:.17g}" for q in QUANTITIES]
                writer.writerow(row)
