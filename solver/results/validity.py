"""Whether a completed run's numbers hold: warnings a user sees beside the results.

- **Energy created** (the energy balance of ``summary.json``'s ``energy.total``): a balance that
  rises by more than :data:`DRIFT_WARNING` of the largest kinetic and strain energy means the step
  or the mesh could not follow the motion (the run completed; its numbers do not hold).  A
  balance that falls is not warned of: numerical damping (``tau > 0.5``, generalized-alpha) takes
  energy it does not book, by design (the thesis's rotating beam on a stop loses 0.53 of it).
- **Strains within the model**: the beams are linear elastic with small strains (thesis eq. A.3);
  an axial or outer-fibre bending strain beyond :data:`ELASTIC_STRAIN` is far outside what the
  model describes (steel yields near 0.002), however fine the mesh and step.
- **Joints that hold one motion twice** (``meta.redundant_joints``, :mod:`solver.system.redundant_joints`):
  their rows were dropped, and their reactions (``meta.joint_reactions``) are one admissible split.
- **Step-sensitive numbers** (:mod:`.trust`): a force spike one frame wide, a contact open for
  one frame, a sliver of a last step, a chain of strikes a driver feeds (:mod:`.impulse_chains`).
- **Points that rest**: a momentum-balance (impulse) pair stops a point's approach with an
  impulse at the end of each step, but holds no position: a point pressed against its target (a
  block resting on the floor) goes in by up to TOL a step, and sinks (a resting 1 kg block, 3.4
  mm in 2 s); a pair deeper than :data:`SINK_WARNING` times ``solver.contact_tol`` at a frame
  is said, with the Lagrange model, which holds the gap, as the remedy (the shipped impulse
  examples reach 7.5 TOL: the two bars of 5.1.2).
- **Contacts that hold**: a compliant contact between metal parts penetrates by micrometres to a
  tenth of a millimetre, a fraction of a journal's radial clearance or of a round point's radius
  (the 16 shipped pins in bores: 23-175 um in 0.5 mm); a pair whose largest
  penetration (``meta.compliant_contacts.<id>.max_penetration_m``) exceeds :data:`PENETRATION_WARNING`
  times that scale -- the journal outside its bearing by more than its clearance, a round point
  through the surface past its centre -- has a law that does not hold the bodies apart (an
  exponent of 10 with a stiffness of eqs. 3-5), and its motion is not physical.

>>> DRIFT_WARNING, ELASTIC_STRAIN, PENETRATION_WARNING, SINK_WARNING
(0.05, 0.05, 1.0, 100.0)
"""
from __future__ import annotations

import numpy as np

from ..model.contact_rules import clearance_radii, point_radius
from ..model.translational_rules import corner_pair_ids, translational_joints
from ..system.redundant_joints import path_id
from .frames import Results
from .summary import energy_summary, link_summary
from .tables import contact_keys, contact_values
from .trust import step_warnings

#: rise of the energy balance, of the largest kinetic and strain energy, beyond which a completed run
#: warns: the balance oracle's bound (``tests/oracles/test_balance.py``, beyond which a rise must be
#: the step's).  At 0.5 a rolling side strike that created 0.24 of it warned of nothing (issue 26); the
#: shipped examples' balances rise by at most 6.2e-4 over their whole runs (and fall by up to 0.53: damping)
DRIFT_WARNING = 0.05

#: axial or outer-fibre bending strain beyond which a link has left the small-strain, linear elastic beam
#: (the struck slider-crank of thesis 5.4, the largest strain of the shipped examples, reaches 0.025)
ELASTIC_STRAIN = 5e-2


def energy_warning(results: Results) -> str | None:
    """The energy the integration created beyond :data:`DRIFT_WARNING`, in words; otherwise None."""
    total = energy_summary(results)["total"]
    scale = total["scale_J"] if total else 0.0
    if not scale > 0.0:
        return None
    balance = results.total_energy()
    created = float(np.max(balance - balance[0])) / scale
    if not created > DRIFT_WARNING:
        return None
    return (f"the energy balance rose by {created:.2g} times the largest kinetic and strain energy ({scale:.3g} J), "
            "energy that no law of the model creates: the step or the mesh cannot follow this motion, so the results "
            "are not reliable; halve the step (and refine the mesh) and compare")


def strain_warning(results: Results, links: dict | None = None) -> str | None:
    """The recorded strains beyond :data:`ELASTIC_STRAIN` (the largest axial and bending strain of
    the frames' element stations, and when: the peaks of ``summary.json``'s links, read column
    by column, or ``links``, those peaks already read), in words; otherwise None."""
    if not results.frames:
        return None
    links = link_summary(results, results.time.astype(float)) if links is None else links
    peaks = {name: [link[f"peak_{name}"] for link in links.values()] for name in ("axial_strain", "bending_strain")}
    axial, bending = (max((p["abs"] for p in peaks[name] if p), default=0.0) for name in peaks)
    largest = max(axial, bending)
    if not largest > ELASTIC_STRAIN:
        return None
    when = min(p["time_s"] for name in peaks for p in peaks[name] if p and p["abs"] == largest)
    return (f"the flexible links were strained far beyond a linear elastic beam (axial strain up to {axial:.2g}, "
            f"bending strain up to {bending:.2g}, the largest at t = {when:.6g} s; steel yields near 0.002): the "
            "motion has left what the model describes")


