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
