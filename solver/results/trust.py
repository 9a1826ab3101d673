"""Symptoms that a completed run's numbers depend on its step or mesh (issue 26 item 3).

What a refinement would change, found in the results alone (no second run):

- **A force spike one frame wide**: a frame of a pair with a continuous force (Lagrange,
  rolling, compliant; not the averaged force of a momentum-balance pair, whose impulses are
  its result) whose normal force is more than :data:`SPIKE_RATIO` times the larger of its two
  neighbours', the pair closed on all three frames: a force the step made, not the motion.
  Only where the frames beside it are at most :data:`SPIKE_STEPS` accepted steps from it: where
  an output interval holds more steps, a pulse one frame wide spans steps the step control
  resolved, and is the motion's (the slider in its guide, ``slider_crank_translational_clearance``,
  frames 0.1 ms apart, about 10 steps: 11 such spikes, 3.2-35 times the frames beside them, each
  on a smooth pulse at a quarter of the output interval, the flagged value unchanged -- 6.12 N
  on a 254 us impact peaking at 6.59 N, 88.5 N on a 200 us pulse through a resting corner).
- **A contact open for one frame**: such a pair open on one frame between two frames in
  contact, where its separation and the contact after it (the events) are fewer than
  :data:`RESOLVED_STEPS` accepted steps apart: a separation the step could not resolve (the
  lubricated clearance joint, ``slider_crank_clearance_lubricated`` at a step of 10 us: open
  for one step, 5.5 us, re-struck at 0.017 m/s; at half and a quarter of the step 14.2 and
  11.9 us over 5 and 7 steps, re-struck at 0.054 and 0.051 m/s).  A separation the steps
  resolved that the output interval samples once is no symptom (the guide's corners rocking:
  open for 82 us over 8 steps of 10 us between frames 0.1 ms apart).
- **A sliver step**: the run's last step shorter than :data:`SLIVER_FRACTION` of the step
  before it (a time loop that fell short of the end time by round-off): the last frame
  comes from a step of 1e-14 s and its forces and energies do not hold.

- **A coarse mesh where a contact strikes a flexible link**: a pair that closed during the run
  whose point is a node of a flexible link, or whose target is one (its node, or the link),
  where the element at the struck place is longer than 1/:data:`STRUCK_ELEMENTS` of what it
  strikes (a target link's longest element of the link, a node's elements of the flexible
  links that meet there); for a momentum-balance pair, also any flexible member of the
  mechanism (links joined end to end) whose longest element is.  The struck
  node's share of the element mass sets the impulse and the force of the first instants, the
  element length the shortest wave carried away, and an impulse's loss of energy goes into
  the vibration of every link, which the mesh resolves: the refinement oracle found that
  doubling the 2-4 elements of a struck link moves its peak strain by up to 0.86, contact
  forces by up to 2.4 times and the final energy by up to 0.44 of the energy in play, and a
  momentum-balance pair at a rigid tip of a chain with a 3-element flexible link 0.22 of it
  (``tests/oracles/test_refinement.py``).  The thesis's slider-crank struck by a block (5.4,
  ``slider_crank_block``, the rod's end struck) with 2, 4, 8, 16, 32 elements: the block
  leaves at 42.7, 42.1, 39.2, 37.8, 38.4 m/s, the peak strain 0.0196, 0.0285, 0.0255, 0.0250,
  0.0239, the final energy 178, 174, 151, 140, 144 J -- 4 elements are 10-20 % off, 8 within
  2-5 %.  The shipped struck links (8-160 elements, the rotating beam's stop at 0.095 of its
  member) are quiet; a model built as docs/getting-started.md says (a 4-element rod) warns.

- **Numerical damping switched on** (``meta.numerical_damping``, docs/solver.md *Numerical damping
  after impacts*): a run whose model left ``tau`` unset that switched to tau = 0.505 (thesis eq.
  5.1) as its energy balance rose, or ran damped from the start (a compliant pair whose step
  spans over 10 axial transits of an element): energy no law of the model takes is taken, and
  what the unresolved modes carry (a peak strain) is the step's and the damping's (the struck
  slider-crank's peak strain: 0.024 at its step, 0.019 at half of it, 0.013 at tau = 0.51).  The
  warning gives what the damping took: the balance's loss from the switch to the last frame over the
  largest kinetic and strain energy (Getting Started's compliant strike at a 2 ms step: 73 % in 0.1 s).

- **A peak strain the step made**: the largest axial or bending strain of the frames, reached
  after an impulse (an ``impulse`` event: a momentum-balance pair's, a Lagrange or rolling
  pair's onset) and after the integration had created energy since the
  frame before the first impulse (the energy balance above its value there) of more than
  :data:`PEAK_CREATED` of the strain energy at that frame.  An impulse (a velocity jump, not a
  compliant or Lagrange force spread over the contact) puts energy into every mode of the mesh, most of them above what the step resolves (the
  trapezoidal rule's period error is ``(omega h)^2 / 12``; past Nyquist, ``omega h > pi``, a mode
  is aliased); the corotational element can then create energy there (docs/solver.md,
  *Numerical damping after impacts*), and that energy rides on the strain at the frames.
  Nothing of it converges: the struck slider-crank of thesis 5.4 as drawn (8 elements, tau
  unset) created 1.26 J before its peak bending strain 0.0183 at t = 30.3 ms (0.084 of the
  15.1 J strain energy then), 1.33 J at half the step before 0.0198 (0.075 of it); at
  tau = 0.51 it creates none and peaks at 0.0130 and 0.0132 (step, half).  Getting Started
  struck end-on peaks at its strike (0.00263), before its balance moves, and is quiet.

- **Accelerations ringing at the step's Nyquist frequency**: a node's acceleration that
  alternates in sign on :data:`RINGING_STEPS` consecutive steps (frames one accepted step
  apart), its alternating part ``(a_k-1 - 2 a_k + a_k+1) / 4`` steady from step to step and beyond
  :data:`RINGING_FLOOR` of the run's largest acceleration (and beyond the round-off of the
  positions, :data:`RINGING_RESOLUTION`), while the velocities do not carry it.  A load or free
  strain put on from the sketched shape excites the stiffest modes far beyond what the step
  resolves; stiffness damping ``beta`` overdamps them, and the trapezoidal rule maps their decay
  to an amplification ``-1 + 4/(beta omega^2 h)`` per step, near -1: the accelerations alternate
  for the rest of the run while the velocity update ``h (a_k + a_k+1) / 2`` and the positions do
  not see it (docs/solver.md, *Initial shape*).  The cantilever of ``tests/solver/test_static_start.py``
  with ``beta = 2 / omega_1`` and its tip torque (kappa = 0.05 1/m) ramped on over 20 ms: the tip
  +-3.2 m/s^2 along the link from t = 26 ms to the end, a mesh node +-6.5 m/s^2 across it (the bent cantilever with a moving mass of
  ``tests/solver/test_moving_curved.py``: +-4.3 m/s^2 at the tip half a second on, the mass's force
  0.84 off m v^2 kappa).  Started from its static shape under the torque it does not ring.
  There the velocities' alternation is 0.003-0.026 of ``h`` times the accelerations'; an impulse
  chatter's, steady as well (``bar_mass_impact``'s struck end at 0.20-0.25 s: +-12 m/s^2, an
  impulse every other step), is 0.09-0.33 of it: the velocities jump, and it is no such ringing.

- **A chain of strikes fed from outside** (:mod:`.impulse_chains`): a pair striking again and again
  within a few steps while a driver does work, whose total impulse hangs on how many strikes
  the step sequence catches (the struck slider-crank of thesis 5.4).

Each detector returns its warning in words, or None; :func:`step_warnings` gathers them.

>>> SPIKE_RATIO, SPIKE_STEPS, SLIVER_FRACTION, RESOLVED_STEPS, STRUCK_ELEMENTS, PEAK_CREATED
(3.0, 2, 0.001, 3, 8, 0.01)
>>> RINGING_STEPS, RINGING_STEADY, RINGING_FLOOR, RINGING_RESOLUTION, RINGING_UNSEEN
(20, 0.1, 0.001, 1e-10, 0.05)
"""
from __future__ import annotations

