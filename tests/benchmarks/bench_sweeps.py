"""Sweep and impact-map benchmark.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_sweeps.py            # 1 and 2 workers, best of 3
    python tests/benchmarks/bench_sweeps.py --repeat 1

The sweep is the done-when case of issue 16: the rigid rod of LAJSS 2024 §6 over
μs × e, 10 × 10 runs (μD = 0.4, v_t = 1 m/s; see ``tests/solver/test_sweeps_cluster.py``),
on a ``LocalCluster`` of 1 and of 2 single-threaded worker processes.  Two figures:

* **runs**: the sweep on a cluster started and warmed up beforehand (each worker has
  loaded the solver and its compiled kernels), from the first task submitted to the
  table written — what the workers add;
* **total**: ``run_sweep`` as a user calls it, starting and stopping its own cluster.

Then the time per run on one worker (``wall_time_s`` of the table) and the impact-type
map of the same rod at 100 × 100 and 400 × 400 cells.
"""
from __future__ import annotations

import argparse
import logging
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

SPEC = SweepSpec((Parameter("contacts[B-ground].mu_s", low=0.4, high=0.85, count=10),
                  Parameter("contacts[B-ground].e", low=0.0, high=1.0, count=10)),
                 fixed=(("contacts[B-ground].mu_d", 0.4), ("initial_velocities[0].vx", 1.0)))


def _warm(client) -> None:
    """Load the solver and its compiled kernels in every worker."""
    def load() -> int:
        from solver.api import load_model as load, simulate
        simulate(load(str(examples_dir() / "rod_impact_rigid.json")))
        return 0
    client.run(load)


def sweep_runs(model: dict, workers: int) -> tuple[float, list[dict]]:
    """Seconds of the sweep on a warm cluster of ``workers`` processes, and its rows."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        _warm(client)
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            run_sweep(model, SPEC, folder, scheduler=cluster.scheduler_address)
            elapsed = time.perf_counter() - started
            return elapsed, read_rows(folder)


def sweep_total(model: dict, workers: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run_sweep(model, SPEC, folder, workers=workers)
        return time.perf_counter() - started


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case; the fastest is shown")
    args = parser.parse_args(argv)
    model = load_model(examples_dir() / "rod_impact_rigid.json")
    runs, totals, rows = {}, {}, {}
    for workers in (1, 2):
        timed = [sweep_runs(model, workers) for _ in range(args.repeat)]
        runs[workers] = min(t for t, _r in timed)
        rows[workers] = timed[0][1]
        totals[workers] = min(sweep_total(model, workers) for _ in range(args.repeat))
    count = len(rows[1])
    per_run = sorted(r["wall_time_s"] for r in rows[1])
    print(f"rod mu_s x e sweep, {count} runs (best of {args.repeat})")
    print(f"{'workers':>8} {'runs (s)':>10} {'runs/s':>8} {'total (s)':>10}")
    for workers in (1, 2):
        print(f"{workers:>8} {runs[workers]:>10.3f} {count / runs[workers]:>8.1f} {totals[workers]:>10.3f}")
    print(f"speed-up with 2 workers: runs {runs[1] / runs[2]:.2f}x, total {totals[1] / totals[2]:.2f}x")
    print(f"one run on a worker: median {per_run[len(per_run) // 2] * 1e3:.1f} ms, "
          f"{100 / (per_run[len(per_run) // 2] * 1e3) * 1e3:.0f} steps/s (100 steps), "
          f"{per_run[len(per_run) // 2] / 100 * 1e6:.0f} µs/step")
    rod = instant_at_start(model, "B-ground")
    for cells in (100, 400):
        best = min(_timed_map(rod, cells) for _ in range(args.repeat))
        print(f"impact-type map {cells} x {cells}: {best * 1e3:.1f} ms ({cells * cells / best / 1e6:.2f} M cells/s)")
    return 0


def _timed_map(rod, cells: int) -> float:
    started = time.perf_counter()
    impact_map(rod, Axis("mu_s", 0.0, 1.2, cells), Axis("angle", -80.0, 80.0, cells))
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
