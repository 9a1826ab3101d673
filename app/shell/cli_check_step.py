"""``flexmech run --check-step``: the model run again at half its step, each headline printed beside
the run's (:mod:`solver.results.step_check`)."""
from __future__ import annotations

from typing import Callable

from solver.model.io import model_with_defaults


def check_step(model: dict, results, error: Callable[[str], None]) -> None:
    """Run ``model`` again at half its step and print each headline beside ``results``' (``--check-step``);
    ``error`` prints a failure of that run."""
    import copy

    from solver import api
    from solver.results.step_check import differences

    half = copy.deepcopy(model)
    half.setdefault("solver", {})["step"] = float(model_with_defaults(model)["solver"]["step"]) / 2.0
    print(f"check-step: the run again at half the step ({half['solver']['step']:.6g} s)")
    try:
        other = api.simulate(half)
    except api.SolverError as exc:
        error(f"check-step: the run at half the step failed: {exc}")
        return
    if not other.completed:
        error(f"check-step: the run at half the step {other.meta.get('status')}: {other.meta.get('message', '')}")
        return
    for line in differences(results, other):
        print(f"check-step: {line}")
