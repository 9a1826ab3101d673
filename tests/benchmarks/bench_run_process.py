"""``flexmech run`` of the clearance examples against the scipy script, as processes, CPU and
wall time (issue 28: run within 1.5x of the script); ``--phases``: where one run's CPU goes.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_run_process.py [--runs 6] [--baseline DIR] [NAMES...]
    python tests/benchmarks/bench_run_process.py --phases [--runs 3] [--baseline DIR] [NAME]

Each figure comes from a fresh process, after one unmeasured run of each kind, the kinds in turn
(the script, the baseline checkout's ``python -m app.shell.cli run EXAMPLE --out DIR --quiet``,
this checkout's); medians of the wall time and of the CPU time (user + system) of the process,
byte code written and read (in a folder of its own, as ``bench_startup.py``).  On a shared
machine the CPU times and their ratios are the steadier figures.

``--phases`` runs the command in a child that stamps the wall time, the process's and the main
thread's CPU at the phases of a run (the model read, the kernels' loading started, ``simulate``
called, its first frame, the results' finish, the end) and prints the median of each phase.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_startup import CHILD_ENV, ROOT, _children_cpu, interleaved

NAMES = ("lankarani_nikravesh", "hertz", "friction_010")
SCRIPT = ROOT / "tests" / "benchmarks" / "scipy_clearance_slider_crank.py"

#: one run of ``flexmech run EXAMPLE --out DIR --quiet`` with its phases stamped (functions
#: wrapped as their modules are imported: the run imports them as it goes); prints JSON
PHASES = r"""
import builtins, json, sys, time
clock = lambda: (time.perf_counter(), time.process_time(), time.thread_time())
stamps, start = {}, clock()
WRAPPED = {"app.shell.cli": ["_load_reporting"], "solver.integration.preload": ["load_kernels_ahead"],
           "solver.api": ["refuse_invalid"], "solver.results.streaming": ["ResultsStream._open", "ResultsStream.finish"]}

def wrap(module, qualname):
    owner, name = module, qualname
    if "." in qualname:
        owner_name, name = qualname.split(".")
        owner = getattr(module, owner_name)
    function = getattr(owner, name)
    def stamped(*args, **kwargs):
        stamps.setdefault("> " + qualname, clock())
        try:
            return function(*args, **kwargs)
        finally:
            stamps.setdefault("< " + qualname, clock())
    setattr(owner, name, stamped)

importing = builtins.__import__
def watching(*args, **kwargs):
    module = importing(*args, **kwargs)
    for name in [n for n in WRAPPED if n in sys.modules]:
        if all(hasattr(sys.modules[name], q.split(".")[0]) for q in WRAPPED[name]):
            for qualname in WRAPPED.pop(name):
                wrap(sys.modules[name], qualname)
    return module
builtins.__import__ = watching
from app.shell import cli
stamps["cli imported"] = clock()
code = cli.main(["run", sys.argv[1], "--out", sys.argv[2], "--quiet"])
stamps["end"] = clock()
print(json.dumps({k: [v[i] - start[i] for i in range(3)] for k, v in stamps.items()}))
"""
PHASE_SPANS = (("Python, site, import app.shell.cli", None, "cli imported"),
               ("the model read and validated", "> _load_reporting", "< _load_reporting"),
               ("numba, scipy, the kernels' modules (load_kernels_ahead)", "< _load_reporting", "< load_kernels_ahead"),
               ("solver.api, the results writer, the bar", "< load_kernels_ahead", "> refuse_invalid"),
               ("the model validated by simulate", "> refuse_invalid", "< refuse_invalid"),
               ("set-up to the first frame", "< refuse_invalid", "> ResultsStream._open"),
               ("steps and frames", "< ResultsStream._open", "> ResultsStream.finish"),
               ("the results' finish", "> ResultsStream.finish", "< ResultsStream.finish"),
               ("the files renamed into place, the end", "< ResultsStream.finish", "end"),
               ("total", None, "end"))


def example(name: str) -> Path:
    return ROOT / "resources" / "examples" / f"slider_crank_clearance_{name}.json"


def timed(command: list[str], root: Path) -> tuple[float, float]:
    """Wall and CPU time (s) of ``command`` run in ``root``."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=root, env=CHILD_ENV, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0, _children_cpu() - cpu0


def compare(names: list[str], roots: list[Path], runs: int, out: Path) -> None:
    """Each example: the script, then each checkout's ``flexmech run``, in turn."""
    for name in names:
        kinds = {"script": ([sys.executable, str(SCRIPT), str(example(name))], ROOT)}
        kinds.update({str(root): ([sys.executable, "-m", "app.shell.cli", "run", str(example(name)), "--out",
                                   str(out / name), "--quiet"], root) for root in roots})
        figures = interleaved(list(kinds), runs, lambda kind: timed(*kinds[kind]))
        medians = {kind: (statistics.median(f[0] for f in v), statistics.median(f[1] for f in v))
                   for kind, v in figures.items()}
        wall, cpu = medians["script"]
        print(f"{name}: script wall {wall:.3f} s, CPU {cpu:.3f} s")
        for kind in roots:
            w, c = medians[str(kind)]
            print(f"  {kind}: wall {w:.3f} s, CPU {c:.3f} s; / script: wall {w / wall:.2f}, CPU **{c / cpu:.2f}**")


def phases(name: str, roots: list[Path], runs: int, out: Path) -> None:
    """The median wall time, process CPU and main-thread CPU of each phase of a run, per checkout."""
    def stamped(root: Path) -> dict:
        done = subprocess.run([sys.executable, "-c", PHASES, str(example(name)), str(out / name)], cwd=root,
                              env=CHILD_ENV, check=True, capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    figures = interleaved(roots, runs, stamped)
    print(f"{name}, ms: wall / process CPU / main thread CPU")
    for label, begin, end in PHASE_SPANS:
        cells = []
        for root in roots:
            spans = [[s[end][i] - (s[begin][i] if begin else 0.0) for i in range(3)] for s in figures[root]]
            cells.append(" / ".join(f"{1e3 * statistics.median(v[i] for v in spans):.0f}" for i in range(3)))
        print(f"  {label:58s} " + "   ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(NAMES), help=f"examples (default: {' '.join(NAMES)})")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout measured too, in turn")
    parser.add_argument("--phases", action="store_true", help="where the CPU of one run of the first example goes")
    args = parser.parse_args()
    roots = ([args.baseline.resolve()] if args.baseline else []) + [ROOT]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; medians of {args.runs} runs; "
          f"checkouts in turn: {', '.join(map(str, roots))}")
    with tempfile.TemporaryDirectory() as tmp:
        CHILD_ENV.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        if args.phases:
            phases(args.names[0], roots, args.runs, Path(tmp))
        else:
            compare(args.names, roots, args.runs, Path(tmp))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
