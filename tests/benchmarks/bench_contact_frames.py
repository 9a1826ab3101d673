"""Benchmark of a frame at every step of a run with contact pairs (issue 28, item 2): the CPU a
frame costs in a warm ``simulate`` of shipped contact examples.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_contact_frames.py [--repeat 5] [--baseline DIR] [NAMES...]

Each example runs as shipped but saved once (``output_interval`` = the end time) and saved at
every step (``output_interval`` 0), in a fresh process per checkout (the checkout's code first on
the path, a warm-up run first: numba's caches), alternating; the median CPU time
(``time.process_time``) of ``--repeat`` runs of each, in memory (``FrameColumns``).  Prints per
example and checkout: steps, both CPU times and the cost of a frame, (every step - once) /
frames, in µs.  ``--baseline DIR``: another checkout (``git archive`` of the code before)
measured alongside.  On a shared machine the figures move with the load; compare the
checkouts measured in the same minutes.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("slider_crank_clearance_lankarani_nikravesh", "slider_crank_clearance_hertz", "bar_mass_impact_lagrange",
         "rod_floor_flexible", "two_bars_impact")


def measure(name: str, repeat: int) -> dict:
    """CPU times (s) of ``repeat`` warm runs of example ``name`` saved once and at every step."""
    from solver.api import simulate
    from solver.model.io import examples_dir, load_model

    model = load_model(examples_dir() / f"{name}.json")
    once = {**model, "solver": {**model["solver"], "output_interval": model["solver"]["end_time"]}}
    every = {**model, "solver": {**model["solver"], "output_interval": 0.0}}
    times: dict[str, list[float]] = {"once": [], "every": []}
    steps = frames = 0
    for k in range(repeat + 1):  # the first: a warm-up
        for label, doc in (("once", once), ("every", every)):
            started = time.process_time()
            res = simulate(doc)
            if k:
                times[label].append(time.process_time() - started)
            steps, frames = res.meta["steps"], max(frames, len(res.frames))
    return {"steps": steps, "frames": frames, **{k: statistics.median(v) for k, v in times.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", default=NAMES, help="examples (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each case (the median is reported)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout measured alongside")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.names[0], args.repeat)))
        return
    roots = ([args.baseline.resolve()] if args.baseline else []) + [ROOT]
    print(f"warm simulate, CPU s, median of {args.repeat}; load average {os.getloadavg()[0]:.1f}")
    print("| example | checkout | steps | saved once | every step | a frame, µs of CPU |")
    print("|---|---|---|---|---|---|")
    for name in args.names:
        for root in roots:
            env = {**os.environ, "PYTHONPATH": str(root), "QT_QPA_PLATFORM": "offscreen"}
            out = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat), name], cwd=root,
                                 env=env, check=True, capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            per_frame = 1e6 * (r["every"] - r["once"]) / max(r["frames"] - 2, 1)
            print(f"| {name} | {root.name} | {r['steps']} | {r['once']:.3f} | {r['every']:.3f} | {per_frame:.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