import numpy as np

from .frames import CONTACT_STATES, Results, energy_total, frame_energies
from .impulse_chains import driven_chain_warning
from .summary import energy_in_play, energy_summary
from .tables import contact_keys, contact_values, stack_field

#: a normal force more than this many times both its neighbours' (the pair closed on the three
#: frames) is a spike one frame wide
SPIKE_RATIO = 3.0
#: a spike whose frame is more accepted steps than this from a frame beside it spans steps the step resolved
SPIKE_STEPS = 2
#: a spike smaller than this fraction of its pair's largest normal force is round-off about zero
SPIKE_FLOOR = 1e-3
#: a normal force whose work over the model's size is below this fraction of the energy in play is round-off
#: (a pair closed on a target it does not press: the cylinders under the Lagrange model, 6.6e-24 N)
FORCE_RESOLUTION = 1e-9
#: a last step shorter than this fraction of the step before it is a sliver
SLIVER_FRACTION = 1e-3
#: a separation and the contact after it this many accepted steps apart or more were resolved by the step
RESOLVED_STEPS = 3
#: a peak strain reached after the integration created more than this fraction of the strain energy
#: at its frame is the step's (the struck slider-crank: 0.084 at its step, 0.075 at half of it)
PEAK_CREATED = 0.01
#: node accelerations alternating in sign on this many consecutive steps ring (:func:`nyquist_ringing_warning`)
RINGING_STEPS = 20
#: ... with their alternating part steady within this fraction from step to step
RINGING_STEADY = 0.1
#: ... beyond this fraction of the run's largest node acceleration
RINGING_FLOOR = 1e-3
#: ... and beyond the acceleration that moves a node by this fraction of the model's size within a step
#: (the rows' position tolerance: below it an alternation is the Newton iteration's round-off)
RINGING_RESOLUTION = 1e-10
#: ... and the velocities' alternating part below this fraction of the step times it
RINGING_UNSEEN = 0.05
#: pair models whose normal force is a force, not impulses averaged over a window
CONTINUOUS_MODELS = ("lagrange", "rolling", "compliant")
#: a struck flexible member is meshed coarsely when the element at the struck place is longer than
#: this fraction's inverse of it (the refinement oracle: 2-4 elements move peaks by 0.3-2.4 times)
STRUCK_ELEMENTS = 8


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
    steps = np.searchsorted([s.time for s in results.steps], results.time, side="right")
    near = (np.diff(steps)[:-1] <= SPIKE_STEPS) & (np.diff(steps)[1:] <= SPIKE_STEPS)  # frames 1..N-2
    spikes = (closed[1:-1] & closed[:-2] & closed[2:] & near[:, None] & (middle > SPIKE_RATIO * neighbours)
              & (middle > floor))
    if spikes.any():  # only then: the energies and the first frame's nodes are read
        spikes &= middle > _force_resolution(results)
    if not spikes.any():
        return None
    k, j, pair = _first(results, spikes)
    return (f"contact '{pair}' carries a normal force spike one frame wide at t = {results.frames[k + 1].time:.6g} s "
            f"({middle[k, j]:.3g} N, {middle[k, j] / max(neighbours[k, j], 1e-300):.3g} times the frames beside it; "
            f"{int(spikes.sum())} such frames in all): the step, not the motion, made it; halve the step and compare")


