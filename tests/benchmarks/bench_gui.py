"""GUI benchmark: event-loop stalls during a run, cancel latency, playback frame rate.

Run on demand (not part of the test suite), offscreen unless a display is chosen::

    python tests/benchmarks/bench_gui.py            # all three
    python tests/benchmarks/bench_gui.py --quick    # fewer cancels, one playback pass

Figures (issue 6, goals in brackets):

* **stalls**: a 1 ms timer in the GUI thread records the gaps between its ticks while
  :class:`~app.running.controller.RunController` runs the flexible slider-crank with 64 rod
  elements in its worker thread; the worst gap and the 99th percentile (< 50 ms), for
  a first run started as the controller is made (its kernels still loading in the
  background: one stall of some 50-80 ms) and for later runs;
* **cancel latency**: wall time from ``cancel()`` to ``run_ended`` for cancels at
  random moments of a long run, mean and worst (< 0.5 s);
* **playback**: frames per second of :meth:`~app.playback.layer.PlaybackLayer.show_frame`
  plus a real paint of the canvas (``viewport().repaint()``) over every frame of a
  200-element slider-crank, plain and with strain colours, 100× exaggeration and a
  trace, and that again through the playback controller with Follow on (the view
  re-centred whenever the mechanism nears its edge) (>= 60 fps); beside the frames per
  second of wall time, the frames per second of the process's CPU time (steadier on a
  machine shared with other work);
* **big-model playback** (``--only big``): the same three passes over a 2000-element
  cantilever released under gravity (:func:`tests.benchmarks.bench_scale.cantilever`, 0.1 s
  at 50 µs, a frame every 0.5 ms), whose link is drawn decimated (at most
  :data:`~app.playback.decimation.MAX_POINTS` points, within half a pixel) (>= 30 fps);
  ``--elements N`` chooses the mesh.  Under a virtual X display::

      xvfb-run -a -s "-screen 0 1280x800x24" env QT_QPA_PLATFORM=xcb python tests/benchmarks/bench_gui.py --only big
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from solver.api import load_model, simulate  # noqa: E402
from solver.model.io import examples_dir  # noqa: E402

STALL_GOAL_MS, CANCEL_GOAL_S, FPS_GOAL, BIG_FPS_GOAL = 50.0, 0.5, 60.0, 30.0


def slider_crank(elements: int, end_factor: float = 1.0) -> dict:
    """The flexible slider-crank example with ``elements`` rod elements, its end time scaled."""
    doc = load_model(examples_dir() / "slider_crank_flexible.json")
    doc["links"][1]["mesh"]["elements"] = elements
    doc["solver"]["end_time"] *= end_factor
    return doc


class GapMeter:
    """A 1 ms timer in the GUI thread that records the wall time between its ticks, ms."""

    def __init__(self):
        self.gaps: list[float] = []
        #: when each gap ended, s since start()
        self.at: list[float] = []
        self._last = self._start = 0.0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps.clear()
        self.at.clear()
        self._last = self._start = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(1e3 * (now - self._last))
        self.at.append(now - self._start)
        self._last = now


def wait_for_end(controller, timeout_s: float = 600.0) -> None:
    """Run the event loop until ``controller``'s run ends and its thread is done with."""
    loop = QEventLoop()
    controller.run_ended.connect(loop.quit)
    QTimer.singleShot(int(1e3 * timeout_s), loop.quit)
    if controller.running:
        loop.exec()
    controller.run_ended.disconnect(loop.quit)
    settle(controller)


def settle(controller) -> None:
    """Wait for the run's thread and deliver its queued ``finished``, so that the
    controller lets go of the thread before the next run starts (a pending
    ``finished`` of the previous thread would otherwise clear the next run's)."""
    controller.wait()
    QApplication.processEvents()


def bench_stalls(elements: int = 64) -> None:
    from app.running.controller import RunController
    from app.running.worker import warm_up

    controller = RunController()
    warm_up()  # the kernels load in a thread, as just after the window opened (app/shell/gui.py)
    print(f"stalls, slider-crank {elements} elements, gaps of a 1 ms timer in the GUI thread:")
    measure_stalls(controller, elements, "first run at once (kernels still loading)")
    for _ in range(2):
        measure_stalls(controller, elements, "later run")


def measure_stalls(controller, elements: int, label: str) -> None:
    model = slider_crank(elements)
    meter = GapMeter()
    marks = {}
    controller.run_ended.connect(lambda _r: marks.setdefault("ended", time.perf_counter()))
    meter.start()
    t0 = time.perf_counter()
    controller.start(model)
    wait_for_end(controller)
    meter.stop()
    controller.run_ended.disconnect()
    gaps = np.array(meter.gaps)
    worst, p99 = float(gaps.max()), float(np.percentile(gaps, 99))
    worst_at = sorted(zip(meter.gaps, meter.at), reverse=True)[:3]
    print(f"  {label}: {len(controller.frames)} frames, run {marks['ended'] - t0:.2f} s, {len(gaps)} ticks; "
          f"worst gap {worst:.1f} ms, 99th percentile {p99:.1f} ms, median {np.median(gaps):.2f} ms "
          f"(goal < {STALL_GOAL_MS:.0f} ms: {'met' if worst < STALL_GOAL_MS else 'NOT met'}); "
          "largest ending at " + ", ".join(f"{at:.2f} s" for _g, at in worst_at))


