"""Benchmark of writing results: the solve time, the write time, their ratio and the folder's size.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_results                    # every shipped example
    python -m tests.benchmarks.bench_results slider_crank_16    # the 16-element slider-crank, every step
    python -m tests.benchmarks.bench_results EXAMPLE ... [--record KEY=VALUE ...]

Each shipped example (``resources/examples/*.json``) runs at its own output interval
after a warm-up run that loads the compiled kernels; ``slider_crank_16`` is
``slider_crank_flexible`` with 16 rod elements, a 2 s end time and a frame at every step
(``output_interval`` 0).  ``--record`` sets what the runs record, as ``flexmech run
--record`` does.  Prints one row per run: solve time (wall, s), write time (wall, s,
:func:`solver.results.files.write_results`), write / solve, folder size (MB) and frames.
The goal (issue 17): writing takes at most 20 % of the solve; the 16-element slider-crank's
folder at most 25 MB.
"""
from __future__ import annotations

import copy
import shutil
import sys
import tempfile
import time
from pathlib import Path

from app.shell.cli_results import record_edit
from solver.api import simulate
from solver.model.io import examples_dir, load_model
from solver.results.files import write_results

GOAL_RATIO, GOAL_MB = 0.20, 25.0
#: writes of each run's results: the median is reported (one write is at the mercy of a busy disk)
WRITES = 3


def slider_crank_16() -> dict:
    """The flexible slider-crank with 16 rod elements over 2 s, a frame at every step."""
    model = copy.deepcopy(load_model(examples_dir() / "slider_crank_flexible.json"))
    for link in model["links"]:
        if link["id"] == "rod":
            link["mesh"] = {"elements": 16}
    model["solver"].update(end_time=2.0, output_interval=0.0)
    return model


def models(names: list[str]) -> dict[str, dict]:
    if not names:
        return {p.stem: load_model(p) for p in sorted(examples_dir().glob("*.json"))}
    return {n: slider_crank_16() if n == "slider_crank_16" else load_model(examples_dir() / f"{n}.json") for n in names}


def measure(model: dict, folder: Path) -> tuple[float, float, float, float, float, int]:
    """(solve s, write s, solve CPU s, write CPU s, folder MB, frames) of one run of ``model``."""
    started, cpu = time.perf_counter(), time.process_time()
    results = simulate(model)
    solved, solved_cpu = time.perf_counter() - started, time.process_time() - cpu
    writes = []
    for _ in range(WRITES):  # a new folder each time
        started, cpu = time.perf_counter(), time.process_time()
        write_results(results, folder)
        writes.append((time.perf_counter() - started, time.process_time() - cpu))
        size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
        shutil.rmtree(folder)
    written, written_cpu = sorted(writes)[len(writes) // 2]
    return solved, written, solved_cpu, written_cpu, size, len(results.frames)


def main(argv: list[str]) -> None:
    specs = [argv[i + 1] for i, a in enumerate(argv) if a == "--record"]
    names = [a for i, a in enumerate(argv) if a != "--record" and (i == 0 or argv[i - 1] != "--record")]
    runs = models(names)
    for model in runs.values():
        record_edit(specs)(model)
    with tempfile.TemporaryDirectory() as tmp:  # warm-up: the compiled kernels, pyarrow's writer
        write_results(simulate(load_model(examples_dir() / "slider_crank_flexible.json")), tmp)
    print(f"record: {' '.join(specs) or 'the models own (defaults)'}")
    print(f"| {'run':<42} | solve s | write s | ratio | CPU ratio | MB | frames |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, model in runs.items():
            solved, written, solved_cpu, written_cpu, size, frames = measure(model, Path(tmp) / name)
            worst = max(worst, written / solved)
            flag = "" if written <= GOAL_RATIO * solved else " (> 20 %)"
            print(f"| {name:<42} | {solved:.3f} | {written:.3f} | {written / solved:.1%}{flag} | "
                  f"{written_cpu / solved_cpu:.1%} | {size:.2f} | {frames} |", flush=True)
    print(f"largest write / solve: {worst:.1%} (goal <= {GOAL_RATIO:.0%})")


if __name__ == "__main__":
    main(sys.argv[1:])