def _force_resolution(results: Results) -> float:
    """The normal force (N) that is round-off about zero: :data:`FORCE_RESOLUTION` times the energy in
    play (the largest kinetic and strain energy) over the model's size."""
    total = energy_summary(results)["total"]
    return FORCE_RESOLUTION * (total["scale_J"] if total else 0.0) / _size(results)


def contact_flicker_warning(results: Results) -> str | None:
    """The first pair open for one frame between two frames in contact, in words."""
    found = _closed_and_force(results)
    if found is None:
        return None
    closed = found[0]
    flicker = closed[:-2] & ~closed[1:-1] & closed[2:]
    for k, j in np.argwhere(flicker):
        flicker[k, j] = _open_steps(results, k + 1, j) < RESOLVED_STEPS
    if not flicker.any():
        return None
    k, _j, pair = _first(results, flicker)
    return (f"contact '{pair}' opened for one frame only at t = {results.frames[k + 1].time:.6g} s "
            f"({int(flicker.sum())} such frames in all): a separation the step cannot resolve; halve the step "
            "and compare")


def _open_steps(results: Results, i: int, j: int) -> int:
    """Accepted steps between continuous pair ``j``'s separation before frame ``i`` (after frame
    ``i - 1``) and its contact after it (by frame ``i + 1``), from the events; 0 (unresolved)
    without them."""
    pair = results.layout.contacts[_continuous_columns(results)[j]]
    t0, t1, t2 = (results.frames[n].time for n in (i - 1, i, i + 1))
    times = {kind: [e["time_s"] for e in results.events if e.get("contact") == pair and e.get("kind") == kind]
             for kind in ("separation", "contact_start")}
    parted = [t for t in times["separation"] if t0 < t <= t1]
    touched = [t for t in times["contact_start"] if t1 < t <= t2]
    if not parted or not touched:
        return 0
    steps = np.array([s.time for s in results.steps])
    return int(np.count_nonzero((steps > max(parted)) & (steps <= min(touched))))


