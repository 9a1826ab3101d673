"""Benchmark of big models: a flexible cantilever released under gravity, 250 to 2000 elements.

A slender steel cantilever (1 m long, 10 mm diameter, E = 210 GPa, ρ = 7850 kg/m³, first
bending frequency 7.2 Hz) is clamped at one end and released straight under gravity;
each mesh runs the same 0.02 s in steps of 50 µs (400 steps; 690 steps per period of
the first mode), recording a frame every 1 ms.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_scale                  # 250, 500, 1000, 2000 elements
    python -m tests.benchmarks.bench_scale 2000 --profile   # cProfile of one mesh
    python -m tests.benchmarks.bench_scale --repeat 1       # one run per mesh
    python -m tests.benchmarks.bench_scale --every-step     # a frame at every step (401 frames)

Each mesh runs in a fresh process (after a warm-up process that fills the compiled
kernels' cache) and prints, for the fastest of ``--repeat`` runs: µs per step of wall and
of CPU time (the CPU time is the steadier figure on a shared machine), Newton iterations
per step, the ratio of the CPU time per step to linear scaling from the first mesh
(``µs/step(n) / (n / n0 · µs/step(n0))``; the issue's goal: at most 1.2 at 2000
elements), the set-up time (model to first frame), and memory: the process's peak
resident memory, what the runs added to it above a warm-up run of a 2-element mesh
(imports and compiled kernels loaded), the bytes of the stored frames (21 here), and the
difference, the run's working memory, also per element (it should stay about constant:
memory linear in the element count).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np

COUNTS = [250, 500, 1000, 2000]
GOAL_RATIO = 1.2
LENGTH, DIAMETER, END_TIME, STEP, OUTPUT = 1.0, 0.01, 0.02, 5e-5, 1e-3


def cantilever(elements: int, end_time: float = END_TIME, output: float = OUTPUT) -> dict:
    """The clamped steel rod with ``elements`` elements, released straight under gravity,
    a frame every ``output`` s."""
    return {
        "format": "flexmech", "version": 1, "name": f"cantilever, {elements} elements",
        "nodes": [{"id": "root", "x": 0.0, "y": 0.0}, {"id": "tip", "x": LENGTH, "y": 0.0}],
        "materials": [{"id": "steel", "E": 2.1e11, "density": 7850.0}],
        "links": [{"id": "rod", "kind": "flexible", "nodes": ["root", "tip"],
                   "section": {"kind": "circle", "material": "steel", "d": DIAMETER},
                   "mesh": {"kind": "uniform", "elements": elements}}],
        "joints": [{"id": "clamp", "kind": "fixed", "node": "root"}],
        "gravity": {"x": 0.0, "y": -9.81},
        "solver": {"end_time": end_time, "step": STEP, "output_interval": output},
    }


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _timed_run(doc: dict) -> tuple[float, float, float, object]:
    """One run of ``doc``: wall time of its set-up (to the first frame), wall and CPU time of
    its steps (from the first frame to the results), s, and the results."""
    from solver.api import iter_simulation
    from solver.results.frames import Results

    t0 = time.perf_counter()
    items = iter_simulation(doc)
    next(items)
    t1, c1 = time.perf_counter(), time.process_time()
    res = next(item for item in items if isinstance(item, Results))
    return t1 - t0, time.perf_counter() - t1, time.process_time() - c1, res


def one_case(elements: int, repeat: int, output: float) -> dict:
    """In this (fresh) process: the fastest of ``repeat`` runs of the ``elements`` mesh,
    after a run of a 2-element mesh that loads the compiled kernels."""
    from solver.api import simulate

    simulate(cantilever(2, end_time=2 * STEP))
    before_mb = _peak_mb()
    doc = cantilever(elements, output=output)
    setup = wall = cpu = float("inf")
    for _ in range(repeat):
        res = None  # the last run's frames go before the next run starts
        s, w, c, res = _timed_run(doc)
        setup, wall, cpu = min(setup, s), min(wall, w), min(cpu, c)
        assert res.meta["status"] == "completed", res.meta
    steps = res.meta["steps"]
    tip = res.frames[-1].node_xy[res.layout.nodes.index("tip")]
    return {"elements": elements, "steps": steps, "setup_s": setup, "wall_us": 1e6 * wall / steps,
            "cpu_us": 1e6 * cpu / steps, "newton": res.meta["newton_iterations_per_step"],
            "peak_mb": _peak_mb(), "run_mb": _peak_mb() - before_mb, "frames_mb": frames_mb(res.frames),
            "tip_y_m": float(tip[1])}


def frames_mb(frames: list) -> float:
    """The bytes of the arrays of ``frames``, MB."""
    return sum(value.nbytes for f in frames for value in vars(f).values()
               if isinstance(value, np.ndarray)) / 2.0 ** 20


def profile(elements: int, output: float) -> None:
    """cProfile of one run of the ``elements`` mesh (after a warm run), top 30 by own time."""
    import cProfile
    import pstats

    from solver.api import simulate

    doc = cantilever(elements, output=output)
    simulate(cantilever(elements, end_time=2 * STEP))
    prof = cProfile.Profile()
    prof.enable()
    simulate(doc)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts", nargs="*", type=int, default=COUNTS, help="element counts")
    ap.add_argument("--repeat", type=int, default=3, help="runs per mesh; the fastest counts")
    ap.add_argument("--profile", action="store_true", help="cProfile the first count instead")
    ap.add_argument("--every-step", action="store_true", help="record a frame at every step")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a case in this process
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one_case(args.one, args.repeat, STEP if args.every_step else OUTPUT)))
        return 0
    if args.profile:
        profile(args.counts[0], STEP if args.every_step else OUTPUT)
        return 0
    cmd = [sys.executable, "-m", "tests.benchmarks.bench_scale"]
    subprocess.run(cmd + ["--one", "2", "--repeat", "1"], check=True, capture_output=True)  # warm-up
    print(f"cantilever {LENGTH} m, d = {DIAMETER * 1e3:.0f} mm, {END_TIME} s at {STEP * 1e6:.0f} µs, a frame every "
          f"{'step' if args.every_step else f'{OUTPUT * 1e3:g} ms'}, fastest of {args.repeat} runs, each mesh in a fresh process")
    print(f"{'elements':>9}{'steps':>7}{'setup s':>9}{'wall us/step':>14}{'CPU us/step':>13}{'Newton it/step':>16}"
          f"{'ratio to linear':>17}{'peak MB':>9}{'run MB':>8}{'frames MB':>11}{'working MB':>12}{'kB/element':>12}")
    base = None
    for n in args.counts:
        out = subprocess.run(cmd + ["--one", str(n), "--repeat", str(args.repeat)]
                             + (["--every-step"] if args.every_step else []),
                             check=True, capture_output=True, text=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        base = base or row
        ratio = row["cpu_us"] / (n / base["elements"] * base["cpu_us"])
        working = row["run_mb"] - row["frames_mb"]
        print(f"{n:>9}{row['steps']:>7}{row['setup_s']:>9.2f}{row['wall_us']:>14.0f}{row['cpu_us']:>13.0f}"
              f"{row['newton']:>16.2f}{ratio:>17.2f}{row['peak_mb']:>9.0f}{row['run_mb']:>8.1f}"
              f"{row['frames_mb']:>11.1f}{working:>12.1f}{1024 * working / n:>12.1f}")
    if len(args.counts) > 1:
        print(f"goal: ratio to linear <= {GOAL_RATIO} at {args.counts[-1]} elements: "
              f"{'met' if ratio <= GOAL_RATIO else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
