"""Flexmech against the scipy script a researcher would write (``scipy_clearance_slider_crank.py``):
every shipped rigid clearance slider-crank example (Flores et al. 2006, Figs. 11-12), two
revolutions, measured in the same run (issue 28, point 1).

    python -m tests.benchmarks.bench_clearance [--repeat 3] [--cpu] [--baseline DIR] [NAMES...]

Prints, per example: the script's wall time (in this process, after a warm-up), Flexmech's warm
``simulate`` (the example as shipped: a frame at every step), their ratio; ``flexmech run FILE
--out DIR`` as a process against the script as a process (imports included), their ratio; steps
and time per step of both; then the statistics of both runs (peak, rms and p99 of the crank
moment, impacts, largest contact force) and their difference.  The flexible-rod example is not
in it: the script's mechanism is rigid.  With ``--baseline DIR`` (another checkout, a copy of
``main`` say) its ``flexmech run`` is timed too, the processes of both and the script's taking
turns, so that all three see the same load.  With ``--cpu``, only the CPU time
(``time.process_time()``) of the script and of a warm ``simulate`` in this process, alternately,
fastest of ``--repeat`` each, and their ratio: on a shared machine steadier than the wall times.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from solver.api import simulate
from solver.model.io import examples_dir, load_model

from tests.benchmarks import scipy_clearance_slider_crank as script
from tests.benchmarks.bench_startup import CHILD_ENV
from tests.benchmarks.clearance_ensemble import moment_statistics

NAMES = ("lankarani_nikravesh", "hertz", "dubowsky_freudenstein", "goldsmith", "esdu78035", "friction_001",
         "friction_003", "friction_005", "friction_010")
BIN = Path(sys.executable).parent


def fastest(call, repeat: int) -> tuple[float, object]:
    """Fastest wall time of ``repeat`` calls of ``call`` and its last result."""
    best, result = math.inf, None
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - started)
    return best, result


def process_times(commands: list[tuple[list[str], str]], repeat: int) -> list[float]:
    """Fastest wall time of each ``(command, checkout)`` run as a process with the checkout's code,
    after one unmeasured run each, the commands taking turns ``repeat`` times; byte code written and
    read as in a user's Python (:data:`~tests.benchmarks.bench_startup.CHILD_ENV`: under
    ``PYTHONDONTWRITEBYTECODE`` a checkout without byte code would compile Flexmech's 120 modules at
    every run, 0.2-0.4 s, and the script's one file)."""
    best = [math.inf] * len(commands)
    for turn in range(repeat + 1):
        for i, (command, root) in enumerate(commands):
            started = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=root, env={**CHILD_ENV, "PYTHONPATH": root})
            if turn:
                best[i] = min(best[i], time.perf_counter() - started)
    return best


def statistics_of_script(run: dict) -> dict[str, float]:
    return {**moment_statistics(run["time"], run["moment"]), "impacts": run["impacts"], "F_max_kN": run["F_max_N"] / 1e3}


def statistics_of_flexmech(res) -> dict[str, float]:
    contact = res.meta["compliant_contacts"]["B-clearance"]
    return {**moment_statistics(res.time, res.stack("driver_reaction")[:, 0]), "impacts": contact["impacts"],
            "F_max_kN": contact["max_force_N"] / 1e3}


def measure(name: str, repeat: int, out: Path, baseline: str | None = None) -> tuple[list[str], list[str]]:
    """The timing row and the statistics rows of the example ``name`` (with the ``flexmech run``
    of the checkout ``baseline``, if given)."""
    path = examples_dir() / f"slider_crank_clearance_{name}.json"
    model = load_model(path)
    with open(path) as f:
        clearance = script.Clearance.of_example(json.load(f))
    t_script, run = fastest(lambda: script.simulate(clearance), repeat)
    t_flex, res = fastest(lambda: simulate(model), repeat)
    command = [str(BIN / "flexmech"), "run", str(path), "--out", str(out / name), "--quiet"]
    p_flex, p_script, *p_base = process_times([(command, os.getcwd()), ([sys.executable, script.__file__, str(path)],
                                                                        os.getcwd()),
                                               *([(command, baseline)] if baseline else [])], repeat)
    steps = res.meta["steps"]
    timing = (f"| {name} | {t_script:.3f} | {t_flex:.3f} | **{t_flex / t_script:.2f}** | {p_script:.3f} | {p_flex:.3f} | "
              f"**{p_flex / p_script:.2f}** | {run['steps']} / {steps} | {1e6 * t_script / run['steps']:.0f} / "
              f"{1e6 * t_flex / steps:.0f} |" + "".join(f" {p:.3f} | **{p / p_script:.2f}** |" for p in p_base))
    ours, theirs = statistics_of_flexmech(res), statistics_of_script(run)
    stats = [f"| {name} | {key} | {theirs[key]:.4g} | {ours[key]:.4g} | {100 * (ours[key] / theirs[key] - 1):+.1f} % |"
             for key in ours]
    return [timing], stats


def cpu_ratio(name: str, repeat: int) -> str:
    """The row of ``--cpu``: the script's and a warm ``simulate``'s CPU time (s), fastest of ``repeat``
    each, taken alternately, and their ratio."""
    path = examples_dir() / f"slider_crank_clearance_{name}.json"
    model = load_model(path)
    with open(path) as f:
        clearance = script.Clearance.of_example(json.load(f))
    best = [math.inf, math.inf]
    for _ in range(repeat):
        for i, call in enumerate((lambda: script.simulate(clearance), lambda: simulate(model))):
            started = time.process_time()
            call()
            best[i] = min(best[i], time.process_time() - started)
    return f"| {name} | {best[0]:.3f} | {best[1]:.3f} | **{best[1] / best[0]:.2f}** |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(NAMES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu", action="store_true", help="CPU time of the script and of simulate only")
    parser.add_argument("--baseline", metavar="DIR", help="another checkout whose `flexmech run` is timed too")
    args = parser.parse_args(argv)
    warm = load_model(examples_dir() / "slider_crank_clearance_lankarani_nikravesh.json")
    warm["solver"]["end_time"] /= 20
    simulate(warm)  # loads the compiled kernels
    if args.cpu:
        print("| example | script CPU (s) | simulate CPU (s) | simulate / script |\n|---|---|---|---|")
        for name in args.names:
            print(cpu_ratio(name, args.repeat), flush=True)
        return 0
    timing, stats = [], []
    with tempfile.TemporaryDirectory() as tmp:
        CHILD_ENV.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))  # no byte code written into the checkouts
        for name in args.names:
            baseline = args.baseline and str(Path(args.baseline).resolve())
            rows, stat_rows = measure(name, args.repeat, Path(tmp), baseline)
            print(rows[0], flush=True)
            timing += rows
            stats += stat_rows
    print("\n| example | script (s) | simulate (s) | simulate / script | script process (s) | `flexmech run` (s) "
          "| run / script | steps script / Flexmech | µs per step script / Flexmech |"
          + (" baseline run (s) | baseline run / script |" if args.baseline else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if args.baseline else ""))
    print("\n".join(timing))
    print("\n| example | statistic | script | Flexmech | difference |")
    print("|---|---|---|---|---|")
    print("\n".join(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