def sliver_step_warning(results: Results) -> str | None:
    """A last step shorter than :data:`SLIVER_FRACTION` of the step before it, in words."""
    if len(results.steps) < 2:
        return None
    last, before = results.steps[-1].step, results.steps[-2].step
    if not last < SLIVER_FRACTION * before:
        return None
    return (f"the run's last step, to t = {results.steps[-1].time:.6g} s, was {last:.3g} s long ({last / before:.2g} of "
            "the step before it): the last frame's forces and energies come from that sliver of a step and do not hold")


def _struck_pairs(results: Results) -> list[dict]:
    """The model's contacts that closed during the run (a closed state on a frame, or an event)."""
    closed = set()
    if results.layout.contacts and "state" in contact_keys(results):
        state = contact_values(results.frames, ["state"])["state"]
        opened = CONTACT_STATES.index("open")
        closed = {cid for j, cid in enumerate(results.layout.contacts) if (state[:, j] != opened).any()}
    closed |= {e.get("contact") for e in results.events if e.get("kind") in ("contact_start", "impulse")}
    return [c for c in results.model.get("contacts", []) if c.get("id") in closed]


def _element_lengths(results: Results) -> dict[str, tuple[list[str], np.ndarray]]:
    """Per flexible link: its mesh nodes in order and its elements' lengths at the first frame (m)."""
    index = {n: i for i, n in enumerate(results.layout.nodes)}
    xy = stack_field(results.frames, "node_xy", (len(index), 2), 0, 1, None)[0]  # of a folder: its columns only
    out = {}
    for link, (nodes, _fractions, _ids) in results.layout.chains().items():
        points = xy[[index[n] for n in nodes]]
        out[link] = (nodes, np.hypot(*np.diff(points, axis=0).T))
    return out


