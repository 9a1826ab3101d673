"""The run worker: a simulation on its own thread reports frames, progress and results."""
from __future__ import annotations

from app.run_worker import start_run
from solver.model.io import list_examples, load_model

EXAMPLES = {name: path for name, path, _desc in list_examples()}


def run_to_end(qtbot, model: dict):
    """Start a worker on ``model`` and wait for its thread to finish; what it sent."""
    thread, worker = start_run(model)
    sent = {"frames": [], "progress": [], "finished": [], "failed": [], "thread_done": []}
    # collected from the worker's thread (list appends are atomic); checked from the GUI thread
    worker.frame.connect(sent["frames"].append)
    worker.progress.connect(lambda *args: sent["progress"].append(args))
    worker.finished.connect(sent["finished"].append)
    worker.failed.connect(lambda message, partial: sent["failed"].append((message, partial)))
    thread.finished.connect(lambda: sent["thread_done"].append(True))
    thread.start()
    qtbot.waitUntil(lambda: bool(sent["thread_done"]), timeout=120_000)
    return worker, sent


def test_worker_runs_bar_mass_to_completion(qtbot):
    worker, sent = run_to_end(qtbot, load_model(EXAMPLES["bar_mass_impact"]))
    assert sent["failed"] == []
    (results,) = sent["finished"]
    assert results.completed
    assert len(results.frames) == len(worker.frames) > 1
    assert sent["frames"] and sent["frames"][-1].time == results.frames[-1].time
    t, t_end, steps_per_s, _eta = sent["progress"][-1]
    assert t == t_end and steps_per_s > 0
