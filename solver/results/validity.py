"""Whether a completed run's numbers hold: warnings a user sees beside the results.

- **Energy created** (the energy balance of ``summary.json``'s ``energy.total``): a balance that
  rises by more than :data:`DRIFT_WARNING` of the largest kinetic and strain energy means the step
  or the mesh could not follow the motion (the run completed; its numbers do not hold).  A
  balance that falls is not warned of: numerical damping (``tau > 0.5``, generalized-alpha) takes
  energy it does not book, by design (the thesis's rotating beam on a stop loses 0.53 of it).
- **Strains within the model**: the beams are linear elastic with small strains (thesis eq. A.3);
  an axial or outer-fibre bending strain beyond :data:`ELASTIC_STRAIN` is far outside what the
  model describes (steel yields near 0.002), however fine the mesh and step.

>>> DRIFT_WARNING, ELASTIC_STRAIN
(0.5, 0.05)
"""
from __future__ import annotations

import numpy as np

from .frames import Results, frames_reading
from .summary import energy_summary

#: rise of the energy balance, of the largest kinetic and strain energy, beyond which a completed run
#: warns (none of the shipped examples comes near it: their balances move by at most 0.53, falling)
DRIFT_WARNING = 0.5

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


def strain_warning(results: Results) -> str | None:
    """The recorded strains beyond :data:`ELASTIC_STRAIN` (the largest axial and bending strain of
    the frames' element stations, and when), in words; otherwise None."""
    axial = bending = 0.0
    when = 0.0
    for f in frames_reading(results.frames, ("axial_strain", "bending_strain")):  # on demand: only the strains
        a = float(np.nan_to_num(np.abs(f.axial_strain)).max(initial=0.0))  # nan: a section without a fibre
        b = float(np.nan_to_num(np.abs(f.bending_strain)).max(initial=0.0))
        if max(a, b) > max(axial, bending):
            when = f.time
        axial, bending = max(axial, a), max(bending, b)
    if not max(axial, bending) > ELASTIC_STRAIN:
        return None
    return (f"the flexible links were strained far beyond a linear elastic beam (axial strain up to {axial:.2g}, "
            f"bending strain up to {bending:.2g}, the largest at t = {when:.6g} s; steel yields near 0.002): the "
            "motion has left what the model describes")


def run_warnings(results: Results) -> list[str]:
    """Every warning on a completed run's numbers, in words (none for a sound run)."""
    return [w for w in (energy_warning(results), strain_warning(results)) if w]
