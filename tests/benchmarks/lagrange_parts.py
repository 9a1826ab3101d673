"""Benchmark: where a Lagrange contact step's time goes, by part (process CPU time).

Run on demand (not part of the test suite)::

    python tests/benchmarks/lagrange_parts.py [--repeat 5] [NAME ...]

For the bar struck by a mass and the two bars with their pairs switched to the Lagrange model
(:mod:`bench_lagrange`), the CPU of the steps taken while a pair is closed, per contact step:
the compiled closed runs' kernel (:func:`~solver.integration.closed_steps.closed_steps`), the
Python around those runs (planning, rows, the guard's and the watch's looks, the ledger:
:func:`~solver.integration.compiled_runs.compiled_run` less its kernel), and the steps taken one
by one (the damped onset step, releases, stick-slip switches, with their retakes: the loop's
attempt and acceptance of each; the frames the loop writes after them are not counted, as the
time loop's ``impact_steps_wall_s``, :mod:`bench_lagrange`'s figure, does not count them); and,
for comparison, the kernel of the same model without pairs per step
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


def timed(owner, name: str, part: str, closed=None) -> None:
    """``owner.name`` timed into ``spent[part]``; with ``closed(args)``, only the calls it says are of closed
    steps."""
    original = getattr(owner, name)

    def plain(*args):
        if closed is not None and not closed(args):
            return original(*args)
        started = clock()
        try:
            return original(*args)
        finally:
            spent[part] += clock() - started
            calls[part] += 1
            longest[part] = max(longest[part], clock() - started)

    setattr(owner, name, plain)


#: the place of ``gaps`` among the arguments the time loop gives :func:`~solver.integration.compiled_runs.compiled_run`
GAPS = 13


def in_contact(args: tuple) -> bool:
    """Whether the call of a :class:`~solver.integration.time_loop._Loop` method (``args[0]`` the loop) is
    made while a pair is closed."""
    return args[0].contacts.active and args[0].contacts.closed()


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
    timed(time_loop, "compiled_run", "closed runs", lambda args: isinstance(args[GAPS], closed_steps.ClosedRows))
    timed(time_loop._Loop, "_attempt", "one by one", in_contact)
    timed(time_loop._Loop, "_accept", "one by one", lambda args: args[4])  # its in_contact
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
              f"({calls['kernel'] // args.repeat} closed runs, {calls['one by one'] // (2 * args.repeat)} steps one by one)")
        for part, seconds in per.items():
            print(f"  {part:<28}{seconds / contact * 1e6:8.1f} us per contact step")
        print(f"  {'free step kernel, no pairs':<28}{free['free kernel'] / contact * 1e6:8.1f} us per step")
        print(f"  {'longest closed run kernel':<28}{parts.get('longest kernel', 0.0) * 1e3:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
