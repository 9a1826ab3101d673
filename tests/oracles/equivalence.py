"""The results of a model and of its image under a :class:`~tests.oracles.transform.Transform`
compared: what must be equal is, what must transform does.

Each quantity is compared on every frame, relative to its largest magnitude in the first
run (one scale per quantity: a term that stays near zero is not compared against itself):

* equal: times, energies (the potential energy up to its value at the start, which a move
  shifts), axial forces and strains, gaps, normal velocities, forces and impulses, contact
  states, modal energies, arc lengths and speeds of moving loads;
* mapped: node positions (as points), velocities and accelerations (as vectors);
* times ``det`` (-1 under a mirror): changes of rotations and of driver angles and their
  rates, driver speeds and reactions, bending strains and moments, mid-span deflections,
  tangential velocities, forces and impulses, the normal force of a moving load on its link;
* modal coordinates by their magnitude under a mirror (a bending mode changes sign, an
  axial one does not).

Events: the same kinds in the same order, their times, normal and tangential impulses.
"""
from __future__ import annotations

import math

import numpy as np

from solver.results.frames import ENERGY_KEYS, Results

from .transform import Transform

#: contact columns that change sign with the tangent (t = (n_y, -n_x) turns with a mirror)
TANGENTIAL = ("v_t_m_s", "F_t_N", "I_t_N_s", "F_t_impulse_rate_N")
#: Frame arrays times det, their change from the first frame compared
SENSE_CHANGES = ("rot", "driver_angle")
#: Frame arrays times det
SENSE = ("rot_v", "rot_a", "driver_speed", "driver_reaction", "bending_strain", "bending_moment", "midspan")
#: Frame arrays equal
EQUAL = ("axial_force", "axial_strain", "modal_strain_energy", "modal_kinetic_energy", "moving_s", "moving_speed")


def _relative(a: np.ndarray, b: np.ndarray, scale: float | None = None) -> float:
    """``max |a - b|`` over the largest ``|a|`` (nan where both are nan counts as equal)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return math.inf
    if a.size == 0:
        return 0.0
    both = np.isnan(a) & np.isnan(b)
    diff = np.where(both, 0.0, np.abs(a - b))
    if np.isnan(diff).any():
        return math.inf
    scale = float(np.nanmax(np.abs(a))) if scale is None else scale
    worst = float(diff.max())
    return worst / scale if scale > 0.0 else (0.0 if worst == 0.0 else math.inf)


def differences(a: Results, b: Results, t: Transform) -> dict[str, float]:
    """The worst relative difference of each quantity between ``b`` and the image of ``a``
    under ``t`` (module docstring); ``frames`` and ``events`` count mismatches."""
    out: dict[str, float] = {"frames": float(len(a.frames) != len(b.frames))}
    if out["frames"]:
        return out
    ta, tb = a.time, b.time
    out["time"] = _relative(ta, tb, max(float(ta[-1]), 1e-300))
    A, d = t.A, np.asarray(t.d)
    xy = a.stack("node_xy")
    out["node_xy"] = _relative(xy @ A.T + d, b.stack("node_xy"), float(np.ptp(xy, axis=(0, 1)).max()))
    for name in ("node_v", "node_a"):
        out[name] = _relative(a.stack(name) @ A.T, b.stack(name))
    for name in SENSE_CHANGES:
        fa, fb = a.stack(name), b.stack(name)
        if fa.size:
            out[name] = _relative(t.det * (fa - fa[0]), fb - fb[0])
    for name in SENSE:
        out[name] = _relative(t.det * a.stack(name), b.stack(name))
    for name in EQUAL:
        out[name] = _relative(a.stack(name), b.stack(name))
    for name in ("modal_q", "modal_qd", "modal_qdd"):
        fa, fb = a.stack(name), b.stack(name)
        out[name] = _relative(np.abs(fa), np.abs(fb)) if t.det < 0 else _relative(fa, fb)
    F_n = t.det * a.stack("moving_force")[..., :1], b.stack("moving_force")[..., :1]
    out["moving_force"] = max(_relative(*F_n), _relative(a.stack("moving_force")[..., 1:],
                                                       b.stack("moving_force")[..., 1:]))
    out["energy"] = _energy_difference(a, b)
    out.update(_contact_differences(a, b, t))
    out.update(_event_differences(a, b, t))
    return out


def _energy_difference(a: Results, b: Results) -> float:
    keys = list(ENERGY_KEYS)
    ea, eb = a.energies(keys, 0.0), b.energies(keys, 0.0)
    v = keys.index("potential")
    ea[:, v] -= ea[0, v]
    eb[:, v] -= eb[0, v]
    return _relative(ea, eb, float(np.abs(ea).max()))


def _contact_differences(a: Results, b: Results, t: Transform) -> dict[str, float]:
    if not a.layout.contacts or not a.frames:
        return {}
    out = {}
    for key in a.frames[0].contact:
        ca = np.array([f.contact[key] for f in a.frames], dtype=float)
        cb = np.array([f.contact.get(key, np.full(ca.shape[1:], math.nan)) for f in b.frames], dtype=float)
        if key == "state":
            out["contact.state"] = float(np.count_nonzero(ca != cb))
        else:
            out[f"contact.{key}"] = _relative(t.det * ca if key in TANGENTIAL else ca, cb)
    return out


def _event_differences(a: Results, b: Results, t: Transform) -> dict[str, float]:
    kinds_a = [(e["kind"], e.get("contact")) for e in a.events]
    kinds_b = [(e["kind"], e.get("contact")) for e in b.events]
    out = {"events": float(sum(x != y for x, y in zip(kinds_a, kinds_b)) + abs(len(kinds_a) - len(kinds_b)))}
    if out["events"] or not a.events:
        return out
    end = max(float(a.time[-1]), 1e-300)
    out["event.time"] = _relative([e["time_s"] for e in a.events], [e["time_s"] for e in b.events], end)
    for key, sign in (("I_n_N_s", 1.0), ("I_t_N_s", float(t.det))):
        ia = [sign * e.get(key, 0.0) for e in a.events]
        ib = [e.get(key, 0.0) for e in b.events]
        out[f"event.{key}"] = _relative(ia, ib, max(float(np.abs([e.get("I_n_N_s", 0.0) for e in a.events]).max()),
                                                    1e-300))
    return out


def assert_equivalent(a: Results, b: Results, t: Transform, rtol: float = 1e-8,
                      rtols: dict[str, float] | None = None) -> dict[str, float]:
    """Assert that ``b``, the results of a model moved by ``t``, are those of ``a`` moved by ``t``
    (:func:`differences`) to ``rtol`` relative (``rtols``: other tolerances of named quantities;
    frame counts, event kinds and contact states must match exactly); returns the differences."""
    diff = differences(a, b, t)
    limits = {k: (0.0 if k in ("frames", "events", "contact.state") else (rtols or {}).get(k, rtol)) for k in diff}
    beyond = {k: v for k, v in diff.items() if not v <= limits[k]}
    assert not beyond, "not equivalent: " + ", ".join(f"{k} {v:.3g} (> {limits[k]:.0e})" for k, v in beyond.items())
    return diff
