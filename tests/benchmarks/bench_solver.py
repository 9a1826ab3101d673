"""Solver benchmark: time per step, steps per second, Newton iterations per step.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_solver.py            # all cases, fastest of 3 runs
    python tests/benchmarks/bench_solver.py --quick    # one run per case
    python tests/benchmarks/bench_solver.py --cpu      # the process's CPU time, not wall time

Cases: the flexible slider-crank (thesis Ex. 4) with 8 rod elements at 1000 steps per
revolution and with 64 and 256 elements at 2000 steps per revolution, two revolutions
each (the issue's speed target), the flying beam (Ex. 2) and the impact examples, for
which the cost of an impact step (a step taken while a pair is closed, eq. 3.5) and of
an impulse solve is printed from the run's metadata, with the cost of a step taken while no
pair is closed (``free_steps_wall_s / free_steps``) and their ratio.  On a machine shared with
other work, ``--cpu`` times every run and step with the process's CPU time instead of the wall
clock (the time loop's clock is swapped for ``time.process_time``; Exudyn's times stay wall times).  When Exudyn is
installed (``pip install exudyn==1.13.6``, kept out of the project's dependencies) the
same slider-crank runs in Exudyn side by side (``exudyn_compare.py``) and the ratio is
printed, because absolute times drift between machines.  A warm-up run first loads
the compiled kernels, so the one-off compilation is not counted.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
import types
from pathlib import Path

from solver.api import load_model, simulate
from solver.integration import time_loop
from solver.model.io import examples_dir

#: the clock the runs are timed with (``--cpu``: the process's CPU time)
clock = time.perf_counter


def slider_crank(elements: int, steps_per_rev: int, revs: float = 2.0) -> dict:
    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    rev = 2 * math.pi / 150.0
    doc["links"][1]["mesh"]["elements"] = elements
    doc["solver"].update(step=rev / steps_per_rev, end_time=revs * rev, output_interval=revs * rev)
    return doc


def example(name: str) -> dict:
    doc = load_model(examples_dir() / f"{name}.json")
    doc["solver"]["output_interval"] = doc["solver"]["end_time"]
    return doc


def measure(doc: dict, repeat: int) -> tuple[float, dict]:
    """Fastest wall time of ``repeat`` runs, and the run's metadata."""
    best, meta = math.inf, {}
    for _ in range(repeat):
        t0 = clock()
        res = simulate(doc)
        best = min(best, clock() - t0)
        meta = res.meta
    return best, meta


def exudyn_time(elements: int, steps_per_rev: int, repeat: int) -> float | None:
    """Exudyn's fastest wall time for the same slider-crank, or None without Exudyn."""
    try:
        import exudyn  # noqa: F401
    except ImportError:
        return None
    sys.path.insert(0, str(Path(__file__).parent))
    from exudyn_compare import exudyn_run

    return min(exudyn_run(elements, steps_per_rev, record=False)[2] for _ in range(repeat))


def repeat_option(argv: list[str] | None, description: str) -> int:
    """The runs per case the command line asks for: ``--repeat N`` (default 3), ``--quick`` one;
    with ``--cpu`` the runs are timed in CPU time of the process."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the fastest counts")
    ap.add_argument("--quick", action="store_true", help="one run per case")
    ap.add_argument("--cpu", action="store_true", help="time in CPU seconds of this process, not wall seconds")
    args = ap.parse_args(argv)
    if args.cpu:
        global clock
        clock = time.process_time
        time_loop.wallclock = types.SimpleNamespace(perf_counter=time.process_time)
    return 1 if args.quick else args.repeat


def main(argv: list[str] | None = None) -> int:
    repeat = repeat_option(argv, __doc__.splitlines()[0])
    simulate(slider_crank(2, 10, revs=0.1))  # warm-up: load the compiled kernels
    cases = [
        ("slider-crank, 8 rod elements, 1000 steps/rev", slider_crank(8, 1000), (8, 1000)),
        ("slider-crank, 64 rod elements, 2000 steps/rev", slider_crank(64, 2000), (64, 2000)),
        ("slider-crank, 256 rod elements, 2000 steps/rev", slider_crank(256, 2000), (256, 2000)),
        ("flying beam (Ex. 2), 5 elements", example("flying_beam"), None),
        ("rod striking the floor (5.5), impacts", example("rod_floor_flexible"), None),
        ("rotating beam on a stop (5.2), impacts", example("rotating_beam_stop"), None),
        ("bar struck by a mass (5.1.1), impacts", example("bar_mass_impact"), None),
        ("two bars (5.1.2), impacts", example("two_bars_impact"), None),
        ("bar struck by a mass, Lagrange contact", example("bar_mass_impact_lagrange"), None),
    ]
    print(f"{'case':<50}{'steps':>7}{'wall_s':>9}{'us/step':>9}{'steps/s':>9}{'Newton it/step':>16}"
          f"{'residuals/step':>16}{'Jacobians':>11}{'Exudyn_s':>10}{'ratio':>7}")
    impacts = []
    for label, doc, exu_case in cases:
        wall, meta = measure(doc, repeat)
        steps = meta["steps"]
        exu = exudyn_time(*exu_case, repeat) if exu_case else None
        exu_txt = f"{exu:>10.3f}{wall / exu:>7.2f}" if exu else f"{'-':>10}{'-':>7}"
        print(f"{label:<50}{steps:>7}{wall:>9.3f}{wall / steps * 1e6:>9.0f}{steps / wall:>9.0f}"
              f"{meta['newton_iterations_per_step']:>16.2f}{meta['residual_evaluations_per_step']:>16.2f}"
              f"{meta['factorizations']:>11}{exu_txt}")
        if meta.get("impulses"):
            impacts.append((label, meta))
    print(f"\n{'contact cost (last run)':<50}{'impact steps':>14}{'us/impact step':>16}{'impulses':>10}"
          f"{'us/impulse':>12}{'free steps':>12}{'us/free step':>14}{'ratio':>7}")
    for label, meta in impacts:
        n_imp, n_steps, n_free = meta["impulses"], meta["impact_steps"], meta["free_steps"]
        per_impact = meta["impact_steps_wall_s"] / max(n_steps, 1) * 1e6
        per_free = meta["free_steps_wall_s"] / max(n_free, 1) * 1e6
        print(f"{label:<50}{n_steps:>14}{per_impact:>16.0f}{n_imp:>10}{meta['impulses_wall_s'] / n_imp * 1e6:>12.0f}"
              f"{n_free:>12}{per_free:>14.0f}{per_impact / per_free:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
