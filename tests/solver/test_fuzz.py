"""Fuzzing: mutated examples validate, compile and take 100 steps, or fail as documented.

Issue 18 item 6 (and issue 11 item 2): anything :func:`~solver.model.validate.validate`
accepts compiles and runs -- completing, or failing with a
:class:`~solver.errors.SolverError` or a failed run's message -- and anything it refuses is
a list of problems each naming its path.  The mutations are in :mod:`.mutations`.  Each
case has a budget of processor and wall time (:func:`budget`): a case that hangs fails its test, it does
not stall the suite.  ``pytest --hypothesis-show-statistics`` shows how the cases ended.
"""
from __future__ import annotations

import copy
import math
import signal
from contextlib import contextmanager
from typing import Iterator

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings

from solver.api import Results, SolverError, iter_simulation, output_layout
from solver.model.io import load_model
from solver.model.validate import ModelError, Problem, validate

from ..compile_clock import COMPILING
from .mutations import EXAMPLES, mutated_models, mutated_texts

#: processor time one case may take (validation, 100 steps; numba's compiling not counted): about
#: 20 times the slowest stepped example's, so that only a hang exceeds it; counted in processor
#: time, which other processes on a busy machine do not lengthen
CASE_BUDGET_S = 20.0
#: wall time a case may take, whatever the load (a hang that waits rather than computes)
CASE_WALL_S = 180.0
#: steps taken of each model that validates
STEPS = 100
#: examples whose 100 steps take seconds (a long bar meshed finely): loaded, not stepped
SLOW = {"two_bars_impact"}
STEPPED = sorted(set(EXAMPLES) - SLOW)

FUZZ = settings(deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate], print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class _OverBudget(BaseException):
    """Raised into a case that ran past its budget (no ``except Exception`` of the solver stops it)."""


@contextmanager
def budget(seconds: float, case: str, wall: float = CASE_WALL_S) -> Iterator[None]:
    """Fail the test when the block takes more than ``seconds`` of processor time (SIGPROF) or
    ``wall`` seconds of wall time (SIGALRM), numba's compiling not counted: a kernel the block is
    the first to reach in this process (another test process has not cached it yet) compiles for
    minutes, which is not the hang a budget is there to catch (the test's timeout bounds it)."""
    clocks = {signal.SIGPROF: (signal.ITIMER_PROF, 0), signal.SIGALRM: (signal.ITIMER_REAL, 1)}
    start = COMPILING.spent()
    granted = {sig: 0.0 for sig in clocks}  # compiling time (s) the budget was lengthened by

    def expire(signum, _frame):
        timer, which = clocks[signum]
        compiling = COMPILING.spent()[which] - start[which]
        if compiling > granted[signum]:
            signal.setitimer(timer, compiling - granted[signum])
            granted[signum] = compiling
            return
        raise _OverBudget(signum)

    previous = {sig: signal.signal(sig, expire) for sig in clocks}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    except _OverBudget as exc:
        what = f"{seconds:g} s of processor time" if exc.args[0] == signal.SIGPROF else f"{wall:g} s of wall time"
        raise AssertionError(f"{case}: over its budget of {what} (a hang?)") from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def first_steps(doc: dict, steps: int = STEPS) -> Results:
    """The results of ``doc``'s first ``steps`` steps, its layout known first as the GUI asks it: its
    end time brought forward to ``steps`` steps of its step size (:func:`first_span`), and the run
    cancelled after as many of the time loop's turns (a turn may be a compiled run of thousands of
    steps, the clearance joint's to its end)."""
    first_span(doc, steps)
    taken = 0

    def cancel() -> bool:
        nonlocal taken
        taken += 1
        return taken > steps

    output_layout(doc)
    for item in iter_simulation(doc, cancel=cancel):
        if isinstance(item, Results):
            return item
    raise AssertionError("the run yielded no results")


def first_span(doc: dict, steps: int) -> None:
    """``doc``'s end time brought forward to ``steps`` of its steps where both are numbers and it ends
    later (and its output interval to that end where it was longer): a validated model keeps validating."""
    solver = doc.get("solver")
    if not isinstance(solver, dict):
        return
    end, step = solver.get("end_time"), solver.get("step")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (end, step)):
        return
    if 0 < steps * step < end:
        solver["end_time"] = steps * step
        interval = solver.get("output_interval")
        if isinstance(interval, (int, float)) and not isinstance(interval, bool) and interval > steps * step:
            solver["output_interval"] = steps * step


@pytest.fixture(scope="module")
def compiled_kernels() -> None:
    """Every stepped example run once outside any budget, so that the numba kernels are compiled
    (a minute on a fresh checkout) before the cases are timed."""
    for name in STEPPED:
        first_steps(copy.deepcopy(EXAMPLES[name]))


def _check_problems(problems: list[Problem]) -> None:
    """Every refusal is a list of problems with a message, each naming its field (or the file)."""
    assert problems and all(isinstance(p, Problem) and p.message for p in problems)


@settings(FUZZ, max_examples=2000)
@given(case=mutated_models(STEPPED))
def test_mutated_example_validates_compiles_and_steps(compiled_kernels, case):
    """2000 mutated examples (issue 11 asks 2000, issue 18 1000): whatever ``validate``
    accepts compiles and takes its first 100 steps, or fails with a documented error."""
    name, doc = case
    with budget(CASE_BUDGET_S, f"mutated {name}"):
        problems = validate(doc)
        if problems:
            _check_problems(problems)
            event("refused by validate")
            return
        try:
            results = first_steps(doc)
        except SolverError as exc:
            assert str(exc)
            event("SolverError")
            return
    status = results.meta["status"]
    assert status in ("completed", "cancelled", "failed")
    assert status != "failed" or results.meta["message"]
    event(f"run {status}")


@settings(FUZZ, max_examples=5000)
@given(case=mutated_texts())
def test_mutated_file_loads_or_is_refused(case, tmp_path_factory):
    how, data = case
    path = tmp_path_factory.getbasetemp() / "fuzzed-model.json"
    path.write_bytes(data)
    with budget(CASE_BUDGET_S, f"file broken by {how}"):
        try:
            load_model(path)
        except ModelError as exc:
            _check_problems(exc.problems)
            event(f"{how}: refused")
            return
    event(f"{how}: valid")
