"""The flexible pendulum of Predebon §7 (``003_…txt``): the shipped examples' models and
what the tests and the study (``tests/benchmarks/pendulum_study.py``) measure on them.

The seed gives the rigid data only (uniform rod 1 kg, 1 m, pinned at one end, released
from rest horizontal, g = 10 m/s^2, strikes a fixed surface 80 deg from the vertical,
mu = 1, e = 1).  The flexible rod is stated here: steel (E = 210 GPa, 7850 kg/m^3, the
app's steel), round, of that mass and length: d = sqrt(4 / (pi 7850)) = 12.74 mm.
"""
from __future__ import annotations

import copy
import math

import numpy as np

from solver.contact.jump import impulse_reactions
from solver.model.io import examples_dir, load_model
from solver.system.assembly import Assembly
from solver.system.compile import compile_model

LAWS = ("newton", "poisson", "energetic")
#: the shipped variants: model name -> (link fields, time step s)
MODELS = {
    "modal1": ({"kind": "modal", "modes": 1, "reference": "free", "mesh": {"kind": "uniform", "elements": 20}}, 1e-3),
    "modal3": ({"kind": "modal", "modes": 3, "reference": "free", "mesh": {"kind": "uniform", "elements": 20}}, 1e-3),
    "modal5": ({"kind": "modal", "modes": 5, "reference": "free", "mesh": {"kind": "uniform", "elements": 20}}, 1e-3),
    "corotational": ({"kind": "flexible", "mesh": {"kind": "uniform", "elements": 20}}, 1e-4),
}
DIAMETER = math.sqrt(4.0 / (math.pi * 7850.0))


def example_name(model: str, law: str) -> str:
    return f"pendulum_flexible_{model}_{law}"


def pendulum(model: str, law: str, mu: float = 1.0, **link_fields) -> dict:
    """The flexible pendulum with ``model`` (a key of :data:`MODELS`) and restitution ``law``."""
    doc = load_model(examples_dir() / "pendulum_impact.json")
    fields, step = MODELS[model]
    title = {"modal1": "1 mode", "modal3": "3 modes", "modal5": "5 modes", "corotational": "corotational"}[model]
    doc["name"] = f"Flexible pendulum striking a surface ({title}, {law} restitution)"
    doc["description"] = (
        "Predebon section 7 with a flexible steel rod (1 kg, 1 m, d = 12.74 mm): released from rest horizontal, "
        "g = 10, strikes a fixed surface at 80 deg from the vertical, mu = 1, e = 1; the contact is a sequence of "
        "impulses (momentum balance with Routh's method) while the rod vibrates"
    )
    doc["source"] = (
        "W. W. Predebon, TK Techforum Journal 2020, section 7 (rigid data); the steel round rod is this example's "
        "choice (the seed gives no section); Pfeiffer & Glocker 1996 for the rigid case"
    )
    doc["materials"] = [{"id": "steel", "E": 2.1e11, "density": 7850.0}]
    link = {"id": "rod", "nodes": ["O", "tip"], "section": {"kind": "circle", "material": "steel", "d": DIAMETER}}
    link.update(copy.deepcopy(fields))
    link.update(link_fields)
    doc["links"] = [link]
    doc["contacts"][0].update(law=law, mu_s=mu, mu_d=mu)
    doc["solver"] = {"end_time": 0.3, "step": step, "output_interval": 0.0005}
    return doc


def contact_period(res) -> tuple[float, float]:
    """First impulse and last separation of the run, s."""
    start = next(e["time_s"] for e in res.events if e["kind"] == "impulse")
    end = [e["time_s"] for e in res.events if e["kind"] == "separation"][-1]
    return start, end


def angular_momentum(frame, layout) -> float:
    """Angular momentum of the rod about the pivot O, N m s: the trapezoidal rule over its
    mesh nodes with the mass per length 1 kg/m (nodes sorted along the sketched rod)."""
    nodes = [n for n in layout.nodes if n in ("O", "tip") or n.startswith("rod.")]
    order = sorted(nodes, key=lambda n: (n != "O", n == "tip", int(n.split(".")[1]) if "." in n else 0))
    rows = [layout.nodes.index(n) for n in order]
    r = frame.node_xy[rows] - frame.node_xy[rows[0]]
    v = frame.node_v[rows]
    w = np.full(len(rows), 1.0 / (len(rows) - 1))
    w[[0, -1]] *= 0.5
    return float(np.sum(w * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0])))


def measures(res) -> dict:
    """What the validation reports of a run (units in the keys)."""
    impulses = [e for e in res.events if e["kind"] == "impulse"]
    start, end = contact_period(res)
    after = int(np.searchsorted(res.time, end + 1e-12))
    frame = res.frames[after]
    total = res.total_energy()
    scale = float(np.max(res.energy("kinetic") + res.energy("strain")))
    first = impulses[0]
    kinds: dict[str, int] = {}
    for e in impulses:
        kinds[e["type"]] = kinds.get(e["type"], 0) + 1
    return {
        "first_type": first["type"], "first_a": first["a"], "first_I_n_N_s": first["I_n_N_s"],
        "first_I_t_N_s": first["I_t_N_s"], "impulses": len(impulses), "types": kinds,
        "I_n_N_s": sum(e["I_n_N_s"] for e in impulses), "I_t_N_s": sum(e["I_t_N_s"] for e in impulses),
        "start_s": start, "duration_s": end - start,
        "omega_rad_s": 3.0 * angular_momentum(frame, res.layout),  # H / (m L^2 / 3)
        "kinetic_J": frame.energy["kinetic"], "strain_J": frame.energy["strain"],
        "friction_J": res.energy("dissipated_friction")[-1], "restitution_J": res.energy("dissipated_restitution")[-1],
        "drift_rel": float(np.ptp(total)) / scale,
    }  # fmt: skip


def contact_inverse_inertia(doc: dict) -> np.ndarray:
    """``D = J X`` (1/kg) of the tip-surface pair with the rod undeformed at 80 deg from the
    vertical (the impact configuration), rows and columns (n, t)."""
    asm = Assembly(compile_model(doc))
    s = asm.sys
    q = s.q0.copy()
    angle = math.radians(-10.0)
    c, si = math.cos(angle), math.sin(angle)
    for x, y in [*s.node_dofs, *(fr[:2] for _n, fr in s.modal.frames)]:
        q[x], q[y] = c * s.q0[x] - si * s.q0[y], si * s.q0[x] + c * s.q0[y]
    q[s.rot_dofs] = angle
    for _n, fr in s.modal.frames:
        q[fr[2]] = angle
    J = s.contacts[0].geometry(q).J
    return J @ impulse_reactions(asm, q, 0.0, J)[0]
