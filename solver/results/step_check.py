"""What a run at half the step changes: the headline numbers of two runs of one model side by side
(``flexmech run --check-step``, docs/solver.md *Step-sequence sensitivity*).

Headlines, each one number a user reads: every free body's final speed (m/s), every pair's
total normal impulse (N s, its ``impulse`` events) and largest normal force (N), the largest
axial or bending strain of the flexible links, and the final kinetic, strain and potential
energy (J, its difference over the energy in play).
"""
from __future__ import annotations

import numpy as np

from .frames import Results, energy_matrix, frame_energies
from .summary import energy_in_play
from .tables import contact_keys, contact_values


def headlines(results: Results) -> dict[str, float]:
    """The run's headline numbers by name (with their units), see the module's text."""
    out = {}
    nodes, last = results.layout.nodes, results.frames[-1]
    for body in results.model.get("bodies", []):
        if body["id"] in nodes:
            out[f"body '{body['id']}' final speed, m/s"] = float(np.hypot(*last.node_v[nodes.index(body["id"])]))
    for pair in results.layout.contacts:
        strikes = [e["I_n_N_s"] for e in results.events if e.get("kind") == "impulse" and e.get("contact") == pair]
        if strikes:
            out[f"contact '{pair}' total normal impulse, N s"] = float(np.sum(np.abs(strikes)))
    if results.layout.contacts and "F_n_N" in contact_keys(results):
        force = np.abs(contact_values(results.frames, ["F_n_N"])["F_n_N"])
        for j, pair in enumerate(results.layout.contacts):
            out[f"contact '{pair}' largest normal force, N"] = float(np.nanmax(force[:, j], initial=0.0))
    strains = [np.abs(results.stack(name)) for name in ("axial_strain", "bending_strain")]
    if all(s.size for s in strains):
        out["largest strain"] = float(max(s.max() for s in strains))
    energies = frame_energies(results.frames)
    out["final energy, J"] = float(energy_matrix(energies[-1:], ("kinetic", "strain", "potential"), 0.0).sum())
    out["energy in play, J"] = energy_in_play(energies)
    return out


def differences(base: Results, half: Results) -> list[str]:
    """Each headline of ``base`` beside ``half``'s (the run at half the step), in words: the
    relative difference, of the energy in play for the final energy."""
    a, b = headlines(base), headlines(half)
    scale = max(a.pop("energy in play, J"), b.pop("energy in play, J"))
    lines = []
    for name, value in a.items():
        if name not in b:
            lines.append(f"{name}: {value:.6g} at the step, none at half of it")
            continue
        other = b[name]
        top = scale if name.startswith("final energy") else max(abs(value), abs(other))
        moved = abs(other - value) / top if top > 0.0 else 0.0
        of = " of the energy in play" if name.startswith("final energy") else ""
        lines.append(f"{name}: {value:.6g} at the step, {other:.6g} at half of it ({moved:.2%}{of})")
    return lines
