"""Benchmark of the memory a big run's results take: a 2000-element flexible cantilever
released under gravity, recorded for 10 000 output frames.

Run on demand (not part of the test suite)::

    python -m tests.benchmarks.bench_results_memory [FRAMES] [--full | --record KEY=VALUE ...] [--gui]

A 1 m steel rod (d = 12.7 mm) clamped at one end, 2000 elements, released from the straight
position under gravity, steps of 0.1 ms, a frame at every step.  Three fresh processes,
each printing its peak resident memory (``ru_maxrss``): ``flexmech run --out`` (the solve
and the write), :func:`solver.results.files.load_results` of the folder, and the GUI's
File > Open Results of it (offscreen).  The default record is ``stations=none rates=no
precision=single`` (positions and angles of every node in 32-bit floats); ``--full`` records
everything (the model's defaults: 5 stations, rates, double precision; 4.7 GB of frames,
written to the folder as the run goes and read back on demand).  The goal (issue 17): peak
memory under 1 GB.  ``--gui`` measures instead a run started in the window (offscreen): the
model opened, Run pressed, the run waited for and its first frames played, in one process.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_setup import pendulum

ELEMENTS, FRAMES, STEP = 2000, 10_000, 1e-4
DEFAULT_RECORD = ["stations=none", "rates=no", "precision=single"]
GOAL_MB = 1024.0
#: frames played after opening the folder in the GUI
PLAYED = 600


def cantilever(elements: int = ELEMENTS, frames: int = FRAMES) -> dict:
    """The rod of :func:`~tests.benchmarks.bench_setup.pendulum`, clamped at ``O`` and at rest,
    run for ``frames`` steps with a frame at each."""
    model = pendulum(elements)
    model.pop("initial_velocities")
    model.update(name=f"cantilever, {elements} elements", joints=[{"id": "clamp", "kind": "fixed", "node": "O"}])
    model["solver"] = {"end_time": frames * STEP, "step": STEP, "output_interval": 0.0}
    return model


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _child(what: str, path: str, specs: list[str]) -> None:
    """In a fresh process: run (path: model), load or open (path: results folder); print the peak."""
    started = time.perf_counter()
    if what == "run":
        from app.shell.cli import main

        code = main(["run", path, "--out", path + ".out", "--quiet", *(a for s in specs for a in ("--record", s))])
        assert code == 0, code
    elif what == "load":
        from solver.results.files import load_results

        assert load_results(path).frames
    elif what == "gui":
        print(json.dumps({"what": what, **_gui_run(path, specs, started)}))
        return
    else:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        from app.shell.main_window import MainWindow

        app = QApplication.instance() or QApplication([])
        window = MainWindow()
        window.show()
        assert window.results_ui.open_results(path)
        app.processEvents()
        opened = {"what": what, "peak_MB": _peak_mb(), "wall_s": time.perf_counter() - started}
        print(json.dumps({**opened, **_play(window)}))
        return
    print(json.dumps({"what": what, "peak_MB": _peak_mb(), "wall_s": time.perf_counter() - started}))


def _gui_run(path: str, specs: list[str], started: float) -> dict:
    """In a fresh process: the window opens the model, runs it (Run, as F5) and waits for the
    end; the peak memory, the run's wall time, and playing its first frames (:func:`_play`).
    The window's scratch folder (where it has one) is beside the model."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.shell.cli_results import record_edit
    from app.shell.main_window import MainWindow
    from solver.model.io import load_model

    try:  # where runs write their frames (before this work the window kept them in memory)
        import app.running.scratch as scratch

        scratch.scratch_root = lambda: Path(path + ".scratch")
    except ImportError:
        pass
    for kind in ("critical", "warning", "information"):  # a box would wait for a click: say it and go on
        setattr(QMessageBox, kind, lambda _parent, title, text, *a, **k: print(f"{title}: {text}", file=sys.stderr))
    qt = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.show()
    window.document.replace(load_model(path, record_edit(specs)), None)
    runs = window.simulation.runs
    ran = time.perf_counter()
    assert window.simulation.run(), "the window did not start the run"
    while runs.running:
        qt.processEvents()
        time.sleep(0.01)
    runs.wait()
    qt.processEvents()  # the run's end reaches the window
    return {"state": runs.state, "frames": len(runs.results.frames), "peak_MB": _peak_mb(),
            "run_s": time.perf_counter() - ran, "wall_s": time.perf_counter() - started,
            "frames_kind": type(runs.results.frames).__name__, **_play(window)}


def _play(window, frames: int = PLAYED) -> dict:
    """Frames per second (wall) of playing the opened folder's first ``frames`` frames through the
    playback controller with strain colours and Follow on, each drawn and painted; the peak after."""
    sim = window.simulation
    sim.layer.set_strain_mode("combined")
    sim.bar.follow_action.setChecked(True)
    viewport = window.sketch.viewport()
    count = min(frames, sim.playback.count)
    started = time.perf_counter()
    for i in range(count):
        sim.playback.set_index(i)
        viewport.repaint()
    return {"played": count, "fps": count / (time.perf_counter() - started), "peak_after_play_MB": _peak_mb()}


def main(argv: list[str]) -> None:
    specs = [] if "--full" in argv else [argv[i + 1] for i, a in enumerate(argv) if a == "--record"] or DEFAULT_RECORD
    counts = [int(a) for i, a in enumerate(argv) if a.isdigit() and (i == 0 or argv[i - 1] != "--record")]
    frames = counts[0] if counts else FRAMES
    print(f"cantilever: {ELEMENTS} elements, {frames} frames, record: {' '.join(specs) or 'full'}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "cantilever.json"
        model.write_text(json.dumps(cantilever(frames=frames)), encoding="utf-8")
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        steps = ([("gui", str(model))] if "--gui" in argv else
                 [("run", str(model)), ("load", f"{model}.out"), ("open", f"{model}.out")])
        for what, path in steps:
            done = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_results_memory", "--child", what, path,
                                   *specs], capture_output=True, text=True, env=env, check=True)
            result = json.loads(done.stdout.strip().splitlines()[-1])
            if what == "run":
                size = sum(p.stat().st_size for p in Path(path + ".out").iterdir()) / 1e6
                print(f"folder: {size:.1f} MB")
            flag = "" if result["peak_MB"] < GOAL_MB else "  > 1 GB"
            print(f"{what:<5} peak {result['peak_MB']:7.0f} MB  wall {result['wall_s']:7.1f} s{flag}", flush=True)
            if what == "gui":
                print(f"      {result['state']}, {result['frames']} frames ({result['frames_kind']}), "
                      f"run {result['run_s']:.1f} s", flush=True)
            if "fps" in result:
                print(f"      played {result['played']} frames (strain colours, Follow): {result['fps']:.0f} frames/s, "
                      f"peak after {result['peak_after_play_MB']:.0f} MB", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        main(sys.argv[1:])
