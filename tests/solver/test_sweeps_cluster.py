"""Sweeps on dask.distributed: a LocalCluster started for the sweep, an existing
scheduler, failures recorded, reruns skipping what is done, cancel — and the 10 x 10
μs x e sweep of the rigid rod against Routh's closed form (LAJSS 2024 §5-6)."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.analysis.contact_instant import instant_at_start
from solver.contact.routh import routh_impulse
from solver.model.io import examples_dir, load_model
from solver.results.files import load_results
from solver.sweeps import Parameter, SweepSpec, read_rows, run_sweep

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


def six_with_one_failing():
    """e from 0.3 to 0.8 side by side with max_iterations, which is 1 (Newton cannot
    converge) in the fourth run."""
    return SweepSpec((Parameter("contacts[B-ground].e", (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)),
                      Parameter("solver.max_iterations", (25, 25, 25, 1, 25, 25))),
                     design="zip", collect=("final(node/A/vx)", "energy.total.max_abs_drift_J"), keep_results=True)


def test_a_two_worker_sweep_records_five_completed_and_one_failed_then_runs_nothing_new(rod, tmp_path):
    seen = []
    outcome = run_sweep(rod, six_with_one_failing(), tmp_path, workers=2, progress=seen.append)
    assert (outcome.completed, outcome.failed, outcome.skipped, outcome.cancelled) == (5, 1, 0, False)
    assert [p.done for p in seen] == [1, 2, 3, 4, 5, 6] and seen[-1].total == 6
    rows = read_rows(tmp_path)
    assert [r["status"] for r in rows] == ["completed"] * 3 + ["failed"] + ["completed"] * 2
    failed = rows[3]
    assert failed["solver.max_iterations"] == 1
    assert failed["message"].startswith("stopped at t = 0 s: Newton did not converge with a step of")
    assert "after 1 iterations" in failed["message"]
    done = rows[0]
    assert done["contacts[B-ground].e"] == 0.3 and done["contact.B-ground.first_type"] == "SCS"
    assert done["wall_time_s"] > 0 and done["steps"] == 100
    assert done["final(node/A/vx)"] == pytest.approx(load_results(tmp_path / done["results"]).frames[-1].node_v[1, 0])
    assert done["dissipated_friction_J"] == pytest.approx(0.038769, abs=1e-6)     # W_te of Table 1
    assert (tmp_path / "sweep.csv").read_text().count("\n") == 7                    # header + 6 runs
    # the second invocation finds every run in the table: nothing new runs (no cluster starts)
    again = run_sweep(rod, six_with_one_failing(), tmp_path, workers=2)
    assert (again.completed, again.failed, again.skipped) == (0, 0, 6)
    assert read_rows(tmp_path) == rows


def test_a_cancelled_sweep_keeps_its_finished_runs_and_a_rerun_does_the_rest(rod, tmp_path):
    spec = SweepSpec((Parameter("contacts[B-ground].e", low=0.1, high=0.9, count=5),))
    stop = []
    outcome = run_sweep(rod, spec, tmp_path, workers=1, progress=stop.append, cancel=lambda: bool(stop))
    assert outcome.cancelled
    kept = len(read_rows(tmp_path))
    assert 1 <= kept < 5
    rest = run_sweep(rod, spec, tmp_path, workers=1)
    assert (rest.completed, rest.skipped) == (5 - kept, kept)
    assert [r["contacts[B-ground].e"] for r in read_rows(tmp_path)] == pytest.approx([0.1, 0.3, 0.5, 0.7, 0.9])


def test_a_folder_holding_another_models_sweep_is_refused(rod, tmp_path):
    spec = SweepSpec((Parameter("contacts[B-ground].e", (0.5,)),))
    (tmp_path / "sweep.json").write_text(json.dumps({"format": "flexmech-sweep", "version": 1, "model": {"name": "x"},
                                                     "spec": {"parameters": [{"path": "a", "values": [1]}]}}))
    with pytest.raises(Exception, match="holds a sweep of another model"):
        run_sweep(rod, spec, tmp_path, workers=1)


@pytest.fixture
def scheduler(tmp_path):
    """A dask scheduler and one worker started as separate processes (the cluster case)."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    info = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not info.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        procs.append(subprocess.Popen([str(bin_dir / "dask"), "worker", "--scheduler-file", str(info),
                                       "--nworkers", "1", "--nthreads", "1", "--no-dashboard"], cwd=ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        yield json.loads(info.read_text())["address"]
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def test_a_sweep_runs_on_a_scheduler_started_separately(rod, scheduler, tmp_path, monkeypatch):
    spec = SweepSpec((Parameter("contacts[B-ground].mu_s", (0.75, 0.9)), Parameter("contacts[B-ground].e", (0.5, 1.0))))
    outcome = run_sweep(rod, spec, tmp_path, scheduler=scheduler)
    assert (outcome.completed, outcome.failed) == (4, 0)
    assert {r["status"] for r in read_rows(tmp_path)} == {"completed"}
    monkeypatch.setattr("solver.sweeps.cluster.CONNECT_TIMEOUT_S", 1)
    with pytest.raises(Exception, match="scheduler tcp://127.0.0.1:1: cannot connect"):
        run_sweep(rod, SweepSpec((Parameter("contacts[B-ground].e", (0.2,)),)), tmp_path / "b",
                  scheduler="tcp://127.0.0.1:1")


def test_the_rigid_rod_swept_over_mu_s_and_e_matches_the_closed_form_in_every_cell(rod, tmp_path):
    """10 x 10 cells, μs from 0.4 to 0.85 (μc = 0.6 between) and e from 0 to 1, with μD =
    0.4 and the rod sliding in at v_t = 1 m/s: slip throughout (S) for e < 0.24, else the
    slip stops in restitution and sticks (SRS) or reverses (SRD).  Every run's impulse
    has the type and the impulses of routh_impulse with the system's D."""
    fixed = (("contacts[B-ground].mu_d", 0.4), ("initial_velocities[0].vx", 1.0))
    spec = SweepSpec((Parameter("contacts[B-ground].mu_s", low=0.4, high=0.85, count=10),
                      Parameter("contacts[B-ground].e", low=0.0, high=1.0, count=10)), fixed=fixed)
    outcome = run_sweep(rod, spec, tmp_path, workers=2)
    assert (outcome.completed, outcome.failed) == (100, 0)
    base = json.loads(json.dumps(rod))
    base["contacts"][0]["mu_d"], base["initial_velocities"][0]["vx"] = 0.4, 1.0
    at = instant_at_start(base, "B-ground")
    D = [[at.a, at.c], [at.c, at.b]]
    kinds = set()
    for row in read_rows(tmp_path):
        mu_s, e = row["contacts[B-ground].mu_s"], row["contacts[B-ground].e"]
        closed = routh_impulse(D, -1.0, 1.0, mu_s, 0.4, e, "energetic")
        assert row["contact.B-ground.impulses"] >= 1
        assert row["contact.B-ground.first_type"] == closed.kind, (mu_s, e)
        assert row["contact.B-ground.first_I_n_N_s"] == pytest.approx(closed.I_n, rel=1e-9)
        assert row["contact.B-ground.first_I_t_N_s"] == pytest.approx(closed.I_t, rel=1e-9, abs=1e-12)
        kinds.add(closed.kind)
    assert kinds == {"S", "SRS", "SRD"}
