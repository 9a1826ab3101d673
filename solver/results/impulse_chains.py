"""Chains of strikes fed from outside: totals that hang on the step sequence.

A momentum-balance pair (or a Lagrange or rolling pair's onset) strikes with an impulse at the
end of the step that found the contact.  Where a pair strikes again and again, each strike
within :data:`CHAIN_GAP` of the model's step after the one before (a light part bouncing
between a heavy one and the flexible link that throws it back: the motion between the strikes
is not resolved by the step), the strikes form a *chain*, and what it hands over is their sum.

- Between free bodies the sum is bounded: an e = 1 strike keeps the energy, and a chain only
  shares out what the bodies brought.  The chains of the shipped free examples converge under
  halving of the step and under another output interval, though their strikes change
  (``docs/solver.md``, *Step-sequence sensitivity*): the bar struck by a mass (5.1.1, 145
  strikes) moves its total impulse by 0.1 %, the two bars (5.1.2, 540) by 0.3 %, the rod on
  the floor (5.5, 225) by 0.6 %, the flexible pendulum with 5 modes (13) by 0.3 %.
- Where a driver, a load or a moving support does work on the mechanism while it strikes (the
  slider of a driven crank struck by a block, thesis 5.4), each strike hands over energy from
  outside, and the sum is what the number of strikes the steps catch makes it: a strike more
  or fewer moves it by about the last strike.  The user-drawn struck slider-crank
  (``tests/oracles/test_struck_links.py``): 8 strikes in 0.29 ms handing over 7.71 N s, the
  last 0.66 N s; the block leaves at 29.6-34.0 m/s over step halvings, output intervals and
  meshes (+-7 %, its impulse +-4.7 %); the shipped one 37.4-39.2 m/s (+-2.3 %), its last
  strike 0.62 of 8.90 N s.

:func:`driven_chain_warning` says the first chain of :data:`CHAIN_STRIKES` strikes or more
during which the work from outside (drivers, loads, moving supports) exceeds
:data:`CHAIN_DRIVEN` of the energy in play and whose half last strike exceeds
:data:`CHAIN_SHARE` of the chain's sum; it estimates the spread as that half strike (the
struck slider-cranks: +-4.3 % and +-3.5 % against the +-4.7 % and +-2.3 % measured).  A chain
between bodies no work from outside feeds is not warned of, nor a pushing chatter of tiny
strikes (a point pressed on its target under the momentum-balance model: the sinking warning's).

>>> CHAIN_STRIKES, CHAIN_GAP, CHAIN_DRIVEN, CHAIN_SHARE
(3, 3.0, 0.05, 0.01)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.io import model_with_defaults
from .frames import Results, energy_matrix, frame_energies
from .summary import energy_in_play

#: the fewest strikes of one pair that make a chain
CHAIN_STRIKES = 3
#: a strike at most this many of the model's steps after the one before continues the chain
CHAIN_GAP = 3.0
#: work from outside during the chain, of the energy in play, beyond which the chain is fed
CHAIN_DRIVEN = 0.05
#: half the last strike, of the chain's sum, beyond which the sum is said to hang on the steps
CHAIN_SHARE = 0.01
#: the energy terms of work done on the mechanism from outside
EXTERNAL_WORK = ("work_drivers", "work_loads", "work_moving")


@dataclass(frozen=True)
class Chain:
    """Strikes of one pair, each within :data:`CHAIN_GAP` steps of the one before."""

    pair: str
    times: np.ndarray  # (n,) s
    impulses: np.ndarray  # (n,) normal impulses, N s
    restitution: np.ndarray  # (n,) the coefficients achieved

    @property
    def total(self) -> float:
        """The normal impulse the chain hands over, N s."""
        return float(self.impulses.sum())

    @property
    def spread(self) -> float:
        """The total's uncertainty, N s: half the last strike (a strike more or fewer)."""
        return 0.5 * float(self.impulses[-1])


def _step(results: Results) -> float:
    """The model's step (s): the run's solver settings, else the model's with its defaults."""
    solver = results.meta.get("solver") or model_with_defaults(results.model).get("solver", {})
    return float(solver.get("step", 0.0))


def impulse_chains(results: Results) -> list[Chain]:
    """The chains of :data:`CHAIN_STRIKES` strikes or more of each pair, in time order, from the
    run's ``impulse`` events."""
    gap = CHAIN_GAP * _step(results)
    strikes: dict[str, list[dict]] = {}
    for e in results.events:
        if e.get("kind") == "impulse" and e.get("I_n_N_s"):
            strikes.setdefault(e.get("contact"), []).append(e)
    chains = []
    for pair, events in strikes.items():
        groups = [[events[0]]]
        for e in events[1:]:
            if e["time_s"] - groups[-1][-1]["time_s"] <= gap:
                groups[-1].append(e)
            else:
                groups.append([e])
        chains += [Chain(pair, np.array([e["time_s"] for e in g]), np.array([abs(e["I_n_N_s"]) for e in g]),
                         np.array([e.get("e_achieved") or 0.0 for e in g]))
                   for g in groups if len(g) >= CHAIN_STRIKES]
    return sorted(chains, key=lambda c: c.times[0])


def external_work(results: Results, energies: np.ndarray, start: float, end: float) -> float:
    """The work (J) from outside (:data:`EXTERNAL_WORK`, ``energies`` their columns per frame)
    from the last frame at or before ``start`` to the first at or after ``end``."""
    time = results.time
    first = max(int(np.searchsorted(time, start, side="right")) - 1, 0)
    last = min(int(np.searchsorted(time, end, side="left")), len(time) - 1)
    return float(np.sum(energies[last] - energies[first]))


def driven_chain_warning(results: Results) -> str | None:
    """The first chain fed from outside whose total hangs on the step sequence, in words (see the
    module's text); None without one."""
    chains = [c for c in impulse_chains(results) if c.spread > CHAIN_SHARE * c.total]
    if not chains or not results.frames:  # the energies are read only where a chain may warn
        return None
    energies = frame_energies(results.frames)
    scale = energy_in_play(energies)
    outside = energy_matrix(energies, EXTERNAL_WORK, 0.0)
    for chain in chains:
        work = external_work(results, outside, chain.times[0], chain.times[-1])
        if scale > 0.0 and abs(work) > CHAIN_DRIVEN * scale:
            return _words(chain, work, scale)
    return None


def _words(chain: Chain, work: float, scale: float) -> str:
    """The warning of a fed chain."""
    n, (t0, t1) = len(chain.times), (chain.times[0], chain.times[-1])
    e = np.median(chain.restitution)
    return (f"contact '{chain.pair}' struck {n} times in {(t1 - t0) * 1e3:.3g} ms (t = {t0:.6g} to {t1:.6g} s, each "
            f"strike within {CHAIN_GAP:g} steps of the one before, e = {e:.2g}) while drivers, loads or moving "
            f"supports did {work:.3g} J of work ({abs(work) / scale:.2g} of the energy in play): such a chain hands "
            "over energy from outside one strike at a time, and how many strikes the steps catch depends on the step "
            f"sequence (the step, the output interval), so its total impulse ({chain.total:.3g} N s) and the "
            f"velocities it leaves move by about +-{chain.spread:.2g} N s (+-{chain.spread / chain.total:.1%}, half "
            "its last strike) from one step sequence to another; halve the step or change the output interval and "
            "compare, and read such values as a spread over runs, not as one converged number")
