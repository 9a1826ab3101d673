"""Sweeps that start warm and batch small runs (issue 28 item 3): runs grouped into tasks
give the table of one run per task, progress once per run, cancel and resume as before, a
failure failing only its row; the workers load the solver's kernels as they start."""
import json

import pytest

from solver.model.io import examples_dir, load_model
from solver.sweeps import Parameter, SweepSpec, read_rows, run_sweep
from solver.sweeps.cluster import sweep_client
from solver.sweeps.engine import BATCHES_PER_WORKER, MAX_BATCH, batch_size


@pytest.fixture(scope="module")
def rod():
    return load_model(examples_dir() / "rod_impact_rigid.json")


@pytest.fixture(scope="module")
def cluster():
    """A local cluster of one worker for the module's sweeps (and its client)."""
    with sweep_client(workers=1) as client:
        yield client


def six_with_one_failing():
    """e from 0.3 to 0.8 side by side with max_iterations, 1 (Newton cannot converge) in the fourth run."""
    return SweepSpec((Parameter("contacts[B-ground].e", (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)),
                      Parameter("solver.max_iterations", (25, 25, 25, 1, 25, 25))), design="zip",
                     collect=("final(node/A/vx)",))


def batches_of(monkeypatch, size: int) -> None:
    monkeypatch.setattr("solver.sweeps.engine.batch_size", lambda runs, workers: size)


def without_times(rows):
    return [{k: v for k, v in row.items() if k != "wall_time_s"} for row in rows]


def test_the_batch_size_gives_each_worker_four_batches_of_at_most_eight_runs():
    assert (BATCHES_PER_WORKER, MAX_BATCH) == (4, 8)
    assert [batch_size(runs, 2) for runs in (1, 7, 16, 24, 64, 200)] == [1, 1, 2, 3, 8, 8]
    assert batch_size(16, 1) == 4 and batch_size(5, 0) == 1


def test_batches_give_the_table_of_one_run_per_task_and_a_failure_fails_only_its_row(rod, cluster, tmp_path,
                                                                                      monkeypatch):
    address = cluster.scheduler.address
    batches_of(monkeypatch, 1)
    single = run_sweep(rod, six_with_one_failing(), tmp_path / "single", scheduler=address)
    batches_of(monkeypatch, 4)                    # batches of runs 1-4 (the failing one among them) and 5-6
    seen = []
    batched = run_sweep(rod, six_with_one_failing(), tmp_path / "batched", scheduler=address, progress=seen.append)
    assert (batched.completed, batched.failed) == (single.completed, single.failed) == (5, 1)
    rows = read_rows(tmp_path / "batched")
    assert without_times(rows) == without_times(read_rows(tmp_path / "single"))
    assert [r["status"] for r in rows] == ["completed"] * 3 + ["failed"] + ["completed"] * 2
    assert all(r["wall_time_s"] > 0 for r in rows)
    # progress once per run, each run's own row
    assert [p.done for p in seen] == [1, 2, 3, 4, 5, 6] and {p.total for p in seen} == {6}
    assert sorted(p.row["run"] for p in seen) == sorted(r["run"] for r in rows)


def test_a_sweep_cancelled_amid_batches_keeps_the_finished_rows_and_a_rerun_does_the_rest(rod, cluster, tmp_path,
                                                                                          monkeypatch):
    spec = SweepSpec((Parameter("contacts[B-ground].e", low=0.1, high=0.9, count=9),))
    batches_of(monkeypatch, 2)
    seen = []
    outcome = run_sweep(rod, spec, tmp_path, scheduler=cluster.scheduler.address, progress=seen.append,
                        cancel=lambda: bool(seen))
    assert outcome.cancelled
    kept = read_rows(tmp_path)
    assert 1 <= len(kept) < 9 and {r["run"] for r in kept} == {p.row["run"] for p in seen}
    rest = run_sweep(rod, spec, tmp_path, scheduler=cluster.scheduler.address)
    assert (rest.completed, rest.skipped) == (9 - len(kept), len(kept))
    assert [r["contacts[B-ground].e"] for r in read_rows(tmp_path)] == pytest.approx([0.1 * k for k in range(1, 10)])


def test_the_workers_load_the_solvers_kernels_as_they_start(cluster):
    def warm_state(dask_worker):
        from solver.integration.preload import first_kernels
        from solver.sweeps import warm

        return (sorted(dask_worker.plugins), warm.loaded.wait(60),
                all(kernel.signatures for kernel in first_kernels()))

    (plugins, loaded, first_loaded), = cluster.run(warm_state).values()
    assert "flexmech-warm-kernels" in plugins and loaded and first_loaded


def test_a_sweep_reports_its_overhead_per_run_beyond_its_solve(rod, cluster, tmp_path):
    outcome = run_sweep(rod, SweepSpec((Parameter("contacts[B-ground].e", (0.2, 0.6)),)), tmp_path,
                        scheduler=cluster.scheduler.address)
    t = outcome.timing
    assert (t.workers, t.runs) == (1, 2)
    assert t.solve_s == pytest.approx(sum(r["wall_time_s"] for r in read_rows(tmp_path)))
    assert t.overhead_per_run_s == pytest.approx((t.wall_s - t.solve_s) / 2)
    assert json.loads((tmp_path / "sweep.json").read_text())["timing"]["runs"] == 2


def test_sweeps_on_a_kept_cluster_share_its_workers_until_it_is_closed(rod, tmp_path):
    from solver.sweeps.cluster import KeptCluster

    kept = KeptCluster()
    try:
        spec = SweepSpec((Parameter("contacts[B-ground].e", (0.2, 0.6)),))
        first = run_sweep(rod, spec, tmp_path / "a", workers=1, kept=kept)
        address = kept.address(1)
        second = run_sweep(rod, spec, tmp_path / "b", workers=1, kept=kept)
        assert (first.completed, second.completed) == (2, 2) and kept.address(1) == address
    finally:
        kept.close()
    assert not kept.running
