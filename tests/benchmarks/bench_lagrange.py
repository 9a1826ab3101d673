"""Benchmark: the cost of a step in Lagrange-multiplier contact against a contact-free step.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_lagrange.py          # fastest of 3 runs per case
    python tests/benchmarks/bench_lagrange.py --cpu    # timed in the process's CPU time
    python tests/benchmarks/bench_lagrange.py --quick  # one run

For each chapter-5 example with its pairs switched to the Lagrange model, the run's metadata
gives the wall time of the steps taken while a pair is in contact (``impact_steps_wall_s``:
the Newmark step with the contact rows bordering its Newton matrix, the step taken again to
land on a switch, the onset jumps and the consistent restarts) and of its open steps
(``free_steps_wall_s``: taken in compiled runs while every pair is open,
:mod:`solver.integration.open_steps`, else one by one with the predictor and the energy
guard).  A *free step* is a step of the model with its pairs removed at the impact step (the
difference between runs of :data:`FREE_STEPS` more and as many steps as the run took in contact,
so that the setup cancels: a difference of as many steps again, 2-15 ms, scattered 12-37 us a step
of the bar struck by a mass from one command to the next, against the setup's milliseconds).  The
columns give the time per step of each kind (of the run fastest at that kind) and their ratios; the
runs of each case are taken in turn, a run with its pairs and the two without, so that a slower spell
of the machine (this one's speed wanders by 1.5-2x over minutes) slows both sides of a ratio;
issue 28's goal is a contact step at most 1.5 free steps.  Steps in contact are taken in compiled
runs while the pairs keep their modes (:mod:`solver.integration.closed_steps`), the steps at
which a pair switches, releases or touches by the contact rules one by one.  A warm-up run first
loads the compiled kernels.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from solver.api import load_model, simulate
from solver.model.io import examples_dir

sys.path.insert(0, str(Path(__file__).parent))
from bench_solver import measure, repeat_option  # noqa: E402

CASES = {
    "two bars (5.1.2), 80 + 160 elements": "two_bars_impact",
    "bar struck by a mass (5.1.1), 40 elements": "bar_mass_impact_lagrange",
    "rod striking the floor (5.5), mu = 0.8": "rod_floor_flexible",
    "rotating beam on a stop (5.2)": "rotating_beam_stop",
    "struck slider-crank (5.4)": "slider_crank_block",
}

#: the steps by which the longer of the two contact-free runs is longer: seconds of stepping, against
#: which the setup's scatter (milliseconds) is small
FREE_STEPS = 20_000


def lagrange(name: str) -> dict:
    doc = load_model(examples_dir() / f"{name}.json")
    for pair in doc["contacts"]:
        pair["model"] = {"kind": "lagrange"}
    doc["solver"]["output_interval"] = doc["solver"]["end_time"]
    return doc


def impact_step(doc: dict) -> float:
    """The step while in contact: ``solver.impact_step``, else eq. (3.5)."""
    from solver.system.impact_times import run_impact_step
    from solver.system.compile import compile_model

    return run_impact_step(compile_model(doc))


def contact_free(doc: dict, step: float, steps: int) -> dict:
    free = dict(doc, contacts=[])
    free["solver"] = dict(doc["solver"], step=step, impact_step=step, end_time=step * steps, output_interval=step * steps)
    return free


def main(argv: list[str] | None = None) -> int:
    repeat = repeat_option(argv, "Lagrange contact step against a contact-free step")
    simulate(lagrange("bar_mass_impact_lagrange"))  # warm-up: compile the kernels
    print(f"{'case':<44}{'contact steps':>14}{'open steps':>11}{'us/contact step':>17}{'us/open step':>14}"
          f"{'us/free step':>14}{'contact/free':>14}{'open/free':>11}{'contact/open':>14}")
    for label, name in CASES.items():
        doc = lagrange(name)
        metas, once, more = [], math.inf, math.inf
        for _ in range(repeat):  # the kinds taken in turn: a slower spell of the machine slows each alike
            metas.append(measure(doc, 1)[1])
            steps = max(metas[0]["impact_steps"], 1)  # setup (initial velocities, compiling the model) cancels out:
            once = min(once, measure(contact_free(doc, impact_step(doc), steps), 1)[0])
            more = min(more, measure(contact_free(doc, impact_step(doc), steps + FREE_STEPS), 1)[0])
        meta = metas[-1]  # each kind of step: its fastest run
        per_contact = min(m["impact_steps_wall_s"] for m in metas) / max(meta["impact_steps"], 1) * 1e6
        per_open = min(m["free_steps_wall_s"] for m in metas) / max(meta["free_steps"], 1) * 1e6
        per_free = (more - once) / FREE_STEPS * 1e6
        print(f"{label:<44}{meta['impact_steps']:>14}{meta['free_steps']:>11}{per_contact:>17.1f}{per_open:>14.1f}"
              f"{per_free:>14.1f}{per_contact / per_free:>14.2f}{per_open / per_free:>11.2f}"
              f"{per_contact / per_open:>14.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
