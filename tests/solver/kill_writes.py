"""Kill ``flexmech run`` at random moments while it writes into an existing results folder.

Run as ``python -m tests.solver.kill_writes FOLDER SNAPSHOTS SEED KILLS MODEL...`` (by
``test_results_kill.py``).  The first model is run to its end in this process (the old
run the others overwrite; it also loads every compiled kernel, so that forked children
start at once), and the time its results take to write is measured.  Then, KILLS times,
``flexmech run MODEL --out FOLDER`` (the models in turn) runs in a forked child; once
the child starts writing (a temporary file or a new ``model.json`` appears) it is sent
SIGKILL after a seeded random delay of 0 to 1.2 write times, and the folder as the kill
left it is copied to ``SNAPSHOTS/<k>`` (k from 1).  Prints one line per kill: its
index, the model's index, the delay (s) and the child's wait status.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import time
from pathlib import Path

from app.shell.cli import main
from solver.api import simulate
from solver.model.io import load_model
from solver.results.files import write_results

POLL_S = 0.002


def _fork_run(model: str, folder: Path) -> int:
    """Fork a child running ``flexmech run model --out folder``; return its pid."""
    pid = os.fork()
    if pid == 0:  # the child: flexmech run, then out without Python's clean-up
        code = 1
        try:
            code = main(["run", model, "--out", str(folder), "--quiet"])
        finally:
            os._exit(code)
    return pid


def _wait_for_writing(pid: int, folder: Path) -> None:
    """Return once the child began to write into ``folder`` (or ended)."""
    before, left = (folder / "model.json").stat().st_mtime_ns, set(os.listdir(folder))
    while os.waitpid(pid, os.WNOHANG)[0] == 0:
        new = set(os.listdir(folder)) - left
        if any(n.endswith(".tmp") for n in new) or (folder / "model.json").stat().st_mtime_ns != before:
            return
        time.sleep(POLL_S)


def kill_writes(folder: Path, snapshots: Path, seed: int, kills: int, models: list[str]) -> None:
    rng = random.Random(seed)
    assert main(["run", models[0], "--out", str(folder), "--quiet"]) == 0
    results = simulate(load_model(models[0]))
    started = time.perf_counter()
    write_results(results, snapshots / "scratch")
    write_time = time.perf_counter() - started
    shutil.rmtree(snapshots / "scratch")
    for k in range(1, kills + 1):
        m = k % len(models)
        delay = rng.uniform(0.0, 1.2) * write_time
        pid = _fork_run(models[m], folder)
        _wait_for_writing(pid, folder)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)  # the child is a zombie at worst until waitpid: never another process
        _, status = os.waitpid(pid, 0)
        print(k, m, round(delay, 3), status, flush=True)
        shutil.copytree(folder, snapshots / str(k))


if __name__ == "__main__":
    kill_writes(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
