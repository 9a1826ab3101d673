"""The created-energy watch's energy balance (:meth:`DivergenceWatch._balance`, looked at after
every step of an undamped run with contacts) is the balance of the frames
(:data:`~solver.results.frames.ENERGY_BALANCE_SIGNS`), to the last bit."""
import numpy as np
import pytest

from solver.integration.divergence import DivergenceWatch
from solver.results.frames import ENERGY_BALANCE_SIGNS, energy_total
from solver.results.outputs import ENERGY_TERMS, OutputBuilder
from solver.system.assembly import Assembly
from solver.system.compile import compile_model
from solver.system.initial import initial_state
from solver.system.state import State

from .test_lagrange_examples import example


@pytest.mark.parametrize("moving", [False, True])
def test_the_watch_balance_is_the_frames_balance_on_random_ledgers(moving):
    out = OutputBuilder(Assembly(compile_model(example("bar_mass_impact_lagrange"))))
    start = initial_state(out.asm)
    watch = DivergenceWatch(out, start)
    rng = np.random.default_rng(3)
    for _ in range(20):
        st = State(start.t, start.q + 1e-3 * rng.standard_normal(start.q.size), rng.standard_normal(start.v.size),
                   start.a, start.lam)
        out.ledger.update({key: float(x) for key, x in zip(out.ledger, 10.0 ** rng.uniform(-6, 2, len(out.ledger)))})
        if moving:
            out.ledger["work_moving"] = float(rng.standard_normal())
        terms = {**dict(zip(ENERGY_TERMS, out.energy_terms(st))), **out.ledger}
        old = sum(sign * terms.get(key, 0.0) for key, sign in ENERGY_BALANCE_SIGNS.items())
        assert watch.balance(st) == old == energy_total([terms])[0]


@pytest.mark.parametrize("seed", range(4))
def test_the_watch_in_one_pass_flags_the_state_and_keeps_the_energy_in_play_of_its_looks_one_by_one(seed):
    """:meth:`DivergenceWatch.first_created` over a run's states (their energies in one pass, the
    drivers' work and the modal damping's booked to each) flags the state that :meth:`DivergenceWatch.created_energy`, looking
    at each in turn, flags first, and :meth:`DivergenceWatch.saw` leaves the largest energy in play as
    those looks do: random states of the bar struck by a mass, energies grown by a random created
    energy from a random state on."""
    out = OutputBuilder(Assembly(compile_model(example("bar_mass_impact_lagrange"))))
    start = initial_state(out.asm)
    rng = np.random.default_rng(seed)
    out.ledger.update({key: float(x) for key, x in zip(out.ledger, 10.0 ** rng.uniform(-6, -2, len(out.ledger)))})
    states = [State(start.t + 1e-3 * (k + 1), start.q + 1e-9 * rng.standard_normal(start.q.size),
                    (1.0 + 0.2 * (k > 12) * k) * start.v + 1e-6 * rng.standard_normal(start.v.size), start.a, start.lam)
              for k in range(30)]
    terms = tuple(x.tolist() for x in out.asm.stacked_energies(np.array([s.q for s in states]),
                                                                np.array([s.v for s in states])))
    works = {key: (out.ledger[key] + np.cumsum(rng.uniform(0.0, 1e-7, len(states)))).tolist()
             for key in ("work_drivers", "dissipated_damping")}
    stepped, watch = DivergenceWatch(out, start), DivergenceWatch(out, start)
    flagged, booked = len(states) - 1, dict(out.ledger)
    for k, st in enumerate(states[:-1]):
        out.remember_energy(st, tuple(x[k] for x in terms))
        out.ledger.update({key: booked_k[k] for key, booked_k in works.items()})
        if stepped.created_energy(st):
            flagged = k
            break
    out.ledger.update(booked)
    assert 0 < watch.first_created(terms, works, len(states) - 1) == flagged < len(states) - 1
    watch.saw(terms, flagged + 1)
    assert watch._in_play == stepped._in_play
