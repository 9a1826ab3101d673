"""Symptoms that a completed run's numbers depend on its step or mesh (issue 26 item 3).

What a refinement would change, found in the results alone (no second run):

- **A force spike one frame wide**: a frame of a pair with a continuous force (Lagrange,
  rolling, compliant; not the averaged force of a momentum-balance pair, whose impulses are
  its result) whose normal force is more than :data:`SPIKE_RATIO` times the larger of its two
  neighbours', the pair closed on all three frames: a force the step made, not the motion.
- **A contact open for one frame**: such a pair open on one frame between two frames in
  contact (a separation shorter than the output interval, that the step could not resolve).
- **A touch within one frame**: such a pair closed on one frame, carrying no normal force,
  between two frames open (a contact that began and let go within a step: the step could not
  resolve how long the points stayed together).
- **A sliver step**: the run's last step shorter than :data:`SLIVER_FRACTION` of the step
  before it (a time loop that fell short of the end time by round-off): the last frame
  comes from a step of 1e-14 s and its forces and energies do not hold.

Each detector returns its warning in words, or None; :func:`step_warnings` gathers them.

>>> SPIKE_RATIO, SLIVER_FRACTION
(3.0, 0.001)
"""
from __future__ import annotations

import numpy as np

from .frames import CONTACT_STATES, Results
from .tables import contact_keys, contact_values

#: a normal force more than this many times both its neighbours' (the pair closed on the three
#: frames) is a spike one frame wide
SPIKE_RATIO = 3.0
#: a spike smaller than this fraction of its pair's largest normal force is round-off about zero
SPIKE_FLOOR = 1e-3
#: a last step shorter than this fraction of the step before it is a sliver
SLIVER_FRACTION = 1e-3
#: pair models whose normal force is a force, not impulses averaged over a window
CONTINUOUS_MODELS = ("lagrange", "rolling", "compliant")


def _continuous_columns(results: Results) -> list[int]:
    """Columns of ``layout.contacts`` of the pairs with a continuous normal force (clearance
    joints are compliant; a pair without a ``model`` is a momentum-balance pair)."""
    kinds = {c.get("id"): (c.get("model") or {}).get("kind", "impulse") for c in results.model.get("contacts", [])}
    return [j for j, cid in enumerate(results.layout.contacts) if kinds.get(cid, "compliant") in CONTINUOUS_MODELS]


def _closed_and_force(results: Results) -> tuple[np.ndarray, np.ndarray] | None:
    """Per frame and continuous pair: closed (bool) and normal force (N); None without them."""
    if len(results.frames) < 3:
        return None
    columns = _continuous_columns(results)
    if not columns or not {"state", "F_n_N"} <= set(contact_keys(results)):
        return None
    values = contact_values(results.frames, ["state", "F_n_N"])
    closed = values["state"][:, columns] != CONTACT_STATES.index("open")
    return closed, np.nan_to_num(values["F_n_N"][:, columns])


def _first(results: Results, found: np.ndarray) -> tuple[int, int, str]:
    """``(k, j, pair)`` of the first True of ``found`` (frames 1..N-2 by continuous pair): its
    frame is ``k + 1``, its column ``j`` and ``pair`` the contact's id."""
    k, j = (int(i) for i in np.argwhere(found)[0])
    return k, j, results.layout.contacts[_continuous_columns(results)[j]]


def force_spike_warning(results: Results) -> str | None:
    """The first normal force more than :data:`SPIKE_RATIO` times both neighbours', in words."""
    found = _closed_and_force(results)
    if found is None:
        return None
    closed, force = found
    middle = np.abs(force[1:-1])
    neighbours = np.maximum(np.abs(force[:-2]), np.abs(force[2:]))
    floor = SPIKE_FLOOR * np.max(np.abs(force), axis=0)
    spikes = closed[1:-1] & closed[:-2] & closed[2:] & (middle > SPIKE_RATIO * neighbours) & (middle > floor)
    if not spikes.any():
        return None
    k, j, pair = _first(results, spikes)
    return (f"contact '{pair}' carries a normal force spike one frame wide at t = {results.frames[k + 1].time:.6g} s "
            f"({middle[k, j]:.3g} N, {middle[k, j] / max(neighbours[k, j], 1e-300):.3g} times the frames beside it; "
            f"{int(spikes.sum())} such frames in all): the step, not the motion, made it; halve the step and compare")


def contact_flicker_warning(results: Results) -> str | None:
    """The first pair open for one frame between two frames in contact, in words."""
    found = _closed_and_force(results)
    if found is None:
        return None
    closed = found[0]
    flicker = closed[:-2] & ~closed[1:-1] & closed[2:]
    if not flicker.any():
        return None
    k, _j, pair = _first(results, flicker)
    return (f"contact '{pair}' opened for one frame only at t = {results.frames[k + 1].time:.6g} s "
            f"({int(flicker.sum())} such frames in all): a separation the step cannot resolve; halve the step "
            "and compare")


def contact_touch_warning(results: Results) -> str | None:
    """The first pair closed without force for one frame between two open frames, in words."""
    found = _closed_and_force(results)
    if found is None:
        return None
    closed, force = found
    floor = SPIKE_FLOOR * np.max(np.abs(force), axis=0)
    touch = ~closed[:-2] & closed[1:-1] & ~closed[2:] & (np.abs(force[1:-1]) <= floor)
    if not touch.any():
        return None
    k, _j, pair = _first(results, touch)
    return (f"contact '{pair}' closed without force for one frame only at t = {results.frames[k + 1].time:.6g} s "
            f"({int(touch.sum())} such frames in all): a touch the step cannot resolve; halve the step and compare")


def sliver_step_warning(results: Results) -> str | None:
    """A last step shorter than :data:`SLIVER_FRACTION` of the step before it, in words."""
    if len(results.steps) < 2:
        return None
    last, before = results.steps[-1].step, results.steps[-2].step
    if not last < SLIVER_FRACTION * before:
        return None
    return (f"the run's last step, to t = {results.steps[-1].time:.6g} s, was {last:.3g} s long ({last / before:.2g} of "
            "the step before it): the last frame's forces and energies come from that sliver of a step and do not hold")


def step_warnings(results: Results) -> list[str]:
    """Every symptom of a step- or mesh-sensitive run, in words (none for a sound run)."""
    found = (force_spike_warning(results), contact_flicker_warning(results), contact_touch_warning(results),
             sliver_step_warning(results))
    return [w for w in found if w]
