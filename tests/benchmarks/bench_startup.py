"""Benchmark of the start: ``flexmech run slider_crank_flexible --out DIR`` end to end, its
parts, and the GUI's time from launch to a painted window.

Run on demand (not part of the test suite)::

    python tests/benchmarks/bench_startup.py               # 7 runs of each, medians
    python tests/benchmarks/bench_startup.py --runs 3 --no-gui

Every figure comes from a fresh process, after one unmeasured run of each kind that fills
numba's cache, Python's byte code and the disk cache (so: warm disk cache, compiled
kernels on disk; see :data:`CHILD_ENV`).  With
``--baseline DIR`` another checkout (a worktree of ``main``, say) is measured too, its runs
interleaved with these, so that both see the same load on a shared machine.  Wall and
CPU (user + system, of the process and its threads) times are medians.  Goals (issue 17):
the command end to end <= 1.0 s, the window painted <= 1.5 s after launch.

* **run, end to end**: the real command in a child process (progress bar to a pipe);
* **parts**, of one instrumented run in a child process: imports (everything
  ``flexmech run`` imports before it reads the model), kernel loads (the first call of each
  compiled kernel: numba loading its machine code from the cache; also the count of
  kernels that missed the cache and were compiled, which must be 0), solve (the rest of
  ``simulate``: compile, initial state, steps, frames), write (``write_results``);
* **GUI**: from starting ``flexmech`` (no arguments: the window on the default example)
  to the first paint of its main window, by an event filter the child installs on the
  application (it then exits at once); under ``xvfb-run`` when there is no ``DISPLAY``.
  Also the time to the end of the kernels' warm-up in the background.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "slider_crank_flexible"
RUN_GOAL_S, GUI_GOAL_S = 1.0, 1.5
#: the children's environment: Python's byte code written and read again (in a folder of
#: its own, so no checkout is written in), as in a user's Python, even where this shell
#: says PYTHONDONTWRITEBYTECODE (compiling the project's sources at every start costs 0.2 s)
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

#: one instrumented headless run, printing its parts as JSON
PARTS = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from app.shell import cli
from solver import api
from solver.results.files import write_results
from numba.core.dispatcher import Dispatcher
t1, c1 = time.perf_counter(), time.process_time()
loads = {"wall": 0.0, "cpu": 0.0, "count": 0, "misses": 0}
first_call = Dispatcher._compile_for_args
def timed(self, *args, **kwargs):
    w, c = time.perf_counter(), time.process_time()
    try:
        return first_call(self, *args, **kwargs)
    finally:
        loads["wall"] += time.perf_counter() - w
        loads["cpu"] += time.process_time() - c
        loads["count"] += 1
        loads["misses"] += sum(self.stats.cache_misses.values())
Dispatcher._compile_for_args = timed
model = api.load_model(cli._resolve(sys.argv[1]))
results = api.simulate(model)
t2, c2 = time.perf_counter(), time.process_time()
write_results(results, sys.argv[2])
t3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({"imports": [t1 - t0, c1 - c0], "kernels": [loads["wall"], loads["cpu"]],
                  "solve": [t2 - t1 - loads["wall"], c2 - c1 - loads["cpu"]], "write": [t3 - t2, c3 - c2],
                  "kernel_count": loads["count"], "kernel_misses": loads["misses"]}))
"""

