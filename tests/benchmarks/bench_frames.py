"""Benchmark of a frame at every step (issue 28, item 2): ``flexmech run`` of the 16-element
flexible slider-crank saved at every step against the same run saved once.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_frames.py [--runs 5] [--baseline DIR] [--example NAME]

The model: ``slider_crank_flexible`` with 16 rod elements, 4000 steps a revolution, two
revolutions (8000 steps); "one frame" saves the end only (``output_interval`` = the end
time), "every step" is ``flexmech run --record interval=0`` (8001 frames, the default record:
5 stations, rates, double precision).  Each run is a fresh process writing a new folder, the
two alternating; ``--baseline DIR`` measures another checkout (a worktree of ``main``) too,
interleaved.  Prints, per checkout, the median wall and CPU time (the child's user + system) of
each, their ratio, and the cost of a frame: (every step - one frame) / frames.  The goal: the
every-step run within 1.3 x the one-frame run's wall time.  On a shared machine read the CPU
figures beside the wall ones (the writer thread's work counts in the CPU time; on an idle second
core it leaves the wall time).  ``--example NAME``: a shipped example as it is instead (its
own steps; "one frame" its end only), e.g. a clearance slider-crank: a run with contact pairs.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOAL = 1.3
ELEMENTS, STEPS_PER_REV, REVS = 16, 4000, 2.0
#: the model's file, made in the child (the checkout's own loader and defaults)
MAKE_MODEL = r"""
import math, sys
from solver.model.io import dumps_model, examples_dir, load_model
doc = load_model(examples_dir() / "slider_crank_flexible.json")
rev = 2 * math.pi / 150.0
doc["links"][1]["mesh"]["elements"] = int(sys.argv[1])
doc["solver"].update(step=rev / float(sys.argv[2]), end_time=float(sys.argv[3]) * rev,
                     output_interval=float(sys.argv[3]) * rev)
open(sys.argv[4], "w").write(dumps_model(doc))
"""
#: the file of a shipped example saved once, made in the child
MAKE_EXAMPLE = r"""
import sys
from solver.model.io import dumps_model, examples_dir, load_model
doc = load_model(examples_dir() / (sys.argv[1] + ".json"))
doc["solver"]["output_interval"] = doc["solver"]["end_time"]
open(sys.argv[2], "w").write(dumps_model(doc))
"""


def _env(root: Path) -> dict:
    """The child's environment: the checkout ``root`` first on the path, Python's byte code kept."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(root), QT_QPA_PLATFORM="offscreen")
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(root: Path, model: Path, out: Path, every: bool) -> tuple[float, float]:
    """Wall and CPU time (s) of one ``flexmech run`` with the code of ``root``."""
    record = ["--record", "interval=0"] if every else []
    cpu0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "app.shell.cli", "run", str(model), "--out", str(out), "--quiet", *record],
                   cwd=root, env=_env(root), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, _children_cpu() - cpu0


def frames_of(out: Path) -> int:
    return json.loads((out / "summary.json").read_text())["run"]["frame_count"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each case (the median is reported)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout measured alongside")
    parser.add_argument("--example", metavar="NAME", help="a shipped example instead of the 16-element slider-crank")
    args = parser.parse_args()
    roots = ([args.baseline.resolve()] if args.baseline else []) + [ROOT]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        model = tmp / "model.json"
        make = ([MAKE_EXAMPLE, args.example] if args.example
                else [MAKE_MODEL, str(ELEMENTS), str(STEPS_PER_REV), str(REVS)])
        subprocess.run([sys.executable, "-c", *make, str(model)], cwd=ROOT, env=_env(ROOT), check=True)
        times: dict[tuple[Path, bool], list[tuple[float, float]]] = {(r, e): [] for r in roots for e in (False, True)}
        for root in roots:  # warm-up: numba's caches of each checkout
            for every in (False, True):
                run(root, model, tmp / "warm", every)
        frames = {}
        for k in range(args.runs):
            for root in roots:
                for every in (False, True):
                    out = tmp / f"out-{k}-{roots.index(root)}-{int(every)}"
                    times[(root, every)].append(run(root, model, out, every))
                    frames[every] = frames_of(out)
        what = args.example or f"slider-crank {ELEMENTS} elements, {STEPS_PER_REV} steps/rev, {REVS:g} rev"
        print(f"flexmech run, {what}; median of {args.runs}; load average {os.getloadavg()[0]:.1f}")
        print("| checkout | one frame: wall s (CPU s) | every step: wall s (CPU s) | frames | ratio wall (CPU) "
              "| per frame µs wall (CPU) |")
        print("|---|---|---|---|---|---|")
        for root in roots:
            one = [statistics.median(x) for x in zip(*times[(root, False)])]
            every = [statistics.median(x) for x in zip(*times[(root, True)])]
            per_frame = [1e6 * (e - o) / max(frames[True] - frames[False], 1) for e, o in zip(every, one)]
            ratio = [e / o if o > 0 else math.inf for e, o in zip(every, one)]
            print(f"| {root} | {one[0]:.3f} ({one[1]:.3f}) | {every[0]:.3f} ({every[1]:.3f}) | {frames[True]} "
                  f"| **{ratio[0]:.2f}** ({ratio[1]:.2f}) | {per_frame[0]:.1f} ({per_frame[1]:.1f}) |")
        print(f"goal: every step within {GOAL} x the one-frame run's wall time")


if __name__ == "__main__":
    main()