#: largest penetration of a compliant pair, in its clearance (a pin in a bore) or its point's radius,
#: beyond which a run warns (the 16 shipped clearance joints and pins in bores reach at most 0.35 of
#: their 0.5 mm clearance: the slider-crank of Flores et al. 2006 with Goldsmith's law, 0.175 mm)
PENETRATION_WARNING = 1.0


def contact_scales(model: dict) -> dict[str, tuple[float, str]]:
    """Per compliant pair and clearance joint with a geometric scale: ``(scale in m, what it is)``
    -- the radial clearance of a pin in a bore, a slider corner's guide clearance, else the point's
    radius."""
    out = {}
    for j in model.get("joints", []):
        if j.get("kind") == "clearance":
            rj, rb = clearance_radii(j)
            out[j["id"]] = (rb - rj, "its radial clearance")
    for j in translational_joints(model):
        out.update(dict.fromkeys(corner_pair_ids(j), (j["clearance"], "the guide's clearance")))
    for c in model.get("contacts", []):
        r, target = point_radius(model, c["point"]), c["target"]
        if target["kind"] == "circle" and target.get("inside") and 0.0 < r < target["radius"]:
            out[c["id"]] = (target["radius"] - r, "its radial clearance")
        elif r > 0.0:
            out[c["id"]] = (r, "its point's radius")
    return out


def penetration_warning(results: Results) -> str | None:
    """The compliant pairs that penetrated beyond :data:`PENETRATION_WARNING` of their scale
    (:func:`contact_scales`), in words; otherwise None."""
    scales = contact_scales(results.model or {})
    beyond = []
    for pair, counts in (results.meta.get("compliant_contacts") or {}).items():
        depth = counts.get("max_penetration_m") or 0.0
        scale, what = scales.get(pair, (float("inf"), ""))
        if depth > PENETRATION_WARNING * scale:
            beyond.append(f"'{pair}' {depth:.3g} m, more than {what} ({scale:.3g} m)")
    if not beyond:
        return None
    return (f"contacts penetrated far beyond what their surfaces allow (largest penetration: {'; '.join(beyond)}; a "
            "metal contact penetrates by a fraction of it): the contact law does not hold the bodies apart (its exponent "
            "or stiffness), so the motion is not physical")


#: depth in a momentum-balance pair's target, in ``solver.contact_tol``, beyond which a run warns
SINK_WARNING = 100.0


def sinking_warning(results: Results) -> str | None:
    """The momentum-balance pairs whose point was deeper in its target at a frame than
    :data:`SINK_WARNING` times ``solver.contact_tol`` (a point resting on it), in words; otherwise None."""
    model = results.model or {}
    pairs = [c["id"] for c in model.get("contacts", []) if c.get("model", {}).get("kind", "impulse") == "impulse"]
    columns = [results.layout.contacts.index(p) for p in pairs if p in results.layout.contacts]
    if not columns or "gap_m" not in contact_keys(results):
        return None
    tol = results.meta.get("solver", {}).get("contact_tol", 1e-6)
    gaps = contact_values(results.frames, ["gap_m"])["gap_m"][:, columns]  # nan: beyond the target's reach
    depth = -np.min(np.nan_to_num(gaps, nan=np.inf), axis=0, initial=np.inf)
    sunk = [f"'{results.layout.contacts[c]}' {d * 1e3:.3g} mm" for c, d in zip(columns, depth) if d > SINK_WARNING * tol]
    if not sunk:
        return None
    return (f"points sank into their targets under the momentum-balance model ({'; '.join(sunk)} deep at most, "
            f"the contact tolerance being {tol:.3g} m): its impulses stop a point's approach but hold no position, "
            "so a point resting on its target goes in a little every step; set the pair's model.kind to lagrange, "
            "which holds the gap while they touch")


def redundant_joint_warnings(results: Results) -> list[str]:
    """The joints whose rows held a motion the others hold and were dropped
    (``meta.redundant_joints``, :mod:`solver.system.redundant_joints`): their reactions are one
    statically admissible split, the total is right (``meta.joint_reactions``: each joint's at the
    run's end, the split of least norm)."""
    notices = list(results.meta.get("redundant_joints") or [])
    reactions = results.meta.get("joint_reactions")
    if notices and reactions:
        split = ", ".join(f"'{path_id(path)}' ({', '.join(f'{f:.6g}' for f in force)})" for path, force in reactions.items())
        notices.append(f"the joints' reactions at the end of the run, one admissible split (least norm): {split} "
                       f"N (N m for a clamp's moment)")
    return notices


def run_warnings(results: Results, links: dict | None = None) -> list[str]:
    """Every warning on a completed run's numbers, in words (none for a sound run); ``links``: the
    links' peaks (``summary.json``'s ``links``) if already read."""
    return [w for w in (energy_warning(results), strain_warning(results, links), penetration_warning(results),
                        sinking_warning(results)) if w] \
        + step_warnings(results) + redundant_joint_warnings(results)