#: the GUI as ``flexmech`` starts it, reporting the first paint of its main window
GUI = r"""
import json, os, sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
import app.shell.gui as gui
from app.running import worker

start = float(os.environ["BENCH_T0"])
painted = []

def report_when_warm():
    thread = worker._warm_up_thread
    if thread is None or thread.is_alive():
        QTimer.singleShot(5, report_when_warm)
        return
    print(json.dumps({"painted": painted[0], "warmed": time.time() - start}), flush=True)
    os._exit(0)

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if not painted and event.type() == QEvent.Type.Paint and obj.isWidgetType() and obj.window() is window[0]:
            painted.append(time.time() - start)
            QTimer.singleShot(0, report_when_warm)
        return False

window = []
probe = FirstPaint()

class Probed(gui.MainWindow):
    def __init__(self, *args, **kwargs):
        QApplication.instance().installEventFilter(probe)
        super().__init__(*args, **kwargs)
        window.append(self)

gui.MainWindow = Probed
from app.shell.cli import main
sys.exit(main([]))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(root: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU time (s) of ``flexmech run EXAMPLE --out out`` in a child process, with
    the code of the checkout ``root``."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "app.shell.cli", "run", EXAMPLE, "--out", str(out)],
                   cwd=root, env=CHILD_ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, _children_cpu() - cpu0


def run_parts(root: Path, out: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", PARTS, EXAMPLE, str(out)], cwd=root, env=CHILD_ENV, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_gui(root: Path, env: dict) -> dict:
    env = dict(env, BENCH_T0=repr(time.time()))
    done = subprocess.run([sys.executable, "-c", GUI], cwd=root, env=env, check=True,
                          capture_output=True, text=True, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def x_display(env: dict):
    """``env``'s DISPLAY, else a virtual one (Xvfb, 1280x800x24) for the duration, so that
    the X server's start is not part of the GUI's time."""
    if env.get("DISPLAY"):
        yield
        return
    if not shutil.which("Xvfb"):
        sys.exit("no DISPLAY and no Xvfb: apt-get install xvfb (or run with --no-gui)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as number:
        env["DISPLAY"] = ":" + number.readline().strip()
    try:
        yield
    finally:
        server.terminate()
        server.wait(timeout=30)


def _median(values: list[float]) -> float:
    return statistics.median(values)


def interleaved(roots: list[Path], runs: int, measure) -> dict[Path, list]:
    """``measure(root)`` for every checkout in turn, ``runs`` times, after one unmeasured round."""
    for root in roots:
        measure(root)
    figures: dict[Path, list] = {root: [] for root in roots}
    for _ in range(runs):
        for root in roots:
            figures[root].append(measure(root))
    return figures


def report(root: Path, runs: list, parts: list[dict], gui: list[dict] | None) -> None:
    print(f"{root}:")
    wall, cpu = _median([r[0] for r in runs]), _median([r[1] for r in runs])
    print(f"  flexmech run {EXAMPLE} --out DIR: wall {wall:.3f} s (goal {RUN_GOAL_S} s), CPU {cpu:.3f} s"
          f"   [each: {', '.join(f'{r[0]:.2f}' for r in runs)}]")
    total_wall = total_cpu = 0.0
    for name in ("imports", "kernels", "solve", "write"):
        w, c = _median([p[name][0] for p in parts]), _median([p[name][1] for p in parts])
        total_wall, total_cpu = total_wall + w, total_cpu + c
        print(f"    {name:8s} wall {w:.3f} s  CPU {c:.3f} s")
    print(f"    {'sum':8s} wall {total_wall:.3f} s  CPU {total_cpu:.3f} s   "
          f"({parts[0]['kernel_count']} kernels loaded, {max(p['kernel_misses'] for p in parts)} missed the cache)")
    if gui:
        painted = [g["painted"] for g in gui]
        print(f"  GUI: window painted {_median(painted):.3f} s after launch (goal {GUI_GOAL_S} s),"
              f" kernels warmed {_median([g['warmed'] for g in gui]):.3f} s"
              f"   [each: {', '.join(f'{p:.2f}' for p in painted)}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-gui", action="store_true")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout (e.g. a worktree of main) measured too, its runs interleaved with these")
    args = parser.parse_args()
    roots = ([args.baseline.resolve()] if args.baseline else []) + [ROOT]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; medians of {args.runs} runs")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results"
        CHILD_ENV.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        runs = interleaved(roots, args.runs, lambda root: run_command(root, out))
        parts = interleaved(roots, args.runs, lambda root: run_parts(root, out))
        gui = {root: None for root in roots}
        if not args.no_gui:
            env = dict(CHILD_ENV, XDG_CONFIG_HOME=str(Path(tmp) / "config"), HOME=tmp)
            env.pop("QT_QPA_PLATFORM", None)
            with x_display(env):
                gui = interleaved(roots, args.runs, lambda root: run_gui(root, env))
    for root in roots:
        report(root, runs[root], parts[root], gui[root])
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