def _members(links: dict[str, tuple[list[str], np.ndarray]]) -> dict[str, float]:
    """Per flexible link: the length (m) of its member, the flexible links joined to it end to end."""
    member = {link: {link} for link in links}
    for link, (nodes, _lengths) in links.items():
        for other, (others, _l) in links.items():
            if {nodes[0], nodes[-1]} & {others[0], others[-1]} and member[link] is not member[other]:
                joined = member[link] | member[other]
                for m in joined:
                    member[m] = joined
    return {link: float(sum(links[m][1].sum() for m in member[link])) for link in links}


def _coarse(ratio: float) -> bool:
    """Whether an element of ``ratio`` of its member is longer than 1/:data:`STRUCK_ELEMENTS` of it
    (beyond round-off: 8 equal elements are not)."""
    return ratio * STRUCK_ELEMENTS > 1.0 + 1e-9


def _coarse_strike(pair: dict, links: dict[str, tuple[list[str], np.ndarray]]) -> tuple[str, float] | None:
    """``(what was struck, its element over the length struck)`` where ``pair`` strikes a coarse mesh
    (:func:`_coarse`): the longest element of a target link over the link, the elements at a struck
    node over the links that meet there, and for a momentum-balance pair also the longest element
    of each member of the mechanism over the member; else None."""
    member = _members(links)
    target = pair.get("target", {})
    found = []
    if target.get("link") in links:
        lengths = links[target["link"]][1]
        found.append((f"link '{target['link']}'", float(lengths.max() / lengths.sum())))
    for node in (pair.get("point", {}).get("node"), target.get("node")):
        ends = [(lengths[0] if nodes[0] == node else lengths[-1], lengths.sum())
                for nodes, lengths in links.values() if node is not None and node in (nodes[0], nodes[-1])]
        if ends:
            found.append((f"node '{node}'", float(max(e for e, _ in ends) / sum(m for _, m in ends))))
    if (pair.get("model") or {}).get("kind", "impulse") == "impulse":
        found += [(f"a mechanism whose link '{link}' is", float(lengths.max()) / member[link])
                  for link, (_nodes, lengths) in links.items()]
    coarse = [f for f in found if _coarse(f[1])]
    return coarse[0] if coarse else None


def coarse_mesh_warning(results: Results) -> str | None:
    """The first pair that struck a flexible link meshed coarsely at the struck place, in words."""
    if not results.frames or not results.layout.flexible_links:
        return None
    struck = _struck_pairs(results)
    links = _element_lengths(results) if struck else {}
    for pair in struck:
        found = _coarse_strike(pair, links)
        if found:
            what, ratio = found
            return (f"contact '{pair['id']}' strikes {what} meshed coarsely (an element {ratio:.2g} of the flexible "
                    f"length it is part of, more than 1/{STRUCK_ELEMENTS}): the impulses, contact forces, strains and "
                    "energies of such a strike change with the mesh; double the link's elements and compare")
    return None


def numerical_damping_warning(results: Results) -> str | None:
    """The run's switch to numerical damping (``meta.numerical_damping``), in words."""
    damping = results.meta.get("numerical_damping")
    if not damping:
        return None
    when = ("from the start, as its compliant contact's step spans many axial transits of an element"
            if damping["from_s"] == 0.0 else
            f"from t = {damping['from_s']:.6g} s, as its energy balance rose (energy the step created)")
    lost = numerical_damping_loss(results)
    took = (f" (here {lost:.0%} of the largest kinetic and strain energy by the end)" if lost is not None and lost >= 0.005
            else "")
    return (f"the run switched to numerical damping (tau = {damping['tau']:g}) {when}: the damping takes energy no "
            f"law of the model takes{took}, and what the modes the step cannot resolve carry (peak strains, forces) is "
            "the step's; set the solver's tau or halve the step and compare")


