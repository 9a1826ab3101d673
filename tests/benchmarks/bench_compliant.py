"""Benchmark of compliant contact: two revolutions of the clearance slider-crank (Flores et al.
2006 Fig. 10, 5000 rpm) at the examples' converged tolerance, for every normal law of
Fig. 11, the friction cases of Fig. 12 and the flexible rod.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_compliant           # fastest of 3 runs per case
    python -m tests.benchmarks.bench_compliant --quick   # one run, the Lankarani-Nikravesh case only

Prints wall time, steps and rejected steps, time per step, steps per second, Newton
iterations per step, impacts, and the ratio to the issue's goal (10 s for two
revolutions).  A warm-up run first loads the compiled kernels.
"""
from __future__ import annotations

import argparse
import sys

from solver.api import simulate

from tests.benchmarks.bench_solver import example, measure

GOAL_S = 10.0
CASES = ["lankarani_nikravesh", "hertz", "dubowsky_freudenstein", "goldsmith", "esdu78035",
         "friction_001", "friction_003", "friction_005", "friction_010", "flexible"]


def case(name: str) -> dict:
    """The clearance example ``name``, with one frame at the end (the output is not timed)."""
    return example(f"slider_crank_clearance_{name}")


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_known_args(argv)[1]
    quick = "--quick" in args
    repeat = 1 if quick else 3
    warm = case("lankarani_nikravesh")
    warm["solver"]["end_time"] /= 20
    simulate(warm)
    print("| case | steps | rejected | wall (s) | µs / step | steps / s | Newton it / step | impacts | wall / goal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in CASES[:1] if quick else CASES:
        wall, meta = measure(case(name), repeat)
        steps = meta["steps"]
        impacts = meta["compliant_contacts"]["B-clearance"]["impacts"]
        print(f"| {name} | {steps} | {meta['rejected_steps']} | {wall:.2f} | {1e6 * wall / steps:.0f} | "
              f"{steps / wall:.0f} | {meta['newton_iterations_per_step']:.2f} | {impacts} | {wall / GOAL_S:.2f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
