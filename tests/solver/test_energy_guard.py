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


def test_the_watch_looks_at_a_runs_stacked_states_as_at_each_state():
    """The created-energy watch over a compiled run's states in one pass
    (:meth:`DivergenceWatch.first_created`, from their stacked energies) flags the state that
    :meth:`DivergenceWatch.created_energy` flags looking at them one after another, and leaves the
    same largest energy in play, to the bit: random states of the bar struck by a mass (its striker's
    speed within about 1 % of the start's) under random ledgers, 200 runs of 8 states."""
    out = OutputBuilder(Assembly(compile_model(example("bar_mass_impact_lagrange"))))
    start = initial_state(out.asm)
    rng = np.random.default_rng(11)
    flagged = set()
    for _ in range(200):
        states = [State(1e-3 * k, start.q + 1e-6 * rng.standard_normal(start.q.size),
                        start.v * (1.0 + 0.005 * rng.standard_normal()), start.a, start.lam) for k in range(8)]
        out.ledger.update({key: float(x) for key, x in zip(out.ledger, 10.0 ** rng.uniform(-9, -4, len(out.ledger)))})
        one, stacked = DivergenceWatch(out, start), DivergenceWatch(out, start)
        first = next((k for k, st in enumerate(states) if one.created_energy(st)), None)
        terms = out.stacked_terms(np.array([st.q for st in states]), np.array([st.v for st in states]))
        assert stacked.first_created(np.array([st.t for st in states]), terms) == first
        assert stacked._in_play == one._in_play
        flagged.add(first)
    assert None in flagged and len(flagged) > 2  # runs with no flag and runs flagged at several states
