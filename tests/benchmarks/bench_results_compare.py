"""Writing results, this tree against another (``main``) in the same minutes: solve and write
times of every shipped example, each code in a process of its own.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_results_compare /work/main [EXAMPLE ...] [slider_crank_16 ...]

The other tree is run with its own ``.venv/bin/python`` (this file runs there as a worker,
importing that tree's packages).  For each run the two processes
solve it in turn (up to three times each for a solve under 1.5 s; the median of all, since the
solver is the same), then write its results into a new folder seven times each (three for
``slider_crank_16``), alternating which writes first; the medians of wall and CPU time are
printed against the solve's, with the folder's size and file count.  ``slider_crank_16`` is
``bench_results``'s (16 rod elements, a frame at every step); ``slider_crank_16_compact`` the
same with ``stations=0.5 rates=no precision=single``.  On a shared machine the CPU ratio is the
steadier figure: a loaded machine stretches the solve's wall time more than a short write's.
"""
from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOAL_RATIO = 0.20
COMPACT = ["stations=0.5", "rates=no", "precision=single"]


def worker() -> None:
    """Serve ``solve NAME`` and ``write`` requests on stdin, one JSON answer a line."""
    sys.path.insert(0, str(Path.cwd()))
    from app.shell.cli_results import record_edit
    from solver.api import simulate
    from solver.model.io import examples_dir, load_model
    from solver.results.files import write_results
    from tests.benchmarks.bench_results import slider_crank_16

    tmp = Path(tempfile.mkdtemp())
    write_results(simulate(load_model(examples_dir() / "slider_crank_flexible.json")), tmp / "warm-up")
    print(json.dumps({"ready": True}), flush=True)
    results = None
    for line in sys.stdin:
        command, name = line.split()
        if command == "solve":
            model = slider_crank_16() if name.startswith("slider_crank_16") else load_model(examples_dir() / f"{name}.json")
            if name == "slider_crank_16_compact":
                record_edit(COMPACT)(model)
            results = None
            wall, cpu = time.perf_counter(), time.process_time()
            results = simulate(model)
            answer = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "frames": len(results.frames)}
        else:
            folder = tmp / "run"
            wall, cpu = time.perf_counter(), time.process_time()
            write_results(results, folder)
            answer = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "mb": sum(p.stat().st_size for p in folder.iterdir()) / 1e6, "files": len(list(folder.iterdir()))}
            shutil.rmtree(folder)
        print(json.dumps(answer), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str]) -> None:
    other, names = Path(argv[0]), argv[1:] or sorted(p.stem for p in (ROOT / "resources" / "examples").glob("*.json"))
    codes = {"main": other, "branch": ROOT}
    # each worker runs this file in its own tree, whose packages it imports (its cwd first on the path)
    workers = {code: subprocess.Popen([str(tree / ".venv" / "bin" / "python"), __file__, "--worker"], cwd=tree,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for code, tree in codes.items()}
    for process in workers.values():
        process.stdout.readline()

    def ask(code: str, request: str) -> dict:
        workers[code].stdin.write(request + "\n")
        workers[code].stdin.flush()
        return json.loads(workers[code].stdout.readline())

    def ratio(value: float) -> str:
        return f"{value:.1%}" + (" (> 20 %)" if value > GOAL_RATIO else "")

    print("| run | frames | solve s (CPU s) | write s main → branch | ratio main → branch | "
          "CPU ratio main → branch | MB main → branch | files |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        solves = []
        for k in range(3):
            solves += [ask(code, f"solve {name}") for code in codes]
            if solves[0]["wall"] > 1.5:
                break
        wall, cpu = statistics.median(s["wall"] for s in solves), statistics.median(s["cpu"] for s in solves)
        writes: dict[str, list[dict]] = {code: [] for code in codes}
        for k in range(3 if name.startswith("slider_crank_16") else 7):
            for code in (codes if k % 2 == 0 else reversed(list(codes))):
                writes[code].append(ask(code, f"write {name}"))
        w = {code: (statistics.median(x["wall"] for x in v), statistics.median(x["cpu"] for x in v), v[0]["mb"],
                    v[0]["files"]) for code, v in writes.items()}
        print(f"| {name} | {solves[0]['frames']} | {wall:.3f} ({cpu:.3f}) | {w['main'][0]:.4f} → {w['branch'][0]:.4f} | "
              f"{ratio(w['main'][0] / wall)} → {ratio(w['branch'][0] / wall)} | {ratio(w['main'][1] / cpu)} → "
              f"{ratio(w['branch'][1] / cpu)} | {w['main'][2]:.2f} → {w['branch'][2]:.2f} | "
              f"{w['main'][3]} → {w['branch'][3]} |", flush=True)
    for process in workers.values():
        process.stdin.close()
        process.wait()


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main(sys.argv[1:])
