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

Nodes and contact pairs are matched by name, through the names the image gives them
(:func:`~tests.oracles.transform.image_names`: a mirror swaps a slider's rear and front corners).
"""
from __future__ import annotations

import math

import numpy as np

from solver.results.frames import ENERGY_KEYS, Results

from .transform import Transform, image_names

#: the default gap within which a contact is established, m (``solver.contact_tol``)
CONTACT_TOL = 1e-6

#: contact columns that change sign with the tangent (t = (n_y, -n_x) turns with a mirror), and
#: the normal column whose scale they are compared on
TANGENTIAL = {"v_t_m_s": "v_n_m_s", "F_t_N": "F_n_N", "I_t_N_s": "I_n_N_s",
              "F_t_impulse_rate_N": "F_n_impulse_rate_N"}
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
    scale = float(np.nanmax(np.abs(a), initial=0.0)) if scale is None else scale
    worst = float(diff.max())
    return worst / scale if scale > 0.0 else (0.0 if worst == 0.0 else math.inf)


#: strains (and deflections over lengths) below this are round-off: the floor of their scale
STRAIN_FLOOR = 1e-12


def _top(r: Results, name: str) -> float:
    return float(np.nanmax(np.abs(r.stack(name)), initial=0.0))


def _scales(a: Results, b: Results) -> dict[str, float]:
    """The magnitude each quantity is compared against: its own largest, or that of the quantity it
    goes with when that is larger (a bar that barely turns is compared on the scale of its motion:
    rotations on displacements over the model's size, accelerations on the speeds over the run,
    bending on axial strains, tangential on normal contact values), and never below round-off
    (strains below :data:`STRAIN_FLOOR`, forces below it times the links' axial rigidity)."""
    xy = a.stack("node_xy")
    size = max(float(np.ptp(xy, axis=(0, 1)).max()), 1e-300)
    top = {name: _top(a, name) for name in ("node_v", "node_a", "axial_force", "axial_strain", "bending_strain",
                                            "bending_moment")}
    g = a.model.get("gravity", {})
    accel = max(top["node_a"], top["node_v"] / max(float(a.time[-1]), 1e-300), math.hypot(g.get("x", 0.0),
                                                                                         g.get("y", 0.0)))
    fibre = np.asarray(a.layout.outer_fibre, dtype=float)
    c = float(np.nanmax(fibre, initial=0.0)) if np.isfinite(fibre).any() else 0.0
    moved = float(np.abs(xy - xy[0]).max())
    strain = max(top["axial_strain"], top["bending_strain"], STRAIN_FLOOR)
    rigidity = _top(b, "axial_force") / max(_top(b, "axial_strain"), 1e-300)  # EA, N
    force = max(top["axial_force"] + (top["bending_moment"] / c if c > 0 else 0.0), STRAIN_FLOOR * rigidity)
    return {"node_xy": size, "rot": moved / size, "driver_angle": moved / size, "rot_v": top["node_v"] / size,
            "node_a": accel, "rot_a": accel / size, "axial_strain": strain, "bending_strain": strain,
            "midspan": max(strain, moved / size), "axial_force": force,
            "bending_moment": max(top["bending_moment"], force * (c or float(np.max(a.layout.element_length,
                                                                                   initial=0.0))))}


def differences(a: Results, b: Results, t: Transform) -> dict[str, float]:
    """The worst relative difference of each quantity between ``b`` and the image of ``a``
    under ``t`` (module docstring); ``frames`` and ``events`` count mismatches."""
    out: dict[str, float] = {"frames": float(len(a.frames) != len(b.frames))}
    if out["frames"]:
        return out
    scales = _scales(a, b)
    names = image_names(a.model or {}, t)
    nodes = _order(a.layout.nodes, b.layout.nodes, names)

    def compare(name: str, fa: np.ndarray, fb: np.ndarray) -> float:
        own = float(np.nanmax(np.abs(fa), initial=0.0)) if fa.size else 0.0
        return _relative(fa, fb, max(own, scales.get(name, 0.0)))

    ta, tb = a.time, b.time
    out["time"] = _relative(ta, tb, max(float(ta[-1]), 1e-300))
    A, d = t.A, np.asarray(t.d)
    out["node_xy"] = compare("node_xy", a.stack("node_xy") @ A.T + d, b.stack("node_xy")[:, nodes])
    for name in ("node_v", "node_a"):
        out[name] = compare(name, a.stack(name) @ A.T, b.stack(name)[:, nodes])
    for name in SENSE_CHANGES:
        fa, fb = a.stack(name), b.stack(name)
        if fa.size:
            out[name] = compare(name, t.det * (fa - fa[0]), fb - fb[0])
    for name in SENSE:
        out[name] = compare(name, t.det * a.stack(name), b.stack(name))
    for name in EQUAL:
        out[name] = compare(name, a.stack(name), b.stack(name))
    for name in ("modal_q", "modal_qd", "modal_qdd"):
        fa, fb = a.stack(name), b.stack(name)
        out[name] = compare(name, np.abs(fa), np.abs(fb)) if t.det < 0 else compare(name, fa, fb)
    fa, fb = a.stack("moving_force"), b.stack("moving_force")
    if fa.size:
        scale = float(np.abs(fa).max())
        out["moving_force"] = max(_relative(t.det * fa[..., 0], fb[..., 0], scale),
                                  _relative(fa[..., 1], fb[..., 1], scale))
    out["energy"] = _energy_difference(a, b)
    out.update(_contact_differences(a, b, t, names))
    out.update(_event_differences(a, b, t, names))
    return out


def _order(ids_a: list[str], ids_b: list[str], names: dict[str, str]) -> list[int]:
    """Where each of ``ids_a`` is among ``ids_b``, under the image's ``names``."""
    return [ids_b.index(names.get(i, i)) for i in ids_a]


def _energy_difference(a: Results, b: Results) -> float:
    keys = list(ENERGY_KEYS)
    ea, eb = a.energies(keys, 0.0), b.energies(keys, 0.0)
    v = keys.index("potential")
    ea[:, v] -= ea[0, v]
    eb[:, v] -= eb[0, v]
    return _relative(ea, eb, float(np.abs(ea).max()))


def _contact_differences(a: Results, b: Results, t: Transform, names: dict[str, str]) -> dict[str, float]:
    if not a.layout.contacts or not a.frames:
        return {}
    out, columns = {}, {}
    pairs = _order(a.layout.contacts, b.layout.contacts, names)
    for key in a.frames[0].contact:
        ca = np.array([f.contact[key] for f in a.frames], dtype=float)
        cb = np.array([f.contact.get(key, np.full(ca.shape[1:], math.nan)) for f in b.frames], dtype=float)
        cb = cb[:, pairs] if cb.ndim > 1 else cb
        columns[key] = (ca, cb)
    _mask_undefined_normals(a, columns)
    for key, (ca, cb) in columns.items():
        if key == "state":
            out["contact.state"] = float(np.count_nonzero(ca != cb))
            continue
        scale = float(np.nanmax(np.abs(ca), initial=0.0))
        if key == "gap_m":  # a gap held at zero is round-off: compared on the contact tolerance
            scale = max(scale, float(a.model.get("solver", {}).get("contact_tol", CONTACT_TOL)))
        if key in TANGENTIAL:
            ca = t.det * ca
            normal = columns[TANGENTIAL[key]][0]
            scale = max(scale, float(np.nanmax(np.abs(normal), initial=0.0)))
        out[f"contact.{key}"] = _relative(ca, cb, scale)
    return out


#: a point nearer than this fraction of the model's size to a circle target's centre has no normal
CENTRE_FRACTION = 1e-12
#: contact columns read along the contact's normal and tangent
DIRECTED = ("v_n_m_s", "v_t_m_s", "F_t_N", "I_t_N_s", "F_t_impulse_rate_N")


def _mask_undefined_normals(a: Results, columns: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Leave out (nan in both runs) the directed columns of a pair whose point is at its circle
    target's centre (eccentricity within round-off of 0): any direction is its normal there, and
    round-off picks one (a ball started at a bore's centre: v_n 0 against -0.6 m/s at t = 0)."""
    if "eccentricity_m" not in columns:
        return
    size = max(float(np.ptp(a.stack("node_xy"), axis=(0, 1)).max()), 1.0)
    centred = np.nan_to_num(columns["eccentricity_m"][0], nan=np.inf) <= CENTRE_FRACTION * size
    for key in DIRECTED:
        if key in columns:
            for c in columns[key]:
                c[centred] = np.nan


def _event_differences(a: Results, b: Results, t: Transform, names: dict[str, str]) -> dict[str, float]:
    kinds_a = [(e["kind"], names.get(e.get("contact"), e.get("contact"))) for e in a.events]
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
