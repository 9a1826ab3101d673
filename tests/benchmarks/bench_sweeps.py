"""Sweep and impact-map benchmark.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_sweeps.py                 # 16 and 200 runs, 1 and 2 workers, best of 3
    python tests/benchmarks/bench_sweeps.py --repeat 1 --runs 16 200

The sweeps are the rigid rod of LAJSS 2024 §6 over μs × e (μD = 0.4, v_t = 1 m/s; see
``tests/solver/test_sweeps_cluster.py``): 4 × 4 = 16 runs, 10 × 10 = 100 (issue 16's case)
and 20 × 10 = 200 (issue 28's), on a ``LocalCluster`` of 1 and of 2 single-threaded worker
processes.  For each:

* **warm**: the sweep on a cluster started beforehand whose workers have loaded their
  kernels and run the rod once, from ``run_sweep`` called to the table written — what the
  workers add;
* **cold**: ``run_sweep`` as a user calls it, starting and stopping its own cluster;
* **overhead/run**: what a run cost one warm worker beyond its solve,
  (wall × workers − Σ solve) / runs (:class:`solver.sweeps.engine.SweepTiming`).

Then the time per run on one worker (``wall_time_s`` of the table) and the impact-type
map of the same rod at 100 × 100 and 400 × 400 cells.  Print ``uptime`` with the figures:
the machine is shared.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from solver.analysis.contact_instant import instant_at_start  # noqa: E402
from solver.analysis.impact_map import Axis, impact_map  # noqa: E402
from solver.model.io import examples_dir, load_model  # noqa: E402
from solver.sweeps import Parameter, SweepSpec, read_rows, run_sweep  # noqa: E402
from solver.sweeps.cluster import sweep_client  # noqa: E402

#: runs of a sweep -> its μs and e counts
GRIDS = {16: (4, 4), 100: (10, 10), 200: (20, 10)}


def sweep_spec(runs: int) -> SweepSpec:
    mu_count, e_count = GRIDS[runs]
    return SweepSpec((Parameter("contacts[B-ground].mu_s", low=0.4, high=0.85, count=mu_count),
                      Parameter("contacts[B-ground].e", low=0.0, high=1.0, count=e_count)),
                     fixed=(("contacts[B-ground].mu_d", 0.4), ("initial_velocities[0].vx", 1.0)))


def _warm(client) -> None:
    """Every worker has loaded its kernels (:mod:`solver.sweeps.warm`) and run the rod once."""
    def load() -> int:
        from solver.api import load_model as load, simulate
        from solver.sweeps import warm
        warm.loaded.wait(120)
        simulate(load(str(examples_dir() / "rod_impact_rigid.json")))
        return 0
    client.run(load)


def sweep_warm(model: dict, runs: int, workers: int):
    """The timing (:class:`SweepTiming`) of the sweep on a warm cluster of ``workers`` processes, and its rows."""
    with sweep_client(workers=workers) as client, tempfile.TemporaryDirectory() as folder:
        _warm(client)
        outcome = run_sweep(model, sweep_spec(runs), folder, scheduler=client.scheduler.address)
        return outcome.timing, read_rows(folder)


def sweep_cold(model: dict, runs: int, workers: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run_sweep(model, sweep_spec(runs), folder, workers=workers)
        return time.perf_counter() - started


def report(model: dict, runs: int, repeat: int) -> list[dict]:
    """Print the figures of the sweep of ``runs`` runs; its rows on one worker."""
    warm, cold, rows = {}, {}, []
    for workers in (1, 2):
        timed = [sweep_warm(model, runs, workers) for _ in range(repeat)]
        warm[workers] = min((t for t, _r in timed), key=lambda t: t.wall_s)
        rows = rows or timed[0][1]
        cold[workers] = min(sweep_cold(model, runs, workers) for _ in range(repeat))
    print(f"rod mu_s x e sweep, {runs} runs (best of {repeat})")
    print(f"{'workers':>8} {'warm (s)':>9} {'runs/s':>7} {'overhead/run (ms)':>18} {'cold (s)':>9} {'runs/s':>7}")
    for w in (1, 2):
        t = warm[w]
        print(f"{w:>8} {t.wall_s:>9.3f} {runs / t.wall_s:>7.1f} {t.overhead_per_run_s * 1e3:>18.1f} "
              f"{cold[w]:>9.3f} {runs / cold[w]:>7.1f}")
    print(f"runs/s of 2 workers over 1: warm {warm[1].wall_s / warm[2].wall_s:.2f}x, cold {cold[1] / cold[2]:.2f}x; "
          f"one warm worker: {warm[1].solve_s / runs * 1e3:.1f} ms solving, "
          f"{warm[1].overhead_per_run_s * 1e3:.1f} ms beyond it per run")
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case; the fastest is shown")
    parser.add_argument("--runs", type=int, nargs="+", choices=sorted(GRIDS), default=[16, 200],
                        help="the sweeps' run counts")
    parser.add_argument("--no-map", action="store_true", help="skip the impact-type map")
    args = parser.parse_args(argv)
    model = load_model(examples_dir() / "rod_impact_rigid.json")
    with open("/proc/loadavg") as f:
        print(f"load average (1, 5, 15 min): {' '.join(f.read().split()[:3])}")
    for runs in args.runs:
        rows = report(model, runs, args.repeat)
    per_run = sorted(r["wall_time_s"] for r in rows)
    median = per_run[len(per_run) // 2]
    print(f"one run on a worker: median {median * 1e3:.1f} ms, {100 / median:.0f} steps/s (100 steps), "
          f"{median / 100 * 1e6:.0f} µs/step")
    if not args.no_map:
        rod = instant_at_start(model, "B-ground")
        for cells in (100, 400):
            best = min(_timed_map(rod, cells) for _ in range(args.repeat))
            print(f"impact-type map {cells} x {cells}: {best * 1e3:.1f} ms "
                  f"({cells * cells / best / 1e6:.2f} M cells/s)")
    return 0


def _timed_map(rod, cells: int) -> float:
    started = time.perf_counter()
    impact_map(rod, Axis("mu_s", 0.0, 1.2, cells), Axis("angle", -80.0, 80.0, cells))
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