def numerical_damping_loss(results: Results) -> float | None:
    """What the energy balance lost from the frame at the switch to numerical damping
    (``meta.numerical_damping``) to the last frame, over the largest kinetic and strain energy of
    the frames (a fraction; the damping's share, as no term of the balance books it); None without
    the switch or frames."""
    damping = results.meta.get("numerical_damping")
    if not damping or not results.frames:
        return None
    energies = frame_energies(results.frames)  # read once: the balance and its scale
    scale = energy_in_play(energies)
    if not scale > 0.0:
        return None
    balance = energy_total(energies)
    start = max(int(np.searchsorted(results.time, damping["from_s"], side="right")) - 1, 0)
    return float(balance[start] - balance[-1]) / scale


def created_peak_strain_warning(results: Results) -> str | None:
    """The peak strain reached after an impulse and after the integration created, since the frame
    before the first impulse, more than :data:`PEAK_CREATED` of the strain energy at its frame,
    in words."""
    impulses = [e["time_s"] for e in results.events if e.get("kind") == "impulse"]
    if not impulses or not results.frames:  # the strains are read only where an impulse may have made them
        return None
    strains = [np.abs(results.stack(name)) for name in ("axial_strain", "bending_strain")]
    if not all(s.ndim == 3 and s.size for s in strains):
        return None
    peaks = np.maximum(strains[0], strains[1])
    k, element, station = np.unravel_index(int(np.argmax(peaks)), peaks.shape)
    if min(impulses) > results.frames[k].time:
        return None
    before = max(int(np.searchsorted(results.time, min(impulses), side="right")) - 1, 0)  # the last frame before
    balance = results.total_energy()
    created = float(np.max(balance[before : k + 1] - balance[before]))
    strain_energy = float(results.energies(["strain"], 0.0)[k, 0])
    if not created > PEAK_CREATED * strain_energy:
        return None
    return (f"the peak strain ({peaks[k, element, station]:.3g}, link '{results.layout.elements[element][0]}', "
            f"t = {results.frames[k].time:.6g} s) came after the integration had created {created:.3g} J, "
            f"{created / max(strain_energy, 1e-300):.2g} of the strain energy then ({strain_energy:.3g} J): energy no "
            "law gave, in modes the step cannot resolve, rides on it, and the peak changes with the step; halve the "
            "step or set the solver's tau (0.51) and compare")


def _single_steps(results: Results) -> np.ndarray:
    """Per frame 1..N-2: whether the frames before and after it are each one accepted step away."""
    steps = np.searchsorted([s.time for s in results.steps], results.time, side="right")
    single = np.diff(steps) == 1
    return single[:-1] & single[1:]


def _size(results: Results) -> float:
    """The model's size (m) as the tolerances take it (``solver.system.compile.System.size``):
    twice the largest distance of a node of the first frame from their centroid, 1 m at least."""
    xy = stack_field(results.frames, "node_xy", (len(results.layout.nodes), 2), 0, 1)[0]
    return max(1.0, 2.0 * float(np.hypot(*(xy - xy.mean(axis=0)).T).max(initial=0.0)))


def _loaded_as_sketched(results: Results) -> bool:
    """Whether the run can carry the ringing :func:`nyquist_ringing_warning` looks for: a flexible or
    modal link loaded from its sketched shape (gravity, a load, a moving support or mass, a free
    strain; not ``solver.initial_shape = "static"``).  Without it the accelerations are not read
    (a run streamed to its folder would read every frame's back)."""
    model = results.model
    links = model.get("links", [])
    if model.get("solver", {}).get("initial_shape") == "static" or not any(
            link.get("kind") in ("flexible", "modal") for link in links):
        return False
    gravity = any(float(g) != 0.0 for g in model.get("gravity", {}).values())
    return gravity or bool(model.get("loads") or model.get("moving")) or any(link.get("free_strains") for link in links)


