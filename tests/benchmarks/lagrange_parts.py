"""Benchmark: where a Lagrange contact step's time goes, by part (process CPU time).

Run on demand (not part of the test suite)::

    python tests/benchmarks/lagrange_parts.py [--repeat 5] [NAME ...]

For the bar struck by a mass and the two bars with their pairs switched to the Lagrange model
(:mod:`bench_lagrange`), the CPU of the steps taken while a pair is closed, per contact step:
the compiled closed runs' kernel (:func:`~solver.integration.closed_steps.closed_steps`), the
Python around those runs (planning, rows, the guard's and the watch's looks, the ledger), and
the steps taken one by one (the damped onset step, releases, stick-slip switches, with their
retakes); and, for comparison, the kernel of the same model without pairs per step
(:func:`~solver.integration.free_steps.free_steps`).  Each part from the run fastest at it; last
the longest call of the closed runs' kernel (the least over the runs, ms: how long the time loop
may go without looking at a cancel, beside the Python of that run).
"""
from __future__ import annotations

import argparse
import sys
import time
import types
from collections import Counter, defaultdict
from pathlib import Path

from solver.api import simulate
from solver.integration import closed_steps, free_steps, time_loop

sys.path.insert(0, str(Path(__file__).parent))
from bench_lagrange import contact_free, impact_step, lagrange  # noqa: E402

clock = time.process_time
spent: defaultdict[str, float] = defaultdict(float)
calls: Counter = Counter()
longest: defaultdict[str, float] = defaultdict(float)  # each part's longest call, s


def timed(owner, name: str, part: str, generator: bool = False) -> None:
    """``owner.name`` timed into ``spent[part]`` (a generator method: its whole iteration, closed steps only)."""
    original = getattr(owner, name)

    def plain(*args):
        started = clock()
        try:
            return original(*args)
        finally:
            spent[part] += clock() - started
            calls[part] += 1
            longest[part] = max(longest[part], clock() - started)

    def stepping(self, *args):
        closed, started = self.contacts.active and self.contacts.closed(), clock()
        result = yield from original(self, *args)
        if closed:
            spent[part] += clock() - started
            calls[part] += 1
        return result

    setattr(owner, name, stepping if generator else plain)


def best_parts(doc: dict, repeat: int) -> tuple[dict, dict]:
    """Each part's least CPU over ``repeat`` runs of ``doc`` and the run's metadata; each part's
    longest call, the least over the runs, as ``best["longest " + part]`` (the closed runs' kernel: how
    long the loop may not look at a cancel)."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        spent.clear()
        longest.clear()
        meta = simulate(doc).meta
        for part, seconds in [*spent.items(), *(("longest " + p, x) for p, x in longest.items())]:
            best[part] = min(best.get(part, seconds), seconds)
    return best, meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("names", nargs="*", default=["bar_mass_impact_lagrange", "two_bars_impact"])
    args = ap.parse_args(argv)
    time_loop.wallclock = types.SimpleNamespace(perf_counter=clock)
    timed(closed_steps, "closed_steps", "kernel")
    timed(free_steps, "free_steps", "free kernel")
    timed(time_loop._Loop, "_free_steps", "closed runs", generator=True)
    timed(time_loop._Loop, "_contact_step", "one by one", generator=True)
    simulate(lagrange(args.names[0]))  # warm-up: load the kernels
    for name in args.names:
        calls.clear()
        doc = lagrange(name)
        parts, meta = best_parts(doc, args.repeat)
        contact = meta["impact_steps"]
        free, _meta = best_parts(contact_free(doc, impact_step(doc), contact), args.repeat)
        per = {"kernel of the closed runs": parts["kernel"], "Python around them": parts["closed runs"] - parts["kernel"],
               "steps one by one": parts["one by one"]}
        print(f"{name}: {contact} contact steps, {meta['impact_steps_wall_s'] / contact * 1e6:.1f} us each "
              f"({calls['kernel'] // args.repeat} closed runs, {calls['one by one'] // args.repeat} steps one by one)")
        for part, seconds in per.items():
            print(f"  {part:<28}{seconds / contact * 1e6:8.1f} us per contact step")
        print(f"  {'free step kernel, no pairs':<28}{free['free kernel'] / contact * 1e6:8.1f} us per step")
        print(f"  {'longest closed run kernel':<28}{parts.get('longest kernel', 0.0) * 1e3:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
