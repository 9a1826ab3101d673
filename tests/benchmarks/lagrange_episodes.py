"""Benchmark: a Lagrange run's steps in contact, stretch by stretch, each in free steps of its model.

Run on demand (not part of the test suite)::

    python tests/benchmarks/lagrange_episodes.py [--repeat 15] [NAME ...]

For each model with its pairs switched to the Lagrange model (:mod:`bench_lagrange`), every stretch of
steps the time loop counts as in contact (``impact_steps``): a compiled run of closed steps
(:mod:`solver.integration.closed_steps`, with the Python around it) or a step taken one by one (a release, a
switch), with its start time, its steps, its CPU (the least over ``--repeat`` runs, stretch by stretch) and
that CPU per step in free steps of the model (:mod:`bench_lagrange`'s: the model without its pairs, the
difference of two runs).  Issue 28's goal, a contact step at most 1.5 free steps, is the total's last
column; the stretches show which of them keep a model above it (a short episode's fixed costs: its onset
steps, their factorisations, its release).
"""
from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

from solver.api import simulate
from solver.integration import time_loop

sys.path.insert(0, str(Path(__file__).parent))
from bench_lagrange import FREE_STEPS, contact_free, impact_step, lagrange  # noqa: E402

clock = time.process_time
#: the stretches of the last run: (start time s, the loop's method, steps in contact, CPU s)
stretches: list[tuple[float, str, int, float]] = []


def counted(name: str) -> None:
    """The loop's generator method ``name`` logging into :data:`stretches` the steps in contact it took."""
    original = getattr(time_loop._Loop, name)

    def logged(self, *args):
        steps, cpu, start = self.impact["impact_steps"], self.impact["impact_steps_wall_s"], self.state.t
        result = yield from original(self, *args)
        if self.impact["impact_steps"] > steps:
            stretches.append((start, name, self.impact["impact_steps"] - steps, self.impact["impact_steps_wall_s"] - cpu))
        return result

    setattr(time_loop._Loop, name, logged)


def free_step(doc: dict, steps: int, repeat: int) -> float:
    """A step of ``doc`` without its pairs at the impact step, s of CPU (:mod:`bench_lagrange`)."""
    def cpu(n: int) -> float:
        best = float("inf")
        for _ in range(repeat):
            started = clock()
            simulate(contact_free(doc, impact_step(doc), n))
            best = min(best, clock() - started)
        return best
    return (cpu(steps + FREE_STEPS) - cpu(steps)) / FREE_STEPS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("names", nargs="*", default=["bar_mass_impact_lagrange", "two_bars_impact"])
    args = ap.parse_args(argv)
    time_loop.wallclock = types.SimpleNamespace(perf_counter=clock)
    counted("_free_steps")
    counted("_contact_step")
    simulate(lagrange(args.names[0]))  # warm-up: load the kernels
    for name in args.names:
        doc, best = lagrange(name), None
        for _ in range(args.repeat):
            stretches.clear()
            simulate(doc)
            best = list(stretches) if best is None else [(*a[:3], min(a[3], b[3])) for a, b in zip(best, stretches)]
        steps = sum(s[2] for s in best)
        free = free_step(doc, steps, max(args.repeat // 3, 1))
        print(f"{name}: {steps} contact steps, a free step {free * 1e6:.1f} us")
        print(f"  {'from t (s)':>12}  {'stretch':<22}{'steps':>7}{'us':>10}{'us a step':>11}{'free steps':>12}")
        for start, method, count, cpu in best:
            kind = "closed run" if method == "_free_steps" else "step one by one"
            print(f"  {start:12.6f}  {kind:<22}{count:>7}{cpu * 1e6:10.1f}{cpu / count * 1e6:11.1f}{cpu / count / free:12.2f}")
        total = sum(s[3] for s in best)
        print(f"  {'':12}  {'all':<22}{steps:>7}{total * 1e6:10.1f}{total / steps * 1e6:11.1f}{total / steps / free:12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