def _ringing(results: Results) -> tuple[int, int, int, float, float] | None:
    """``(frame, column, frames, amplitude m/s^2, scale m/s^2)`` of the first node acceleration
    component (column ``2 node + axis``) that rings (:func:`nyquist_ringing_warning`) for
    :data:`RINGING_STEPS` frames, the frames that ring in all, the alternation there and the run's
    largest acceleration; None when none does (or the run keeps no rates or steps)."""
    frames, nodes = results.frames, len(results.layout.nodes)
    if (not results.layout.rates or not results.steps or len(frames) < RINGING_STEPS + 3
            or not _loaded_as_sketched(results)):
        return None
    a, v = (stack_field(frames, name, (nodes, 2)).reshape(len(frames), -1) for name in ("node_a", "node_v"))
    scale = float(np.max(np.abs(a), initial=0.0))
    alt = (a[:-2] - 2.0 * a[1:-1] + a[2:]) / 4.0  # frames 1..N-2: the part alternating from step to step
    alt_v = (v[:-2] - 2.0 * v[1:-1] + v[2:]) / 4.0
    h = np.diff(results.time)[1:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        steady = np.abs(alt[1:] / alt[:-1] + 1.0) < RINGING_STEADY
    floor = np.maximum(RINGING_FLOOR * scale, 2.0 * RINGING_RESOLUTION * _size(results) / h[:-1] ** 2)
    rings = ((a[1:-2] * a[2:-1] < 0.0) & steady & (np.abs(alt[:-1]) > floor)
             & (np.abs(alt_v[:-1]) < RINGING_UNSEEN * h[:-1] * np.abs(alt[:-1])) & _single_steps(results)[:-1, None])
    runs = np.cumsum(np.vstack([np.zeros((1, rings.shape[1]), dtype=int), rings]), axis=0)
    windows = runs[RINGING_STEPS:] - runs[:-RINGING_STEPS] == RINGING_STEPS  # windows ending at frame k + 1
    if not windows.any():
        return None
    k, j = (int(i) for i in np.argwhere(windows)[0])
    return k + 1, j, int(rings[:, j].sum()), float(np.abs(alt[k, j])), scale


def nyquist_ringing_warning(results: Results) -> str | None:
    """The first node acceleration that rings at the step's Nyquist frequency, in words: it
    alternates in sign on :data:`RINGING_STEPS` consecutive steps, its alternating part
    ``(a_k-1 - 2 a_k + a_k+1) / 4`` beyond :data:`RINGING_FLOOR` of the run's largest acceleration,
    steady (within :data:`RINGING_STEADY` from step to step: an amplification near -1) and not
    carried by the velocities (theirs below :data:`RINGING_UNSEEN` of ``h`` times it: the
    trapezoidal rule's velocity update ``h (a_k + a_k+1) / 2`` does not see it)."""
    found = _ringing(results)
    if found is None:
        return None
    k, j, count, amplitude, scale = found
    node, axis = results.layout.nodes[j // 2], "xy"[j % 2]
    return (f"the acceleration of node '{node}' ({axis}) alternates in sign from step to step from t = "
            f"{results.frames[k].time:.6g} s (+-{amplitude:.3g} m/s^2, {amplitude / scale:.2g} of the run's largest; "
            f"{count} such frames in all) while its velocity does not: the stiffest modes ring at the step's Nyquist "
            "frequency (put there by a load or free strain applied from the sketched shape, ramped or at once; "
            "overdamped by stiffness damping, the trapezoidal rule amplifies them by -1 + 4/(beta omega^2 h) per "
            "step), not the motion, and the accelerations and what is read "
            "from them (a moving mass's force) carry it; start from the static shape (solver.initial_shape = "
            "\"static\") or set the solver's tau above 0.5 (0.51)")


def step_warnings(results: Results) -> list[str]:
    """Every symptom of a step- or mesh-sensitive run, in words (none for a sound run)."""
    found = (force_spike_warning(results), contact_flicker_warning(results), sliver_step_warning(results),
             coarse_mesh_warning(results), numerical_damping_warning(results), created_peak_strain_warning(results),
             nyquist_ringing_warning(results), driven_chain_warning(results))
    return [w for w in found if w]