def bench_cancel(cancels: int, seed: int = 6) -> None:
    from app.running.controller import RunController

    rng = random.Random(seed)
    controller = RunController()
    latencies = []
    for _ in range(cancels):
        controller.start(slider_crank(64, end_factor=200.0))  # minutes of solving: always cancelled
        cancelled_at = []

        def cancel() -> None:
            cancelled_at.append(time.perf_counter())
            controller.cancel()

        QTimer.singleShot(int(rng.uniform(200, 2000)), cancel)
        loop = QEventLoop()
        ended_at = []
        controller.run_ended.connect(lambda _r: (ended_at.append(time.perf_counter()), loop.quit()))
        loop.exec()
        controller.run_ended.disconnect()
        settle(controller)
        latencies.append(ended_at[0] - cancelled_at[0])
    lat = np.array(latencies)
    print(f"cancel latency over {cancels} cancels at random moments (0.2-2 s into a 64-element run):")
    print(f"  mean {lat.mean():.3f} s, worst {lat.max():.3f} s "
          f"(goal < {CANCEL_GOAL_S} s: {'met' if lat.max() < CANCEL_GOAL_S else 'NOT met'})")


def bench_playback(elements: int = 200, passes: int = 2) -> None:
    model = slider_crank(elements)
    playback_fps(model, f"slider-crank {elements} elements", model["links"][1]["nodes"][0], FPS_GOAL, passes)


def bench_big_playback(elements: int = 2000, passes: int = 2) -> None:
    from tests.benchmarks.bench_scale import cantilever

    model = cantilever(elements, end_time=0.1, output=5e-4)
    playback_fps(model, f"cantilever {elements} elements", "tip", BIG_FPS_GOAL, passes)


def playback_fps(model: dict, label: str, traced: str, goal: float, passes: int) -> None:
    """Frames per second of drawing and painting every frame of a run of ``model``: plain,
    with strain colours, ×100 and a trace of node ``traced``, and that through the
    playback controller with Follow on."""
    import app.shell.recovery
    from app.shell.main_window import MainWindow

    folder = Path(tempfile.mkdtemp(prefix="flexmech-bench-"))
    app.shell.recovery.recovery_dir = lambda: folder / "recovery"
    t0 = time.perf_counter()
    results = simulate(model)
    print(f"playback, {label}: {len(results.frames)} frames (solved in {time.perf_counter() - t0:.1f} s)")
    window = MainWindow(QSettings(str(folder / "window.ini"), QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()
    QApplication.processEvents()
    window.document.replace(model, None)
    sim = window.simulation
    sim.show_run(results)  # as File > Open Results plays a finished run
    window.sketch.zoom_to_fit()
    QApplication.processEvents()
    frames = results.frames
    viewport = window.sketch.viewport()

    def fps(what: str, show) -> None:
        best = best_cpu = 0.0
        for _ in range(passes):
            t0, c0 = time.perf_counter(), time.process_time()
            for i, frame in enumerate(frames):
                show(i, frame)
                viewport.repaint()
            best = max(best, len(frames) / (time.perf_counter() - t0))
            best_cpu = max(best_cpu, len(frames) / (time.process_time() - c0))
        drawn = sum(len(lines) for _pen, lines in sim.layer.flexible.segments())
        print(f"  {what}: {best:.0f} frames/s ({best_cpu:.0f} per CPU second), {drawn} segments drawn "
              f"(goal >= {goal:.0f}: {'met' if best >= goal else 'NOT met'})")

    def layer_only(i, frame):
        sim.layer.show_frame(frame, i, frames)

    fps("plain", layer_only)
    sim.layer.set_strain_mode("combined")
    sim.layer.set_exaggeration(100.0)
    sim.layer.set_traced([traced])
    fps("strain colours, ×100, one trace", layer_only)
    sim.bar.follow_action.setChecked(True)
    fps("the same, following the mechanism",
        lambda i, _frame: sim.playback.set_index(i))
    window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer cancels, one playback pass")
    parser.add_argument("--only", choices=("stalls", "cancel", "playback", "big"), help="one figure only")
    parser.add_argument("--elements", type=int, default=2000, help="elements of the big-model playback")
    args = parser.parse_args()
    qapp = QApplication.instance() or QApplication(sys.argv)
    qapp.setOrganizationName("FlexmechBench")
    qapp.setApplicationName("FlexmechBench")
    print(f"platform {qapp.platformName()}, {os.cpu_count()} cores")
    if args.only in (None, "stalls"):
        bench_stalls()
    if args.only in (None, "cancel"):
        bench_cancel(3 if args.quick else 8)
    if args.only in (None, "playback"):
        bench_playback(passes=1 if args.quick else 2)
    if args.only in (None, "big"):
        bench_big_playback(args.elements, passes=1 if args.quick else 2)


if __name__ == "__main__":
    main()
