"""What a step of a rigid clearance slider-crank costs, by kind: the steps taken while the pair is
open in compiled runs (:mod:`solver.integration.open_circles`), the open steps the loop takes (the
approaches), the closed steps, and a step of the same mechanism without its clearance joint (an
ideal slider-crank, its steps in compiled runs); then the whole run's CPU per step (issue 28 point 1).

    python -m tests.benchmarks.bench_open_circles [--repeat 3] [NAMES...]

Process CPU time of warm ``simulate`` runs (the examples as shipped: two revolutions, a frame at
every step); the kinds of step are timed by wrappers round ``compiled_run`` and
``_Loop._contact_step`` in a further run, the parts of the compiled runs (their compiled call
with its set-up, the guard and the watch, the frames' columns and contact columns) likewise.
"""
from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

from solver.api import simulate
from solver.integration import compiled_runs, open_steps, time_loop
from solver.model.io import examples_dir, load_model
from solver.results import gathered_frames, outputs


def fastest_cpu(doc: dict, repeat: int) -> tuple[float, object]:
    """Fastest process CPU time (s) of ``repeat`` runs of ``doc`` and the last results."""
    best, res = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        res = simulate(doc)
        best = min(best, time.process_time() - started)
    return best, res


@contextmanager
def timed(owner, name: str, key: str, acc: dict, counted=None):
    """``owner.name`` wrapped to add its CPU time (s) to ``acc[key]`` (and ``counted(result)`` to its count)."""
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        started = time.process_time()
        result = original(*args, **kwargs)
        entry = acc.setdefault(key, [0.0, 0])
        entry[0] += time.process_time() - started
        entry[1] += counted(result) if counted else 0
        return result

    setattr(owner, name, wrapper)
    try:
        yield
    finally:
        setattr(owner, name, original)


def step_kinds(doc: dict) -> dict:
    """CPU (s) and count of the compiled open runs' steps, the loop's open and closed steps, and the
    compiled runs' parts, in one warm run of ``doc``."""
    acc: dict = {}
    step = time_loop._Loop._contact_step

    def contact_step(self, *args):
        key = "loop, pair closed" if self.contacts.closed() else "loop, pair open"
        started = time.process_time()
        result = yield from step(self, *args)
        entry = acc.setdefault(key, [0.0, 0])
        entry[0] += time.process_time() - started
        entry[1] += 1
        return result

    time_loop._Loop._contact_step = contact_step
    try:
        with timed(time_loop, "compiled_run", "compiled open runs", acc, lambda r: r[2]), \
                timed(compiled_runs, "free_run", "  compiled call and its set-up", acc), \
                timed(open_steps.OpenGaps, "checked", "  guard and watch", acc), \
                timed(outputs.OutputBuilder, "frame_block", "  frames' columns", acc), \
                timed(gathered_frames.GatheredFrames, "contact_block", "  frames' contact columns", acc):
            simulate(doc)
    finally:
        time_loop._Loop._contact_step = step
    return acc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=["lankarani_nikravesh", "hertz", "friction_010"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name in args.names:
        doc = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
        ideal = load_model(examples_dir() / f"slider_crank_clearance_{name}.json")
        ideal["joints"] = [j for j in ideal["joints"] if j["kind"] != "clearance"]
        simulate(doc)
        simulate(ideal)
        cpu, res = fastest_cpu(doc, args.repeat)
        cpu_ideal, res_ideal = fastest_cpu(ideal, args.repeat)
        acc = step_kinds(doc)
        run_steps = acc["compiled open runs"][1]
        print(f"{name}: {res.meta['steps']} steps, {1e6 * cpu / res.meta['steps']:.1f} us of CPU a step; "
              f"without the clearance joint {1e6 * cpu_ideal / res_ideal.meta['steps']:.1f} us a step")
        for key, (seconds, count) in acc.items():
            count = count or run_steps  # the compiled runs' parts: per step of the runs
            print(f"  {key:32s} {count:6d} steps {1e6 * seconds / max(count, 1):8.1f} us a step")


if __name__ == "__main__":
    main()
