"""Killing ``flexmech run`` (SIGKILL) at random moments of 20 writes into an existing
results folder leaves the old run, the new run, or a folder ``load_results`` refuses --
never a mix it accepts (issue 18).  The harness is ``tests/solver/kill_writes.py``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.api import simulate
from solver.results.files import ResultsFormatError, load_results, write_results
from tests.solver.builders import beam_model

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
SEED = 18


def _models(folder: Path) -> list[Path]:
    """Three clamped beams of 30 elements whose runs differ in length (600 frames or so:
    megabytes to write, little to solve)."""
    paths = []
    for k in range(3):
        model = beam_model(n=30, solver={"end_time": 0.6 + 0.05 * k, "step": 1e-3})
        model["name"] = f"run {k}"
        path = folder / f"run{k}.json"
        path.write_text(json.dumps(model), encoding="utf-8")
        paths.append(path)
    return paths


def _recorded_files(model_path: Path, folder: Path) -> dict:
    """What summary.json records of every file of the model's run written whole."""
    write_results(simulate(json.loads(model_path.read_text(encoding="utf-8"))), folder)
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))["files"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks flexmech run")
def test_a_killed_write_leaves_the_old_run_the_new_run_or_a_refused_folder(tmp_path):
    models = _models(tmp_path)
    whole = [_recorded_files(path, tmp_path / "whole" / str(k)) for k, path in enumerate(models)]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "tests.solver.kill_writes", str(tmp_path / "out"), str(snapshots), str(SEED),
         str(KILLS), *map(str, models)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True,
    )
    lines = [line.split() for line in done.stdout.splitlines()]
    assert len(lines) == KILLS, done.stderr

    outcomes = []
    accepted = whole[0]  # the old run: the first model, written whole
    for k, m, _delay, _status in lines:
        snapshot = snapshots / k
        try:
            load_results(snapshot)
        except ResultsFormatError as exc:
            assert str(snapshot) in str(exc)
            outcomes.append("refused")
            continue
        files = json.loads((snapshot / "summary.json").read_text(encoding="utf-8"))["files"]
        new = whole[int(m)]
        assert files in (accepted, new), f"write {k}: a mix of runs was accepted"
        outcomes.append("new" if files == new else "old")
        accepted = files
    print("outcomes of the killed writes:", {o: outcomes.count(o) for o in ("old", "new", "refused")})
