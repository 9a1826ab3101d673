"""Benchmark of the set-up: a finely meshed pinned pendulum from the model to its first step.

A 1 m steel rod (d = 12.7 mm) pinned at one end, under gravity, meshed with 500 to 5000
elements, is given an angular velocity of 2 rad/s about its centre
(``initial_velocities``); the default consistent initial velocity turns that into the
rotation about the pin (:func:`solver.system.initial.rigid_velocity_correction`), so the
correction is not trivial.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_setup                 # 500, 1000, 2000, 5000 elements
    python -m tests.benchmarks.bench_setup 5000 10000      # chosen element counts

Each case runs in a fresh process (after a warm-up process that fills the compiled
kernels' cache) and prints the wall time from importing the solver to the end of the first
step (and the CPU time it took), the process's peak resident memory (with that of the
imports alone), then the parts of a second run in the same process, once imports and
kernels are loaded: compiling the model, the set-up up to the initial state (the first
frame: compile, assembly, consistent velocity and accelerations) and the first step.  The issue's goal (issue 18): 5000 elements
start their first step in under 10 s with peak memory under 1 GB.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

GOAL_S, GOAL_MB = 10.0, 1024.0
COUNTS = [500, 1000, 2000, 5000]


def pendulum(elements: int, omega: float = 2.0) -> dict:
    """The pinned rod with ``elements`` elements, spinning at ``omega`` (rad/s) about its centre."""
    return {
        "format": "flexmech", "version": 1, "name": f"pinned rod, {elements} elements",
        "nodes": [{"id": "O", "x": 0.0, "y": 0.0}, {"id": "tip", "x": 1.0, "y": 0.0}],
        "materials": [{"id": "steel", "E": 2.1e11, "density": 7850.0}],
        "links": [{"id": "rod", "kind": "flexible", "nodes": ["O", "tip"],
                   "section": {"kind": "circle", "material": "steel", "d": 0.0127},
                   "mesh": {"kind": "uniform", "elements": elements}}],
        "joints": [{"id": "pin", "kind": "ground", "node": "O"}],
        "gravity": {"x": 0.0, "y": -9.81},
        "initial_velocities": [{"link": "rod", "omega": omega}],
        "solver": {"end_time": 2e-6, "step": 1e-6, "output_interval": 1e-6},
    }


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _cpu_s() -> float:
    """CPU time of this process so far (less sensitive than wall time to a busy machine)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _first_step(doc: dict) -> tuple[float, float]:
    """Wall times to the initial state (the first frame) and of the first step."""
    from solver.api import iter_simulation

    t0 = time.perf_counter()
    frames = iter_simulation(doc)
    first = next(frames)
    t1 = time.perf_counter()
    second = next(frames)
    assert first.time == 0.0 and second.time > 0.0
    return t1 - t0, time.perf_counter() - t1


def one_case(elements: int) -> dict:
    """In this (fresh) process: the wall time from importing the solver to the end of the first
    step and the peak memory, then the parts of a second, warm run."""
    t0, cpu0 = time.perf_counter(), _cpu_s()
    from solver.system.compile import compile_model

    imports_mb = _peak_mb()
    doc = pendulum(elements)
    setup, step = _first_step(doc)
    cold, cpu, peak = time.perf_counter() - t0, _cpu_s() - cpu0, _peak_mb()
    t0 = time.perf_counter()
    dofs = compile_model(doc).n
    compiled = time.perf_counter() - t0
    setup, step = _first_step(doc)
    return {"elements": elements, "dofs": dofs, "cold_s": cold, "cold_cpu_s": cpu, "peak_mb": peak,
            "imports_mb": imports_mb, "compile_s": compiled, "setup_s": setup, "first_step_s": step}


def measure(elements: int) -> dict:
    """:func:`one_case` in a fresh process."""
    out = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_setup", "--one", str(elements)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        print(json.dumps(one_case(int(argv[1]))))
        return 0
    counts = [int(a) for a in argv] or COUNTS
    measure(10)  # warm-up: the compiled kernels' cache
    print("| elements | dofs | fresh process: to the end of the first step, wall (s) | CPU (s) | peak memory (MB) "
          "| of which imports (MB) | warm: compile (s) | set-up to the initial state (s) | first step (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in counts:
        r = measure(n)
        print(f"| {n} | {r['dofs']} | {r['cold_s']:.2f} | {r['cold_cpu_s']:.2f} | {r['peak_mb']:.0f} | "
              f"{r['imports_mb']:.0f} | {r['compile_s']:.2f} | {r['setup_s']:.2f} | {r['first_step_s']:.2f} |", flush=True)
    print(f"\ngoal for 5000 elements: under {GOAL_S:.0f} s and {GOAL_MB:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
